"""The ``meta`` device: tensors with a shape and a dtype but no data.

A meta tensor's array is a ``MetaArray``: a zero-stride view of a single zero, so it costs
no memory whatever its shape, and NumPy keeps the subclass through most operations.

Note [Meta tensors through ops]
While a meta tensor exists, ``dispatch.meta`` is on and routes every op through
the observed path (``_core.dispatch.observed``); there an op with a meta operand runs on the
zero-stride arrays and its results are turned back into meta arrays, whatever the op. So
no op needs a meta rule of its own, and programs that never make a meta tensor pay nothing.
What it costs: the op computes once on zeros (time and transient memory of its output).
An op given a meta tensor and a CPU tensor of data raises torch's device error, except while
backward formulas run: a node saved the zero arrays its op computed before they became meta.
"""

from __future__ import annotations

import weakref

from ..backend import xp
from .observers import dispatch, refresh_slow


class MetaArray(xp.ndarray):
    """The array behind a meta tensor (shape and dtype only)."""


_live = [0]  # meta arrays alive: the routing stays on while any exists


def _released() -> None:
    _live[0] -= 1
    if not _live[0]:
        dispatch.meta = False
        refresh_slow()


def to_meta(array) -> MetaArray:
    """A zero-stride meta array with ``array``'s shape and dtype (no memory)."""
    single = xp.zeros((), array.dtype)
    strided = xp.lib.stride_tricks.as_strided(
        single, shape=array.shape, strides=(0,) * array.ndim, writeable=True
    )
    meta = strided.view(MetaArray)
    _live[0] += 1
    weakref.finalize(meta, _released)  # views of it keep it alive through their .base
    if not dispatch.meta:
        dispatch.meta = True
        refresh_slow()
    return meta


def is_meta_device(d) -> bool:
    return d is not None and str(d).split(":")[0] == "meta"


def has_meta(args) -> bool:
    for a in args:
        data = getattr(a, "_data", None)
        if data is not None:
            if data.__class__ is MetaArray:
                return True
        elif isinstance(a, (list, tuple)) and has_meta(a):
            return True
    return False


def _tensors(args):
    for a in args:
        if getattr(a, "_data", None) is not None:
            yield a
        elif isinstance(a, (list, tuple)):
            yield from _tensors(a)


def check_same_device(args) -> None:
    """torch's error for a meta tensor meeting a CPU tensor of data (a 0-d CPU tensor is a
    number to torch, and integer CPU tensors index meta ones)."""
    first = None
    for t in _tensors(args):
        meta = t._data.__class__ is MetaArray
        if not meta and (t._data.ndim == 0 or t._data.dtype.kind in "iu"):
            continue
        if first is None:
            first = meta
        elif meta != first:
            names = ("cpu", "meta") if first else ("meta", "cpu")
            raise RuntimeError(
                f"Tensor on device {names[0]} is not on the expected device {names[1]}!"
            )


def refuse_meta(name: str, *tensors) -> None:
    """torch's error for an op whose output shape depends on the values (nonzero,
    masked_select, unique, equal), given a meta tensor."""
    for t in tensors:  # tensors or their arrays
        if getattr(t, "_data", t).__class__ is MetaArray:
            raise NotImplementedError(
                f"aten::{name}: attempted to run this operator with Meta tensors, but there "
                "was no fake impl or Meta kernel registered (its output depends on the values, "
                "which a meta tensor does not have)"
            )


def metafy(result):
    """Turn the tensors of an op's result into meta tensors (in place)."""
    data = getattr(result, "_data", None)
    if data is not None:
        if data.__class__ is not MetaArray:
            result._data = to_meta(data)
    elif isinstance(result, (list, tuple)):
        for r in result:
            metafy(r)
    return result


def no_data(*args, **kwargs):
    raise NotImplementedError("Cannot copy out of meta tensor; no data!")


# The device factories use when given none: ``with torch.device(...)`` blocks (innermost
# last) over torch.set_default_device's (the first entry, None when not set). Only 'meta'
# changes what a factory makes.
default_devices: list = [None]


def default_is_meta() -> bool:
    return is_meta_device(default_devices[-1])
