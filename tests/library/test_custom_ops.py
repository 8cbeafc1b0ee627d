"""torch.library: custom_op, its registrations, Library/define/impl, infer_schema and opcheck,
each against torch (operators live in per-library namespaces, so both can define them)."""

# No ``from __future__ import annotations``: the operators' annotations name local classes.
import itertools
from typing import Optional

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")
_names = itertools.count()


def fresh(prefix: str) -> str:
    """A namespace no earlier test used (registrations are process-wide in both libraries)."""
    return f"{prefix}{next(_names)}"


def sin_op(lib, ns):
    Tensor = lib.Tensor

    @lib.library.custom_op(f"{ns}::numpy_sin", mutates_args=())
    def numpy_sin(x: Tensor) -> Tensor:
        return lib.from_numpy(np.sin(x.detach().numpy()))

    return numpy_sin


@pytest.mark.parametrize("lib", [numtorch, torch], ids=["numtorch", "torch"])
def test_custom_op_records_its_generated_node_and_runs_the_registered_backward(lib):
    ns = fresh("nt_sin")
    op = sin_op(lib, ns)
    op.register_autograd(
        lambda ctx, grad: grad * ctx.saved_tensors[0].cos(),
        setup_context=lambda ctx, inputs, output: ctx.save_for_backward(inputs[0]),
    )
    x = lib.tensor([0.5, 1.0], dtype=lib.float64, requires_grad=True)
    y = getattr(lib.ops, ns).numpy_sin(x)
    assert type(y.grad_fn).__name__ == f"GeneratedBackwardFor_{ns}_numpy_sin_defaultBackward"
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.cos([0.5, 1.0]))
    # no input requires grad: nothing recorded
    assert op(lib.ones(2)).grad_fn is None


@pytest.mark.parametrize("lib", [numtorch, torch], ids=["numtorch", "torch"])
def test_without_a_backward_the_result_records_and_backward_refuses(lib):
    ns = fresh("nt_noauto")
    op = sin_op(lib, ns)
    y = op(lib.ones(1, requires_grad=True))
    assert y.requires_grad
    with pytest.raises(RuntimeError, match="no autograd formula was registered"):
        y.sum().backward()


@pytest.mark.parametrize("lib", [numtorch, torch], ids=["numtorch", "torch"])
def test_fake_kernel_runs_on_meta_tensors_and_opcheck_reports(lib):
    ns = fresh("nt_fake")
    op = sin_op(lib, ns)
    ok = lib.library.opcheck(op, (lib.randn(3),), raise_exception=False)
    assert isinstance(ok["test_faketensor"], RuntimeError)
    assert "no fake impl registered" in str(ok["test_faketensor"])
    op.register_fake(lambda x: lib.empty_like(x))
    assert op(lib.ones(4, device="meta")).shape == (4,)
    assert lib.library.opcheck(op, (lib.randn(3),)) == {
        "test_schema": "SUCCESS",
        "test_autograd_registration": "SUCCESS",
        "test_faketensor": "SUCCESS",
        "test_aot_dispatch_dynamic": "SUCCESS",
    }
    op.register_fake(lambda x: x.new_empty(2))
    with pytest.raises(Exception, match="test_faketensor failed"):
        lib.library.opcheck(op, (lib.randn(3),))


@pytest.mark.parametrize("lib", [numtorch, torch], ids=["numtorch", "torch"])
def test_opcheck_catches_an_undeclared_mutation(lib):
    Tensor = lib.Tensor

    @lib.library.custom_op(f"{fresh('nt_mut')}::g", mutates_args=())
    def g(x: Tensor, y: Tensor) -> Tensor:
        y.add_(1)
        return x * 2

    result = lib.library.opcheck(
        g, (lib.ones(1), lib.ones(1)), test_utils="test_schema", raise_exception=False
    )
    assert str(result["test_schema"]) == "Argument y is not defined as mutable but was mutated"
    with pytest.raises(ValueError, match="expected test_utils to be subset"):
        lib.library.opcheck(g, (lib.ones(1), lib.ones(1)), test_utils="bad")


def schema_functions(lib):
    Tensor = lib.Tensor

    def many(
        x: Tensor,
        y: Optional[Tensor],  # noqa: UP045  (torch's own spelling in its tutorials)
        tensors: list[Tensor],
        n: int,
        b: bool,
        s: str,
        floats: list[float],
        d: lib.dtype,
        m: Tensor,
        *,
        k: float = 1.5,
        z: Optional[int] = None,  # noqa: UP045
    ) -> tuple[Tensor, Tensor]:
        pass

    def none(x: Tensor) -> None:
        pass

    def listed(x: Tensor, n: int = 2, *, scale: float = 1.0) -> list[Tensor]:
        pass

    return [(many, {"m"}), (none, ()), (none, "unknown"), (listed, ())]


@pytest.mark.parametrize("index", range(4))
def test_infer_schema_as_torch(index):
    fn, mutates = schema_functions(numtorch)[index]
    their_fn, _ = schema_functions(torch)[index]
    assert numtorch.library.infer_schema(fn, mutates_args=mutates) == (
        torch.library.infer_schema(their_fn, mutates_args=mutates)
    )


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda lib: lib.library.infer_schema(lambda x: x, mutates_args=()), ValueError),
        (lambda lib: lib.library.custom_op("nt_bad::f")(lambda x: x), TypeError),
        (lambda lib: lib.library.Library("nt_x", "BAD"), ValueError),
    ],
)
def test_errors_have_torchs_types(call, error):
    with pytest.raises(error):
        call(torch)
    with pytest.raises(error):
        call(numtorch)


def test_bad_names_and_annotations_raise_value_error():
    with pytest.raises(ValueError, match="namespace::name"):
        numtorch.library.custom_op("no namespace", mutates_args=())(lambda x: x)

    def untyped(x):
        return x

    with pytest.raises(ValueError, match="Parameter x must have a type annotation"):
        numtorch.library.custom_op("nt_bad::untyped", mutates_args=())(untyped)


@pytest.mark.parametrize("lib", [numtorch, torch], ids=["numtorch", "torch"])
def test_library_define_and_impl(lib):
    ns = fresh("nt_lib")
    library = lib.library.Library(ns, "DEF")
    assert library.define("foo(Tensor x, float k=2.) -> Tensor") == "foo"
    with pytest.raises(NotImplementedError):
        getattr(lib.ops, ns).foo(lib.ones(1))
    library.impl("foo", lambda x, k=2.0: x * k, "CPU")
    assert getattr(lib.ops, ns).foo(lib.ones(1)).tolist() == [2.0]
    assert getattr(lib.ops, ns).foo.default(lib.ones(1), 3.0).tolist() == [3.0]
    # without an autograd registration the kernel's own ops record
    y = getattr(lib.ops, ns).foo(lib.ones(1, requires_grad=True))
    assert type(y.grad_fn).__name__ == "MulBackward0"
    with pytest.raises(RuntimeError):
        lib.library.Library(ns, "DEF")
    with pytest.raises(RuntimeError):
        library.define("foo(Tensor x) -> Tensor")
    lib.library.define(f"{ns}::bar", "(Tensor x) -> Tensor")
    lib.library.impl(f"{ns}::bar", "cpu", lambda x: x + 1)
    lib.library.register_autograd(f"{ns}::bar", lambda ctx, g: g * 10)
    x = lib.ones(1, requires_grad=True)
    getattr(lib.ops, ns).bar(x).backward()
    assert x.grad.tolist() == [10.0]
    with pytest.raises(AttributeError):
        getattr(lib.ops, ns).missing  # noqa: B018
