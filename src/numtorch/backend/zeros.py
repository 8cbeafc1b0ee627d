"""Efficient zeros: torch's ZeroTensor, the gradient it gives where a derivative is zero by
definition (sgn of a real tensor).

Note [Efficient zeros]
torch's ZeroTensor is all zeros and stays so through the kernels that have a ZeroTensor
form: a product or a quotient with one is zeros whatever the other operand holds (0 * inf
and 0 * NaN are 0 there), a sum with one is the other operand (its -0.0 kept), a
reduction of one is zeros. Every other kernel reads it as ordinary zeros: its negation is
an ordinary -0.0 array. ``EfficientZeros`` is an array of
zeros that NumPy's ufuncs treat the same way; functions that build new arrays (where,
concatenate) give ordinary arrays, as torch's other kernels do.
"""

from __future__ import annotations

import numpy as xp

# ufuncs whose result is zeros wherever one operand is: torch's ZeroTensor mul and div
_ABSORBING = {xp.multiply, xp.true_divide, xp.matmul}
_SUMS = {xp.add, xp.subtract}
# (torch's neg has no ZeroTensor form: it negates materialized zeros, giving -0.0)
_UNARY_ZERO = {xp.positive, xp.conjugate}


class EfficientZeros(xp.ndarray):
    """An array of zeros that absorbs products and vanishes from sums (Note [Efficient
    zeros])."""

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        plain = [x.view(xp.ndarray) if isinstance(x, EfficientZeros) else x for x in inputs]
        if kwargs.get("out") is not None:
            kwargs["out"] = tuple(
                o.view(xp.ndarray) if isinstance(o, EfficientZeros) else o for o in kwargs["out"]
            )
            return getattr(ufunc, method)(*plain, **kwargs)
        result = getattr(ufunc, method)(*plain, **kwargs)
        if not isinstance(result, xp.ndarray):
            return result
        zeros = [isinstance(x, EfficientZeros) for x in inputs]
        if method == "reduce" and ufunc is xp.add:
            return efficient_zeros(result.shape, result.dtype)
        if method != "__call__":
            return result
        if ufunc in _SUMS and all(zeros):
            return efficient_zeros(result.shape, result.dtype)
        if ufunc in _SUMS and any(zeros):
            # a sum with zeros is the other operand (a -0.0 in it stays -0.0); zeros minus
            # it is its negation
            other = plain[1] if zeros[0] else plain[0]
            if ufunc is xp.subtract and zeros[0]:
                other = xp.negative(other)
            return xp.array(xp.broadcast_to(other, result.shape), dtype=result.dtype)
        if ufunc in _UNARY_ZERO or (
            ufunc in _ABSORBING and (zeros[0] or ufunc is not xp.true_divide and any(zeros))
        ):
            return efficient_zeros(result.shape, result.dtype)
        return result


# torch's message for any in-place change of a ZeroTensor (a leaf's .grad can be one)
IMMUTABLE = (
    "ZeroTensors are immutable. Please use the materialized zero tensor obtained using "
    ".clone() if you want a mutable tensor."
)


def efficient_zeros(shape, dtype) -> EfficientZeros:
    zeros = xp.zeros(shape, dtype).view(EfficientZeros)
    zeros.flags.writeable = False  # immutable, as torch's: in-place ops refuse it (IMMUTABLE)
    return zeros
