"""float32 ``log`` and ``sincos`` as torch's AVX2 normal fill computes them.

torch's float32 ``normal_`` of 16 or more contiguous elements evaluates Box-Muller with
Cephes' single-precision polynomials (range reduction, then a short polynomial), not the C
library's functions. Repeating the same float32 operations in NumPy, in the same order,
gives the same bits; ``fused`` marks the multiply-adds that torch's compiler contracts
(found by comparing with torch: 16,000 values of 5 seeds, every bit equal).
"""

from __future__ import annotations

from .backend import xp

f32 = xp.float32
_SQRT_HALF = f32(0.707106781186547524)
_LOG_P = [
    f32(v)
    for v in (
        7.0376836292e-2,
        -1.1514610310e-1,
        1.1676998740e-1,
        -1.2420140846e-1,
        1.4249322787e-1,
        -1.6668057665e-1,
        2.0000714765e-1,
        -2.4999993993e-1,
        3.3333331174e-1,
    )
]
_LOG_Q1, _LOG_Q2 = f32(-2.12194440e-4), f32(0.693359375)
_FOUR_OVER_PI = f32(1.27323954473516)
_DP = [f32(-0.78515625), f32(-2.4187564849853515625e-4), f32(-3.77489497744594108e-8)]
_SIN_P = [f32(-1.9515295891e-4), f32(8.3321608736e-3), f32(-1.6666654611e-1)]
_COS_P = [f32(2.443315711809948e-005), f32(-1.388731625493765e-003), f32(4.166664568298827e-002)]


f64 = xp.float64


def fused(a, b, c, out=None):
    """``a * b + c`` rounded once to float32 (the float64 product of two floats is exact);
    two passes: the product in double, then the sum rounded to float32 into ``out``."""
    wide = xp.multiply(a, b, dtype=f64)
    if out is None:
        out = xp.empty(wide.shape, f32)
    return xp.add(wide, c, out=out, dtype=f64, casting="same_kind")


def log(x):
    """Natural log of positive normal floats: exponent and mantissa in [sqrt(1/2), sqrt(2))."""
    bits = x.view(xp.int32)
    e = ((bits >> 23) - 0x7F).astype(f32)
    e += f32(1)
    m = bits & ~0x7F800000
    m |= 0x3F000000
    m = m.view(f32)  # the mantissa in [0.5, 1)
    small = m < _SQRT_HALF
    e -= small
    shift = _select(small, m, xp.zeros_like(m))
    m -= f32(1)
    m += shift
    z = m * m
    y = fused(m, _LOG_P[0], _LOG_P[1])
    for p in _LOG_P[2:]:
        fused(y, m, p, out=y)
    # where both operands of an add are products, torch's compiler fused the earlier one
    y *= m
    xp.multiply(e, _LOG_Q1, out=shift)
    fused(y, z, shift, out=y)
    fused(z, f32(-0.5), y, out=y)
    y += m
    return fused(e, _LOG_Q2, y, out=y)


def sincos(x):
    """``(sin(x), cos(x))`` for float32 ``x``, Cephes' range reduction by pi/4."""
    sign_sin = xp.signbit(x)
    x = xp.abs(x)
    j = (x * _FOUR_OVER_PI).astype(xp.int32)
    j += 1
    j &= ~1
    y = j.astype(f32)
    swap_sin = (j & 4) != 0
    swapped = (j & 2) != 0  # there sin takes the cosine polynomial and cos the sine one
    fused(y, _DP[0], x, out=x)
    fused(y, _DP[1], x, out=x)
    fused(y, _DP[2], x, out=x)
    j -= 2
    j &= 4
    sign_cos = j == 0
    sign_sin ^= swap_sin
    z = x * x
    c = fused(z, _COS_P[0], _COS_P[1])
    fused(c, z, _COS_P[2], out=c)
    c *= z
    xp.multiply(z, f32(-0.5), out=y)  # -(z * 0.5), exactly
    fused(c, z, y, out=c)
    c += f32(1)
    s = fused(z, _SIN_P[0], _SIN_P[1])
    fused(s, z, _SIN_P[2], out=s)
    s *= z
    fused(s, x, x, out=s)
    sin = _select(swapped, c, s)
    cos = _select(swapped, s, c)
    _negate(sin, sign_sin)
    _negate(cos, sign_cos)
    return sin, cos


# NumPy's masked ``where`` and ``negative(where=)`` branch per element (several times slower
# than the polynomials on large arrays); the same results come from bit operations on the
# float32 bits, which take more calls: small arrays keep the masked ufuncs.
_BITWISE_FROM = 2048


def _select(mask, a, b):
    """``where(mask, a, b)`` for float32 arrays, as a new array."""
    if mask.size < _BITWISE_FROM:
        return xp.where(mask, a, b)
    ones = mask.view(xp.int8).astype(xp.int32)
    xp.negative(ones, out=ones)  # all bits set where mask
    out = a.view(xp.int32) ^ b.view(xp.int32)
    out &= ones
    out ^= b.view(xp.int32)
    return out.view(f32)


def _negate(x, mask):
    """``x[mask] = -x[mask]`` in place: flip the sign bit."""
    if mask.size < _BITWISE_FROM:
        xp.negative(x, out=x, where=mask)
        return
    sign = mask.view(xp.int8).astype(xp.int32)
    sign <<= 31
    x.view(xp.int32)[...] ^= sign
