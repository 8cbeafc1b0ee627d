"""NumPy's keyword names on torch's functions and methods.

Note [NumPy keyword names]
torch's argument parser accepts NumPy's names for four of its parameters in every function
and method it parses: ``axis`` for ``dim``, ``keepdims`` for ``keepdim``, ``x``, ``a`` or
``x1`` for ``input`` and ``x2`` for ``other`` (``x.sum(axis=0, keepdims=True)``,
``torch.cat(ts, axis=1)``). numtorch renames them only once a call has failed with a
TypeError, so calls that use torch's names pay nothing beyond a ``try``: the boundary of the
``numtorch.<name>`` functions (``boundary.publish``) retries there, and the Tensor methods
that take a ``dim`` or ``keepdim`` are wrapped here.
"""

from __future__ import annotations

import functools
import types

from .._core.tensor import Tensor

ALIASES = {
    "axis": "dim",
    "keepdims": "keepdim",
    "x": "input",
    "a": "input",
    "x1": "input",
    "x2": "other",
}

# torch writes these in Python, outside its argument parser: they take torch's names only
PYTHON_LEVEL = frozenset(
    {
        "atleast_1d",
        "atleast_2d",
        "atleast_3d",
        "block_diag",
        "broadcast_shapes",
        "broadcast_tensors",
        "cartesian_prod",
        "cdist",
        "chain_matmul",
        "einsum",
        "lu",
        "meshgrid",
        "norm",
        "split",
        "stft",
        "tensordot",
        "unflatten",
        "unique",
        "unique_consecutive",
        "unravel_index",
    }
)


def torch_keywords(kwargs: dict) -> dict | None:
    """``kwargs`` with NumPy's names replaced by torch's; None when it uses none of them, or
    gives one parameter under both names (an error either way)."""
    if not any(k in ALIASES for k in kwargs):
        return None
    renamed = {}
    for key, value in kwargs.items():
        name = ALIASES.get(key, key)
        if name in renamed:
            return None
        renamed[name] = value
    return renamed


def accept_numpy_keywords(fn):
    """``fn`` that also takes NumPy's keyword names (Note [NumPy keyword names])."""

    @functools.wraps(fn)
    def call(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except TypeError:
            renamed = torch_keywords(kwargs) if kwargs else None
            if renamed is None:
                raise
        return fn(*args, **renamed)

    return call


# the wrapper's code, for stack walks that name the op a user called (``sparse._dense_only``)
WRAPPER_CODE = accept_numpy_keywords(lambda: None).__code__


def _takes_dim(fn) -> bool:
    if not isinstance(fn, types.FunctionType):
        return False
    code = fn.__code__
    names = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
    return "dim" in names or "keepdim" in names


def wrap_methods() -> None:
    """Wrap every Tensor method registered so far whose parameters include ``dim``."""
    for name, fn in list(vars(Tensor).items()):
        if not name.startswith("_") and name not in PYTHON_LEVEL and _takes_dim(fn):
            setattr(Tensor, name, accept_numpy_keywords(fn))
