"""``torch.special``: the special functions, under torch's names and aliases.

Not provided: the orthogonal polynomials (``chebyshev_polynomial_t``, ...), the Bessel
functions of the first and second kind (``bessel_j0``, ...), ``airy_ai`` and the modified
Bessel functions of the second kind.
"""

from __future__ import annotations

from .ops.bessel import i0, i0e, i1, i1e  # noqa: F401
from .ops.gamma import digamma, polygamma, zeta  # noqa: F401
from .ops.gamma import lgamma as gammaln  # noqa: F401
from .ops.gamma import mvlgamma as _mvlgamma
from .ops.incomplete_gamma import igamma as gammainc  # noqa: F401
from .ops.incomplete_gamma import igammac as gammaincc  # noqa: F401
from .ops.nn.activation import erf, erfc  # noqa: F401
from .ops.normal import erfcx, erfinv, log_ndtr, ndtr, ndtri  # noqa: F401
from .ops.pointwise import _round_decimals, exp2, expm1, log1p  # noqa: F401
from .ops.pointwise import sigmoid as expit  # noqa: F401
from .ops.reduction import logsumexp as _logsumexp
from .ops.softmax import log_softmax as _log_softmax
from .ops.softmax import softmax as _softmax
from .ops.special import entr, logit, sinc, xlog1py, xlogy  # noqa: F401

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
