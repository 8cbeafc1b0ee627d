"""Tensor methods that make new tensors (``new_zeros``...) or refill them randomly, and the
factories ``empty_strided``, ``scalar_tensor`` and the deprecated ``range``."""

from __future__ import annotations

import math
import numbers
import warnings

from .. import _creation
from .._core import dtypes as _dtypes
from .._core.op import FUNCTIONS
from .._core.tensor import Size, Tensor
from ..backend import xp
from .shape import keyword_size, shape_arg


def _dtype(self, dtype):
    return self.dtype if dtype is None else _dtypes.to_dtype(dtype)


def _device(self, device):
    # torch's new_* make tensors on self's device unless told otherwise
    return device if device is not None else ("meta" if self.is_meta else None)


def _per_sample(self, size, make):
    """torch's new_* of a tensor batched under vmap make one tensor per sample (batched, so
    in-place writes of batched values into them work): ``make(physical, size)`` builds it on
    the physical tensor, batch first (nested vmap levels recurse the same way)."""
    physical = self._value
    made = make(physical, (physical.shape[self._bdim], *size))
    return type(self)._wrap(made, 0, self._level)


def new_zeros(self, *sizes, size=None, dtype=None, device=None, requires_grad=False, **_):
    if self._batched:
        shape = shape_arg(keyword_size(sizes, size, "new_zeros"))
        return _per_sample(self, shape, lambda p, s: new_zeros(p, s, dtype=_dtype(self, dtype)))
    return _creation.zeros(
        shape_arg(keyword_size(sizes, size, "new_zeros")), dtype=_dtype(self, dtype),
        device=_device(self, device),
        requires_grad=requires_grad,
    )  # fmt: skip


def new_ones(self, *sizes, size=None, dtype=None, device=None, requires_grad=False, **_):
    if self._batched:
        shape = shape_arg(keyword_size(sizes, size, "new_ones"))
        return _per_sample(self, shape, lambda p, s: new_ones(p, s, dtype=_dtype(self, dtype)))
    return _creation.ones(
        shape_arg(keyword_size(sizes, size, "new_ones")), dtype=_dtype(self, dtype),
        device=_device(self, device),
        requires_grad=requires_grad,
    )  # fmt: skip


def new_empty(self, *sizes, size=None, dtype=None, device=None, requires_grad=False, **_):
    if self._batched:
        shape = shape_arg(keyword_size(sizes, size, "new_empty"))
        return _per_sample(self, shape, lambda p, s: new_empty(p, s, dtype=_dtype(self, dtype)))
    return _creation.empty(
        shape_arg(keyword_size(sizes, size, "new_empty")), dtype=_dtype(self, dtype),
        device=_device(self, device),
        requires_grad=requires_grad,
    )  # fmt: skip


def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False, **_):
    if self._batched:
        return _per_sample(
            self, tuple(size), lambda p, s: new_full(p, s, fill_value, dtype=_dtype(self, dtype))
        )
    return _creation.full(
        size, fill_value, dtype=_dtype(self, dtype), device=_device(self, device),
        requires_grad=requires_grad,
    )  # fmt: skip


def new_tensor(self, data, *, dtype=None, device=None, requires_grad=False, **_):
    return _creation.tensor(
        data, dtype=_dtype(self, dtype), device=_device(self, device), requires_grad=requires_grad
    )


def new(self, *args, dtype=None, device=None):
    """Deprecated constructor: ``new(*sizes)`` is uninitialised memory of ``self``'s dtype,
    ``new(sequence)`` or ``new(ndarray)`` a tensor of that data, ``new()`` an empty tensor."""
    if dtype is not None:
        raise TypeError(
            "new() received an invalid combination of arguments - got "
            f"({', '.join(type(a).__name__ for a in args)}, dtype=torch.dtype)"
        )
    if not args:
        return _creation.empty(0, dtype=self.dtype)
    if len(args) == 1 and isinstance(args[0], Tensor):
        if args[0].dtype != self.dtype:
            raise TypeError(
                f"expected {self.dtype} (got {args[0].dtype}) for the tensor passed to new()"
            )
        return args[0].detach()
    # a NumPy array is data however many dimensions it has (numpy extension functions
    # return ``input.new(result)``); a NumPy scalar is neither data nor a size to torch
    data = (list, tuple, xp.ndarray)
    if len(args) == 1 and isinstance(args[0], data) and not isinstance(args[0], Size):
        return _creation.tensor(args[0], dtype=self.dtype)
    return _creation.empty(shape_arg(args, "new"), dtype=self.dtype)


def empty_strided(size, stride, *, dtype=None, device=None, requires_grad=False, **_) -> Tensor:
    """Uninitialised memory viewed with the given sizes and strides (in elements)."""
    _creation.check_device(device)
    size, stride = tuple(int(s) for s in size), tuple(int(s) for s in stride)
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    dt = _dtypes.get_default_dtype() if dtype is None else _dtypes.to_dtype(dtype)
    storage = 0 if 0 in size else 1 + sum((n - 1) * s for n, s in zip(size, stride))
    buffer = xp.zeros(storage, dt.np)
    data = xp.ndarray(size, dt.np, buffer=buffer, strides=[s * buffer.itemsize for s in stride])
    if 0 not in size and any(s == 0 and n > 1 for n, s in zip(size, stride)):
        # torch refuses writes into it as into an expanded tensor (its elements overlap)
        data.flags.writeable = False
    return Tensor._make(data).requires_grad_(requires_grad)


def new_empty_strided(self, size, stride, *, dtype=None, device=None, requires_grad=False, **_):
    if self._batched:  # (a sample's strides describe no physical layout: contiguous)
        return _per_sample(
            self, tuple(size), lambda p, s: new_empty(p, s, dtype=_dtype(self, dtype))
        )
    return empty_strided(size, stride, dtype=_dtype(self, dtype), requires_grad=requires_grad)


def scalar_tensor(s, *, dtype=None, device=None, requires_grad=False, **_) -> Tensor:
    """A 0-D tensor holding ``s``, of the default float dtype unless ``dtype`` is given."""
    dt = _dtypes.get_default_dtype() if dtype is None else _dtypes.to_dtype(dtype)
    return _creation.tensor(s, dtype=dt, requires_grad=requires_grad)


def _range(start=0, end=None, step=1, *, dtype=None, device=None, requires_grad=False, **_):
    """Deprecated: values from ``start`` to ``end`` *inclusive* by ``step``, of the default
    float dtype unless ``dtype`` is given; use :func:`arange`."""
    warnings.warn(
        "torch.range is deprecated and will be removed in a future release because its "
        "behavior is inconsistent with Python's range builtin. Instead, use torch.arange, "
        "which produces values in [start, end).",
        UserWarning,
        stacklevel=2,
    )
    if end is None:
        raise TypeError('range() missing 1 required positional arguments: "end"')
    start, end, step = (v.item() if isinstance(v, Tensor) else v for v in (start, end, step))
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    dt = _dtypes.get_default_dtype() if dtype is None else _dtypes.to_dtype(dtype)
    count = math.floor((end - start) / step) + 1
    if all(isinstance(v, numbers.Integral) for v in (start, end, step)):
        values = xp.arange(count, dtype=xp.int64) * step + start
    else:  # torch steps in the accumulate type (double) and rounds once
        values = xp.arange(count, dtype=xp.float64) * step + start
    return _creation.tensor(values.astype(dt.np), dtype=dt, requires_grad=requires_grad)


FUNCTIONS["empty_strided"] = empty_strided
FUNCTIONS["scalar_tensor"] = scalar_tensor
_range.__name__ = _range.__qualname__ = "range"
FUNCTIONS["range"] = _range


def uniform_(self, a=0.0, b=1.0, *, generator=None):
    return _creation.random_fill_(self, "uniform", a, b, generator)


def normal_(self, mean=0.0, std=1.0, *, generator=None):
    return _creation.random_fill_(self, "normal", mean, std, generator)


def random_(self, from_=None, to=None, *, generator=None):
    """``random_()`` draws over the dtype's integers, ``random_(to)`` over [0, to),
    ``random_(from, to)`` over [from, to)."""
    if from_ is not None and to is None:
        from_, to = 0, from_
    elif from_ is None and to is not None:
        from_ = 0
    if to is not None and from_ >= to:
        raise RuntimeError(
            f"random_ expects 'from' to be less than 'to', but got from={from_} >= to={to}"
        )
    return _creation.random_fill_(self, "random", from_, to, generator)


def _fill_sampled(self, name, values):
    from .._core.inplace import check_inplace

    check_inplace(self, name)
    self._data[...] = values
    self._bump_version()
    return self


def apply_(self, callable):
    """Replace each element ``v`` by ``callable(v)`` (a Python function; slow)."""
    if self._requires_grad:
        raise RuntimeError(
            "Can't call apply_() on Variable that requires grad. Use var.detach().apply_() instead."
        )
    flat = self._data.reshape(-1)
    values = [callable(v) for v in flat.tolist()]
    return _fill_sampled(self, "apply_", xp.asarray(values).reshape(self._data.shape))


def map_(self, tensor, callable):
    """Replace each element ``v`` by ``callable(v, w)``, ``w`` from ``tensor`` (broadcast)."""
    if self._requires_grad:
        raise RuntimeError(
            "Can't call map_() on Variable that requires grad. Use var.detach().map_() instead."
        )
    others = xp.broadcast_to(tensor._data, self._data.shape).reshape(-1).tolist()
    values = [callable(v, w) for v, w in zip(self._data.reshape(-1).tolist(), others)]
    return _fill_sampled(self, "map_", xp.asarray(values).reshape(self._data.shape))


def multinomial(self, num_samples, replacement=False, *, generator=None):
    return _creation.multinomial(self, num_samples, replacement, generator=generator)


for _fn in (
    new,
    new_empty_strided,
    new_zeros,
    new_ones,
    new_empty,
    new_full,
    new_tensor,
    uniform_,
    normal_,
    random_,
    apply_,
    map_,
    multinomial,
):
    setattr(Tensor, _fn.__name__, _fn)
