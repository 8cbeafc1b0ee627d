"""``torch.cond`` and ``torch.while_loop`` as they run outside ``torch.compile``.

With a Python bool as predicate, ``cond`` calls the branch. With a tensor predicate torch
captures both branches and runs the chosen one, refusing what its tracer refuses (outputs
that alias inputs, branches whose outputs differ in structure or dtype, operands that are
not tensors); here the chosen branch runs as is and the other one runs without gradient
(and without moving the random generator) to check the same things. Outputs that require
grad come out of one ``CondAutogradOpBackward`` node (``WhileLoopAutogradOpBackward`` for
loops), through which gradients flow to the branch's inputs, closures included.
"""

from __future__ import annotations

from typing import Any

from . import random as _random
from ._core.grad_mode import no_grad
from ._core.tensor import Tensor
from .autograd.function import Function
from .utils._pytree import tree_flatten, tree_unflatten

__all__ = ["cond", "while_loop"]


class UncapturedHigherOrderOpError(RuntimeError):
    """What torch's tracer raises for a branch or loop body it cannot capture."""


class TorchRuntimeError(RuntimeError):
    """What torch's tracer raises when running a captured branch fails."""


def _uncaptured(op: str, explanation: str) -> UncapturedHigherOrderOpError:
    return UncapturedHigherOrderOpError(
        "This higher order operator doesn't work unless it is captured completely with "
        f"torch.compile. Got graph break/error:\n\n{explanation}\n  Higher Order Operator: {op}"
    )


class _Passthrough(Function):
    """An identity over the outputs that need it: the node torch's outputs come from."""

    @staticmethod
    def forward(ctx, *tensors):
        return tuple(t.clone() for t in tensors)

    @staticmethod
    def backward(ctx, *grads):
        return grads


def _node(name: str):
    return type(name, (_Passthrough,), {})


CondAutogradOp = _node("CondAutogradOp")
WhileLoopAutogradOp = _node("WhileLoopAutogradOp")


def _through(node, outputs):
    """``outputs`` with every tensor that requires grad passed through ``node``."""
    leaves, spec = tree_flatten(outputs)
    picked = [i for i, v in enumerate(leaves) if isinstance(v, Tensor) and v.requires_grad]
    if picked:
        passed = node.apply(*(leaves[i] for i in picked))
        passed = passed if isinstance(passed, tuple) else (passed,)
        for i, value in zip(picked, passed):
            leaves[i] = value
    return tree_unflatten(leaves, spec)


def _check_operands(operands) -> list:
    leaves = tree_flatten(operands)[0] if isinstance(operands, (tuple, list)) else None
    if leaves is None or not all(isinstance(v, Tensor) for v in leaves):
        raise RuntimeError(
            "Expect operands to be a tuple of possibly nested dict/list/tuple that only "
            f"consists of tensor leaves, but got {operands}."
        )
    return leaves


def _aliases(output, inputs) -> bool:
    base = output._base if output._base is not None else output
    return any(base is i or base is i._base for i in inputs)


def _check_branch_output(op, output, inputs) -> None:
    for leaf in tree_flatten(output)[0]:
        if isinstance(leaf, Tensor):
            if _aliases(leaf, inputs):
                raise _uncaptured(
                    op,
                    "Encountered aliasing during higher order op tracing\n"
                    "  Explanation: Higher order ops do not support aliasing.",
                )
        elif leaf is None or not isinstance(leaf, int):
            raise _uncaptured(
                op,
                f"{op}: unsupported branch return type (constant non-int)\n"
                "  Explanation: Constants returned from branches must be ints.",
            )


def cond(pred, true_fn, false_fn, operands: tuple | list = ()) -> Any:
    """``true_fn(*operands)`` if ``pred`` else ``false_fn(*operands)``.

    Example:
        >>> import numtorch as torch
        >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
        >>> torch.cond(x.sum() > 0, lambda x: x.sin(), lambda x: x.cos(), (x,))
        tensor([0.8415, 0.9093], grad_fn=<CondAutogradOpBackward>)
    """
    if not (callable(true_fn) and callable(false_fn)):
        raise RuntimeError("Expect both branches to be callable.")
    if isinstance(pred, (bool, int, float)):  # decided in Python: no capture, as torch
        return true_fn(*operands) if pred else false_fn(*operands)
    if not isinstance(pred, Tensor) or pred.numel() != 1:
        raise RuntimeError(f"Expected pred to be bool or single-element tensor, but got {pred}.")
    inputs = _check_operands(operands)
    taken, other = (true_fn, false_fn) if bool(pred.item()) else (false_fn, true_fn)
    result = taken(*operands)
    _check_branch_output("torch.cond", result, inputs)
    with no_grad(), _random.fork_rng():
        alternative = other(*operands)
    _check_branch_output("torch.cond", alternative, inputs)
    _check_same_outputs(result, alternative)
    return _through(CondAutogradOp, result)


def _check_same_outputs(result, alternative) -> None:
    ours, spec = tree_flatten(result)
    theirs, other_spec = tree_flatten(alternative)
    if spec != other_spec:
        raise TorchRuntimeError(
            "Unmatched output spec from torch.cond branches: true branch tree_spec "
            f"{spec} vs false branch tree_spec {other_spec}."
        )
    for a, b in zip(ours, theirs):
        if isinstance(a, Tensor) and isinstance(b, Tensor) and a.dtype != b.dtype:
            raise TorchRuntimeError(
                "When merging two branches' output in torch.cond,  expected same dtype but "
                f"got {a.dtype} and {b.dtype}."
            )


def while_loop(cond_fn, body_fn, carried_inputs: tuple | list):
    """Run ``carried_inputs = body_fn(*carried_inputs)`` while ``cond_fn(*carried_inputs)``.

    The body must return as many values as it takes, each with its input's shape and dtype.

    Example:
        >>> import numtorch as torch
        >>> torch.while_loop(lambda i, x: i < 3, lambda i, x: (i + 1, x * 2),
        ...                  (torch.tensor(0), torch.tensor([1.0, 2.0])))
        (tensor(3), tensor([ 8., 16.]))
    """
    if not (callable(cond_fn) and callable(body_fn)):
        raise RuntimeError("Expect cond_fn and body_fn to be callable.")
    if not isinstance(carried_inputs, (tuple, list)):
        raise _uncaptured(
            "torch.while_loop",
            "failed to bind arguments when attempting to inline\n"
            "  Explanation: Argument mismatch when attempting to trace function "
            f"{getattr(body_fn, '__name__', body_fn)}.",
        )
    for value in carried_inputs:
        if not isinstance(value, (Tensor, int)) or isinstance(value, bool):
            raise AssertionError(
                f"{list(carried_inputs)} can only be of (<class 'torch.Tensor'>, <class 'int'>,"
                f" <class 'torch.SymInt'>) but got {tuple(type(v) for v in carried_inputs)}"
            )
    carried = tuple(carried_inputs)
    out = carried
    while _keep_going(cond_fn(*carried)):
        out = body_fn(*carried)
        new = out if isinstance(out, (tuple, list)) else (out,)
        _check_carry(carried, tuple(new))
        carried = tuple(new)
    return _through(WhileLoopAutogradOp, out)


def _keep_going(value) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, Tensor) and value.ndim == 0 and value.dtype.name == "bool":
        return bool(value.item())
    shape = value.shape if isinstance(value, Tensor) else type(value).__name__
    raise _uncaptured(
        "torch.while_loop",
        "torch.while_loop: unsupported cond_fn return type\n"
        "  Explanation: Expected cond_fn to return a scalar tensor or a bool but got "
        f"{shape}.",
    )


def _check_carry(before: tuple, after: tuple) -> None:
    if len(before) != len(after):
        raise _uncaptured(
            "torch.while_loop",
            "Expected body_fn_output and carried_inputs to have same number of outputs but "
            f"got lhs:{list(after)} and rhs:{list(before)}",
        )
    for k, (a, b) in enumerate(zip(after, before)):
        if isinstance(a, Tensor) and isinstance(b, Tensor):
            for what in ("shape", "dtype"):
                if getattr(a, what) != getattr(b, what):
                    raise _uncaptured(
                        "torch.while_loop",
                        "Expected body_fn_output and carried_inputs to have same metadata "
                        f"but found:\npair[{k}] differ in '{what}: {getattr(a, what)} vs "
                        f"{getattr(b, what)}'",
                    )
