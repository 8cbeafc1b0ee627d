"""``torch.special``: the special functions, under torch's names and aliases.

Not provided: the orthogonal polynomials (``chebyshev_polynomial_t``, ...), the Bessel
functions of the first and second kind (``bessel_j0``, ...), ``airy_ai`` and the modified
Bessel functions of the second kind.
"""

from __future__ import annotations

from .ops.activations import sigmoid as expit
from .ops.bessel import i0, i0e, i1, i1e
from .ops.bessel_functions import (
    airy_ai,
    bessel_j0,
    bessel_j1,
    bessel_y0,
    bessel_y1,
    modified_bessel_i0,
    modified_bessel_i1,
    modified_bessel_k0,
    modified_bessel_k1,
    scaled_modified_bessel_k0,
    scaled_modified_bessel_k1,
    spherical_bessel_j0,
)
from .ops.boundary import publish_all as _publish_all
from .ops.exponential import exp2, expm1, log1p
from .ops.gamma import digamma, polygamma, zeta
from .ops.gamma import lgamma as gammaln
from .ops.gamma import mvlgamma as _mvlgamma
from .ops.incomplete_gamma import igamma as gammainc
from .ops.incomplete_gamma import igammac as gammaincc
from .ops.nn.activation import erf, erfc
from .ops.normal import erfcx, erfinv, log_ndtr, ndtr, ndtri
from .ops.orthogonal_polynomials import (
    chebyshev_polynomial_t,
    chebyshev_polynomial_u,
    chebyshev_polynomial_v,
    chebyshev_polynomial_w,
    hermite_polynomial_h,
    hermite_polynomial_he,
    laguerre_polynomial_l,
    legendre_polynomial_p,
    shifted_chebyshev_polynomial_t,
    shifted_chebyshev_polynomial_u,
    shifted_chebyshev_polynomial_v,
    shifted_chebyshev_polynomial_w,
)
from .ops.reduction import logsumexp as _logsumexp
from .ops.rounding import _round_decimals
from .ops.softmax import log_softmax as _log_softmax
from .ops.softmax import softmax as _softmax
from .ops.special import entr, logit, sinc, xlog1py, xlogy

psi = digamma


def multigammaln(input, p):
    """The multivariate log-gamma function (``torch.mvlgamma``)."""
    return _mvlgamma(input, p)


def round(input, *, decimals=0):
    """Round to ``decimals`` decimal places (halves to even)."""
    return _round_decimals(input, int(decimals))


def softmax(input, dim, *, dtype=None):
    """``exp(x) / sum(exp(x))`` along ``dim``."""
    return _softmax(input, dim, dtype)


def log_softmax(input, dim, *, dtype=None):
    """``log(softmax(x))`` along ``dim``, computed stably."""
    return _log_softmax(input, dim, dtype)


def logsumexp(input, dim, keepdim=False):
    """``log(sum(exp(x)))`` over ``dim``, computed stably."""
    return _logsumexp(input, dim, keepdim)


# what `from ... import *` gives, and the names type checkers treat as this module's API
__all__ = [
    "digamma",
    "entr",
    "erf",
    "erfc",
    "erfcx",
    "erfinv",
    "exp2",
    "expit",
    "expm1",
    "gammainc",
    "gammaincc",
    "gammaln",
    "i0",
    "i0e",
    "i1",
    "i1e",
    "log1p",
    "log_ndtr",
    "log_softmax",
    "logit",
    "logsumexp",
    "multigammaln",
    "ndtr",
    "ndtri",
    "polygamma",
    "psi",
    "round",
    "sinc",
    "softmax",
    "xlog1py",
    "xlogy",
    "zeta",
    "chebyshev_polynomial_t",
    "chebyshev_polynomial_u",
    "chebyshev_polynomial_v",
    "chebyshev_polynomial_w",
    "hermite_polynomial_h",
    "hermite_polynomial_he",
    "laguerre_polynomial_l",
    "legendre_polynomial_p",
    "shifted_chebyshev_polynomial_t",
    "shifted_chebyshev_polynomial_u",
    "shifted_chebyshev_polynomial_v",
    "shifted_chebyshev_polynomial_w",
    "bessel_j0",
    "bessel_j1",
    "modified_bessel_i0",
    "modified_bessel_i1",
    "modified_bessel_k0",
    "modified_bessel_k1",
    "scaled_modified_bessel_k0",
    "scaled_modified_bessel_k1",
    "spherical_bessel_j0",
    "bessel_y0",
    "bessel_y1",
    "airy_ai",
]

# torch's out= and its errors at the boundary, as the numtorch.<name> functions have them
_publish_all(globals(), __all__, "special_")
