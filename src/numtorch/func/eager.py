"""``torch.func.functionalize`` and ``debug_unwrap``: no-ops in numtorch, which has neither
graph capture (where removing mutations matters) nor wrapper tensors to unwrap."""

from __future__ import annotations

from collections.abc import Callable

from .args import wraps

__all__ = ["debug_unwrap", "functionalize"]


def functionalize(func: Callable, *, remove: str = "mutations") -> Callable:
    """``func`` itself: eagerly, a functionalized function gives the same results and makes
    the same writes to its inputs, which is all numtorch can observe.

    Example:
        >>> import numtorch as torch
        >>> torch.func.functionalize(lambda x: x.clone().add_(1))(torch.zeros(2))
        tensor([1., 1.])
    """
    if remove not in ("mutations", "mutations_and_views"):
        raise RuntimeError(
            f"functionalize(f, remove='mutations'): received invalid argument for remove={remove}."
            " Valid options are:\n"
            "     remove='mutations': all inplace and out= operators will be removed from the "
            "program, and replaced with their out-of-place equivalents.\n"
            "     remove='mutations_and_views': In addition to the above, all aliasing operators "
            "{view} will be replaced with their non-aliasing counterparts, {view}_copy.\n"
        )

    @wraps(func)
    def wrapped(*args, **kwargs):
        return func(*args, **kwargs)

    return wrapped


def debug_unwrap(tensor, *, recurse: bool = True):
    """``tensor`` itself (numtorch's transforms do not wrap tensors)."""
    return tensor
