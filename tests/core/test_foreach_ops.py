"""torch._foreach_* list ops, torch._assert and torch._C's probes, against torch."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch
from numtorch._foreach import BINARY, FOREACH, UNARY

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(0)
ARRAYS = [RNG.uniform(0.2, 0.9, (2, 3)), RNG.uniform(0.2, 0.9, (4,))]


def tensors(lib, dtype="float32", requires_grad=False):
    return [lib.tensor(a, dtype=getattr(lib, dtype), requires_grad=requires_grad) for a in ARRAYS]


def assert_same(ours, theirs):
    assert type(ours) is type(theirs)
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        assert str(a.dtype) == str(b.dtype) and tuple(a.shape) == tuple(b.shape)
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-6)


def run_both(call):
    return call(numtorch), call(torch)


def test_every_foreach_name_is_torchs():
    ours = {n for n in dir(numtorch) if n.startswith("_foreach_")}
    assert ours == set(FOREACH)
    assert ours <= {n for n in dir(torch) if n.startswith("_foreach_")}
    # the fused-kernel-only ones numtorch leaves out
    assert {n for n in dir(torch) if n.startswith("_foreach_")} - ours == {
        "_foreach_mm",
        "_foreach_powsum",
    }


@pytest.mark.parametrize("op", UNARY)
def test_unary_out_of_place_and_in_place(op):
    ours, theirs = run_both(lambda lib: getattr(lib, f"_foreach_{op}")(tensors(lib)))
    assert_same(ours, theirs)
    mine, reference = tensors(numtorch), tensors(torch)
    assert getattr(numtorch, f"_foreach_{op}_")(mine) is mine
    getattr(torch, f"_foreach_{op}_")(reference)
    assert_same(mine, reference)


SECOND_OPERANDS = {
    "number": lambda lib: 0.5,
    "numbers": lambda lib: [0.5, 2.0],
    "0-dim tensor": lambda lib: lib.tensor(0.75),
    "tensors": lambda lib: [lib.full((2, 3), 0.5), lib.full((4,), 1.5)],
}


@pytest.mark.parametrize("kind", SECOND_OPERANDS)
@pytest.mark.parametrize("op", BINARY)
def test_binary_over_each_kind_of_second_operand(op, kind):
    other = SECOND_OPERANDS[kind]
    assert_same(*run_both(lambda lib: getattr(lib, f"_foreach_{op}")(tensors(lib), other(lib))))
    mine, reference = tensors(numtorch), tensors(torch)
    assert getattr(numtorch, f"_foreach_{op}_")(mine, other(numtorch)) is mine
    getattr(torch, f"_foreach_{op}_")(reference, other(torch))
    assert_same(mine, reference)


def test_alpha_pow_of_a_number_and_integer_promotion():
    def calls(lib):
        ints = [lib.tensor([1, 2]), lib.tensor([3])]
        return [
            lib._foreach_add(tensors(lib), tensors(lib), alpha=2),
            lib._foreach_add(tensors(lib), lib.tensor(1.0), alpha=0.5),
            lib._foreach_sub(tensors(lib), [lib.ones(1), lib.ones(1)], alpha=0.5),
            lib._foreach_pow(2.0, tensors(lib)),
            lib._foreach_add(ints, 1.5),
            lib._foreach_mul(ints, [2, 3]),
            lib._foreach_norm(tensors(lib)),
            lib._foreach_norm(tensors(lib), 1),
            lib._foreach_norm(tensors(lib), float("inf")),
            lib._foreach_norm(tensors(lib), dtype=lib.float64),
            lib._foreach_max(tensors(lib)),
            lib._foreach_clone(tensors(lib)),
            lib._foreach_addcmul(tensors(lib), tensors(lib), tensors(lib), value=0.1),
            lib._foreach_addcdiv(tensors(lib), tensors(lib), tensors(lib), [0.5, 2.0]),
            lib._foreach_addcdiv(tensors(lib), tensors(lib), tensors(lib), lib.tensor([2.0, 3])),
            lib._foreach_lerp(tensors(lib), [lib.zeros(2, 3), lib.ones(4)], 0.3),
            lib._foreach_lerp(tensors(lib), [lib.zeros(2, 3), lib.ones(4)], [0.3, 0.6]),
        ]

    for ours, theirs in zip(*run_both(calls)):
        assert_same(ours, theirs)


def test_in_place_updates_an_optimizer_would_make():
    def step(lib):
        params, grads = tensors(lib), [t * 0.1 for t in tensors(lib)]
        exp_avg, exp_avg_sq = (
            [lib.zeros_like(p) for p in params],
            [lib.zeros_like(p) for p in params],
        )
        lib._foreach_lerp_(exp_avg, grads, 0.1)
        lib._foreach_mul_(exp_avg_sq, 0.999)
        lib._foreach_addcmul_(exp_avg_sq, grads, grads, value=0.001)
        denom = lib._foreach_sqrt(exp_avg_sq)
        lib._foreach_add_(denom, 1e-8)
        lib._foreach_addcdiv_(params, exp_avg, denom, value=-0.01)
        lib._foreach_maximum_(params, 0.3)
        ema = lib._foreach_clone(params)
        lib._foreach_copy_(ema, params)
        lib._foreach_zero_(grads)
        return params + list(ema) + grads

    ours, theirs = run_both(step)
    assert_same(ours, theirs)


def test_gradients_flow_through_each_result():
    def grads(lib):
        xs = tensors(lib, "float64", requires_grad=True)
        out = lib._foreach_mul(lib._foreach_exp(xs), [2.0, 3.0])
        sum(o.sum() for o in out).backward()
        return [x.grad for x in xs]

    assert_same(*run_both(grads))


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib._foreach_add([], 1.0),
        lambda lib: lib._foreach_add([lib.ones(1)], [lib.ones(1), lib.ones(1)]),
        lambda lib: lib._foreach_add([lib.ones(1)], [1.0, 2.0]),
        lambda lib: lib._foreach_add([lib.ones(1)], lib.ones(2)),
        lambda lib: lib._foreach_add([lib.ones(1)], 1.0, alpha=2),
        lambda lib: lib._foreach_mul([lib.ones(1)], [lib.ones(1)], alpha=2),
        lambda lib: lib._foreach_exp(lib.ones(1)),
        lambda lib: lib._foreach_add_([lib.ones(2, dtype=lib.int64)], 1.5),
        lambda lib: lib._foreach_norm([lib.ones(2, dtype=lib.int64)]),
        lambda lib: lib._foreach_mul_([lib.ones(2, requires_grad=True)], 2.0),
        lambda lib: lib._foreach_sub([lib.ones(1, dtype=lib.bool)], 1),
    ],
)
def test_errors_as_torch(call):
    with pytest.raises(Exception) as expected:
        call(torch)
    with pytest.raises(type(expected.value)) as got:
        call(numtorch)
    first_words = str(expected.value).split(" - ")[0].split("\n")[0][:40]
    assert str(got.value).startswith(first_words)


def test_assert_raises_assertion_error_with_the_message():
    numtorch._assert(numtorch.tensor(True), "unused")
    with pytest.raises(AssertionError, match="^shape mismatch$"):
        numtorch._assert(numtorch.tensor(1) > 2, "shape mismatch")
    with pytest.raises(AssertionError, match="^boom$"):
        torch._assert(False, "boom")


def test_c_probes_answer_as_torchs_cpu_build():
    C, their_C = numtorch._C, torch._C
    assert C._get_tracing_state() is their_C._get_tracing_state() is None
    assert C._log_api_usage_once("python.x") is None
    assert C._jit_set_profiling_executor(False) is their_C._jit_set_profiling_executor(False)
    assert C._jit_set_profiling_executor(True) is their_C._jit_set_profiling_executor(True)
    assert C._jit_set_profiling_mode(True) is their_C._jit_set_profiling_mode(True)
    assert C._get_cudnn_enabled() == their_C._get_cudnn_enabled()
    assert C._get_privateuse1_backend_name() == their_C._get_privateuse1_backend_name()
    assert isinstance(numtorch.ones(1), C._TensorBase) and C.TensorBase is numtorch.Tensor
    assert C.Generator is numtorch.Generator
    try:
        C._set_grad_enabled(False)
        assert not numtorch.is_grad_enabled()
    finally:
        C._set_grad_enabled(True)
    with pytest.raises(TypeError, match="must be bool, not int"):
        C._set_grad_enabled(1)
    with pytest.raises(AttributeError, match=r"torch\._C\._no_such is not supported by numtorch"):
        C._no_such  # noqa: B018
