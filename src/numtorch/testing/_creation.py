"""make_tensor: random test tensors drawn the way torch.testing draws them."""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

import numtorch as torch

_INTEGRAL = ("uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64")
_FLOATING = ("float16", "bfloat16", "float32", "float64")
_COMPLEX = ("complex32", "complex64", "complex128")


def _dtypes(names):
    return tuple(getattr(torch, name) for name in names if hasattr(torch, name))


def _bounds(dtype, low, high, *, lowest, highest, default_low, default_high, integral):
    """Checks the user's [low, high) and clamps it to what ``dtype`` holds."""
    low = default_low if low is None else low
    high = default_high if high is None else high
    if any(isinstance(v, float) and math.isnan(v) for v in (low, high)):
        raise ValueError(f"`low` and `high` cannot be NaN, but got low={low} and high={high}")
    if low == high and not integral:
        # torch still accepts this for floating types, with a deprecation warning
        warnings.warn(
            "Passing `low==high` to `torch.testing.make_tensor` for floating or complex "
            "types is deprecated since 2.1 and will be removed in 2.3. "
            "Use `torch.full(...)` instead.",
            FutureWarning,
            stacklevel=3,
        )
    elif low >= high:
        raise ValueError(f"`low` must be less than `high`, but got {low} >= {high}")
    elif high < lowest or low >= highest:
        raise ValueError(
            f"The value interval specified by `low` and `high` is [{low}, {high}), "
            f"but {dtype} only supports [{lowest}, {highest})"
        )
    low, high = min(max(low, lowest), highest), min(max(high, lowest), highest)
    if integral:
        return math.ceil(low), math.ceil(high)
    return low, high


def make_tensor(
    *shape,
    dtype,
    device,
    low: float | None = None,
    high: float | None = None,
    requires_grad: bool = False,
    noncontiguous: bool = False,
    exclude_zero: bool = False,
    memory_format=None,
):
    """A tensor of ``shape`` with values drawn uniformly from ``[low, high)``.

    Defaults: bool [0, 2), unsigned [0, 10), signed integers [-9, 10), floating and
    complex [-9, 9).

    >>> make_tensor(2, 3, dtype=torch.float32, device="cpu").shape
    torch.Size([2, 3])
    """
    integral = _dtypes(_INTEGRAL)
    floating = _dtypes(_FLOATING) + _dtypes(_COMPLEX)
    if len(shape) == 1 and isinstance(shape[0], Sequence):
        shape = shape[0]
    shape = tuple(shape)
    if noncontiguous and memory_format is not None:
        raise ValueError(
            "The parameters `noncontiguous` and `memory_format` are mutually exclusive, "
            f"but got noncontiguous={noncontiguous} and memory_format={memory_format}"
        )
    if requires_grad and (dtype is torch.bool or dtype in integral):
        raise ValueError(
            "`requires_grad=True` is not supported for boolean and integral dtypes, "
            f"but got dtype={dtype}"
        )
    # noncontiguous: draw twice the last dimension and keep every other element
    noncontiguous = noncontiguous and math.prod(shape) > 1
    if noncontiguous:
        shape = (*shape[:-1], 2 * shape[-1])

    if dtype is torch.bool:
        low, high = _bounds(
            dtype, low, high, lowest=0, highest=2, default_low=0, default_high=2, integral=True
        )
        result = torch.randint(low, high, shape, device=device, dtype=dtype)
    elif dtype in integral:
        info = torch.iinfo(dtype)
        # int64's top value cannot be an exclusive bound one past itself
        highest = info.max + (0 if dtype is torch.int64 else 1)
        low, high = _bounds(
            dtype,
            low,
            high,
            lowest=info.min,
            highest=highest,
            default_low=-9,
            default_high=10,
            integral=True,
        )
        result = torch.randint(low, high, shape, device=device, dtype=dtype)
    elif dtype in floating:
        info = torch.finfo(dtype)
        low, high = _bounds(
            dtype,
            low,
            high,
            lowest=info.min,
            highest=info.max,
            default_low=-9,
            default_high=9,
            integral=False,
        )
        result = torch.empty(shape, device=device, dtype=dtype)
        target = torch.view_as_real(result) if result.is_complex() else result
        if high - low >= info.max:
            # the span overflows the dtype: draw half of it and double
            target.uniform_(low / 2, high / 2).mul_(2)
        else:
            target.uniform_(low, high)
    else:
        raise TypeError(
            f"The requested dtype '{dtype}' is not supported by torch.testing.make_tensor()."
        )

    if noncontiguous:
        result = result[..., 1::2]
    elif memory_format is not None:
        result = result.clone(memory_format=memory_format)
    if exclude_zero:
        integral_like = dtype is torch.bool or dtype in integral
        result[result == 0] = 1 if integral_like else torch.finfo(dtype).tiny
    if dtype in floating:
        result.requires_grad = requires_grad
    return result
