"""The classical orthogonal polynomials of ``torch.special``: Chebyshev (T, U, V, W and their
shifted forms on [0, 1]), Hermite (physicists' H and probabilists' He), Laguerre L and
Legendre P, of degree ``n`` at ``input``.

torch gives these no derivatives: results never require grad. The degree is truncated to an
integer; a negative degree gives 0. Each follows torch's evaluation: closed forms at the
interval's ends, a trigonometric form for high degrees inside (-1, 1) for Chebyshev, and the
three-term recurrence otherwise, so the rounding is torch's.
"""

from __future__ import annotations

from .._core import dtypes
from .._core.tensor import Tensor
from ..backend import xp


def _operands(name, input, n):
    for arg, what in ((input, "input"), (n, "n")):
        if not isinstance(arg, (Tensor, int, float, bool)):
            raise TypeError(
                f"special.{name}(): argument '{what}' must be Tensor or Number, "
                f"not {type(arg).__name__}"
            )
    if not isinstance(input, Tensor) and not isinstance(n, Tensor):
        raise TypeError(f"special.{name}(): expected at least one Tensor argument")
    dtype = dtypes.result_type(input, n)
    if not dtypes.is_floating_point_dtype(dtype):
        if dtype.is_complex:
            raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{dtype.scalar_name}'")
        dtype = dtypes.get_default_dtype()
    x = xp.asarray(input._data if isinstance(input, Tensor) else input, dtype=dtype.np)
    degree = xp.asarray(n._data if isinstance(n, Tensor) else n, dtype=dtype.np)
    x, degree = xp.broadcast_arrays(x, degree)
    # torch casts the degree to int64 (truncation towards zero)
    with xp.errstate(invalid="ignore"):
        degree = xp.where(xp.isfinite(degree), degree, 0).astype(xp.int64)
    return x, degree


def _recurrence(x, n, first, second, step):
    """p_0 = first, p_1 = second, p_{k+1} = step(k, p_k, p_{k-1}) up to each element's n."""
    p, q = first, second
    out = xp.where(n == 0, first, second)
    top = int(n.max()) if n.size else 0
    for k in range(1, top):
        p, q = q, step(k, q, p)
        out = xp.where(n == k + 1, q, out)
    return out


def _evaluate(name, input, n, ends, trig, threshold, first, second, step, shift=False):
    x, degree = _operands(name, input, n)
    one = x.dtype.type(1)
    with xp.errstate(all="ignore"):
        out = _recurrence(x, degree, xp.ones_like(x), second(x), lambda k, q, p: step(x, k, q, p))
        if trig is not None:
            y = x + x - one if shift else x
            inside = (degree > threshold) & (xp.abs(y) < 1)
            out = xp.where(inside, trig(y, degree), out)
        if ends is not None:
            out = ends(x, degree, out)
    out = xp.where(degree < 0, x.dtype.type(0), out)
    return Tensor._make(xp.asarray(out, dtype=x.dtype))


def _parity(n):
    return xp.where(n % 2 == 0, 1, -1)


def _at_ends(at_one, at_minus_one, lower=-1.0):
    """Closed forms at the ends of the interval (1 and ``lower``)."""

    def ends(x, n, out):
        out = xp.where(x == 1, at_one(n), out)
        return xp.where(x == lower, at_minus_one(n), out)

    return ends


def _chebyshev(name, ends, trig, threshold, second, shift=False):
    def fn(input, n):
        def step(x, k, q, p):
            y = x + x - 1 if shift else x
            return (y + y) * q - p

        return _evaluate(name, input, n, ends, trig, threshold, None, second, step, shift)

    fn.__name__ = name
    fn.__doc__ = f"torch.special.{name}: the polynomial of degree ``n`` at ``input``."
    return fn


def _t_trig(y, n):
    return xp.cos(n * xp.arccos(y))


def _u_trig(y, n):
    theta = xp.arccos(y)
    return xp.sin((n + 1) * theta) / xp.sin(theta)


def _v_trig(y, n):
    theta = xp.arccos(y)
    return xp.cos((n + 0.5) * theta) / xp.cos(theta / 2)


def _w_trig(y, n):
    theta = xp.arccos(y)
    return xp.sin((n + 0.5) * theta) / xp.sin(theta / 2)


_T_ENDS = (lambda n: 1, _parity)
_U_ENDS = (lambda n: n + 1, lambda n: _parity(n) * (n + 1))
_V_ENDS = (lambda n: 1, lambda n: _parity(n) * (n + n + 1))
_W_ENDS = (lambda n: n + n + 1, _parity)

chebyshev_polynomial_t = _chebyshev(
    "chebyshev_polynomial_t", _at_ends(*_T_ENDS), _t_trig, 6, lambda x: x
)
chebyshev_polynomial_u = _chebyshev(
    "chebyshev_polynomial_u", _at_ends(*_U_ENDS), _u_trig, 8, lambda x: x + x
)
chebyshev_polynomial_v = _chebyshev(
    "chebyshev_polynomial_v", _at_ends(*_V_ENDS), _v_trig, 8, lambda x: x + x - 1
)
chebyshev_polynomial_w = _chebyshev(
    "chebyshev_polynomial_w", _at_ends(*_W_ENDS), _w_trig, 8, lambda x: x + x + 1
)
shifted_chebyshev_polynomial_t = _chebyshev(
    "shifted_chebyshev_polynomial_t",
    _at_ends(*_T_ENDS, 0.0),
    _t_trig,
    6,
    lambda x: x + x - 1,
    shift=True,
)
shifted_chebyshev_polynomial_u = _chebyshev(
    "shifted_chebyshev_polynomial_u",
    _at_ends(*_U_ENDS, 0.0),
    _u_trig,
    6,
    lambda x: x + x - 1 + (x + x - 1),
    shift=True,
)
shifted_chebyshev_polynomial_v = _chebyshev(
    "shifted_chebyshev_polynomial_v",
    _at_ends(*_V_ENDS, 0.0),
    _v_trig,
    6,
    lambda x: x + x - 1 + (x + x - 1) - 1,
    shift=True,
)
shifted_chebyshev_polynomial_w = _chebyshev(
    "shifted_chebyshev_polynomial_w",
    _at_ends(*_W_ENDS, 0.0),
    _w_trig,
    4,
    lambda x: x + x - 1 + (x + x - 1) + 1,
    shift=True,
)


def hermite_polynomial_h(input, n):
    """torch.special.hermite_polynomial_h: H_n, with H_{k+1} = 2x H_k - 2k H_{k-1}."""
    return _evaluate(
        "hermite_polynomial_h",
        input,
        n,
        None,
        None,
        0,
        None,
        lambda x: x + x,
        lambda x, k, q, p: (x + x) * q - (k + k) * p,
    )


def hermite_polynomial_he(input, n):
    """torch.special.hermite_polynomial_he: He_n, with He_{k+1} = x He_k - k He_{k-1}."""
    return _evaluate(
        "hermite_polynomial_he",
        input,
        n,
        None,
        None,
        0,
        None,
        lambda x: x,
        lambda x, k, q, p: x * q - k * p,
    )


def laguerre_polynomial_l(input, n):
    """torch.special.laguerre_polynomial_l: L_n, with
    (k + 1) L_{k+1} = (2k + 1 - x) L_k - k L_{k-1}; L_n(0) = 1."""

    def ends(x, n, out):
        return xp.where(x == 0, 1, out)

    return _evaluate(
        "laguerre_polynomial_l",
        input,
        n,
        ends,
        None,
        0,
        None,
        lambda x: 1 - x,
        lambda x, k, q, p: (((k + k) + (1 - x)) * q - k * p) / (k + 1),
    )


def legendre_polynomial_p(input, n):
    """torch.special.legendre_polynomial_p: P_n, with
    (k + 1) P_{k+1} = (2k + 1) x P_k - k P_{k-1}."""
    return _evaluate(
        "legendre_polynomial_p",
        input,
        n,
        _at_ends(lambda n: 1, _parity),
        None,
        0,
        None,
        lambda x: x,
        lambda x, k, q, p: ((k + k + 1) * x * q - k * p) / (k + 1),
    )
