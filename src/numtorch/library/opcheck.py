"""``torch.library.opcheck``: the checks of a custom operator that need no compiler."""

from __future__ import annotations

from .._core.tensor import Tensor
from .custom_ops import Operator, _operator, _tensors

ALL_TESTS = (
    "test_schema",
    "test_autograd_registration",
    "test_faketensor",
    "test_aot_dispatch_static",
    "test_aot_dispatch_dynamic",
)
DEFAULT_TESTS = (
    "test_schema",
    "test_autograd_registration",
    "test_faketensor",
    "test_aot_dispatch_dynamic",
)


class OpCheckError(Exception):
    pass


def _clone(value, device=None):
    if isinstance(value, Tensor):
        copy = value.detach().clone() if device is None else value.detach().to(device)
        return copy.requires_grad_(value.requires_grad) if copy.is_floating_point() else copy
    if isinstance(value, (list, tuple)):
        return type(value)(_clone(v, device) for v in value)
    return value


def _outputs(result) -> list[Tensor]:
    return _tensors(result if isinstance(result, (tuple, list)) else (result,))


def _mutable_names(op: Operator) -> set[str]:
    arguments = op.schema.split("(", 1)[1].rsplit(") ->", 1)[0]
    names = set()
    for part in arguments.split(","):
        words = part.strip().split("=")[0].split()
        if len(words) == 2 and "!" in words[0]:
            names.add(words[1])
    return names


def _test_schema(op: Operator, args, kwargs) -> None:
    """Inputs the schema does not mark as written keep their values."""
    args, kwargs = _clone(args), _clone(kwargs)
    names = list(op.signature.parameters) if op.signature is not None else []
    named = dict(zip(names, args)) | kwargs
    before = {n: v.detach().clone() for n, v in named.items() if isinstance(v, Tensor)}
    op(*args, **kwargs)
    mutable = _mutable_names(op)
    for name, value in before.items():
        if name not in mutable and not named[name].detach().equal(value):
            raise RuntimeError(f"Argument {name} is not defined as mutable but was mutated")


def _test_autograd_registration(op: Operator, args, kwargs) -> None:
    """An operator given inputs that require grad returns results that have a grad_fn."""
    args, kwargs = _clone(args), _clone(kwargs)
    if not any(t.requires_grad for t in _tensors(args) + _tensors(kwargs.values())):
        return
    for out in _outputs(op(*args, **kwargs)):
        if out.is_floating_point() and out.grad_fn is None:
            raise AssertionError(
                f"{op.qualname}: its inputs require grad but its output has no grad_fn; "
                "register a backward with register_autograd."
            )


def _test_faketensor(op: Operator, args, kwargs) -> None:
    """The fake kernel on meta copies gives the real results' shapes and dtypes."""
    if op.fake is None:
        raise RuntimeError(
            f"There was no fake impl registered for <CustomOpDef({op.qualname})>. This is "
            "necessary for torch.compile/export/fx tracing to work. Please use "
            f"`{op.name}.register_fake` to add an fake impl."
        )
    real = _outputs(op(*_clone(args), **_clone(kwargs)))
    fake = _outputs(op(*_clone(args, "meta"), **_clone(kwargs, "meta")))
    for r, f in zip(real, fake):
        if r.shape != f.shape or r.dtype != f.dtype:
            raise RuntimeError(
                f"When comparing the output of {op} on FakeTensor and concrete Tensors, found "
                f"mismatched tensor metadata: shapes {f.shape} and {r.shape}, dtypes "
                f"{f.dtype} and {r.dtype}"
            )


def _test_aot_dispatch(op: Operator, args, kwargs) -> None:
    """numtorch compiles nothing: the eager forward, and the backward through the operator
    when inputs require grad (what torch's AOT check runs first)."""
    _test_faketensor(op, args, kwargs)
    args, kwargs = _clone(args), _clone(kwargs)
    inputs = [t for t in _tensors(args) + _tensors(kwargs.values()) if t.requires_grad]
    outputs = [o for o in _outputs(op(*args, **kwargs)) if o.requires_grad]
    if inputs and outputs:
        total = sum(o.sum() for o in outputs)
        total.backward()


_TESTS = {
    "test_schema": _test_schema,
    "test_autograd_registration": _test_autograd_registration,
    "test_faketensor": _test_faketensor,
    "test_aot_dispatch_static": _test_aot_dispatch,
    "test_aot_dispatch_dynamic": _test_aot_dispatch,
}


def run_opcheck(op: Operator, args, kwargs, test_utils, raise_exception: bool) -> dict:
    names = DEFAULT_TESTS if test_utils is None else test_utils
    names = (names,) if isinstance(names, str) else tuple(names)
    if not set(names) <= set(ALL_TESTS):
        raise ValueError(
            f"opcheck(op, ..., test_utils={names}), expected test_utils to be subset of "
            f"{ALL_TESTS} but it was not"
        )
    results: dict = {}
    for name in names:
        try:
            _TESTS[name](op, tuple(args), dict(kwargs))
        except Exception as error:  # each check's failure is reported
            if raise_exception:
                raise OpCheckError(f"opcheck(op, ...): {name} failed with {error}") from error
            results[name] = error
        else:
            results[name] = "SUCCESS"
    return results


def opcheck(
    op, args, kwargs=None, *, test_utils=None, raise_exception=True, atol=None, rtol=None
) -> dict:
    """Check a custom operator the ways that need no compiler: ``test_schema`` (inputs not in
    ``mutates_args`` keep their values), ``test_autograd_registration`` (inputs that require
    grad give results with a ``grad_fn``), ``test_faketensor`` (the fake kernel on ``meta``
    copies gives the real results' shapes and dtypes) and ``test_aot_dispatch_*`` (numtorch
    has no AOT compiler: the fake check, the eager forward and the backward through the
    operator when inputs require grad). Returns ``{test: "SUCCESS" or the error}``.
    """
    return run_opcheck(_operator(op), args, kwargs or {}, test_utils, raise_exception)
