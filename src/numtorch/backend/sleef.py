"""SLEEF's single-precision vector ``exp`` (``expf_u10``), step by step on NumPy: the exp
torch's CPU kernels take in their vector loops where they call ``Vectorized<float>::exp``
(sigmoid's, for one). Its result is within one ulp but not always the correctly rounded
one, so a correctly rounded exp gives other bits for a few percent of values; following its
steps (a Cody-Waite reduction by ln 2 and a degree-7 polynomial, each step one fused
multiply-add) gives SLEEF's bits.

Each fused step runs in float64, where the product of two float32 values is exact, and is
rounded once to float32 (through a float32 buffer, in place, to keep the passes few)."""

from __future__ import annotations

from . import xp

_F = xp.float32
_LOG2_E = _F(1.442695040888963407359924681001892137426645954152985934135449406931)
_LN2_HIGH = float(_F(-0.693145751953125))  # ln 2 in two parts: q * high is exact
_LN2_LOW = float(_F(-1.428606765330187045e-06))
_LEADING = float(_F(0.000198527617612853646278381))
_POLYNOMIAL = [
    float(_F(c))
    for c in (
        0.00139304355252534151077271,
        0.00833336077630519866943359,
        0.0416664853692054748535156,
        0.166666671633720397949219,
        0.5,
    )
]


def expf_u10(d):
    """``exp`` of a float32 array as SLEEF's ``expf_u10`` computes it."""
    with xp.errstate(all="ignore"):
        q = xp.rint(d * _LOG2_E).astype(xp.int32)
        q64 = q.astype(xp.float64)
        narrow = xp.empty(d.shape, _F)

        def rounded(wide):  # wide rounded to float32, in place
            xp.copyto(narrow, wide, casting="same_kind")
            xp.copyto(wide, narrow)
            return wide

        s = rounded(xp.multiply(q64, _LN2_HIGH) + d)
        s = rounded(xp.multiply(q64, _LN2_LOW, out=xp.empty_like(q64)) + s)
        u = rounded(s * _LEADING + _POLYNOMIAL[0])
        for coefficient in _POLYNOMIAL[1:]:
            u *= s
            u += coefficient
            rounded(u)
        square = rounded(s * s)
        u *= square
        u += s
        rounded(u)
        u += 1.0
        xp.copyto(narrow, u, casting="same_kind")  # 1 + (s + s^2 u), rounded
        # u * 2^q in two steps, so that neither power overflows before the product does
        half = q >> 1
        out = narrow * xp.ldexp(_F(1), half)
        out *= xp.ldexp(_F(1), q - half)
        out[d < -104] = 0
        out[d > 100] = xp.inf
        return out


def _load_expf():
    import ctypes
    import ctypes.util

    try:
        library = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
        function = library.expf
    except (OSError, AttributeError):
        return None
    function.restype, function.argtypes = ctypes.c_float, [ctypes.c_float]
    return xp.frompyfunc(function, 1, 1)


_EXPF = []  # the C library's expf, loaded on first use ([None] where there is none)


def libm_expf(d):
    """``exp`` of a float32 array as the C library's ``expf`` computes it (the scalar loops
    of torch's kernels call it): correctly rounded almost always, but not always. Without a
    C library to call, the correctly rounded value."""
    if not _EXPF:
        _EXPF.append(_load_expf())
    if _EXPF[0] is None or not d.size:
        return xp.exp(d.astype(xp.float64)).astype(_F)
    return _EXPF[0](d).astype(_F)
