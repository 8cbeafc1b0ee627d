"""Arguments of the torch.func transforms: ``argnums``, output checks and torch's messages."""

from __future__ import annotations

import functools

from .._core.tensor import Tensor
from .._creation import zeros_like
from ..autograd.api import grad as autograd_grad
from ..utils._pytree import tree_leaves


def _wrap_argnum(argnum, num_args: int) -> int:
    if not isinstance(argnum, int):
        raise RuntimeError(f"argnum must be int, got: {type(argnum)}")
    if 0 <= argnum < num_args:
        return argnum
    if -num_args <= argnum < 0:
        return argnum + num_args
    raise RuntimeError(f"Got argnum={argnum}, but only {num_args} positional inputs")


def check_argnums(argnums, num_args: int):
    """``argnums`` with negative positions resolved, or torch's RuntimeError."""
    if isinstance(argnums, int):
        return _wrap_argnum(argnums, num_args)
    if not isinstance(argnums, tuple):
        raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
    argnums = tuple(_wrap_argnum(a, num_args) for a in argnums)
    if not argnums:
        raise RuntimeError("argnums must be non-empty")
    if len(set(argnums)) != len(argnums):
        raise RuntimeError(f"argnums elements must be unique, got {argnums}")
    return argnums


def slice_argnums(args: tuple, argnums):
    """The arguments at ``argnums``: one argument for an int, a tuple for a tuple."""
    if isinstance(argnums, int):
        return args[argnums]
    return tuple(args[i] for i in argnums)


def replace_args(args: tuple, new, argnums) -> tuple:
    """``args`` with the arguments at ``argnums`` replaced by ``new`` (as sliced)."""
    if isinstance(argnums, int):
        new, argnums = (new,), (argnums,)
    args = list(args)
    for i, value in zip(argnums, new):
        args[i] = value
    return tuple(args)


def split_aux(output, api: str):
    if not (isinstance(output, tuple) and len(output) == 2):
        raise RuntimeError(
            f"{api}: output of function f should be a tuple: (output, aux) if has_aux is True"
        )
    return output


def check_aux_tensors(aux) -> None:
    """torch's check that a transform's aux output holds only tensors."""
    for t in tree_leaves(aux):
        if not isinstance(t, Tensor):
            raise RuntimeError(f"Expected tensors, got unsupported type {type(t)}")


def check_tensor_outputs(flat_outputs: list, api: str) -> None:
    if len(flat_outputs) < 1 or (len(flat_outputs) == 1 and flat_outputs[0] is None):
        raise RuntimeError(
            f"{api}: Expected f to be a function that has non-empty output (got output = "
            f"{flat_outputs})"
        )
    for out in flat_outputs:
        if not isinstance(out, Tensor):
            raise RuntimeError(
                f"{api}: expected f(*primals) to return only tensors, got unsupported type "
                f"{type(out)}"
            )


def check_real(api: str, tree, is_input: bool) -> None:
    for i, t in enumerate(tree_leaves(tree)):
        if isinstance(t, Tensor) and t.dtype.is_complex:
            kind = "inputs" if is_input else "outputs"
            raise RuntimeError(
                f"{api}: Expected all {kind} to be real but received complex tensor at "
                f"flattened input idx: {i}"
            )


def check_floating_primals(flat_primals) -> None:
    for t in flat_primals:
        if isinstance(t, Tensor) and not (t.is_floating_point() or t.dtype.is_complex):
            raise ValueError(f"Expected primal to be floating point or complex, but got: {t.dtype}")


def grads_or_zeros(outputs, inputs, grad_outputs=None, retain_graph=False, create_graph=False):
    """``autograd.grad`` over the outputs that require grad, zeros for unused inputs (as
    torch.func: a transform never returns None)."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o._requires_grad]
    if not pairs:
        return tuple(zeros_like(t) for t in inputs)
    grads = autograd_grad(
        tuple(o for o, _ in pairs),
        tuple(inputs),
        tuple(g for _, g in pairs),
        # A recorded backward graph refers to the forward graph's saved values: keep them.
        retain_graph=retain_graph or create_graph,
        create_graph=create_graph,
        allow_unused=True,
    )
    return tuple(zeros_like(t) if g is None else g for g, t in zip(grads, inputs))


def func_name(func) -> str:
    if hasattr(func, "__name__"):
        return func.__name__
    if isinstance(func, functools.partial):
        return f"functools.partial({func_name(func.func)}, ...)"
    return repr(func)


def wraps(func):
    """``functools.wraps`` that also takes callables without a ``__name__`` (modules)."""
    return functools.wraps(
        func, assigned=("__module__", "__name__", "__qualname__", "__doc__"), updated=()
    )
