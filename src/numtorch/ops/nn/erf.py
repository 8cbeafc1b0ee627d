"""The error function, which NumPy lacks: W. J. Cody's rational approximations.

W. J. Cody, "Rational Chebyshev approximations for the error function", Math. Comp. 23
(1969), 631-637; the coefficients are those of Netlib's SPECFUN ``CALERF``. Three intervals
of ``y = |x|``: ``erf(x) = x P(x^2) / Q(x^2)`` for ``y <= 0.46875``; beyond,
``erfc(y) = exp(-y^2) R(y)`` with one rational ``R`` up to 4 and an asymptotic one past 4.
Float64 results agree with ``math.erf`` to a few units in the last place.
"""

from __future__ import annotations

import math

from ...backend import layout, xp

_A = (
    3.16112374387056560e00,
    1.13864154151050156e02,
    3.77485237685302021e02,
    3.20937758913846947e03,
    1.85777706184603153e-1,
)
_B = (
    2.36012909523441209e01,
    2.44024637934444173e02,
    1.28261652607737228e03,
    2.84423683343917062e03,
)
_C = (
    5.64188496988670089e-1,
    8.88314979438837594e00,
    6.61191906371416295e01,
    2.98635138197400131e02,
    8.81952221241769090e02,
    1.71204761263407058e03,
    2.05107837782607147e03,
    1.23033935479799725e03,
    2.15311535474403846e-8,
)
_D = (
    1.57449261107098347e01,
    1.17693950891312499e02,
    5.37181101862009858e02,
    1.62138957456669019e03,
    3.29079923573345963e03,
    4.36261909014324716e03,
    3.43936767414372164e03,
    1.23033935480374942e03,
)
_P = (
    3.05326634961232344e-1,
    3.60344899949804439e-1,
    1.25781726111229246e-1,
    1.60837851487422766e-2,
    6.58749161529837803e-4,
    1.63153871373020978e-2,
)
_Q = (
    2.56852019228982242e00,
    1.87295284992346047e00,
    5.27905102951428412e-1,
    6.05183413124413191e-2,
    2.33520497626869185e-3,
)
_SQRT_PI_INV = 5.6418958354775628695e-1
_THRESHOLD = 0.46875
_BIG = 26.543  # erfc(y) underflows to 0 beyond this


def _small(x):
    # erf(x) = x P(x^2) / Q(x^2) for |x| <= 0.46875
    z = x * x
    num = _A[4] * z
    den = z
    for i in range(3):
        num = (num + _A[i]) * z
        den = (den + _B[i]) * z
    return x * (num + _A[3]) / (den + _B[3])


def _scaled_exp(y):
    # exp(-y^2), split as exp(-t^2) exp(-(y - t)(y + t)) with t = y rounded down to 1/16, so
    # that y^2 suffers no cancellation (Cody's device)
    t = xp.trunc(y * 16.0) / 16.0
    return xp.exp(-t * t) * xp.exp(-(y - t) * (y + t))


def _erfc_middle(y):
    # erfc(y) for 0.46875 < y <= 4
    num = _C[8] * y
    den = y
    for i in range(7):
        num = (num + _C[i]) * y
        den = (den + _D[i]) * y
    return _scaled_exp(y) * (num + _C[7]) / (den + _D[7])


def _erfc_tail(y):
    # erfc(y) for y > 4 (asymptotic form)
    z = 1.0 / (y * y)
    num = _P[5] * z
    den = z
    for i in range(4):
        num = (num + _P[i]) * z
        den = (den + _Q[i]) * z
    ratio = z * (num + _P[4]) / (den + _Q[4])
    return xp.where(y >= _BIG, 0.0, _scaled_exp(y) * (_SQRT_PI_INV - ratio) / y)  # NaN stays NaN


def _compute(x, complement: bool):
    """erf(x) (or erfc(x)) of a float array, computed in float64 for float32 inputs too."""
    work = x.astype(xp.float64) if x.dtype != xp.float64 else x
    y = xp.abs(work)
    out = layout.empty_like(x, xp.float64)  # (torch's layout of an expanded input)
    small = y <= _THRESHOLD
    middle = (y > _THRESHOLD) & (y <= 4.0)
    tail = ~(small | middle)  # also NaN, which every branch propagates
    if small.any():
        value = _small(work[small])
        out[small] = 1.0 - value if complement else value
    for mask, branch in ((middle, _erfc_middle), (tail, _erfc_tail)):
        if mask.any():
            c = branch(y[mask])
            negative = work[mask] < 0
            if complement:
                out[mask] = xp.where(negative, 2.0 - c, c)
            else:
                e = (0.5 - c) + 0.5
                out[mask] = xp.where(negative, -e, e)
    return out.astype(x.dtype, copy=False)


def erf_array(x):
    """Elementwise erf of a float array."""
    return _compute(x, False)


def erfc_array(x):
    """Elementwise erfc (1 - erf, without cancellation) of a float array."""
    return _compute(x, True)


TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
