"""Bitwise shifts: ``bitwise_left_shift``, ``bitwise_right_shift`` and ``<<``, ``>>``.

Integer-only, as torch's kernels; a left shift wraps within the dtype and a shift by the
dtype's width or more gives 0 (right shifts of negatives give -1: arithmetic shifts)."""

from __future__ import annotations

from .. import _dtypes
from .._tensor import Tensor
from ..backend import xp
from .registry import defop, export


def _shift(kernel: str, left: bool):
    def forward(input, other):
        dtype = xp.result_type(input, other)
        if dtype.kind not in "iub":
            name = _dtypes.from_numpy_dtype(dtype).scalar_name
            raise NotImplementedError(f"\"{kernel}\" not implemented for '{name}'")
        a = xp.asarray(input, dtype=dtype)
        amount = xp.asarray(other, dtype=dtype)
        bits = dtype.itemsize * 8
        too_far = (amount < 0) | (amount >= bits)
        safe = xp.where(too_far, 0, amount).astype(dtype)
        out = (a << safe) if left else (a >> safe)
        if left:
            return xp.where(too_far, 0, out).astype(dtype)
        overflow = xp.where(a < 0, -1, 0) if dtype.kind == "i" else 0
        return xp.where(too_far, overflow, out).astype(dtype)

    return forward


bitwise_left_shift = export(
    defop(name="bitwise_left_shift", promote="same", scalars=("input", "other"))(
        _shift("lshift_cpu", True)
    ),
    inplace=True,
)
bitwise_right_shift = export(
    defop(name="bitwise_right_shift", promote="same", scalars=("input", "other"))(
        _shift("rshift_cpu", False)
    ),
    inplace=True,
)


def _operator(fn, reflected=False):
    def method(self, other):
        if not isinstance(other, (Tensor, int, float, bool)):
            return NotImplemented
        return fn(other, self) if reflected else fn(self, other)

    return method


Tensor.__lshift__ = _operator(bitwise_left_shift)
Tensor.__rshift__ = _operator(bitwise_right_shift)
Tensor.__rlshift__ = _operator(bitwise_left_shift, True)
Tensor.__rrshift__ = _operator(bitwise_right_shift, True)
Tensor.__ilshift__ = lambda self, other: self.bitwise_left_shift_(other)
Tensor.__irshift__ = lambda self, other: self.bitwise_right_shift_(other)
