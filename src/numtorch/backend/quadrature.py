"""Gaussian quadrature nodes and weights (NumPy's), for the special functions' integrals."""

from functools import cache

from numpy.polynomial.laguerre import laggauss
from numpy.polynomial.legendre import leggauss


@cache
def gauss_legendre(n: int, a: float, b: float):
    """Nodes and weights of the n-point Gauss-Legendre rule on [a, b]."""
    nodes, weights = leggauss(n)
    half = (b - a) / 2.0
    return (nodes + 1.0) * half + a, weights * half


@cache
def gauss_laguerre(n: int):
    """Nodes and weights of the n-point Gauss-Laguerre rule: int_0^inf e^(-v) f(v) dv."""
    return laggauss(n)
