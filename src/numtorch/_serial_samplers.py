"""torch's serial samplers: Poisson, Gamma and binomial, whose number of draws per element
depends on the values drawn (rejection loops), run element by element as torch's CPU kernels
run them.

The loops run in Python over the elements, on uniforms taken from blocks of the
generator's words (Note [torch's random streams] in ``_generator.py``); ``SerialDraws.close``
rewinds the generator to just past the words the loops used, so the stream continues as
torch's does.
"""

from __future__ import annotations

import math

from . import _random_kernels as kernels
from .backend import xp

_BLOCK = 256
_THIRD = float(xp.float32(1.0) / xp.float32(3.0))  # torch writes 1.0f / 3.0f
_SQUEEZE = float(xp.float32(0.0331))  # torch's 0.0331f


class SerialDraws:
    """Double uniforms and normals handed out one at a time, as torch's serial kernels draw
    them (``uniform_real_distribution<double>``, ``normal_distribution<double>``)."""

    def __init__(self, gen):
        self._gen = gen
        self._start = gen._bits.state
        self._fresh = gen._fresh
        self._values: list = []
        self._next = 0
        self._used = 0

    def uniform(self) -> float:
        if self._next == len(self._values):
            self._values = kernels.unit_float(self._gen, _BLOCK, xp.float64).tolist()
            self._next = 0
        self._next += 1
        self._used += 1
        return self._values[self._next - 1]

    def normal(self) -> float:
        gen = self._gen
        if gen._next_double_normal is not None:
            value, gen._next_double_normal = gen._next_double_normal, None
            return value
        u1, u2 = self.uniform(), self.uniform()
        radius = math.sqrt(-2.0 * math.log1p(-u2))
        theta = 2.0 * math.pi * u1
        gen._next_double_normal = radius * math.sin(theta)
        return radius * math.cos(theta)

    def close(self) -> None:
        cached = self._gen._next_double_normal
        self._gen._bits.state = self._start
        self._gen._fresh = self._fresh
        self._gen.words(2 * self._used)
        self._gen._next_double_normal = cached


def _poisson_one(rate: float, draws: SerialDraws) -> int:
    if rate >= 10:  # transformed rejection (Hoermann 1993), torch's constants
        slam, loglam = math.sqrt(rate), math.log(rate)
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        invalpha = 1.1239 + 1.1328 / (b - 3.4)
        vr = 0.9277 - 3.6224 / (b - 2)
        while True:
            u = draws.uniform() - 0.5
            v = draws.uniform()
            us = 0.5 - abs(u)
            k = math.floor((2 * a / us + b) * u + rate + 0.43)
            if us >= 0.07 and v <= vr:
                return k
            if k < 0 or (us < 0.013 and v > us):
                continue
            bound = -rate + k * loglam - math.lgamma(k + 1.0)
            if math.log(v) + math.log(invalpha) - math.log(a / (us * us) + b) <= bound:
                return k
    if rate == 0:
        return 0
    limit, count, product = math.exp(-rate), 0, 1.0
    while True:  # multiply uniforms until the product falls below exp(-rate)
        product *= draws.uniform()
        if product <= limit:
            return count
        count += 1


def poisson(gen, rates):
    """``torch.poisson``: one serial Poisson draw per rate, in row-major order."""
    draws = SerialDraws(gen)
    try:
        values = [_poisson_one(r, draws) for r in rates.astype(xp.float64).reshape(-1).tolist()]
    finally:
        draws.close()
    return xp.asarray(values, dtype=rates.dtype).reshape(rates.shape)


def _gamma_one(alpha, draws: SerialDraws, kind) -> float:
    # Marsaglia and Tsang (2000), with torch's float constants and its float arithmetic on
    # alpha where alpha is a float. A negative or NaN alpha runs the same steps with C's
    # IEEE semantics (a NaN ``d`` ends in a NaN draw, which the caller raises to the
    # smallest normal number), since those steps decide how many draws the stream gives up.
    scale = 1.0
    if alpha < 1.0:
        if alpha == 0:
            return 0.0
        with xp.errstate(all="ignore"):
            exponent = float(kind(1.0) / alpha)
            alpha = alpha + kind(1.0)
        scale *= _c_pow(1.0 - draws.uniform(), exponent)
    d = float(alpha - kind(_THIRD))
    c = 1.0 / math.sqrt(9.0 * d) if d > 0 else math.inf if d == 0 else math.nan
    while True:
        while True:
            x = draws.normal()
            y = 1.0 + c * x
            if not y <= 0:  # C's do-while (y <= 0): a NaN y leaves the loop
                break
        v = y * y * y
        u = 1.0 - draws.uniform()
        xx = x * x
        if u < 1.0 - _SQUEEZE * xx * xx:
            return scale * d * v
        if math.log(u) < 0.5 * xx + d * (1.0 - v + (math.log(v) if v > 0 else -math.inf)):
            return scale * d * v


def _c_pow(base: float, exponent: float) -> float:
    try:
        return base**exponent
    except (OverflowError, ZeroDivisionError):  # C's pow: inf where it overflows
        return math.inf


def standard_gamma(gen, alpha):
    """``torch._standard_gamma``: one serial Gamma(alpha, 1) draw per element, never below the
    dtype's smallest normal number."""
    kind = alpha.dtype.type if alpha.dtype in (xp.float32, xp.float64) else xp.float32
    draws = SerialDraws(gen)
    try:
        flat = alpha.astype(kind).reshape(-1)
        values = [_gamma_one(a, draws, kind) for a in flat]
    finally:
        draws.close()
    out = xp.asarray(values, dtype=xp.float64).astype(alpha.dtype).reshape(alpha.shape)
    # torch's std::max(min, draw): a NaN draw becomes the smallest normal number too
    return xp.fmax(out, xp.finfo(alpha.dtype).tiny)


_TAIL = [  # log(k!) minus its Stirling approximation, k = 0..9 (torch's table)
    0.0810614667953272,
    0.0413406959554092,
    0.0276779256849983,
    0.02079067210376509,
    0.0166446911898211,
    0.0138761288230707,
    0.0118967099458917,
    0.0104112652619720,
    0.00925546218271273,
    0.00833056343336287,
]


def _stirling_tail(k: float) -> float:
    if k <= 9:
        return _TAIL[int(k)]
    square = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / square) / square) / (k + 1)


def _binomial_inversion(count, prob, draws: SerialDraws):
    logprob = math.log1p(-float(prob))
    total, successes = 0.0, 0
    while True:  # count geometric waiting times until they pass count
        total += math.ceil(math.log(draws.uniform()) / logprob)
        if total > count:
            return successes
        successes += 1


def _btrs(count, prob, draws: SerialDraws, kind):
    # Hoermann's transformed rejection with torch's constants and arithmetic
    n, p = float(count), float(prob)
    stddev = float(xp.sqrt(count * prob * (kind(1) - prob)))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * p
    c = float(count * prob) + 0.5
    v_r = 0.92 - 4.2 / b
    r = p / (1 - p)
    alpha = (2.83 + 5.1 / b) * stddev
    m = math.floor((n + 1) * p)
    while True:
        u = draws.uniform() - 0.5
        v = draws.uniform()
        us = 0.5 - abs(u)
        k = float(kind(math.floor((2 * a / us + b) * u + c)))
        if k < 0 or k > n:
            continue
        if us >= 0.07 and v <= v_r:
            return k
        v = math.log(v * alpha / (a / (us * us) + b))
        bound = (
            (m + 0.5) * math.log((m + 1) / (r * (n - m + 1)))
            + (n + 1) * math.log((n - m + 1) / (n - k + 1))
            + (k + 0.5) * math.log(r * (n - k + 1) / (k + 1))
            + _stirling_tail(m)
            + _stirling_tail(n - m)
            - _stirling_tail(k)
            - _stirling_tail(n - k)
        )
        if v <= bound:
            return k


def _binomial_one(count, prob, draws: SerialDraws, kind) -> float:
    if count <= 0 or prob <= 0:
        return 0.0
    if prob >= 1:
        return float(count)
    if prob <= 0.5:
        if count * prob >= 10:
            return _btrs(count, prob, draws, kind)
        return _binomial_inversion(count, prob, draws)
    if prob > 0.5:  # sample the failures
        q = kind(1.0 - float(prob))
        if count * q >= 10:
            return float(count) - _btrs(count, q, draws, kind)
        return float(count) - _binomial_inversion(count, q, draws)
    return math.nan


def binomial(gen, count, prob):
    """``torch.binomial``: one serial draw per (broadcast) pair of count and probability."""
    kind = count.dtype.type if count.dtype in (xp.float32, xp.float64) else xp.float32
    count, prob = xp.broadcast_arrays(count.astype(kind), prob.astype(kind))
    draws = SerialDraws(gen)
    try:
        pairs = zip(count.reshape(-1), prob.reshape(-1))
        values = [_binomial_one(c, p, draws, kind) for c, p in pairs]
    finally:
        draws.close()
    return xp.asarray(values, dtype=xp.float64).astype(count.dtype).reshape(count.shape)
