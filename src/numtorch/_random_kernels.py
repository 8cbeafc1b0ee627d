"""torch's CPU sampling kernels, vectorised over the generator's words.

Each function returns a NumPy array of values, drawn as torch's CPU kernel draws them from
the same generator (Note [torch's random streams] in ``_generator.py``): the same words, the
same bit masks, the same arithmetic. Two kinds of rounding are torch's compiler's:

- ``x * (to - from) + from`` and ``value * std + mean`` are fused multiply-adds in torch's
  AVX2 build, so they are computed here with one rounding (``fma``).
- torch calls the C library's ``log``/``log1p``/``exp``/``tan`` on doubles; NumPy's SIMD
  versions differ from them in the last bit for a few percent of arguments, so results
  that stay double (``exact``) use Python's ``math`` functions (the C library's) up to
  ``_EXACT_LIMIT`` elements, NumPy's beyond. Results rounded to float take NumPy's: a last-bit
  difference in double survives the rounding to float about once in 2^29 values.

torch's float32 normal fill for 16 or more elements uses Cephes' float polynomials for log,
sin and cos (its AVX2 kernel): ``_cephes_float.py`` repeats them.
"""

from __future__ import annotations

import math

from . import _cephes_float as cephes
from .backend import xp

_EXACT_LIMIT = 1 << 16
_SMALL = 64  # up to this many serial normals, Python floats beat NumPy's per-call cost
_MASK53 = 2**53 - 1
_MASK21 = _MASK53 >> 32  # the high word's share of 53 bits
_TWO_PI = 2.0 * math.pi
_ROWS = 4096  # rows of 16 values per block of the normal fill
_LIBM = {name: xp.frompyfunc(getattr(math, name), 1, 1) for name in ("log", "log1p", "exp", "tan")}


def libm(name: str, x, exact: bool = True):
    """The C library's ``name`` on doubles where ``exact`` (NumPy's on float32, past
    ``_EXACT_LIMIT`` elements, or where the result is rounded to float anyway)."""
    if not exact or x.dtype != xp.float64 or x.size > _EXACT_LIMIT:
        return getattr(xp, name)(x)
    return _LIBM[name](x).astype(xp.float64)


def _split(a):
    # Veltkamp: a == hi + lo exactly, each with at most 26 significant bits
    c = a * 134217729.0
    hi = c - (c - a)
    return hi, a - hi


def fma(x, c, a, out=None):
    """``x * c + a`` rounded once, as torch's fused multiply-add computes it (an exact product
    and an exact sum, then one rounding of their remainders); ``out`` only for float32."""
    x = xp.asarray(x)
    if c == 1 and a == 0:  # nothing to round
        return x
    if x.dtype == xp.float32:  # the product of two floats is exact in double
        return cephes.fused(x, xp.float32(c), xp.float32(a), out=out)
    c = xp.float64(c)
    p = x * c
    xh, xl = _split(x)
    ch, cl = _split(c)
    e = ((xh * ch - p) + xh * cl + xl * ch) + xl * cl  # x * c == p + e exactly
    s = p + a
    bb = s - p
    t = (p - (s - bb)) + (a - bb)  # p + a == s + t exactly
    return s + (t + e)


# -- uniform --------------------------------------------------------------------------------
def unit_float(gen, n: int, dtype):
    """torch's ``uniform_real_distribution<T>(0, 1)`` values before scaling: 53 bits of a
    64-bit draw for double, 24 bits of a word otherwise (half types draw as float)."""
    if dtype == xp.float64:
        bits = gen.words64(n)
        bits &= xp.uint64(_MASK53)
        u = bits.astype(xp.float64)
        u *= 2.0**-53
        return u
    bits = gen.words(n)
    bits &= xp.uint64(2**24 - 1)
    u = bits.astype(xp.float32)  # exact: fewer than 24 bits
    u *= xp.float32(2.0**-24)
    return u


def uniform(gen, n: int, dtype, low=0.0, high=1.0):
    """``uniform_(low, high)``: the bounds cast to the tensor's dtype, then ``x*(to-from)+from``."""
    kind = xp.dtype(dtype).type
    if kind not in (xp.float32, xp.float64):  # half types compute in float
        kind = xp.float32
    low, high = kind(low), kind(high)
    x = unit_float(gen, n, kind)
    if low == 0 and high == 1:  # x * 1 + 0: nothing to round
        return x.astype(dtype, copy=False)
    return fma(x, high - low, low, out=x if kind == xp.float32 else None).astype(dtype, copy=False)


# -- normal ---------------------------------------------------------------------------------
def _box_muller_pairs(gen, pairs: int, exact: bool):
    """torch's ``normal_distribution<double>``: ``r*cos`` then ``r*sin`` per pair of draws."""
    u = unit_float(gen, 2 * pairs, xp.float64)
    radius = xp.sqrt(-2.0 * libm("log1p", -u[1::2], exact))
    theta = 2.0 * math.pi * u[0::2]
    values = xp.empty(2 * pairs)
    values[0::2] = radius * xp.cos(theta)
    values[1::2] = radius * xp.sin(theta)
    return values


def _box_muller_small(gen, pairs: int) -> list:
    """``_box_muller_pairs`` in Python floats and the C library's functions (the same
    operations in the same order, so the same doubles)."""
    words = gen.words(4 * pairs).tolist()
    values = []
    sqrt, log1p, cos, sin = math.sqrt, math.log1p, math.cos, math.sin
    for high1, low1, high2, low2 in zip(*[iter(words)] * 4):
        theta = _TWO_PI * (((high1 & _MASK21) << 32 | low1) * 2.0**-53)
        radius = sqrt(-2.0 * log1p(-(((high2 & _MASK21) << 32 | low2) * 2.0**-53)))
        values += (radius * cos(theta), radius * sin(theta))
    return values


def normal_serial(gen, n: int, mean=0.0, std=1.0, exact: bool = True, dtype=xp.float64):
    """Per-element normal draws in double, with the generator's cached second value, rounded
    to ``dtype`` after ``value * std + mean``."""
    head = []
    if n and gen._next_double_normal is not None:
        head = [gen._next_double_normal]
        gen._next_double_normal = None
    rest = n - len(head)
    if exact and n <= _SMALL:
        values = head + _box_muller_small(gen, (rest + 1) // 2)
        if rest % 2:
            gen._next_double_normal = values.pop()
        if std == 1 and mean == 0 and dtype in (xp.float32, xp.float64):
            return xp.array(values, dtype)
        return fma(xp.array(values, xp.float64), std, mean).astype(dtype)
    values = _box_muller_pairs(gen, (rest + 1) // 2, exact)
    if rest % 2:
        gen._next_double_normal = float(values[-1])
        values = values[:-1]
    values = xp.concatenate([xp.asarray(head, xp.float64), values])
    return fma(values, std, mean).astype(dtype, copy=False)


def _fill_16(u, mean, std, exact: bool, out):
    """torch's ``normal_fill_16`` on rows of 16 uniforms, written into ``out``: Box-Muller of
    columns j and j + 8."""
    kind = u.dtype.type
    if kind == xp.float32:  # torch's AVX2 fill: Cephes' float polynomials, 2*pi as a float
        radius = cephes.log(kind(1.0) - u[:, :8])
        radius *= kind(-2.0)
        sin, cos = cephes.sincos(kind(2.0 * math.pi) * u[:, 8:])
    else:
        radius = libm("log", 1.0 - u[:, :8], exact)
        radius *= -2.0
        theta = 2.0 * math.pi * u[:, 8:]
        sin, cos = xp.sin(theta), xp.cos(theta)
    xp.sqrt(radius, out=radius)
    xp.multiply(radius, cos, out=out[:, :8])
    xp.multiply(radius, sin, out=out[:, 8:])
    if std != 1 or mean != 0:
        out[...] = fma(out, std, mean)


def normal(gen, n: int, dtype, mean=0.0, std=1.0, contiguous: bool = True):
    """``normal_(mean, std)``: the 16-wide fill for 16+ contiguous elements, else per element."""
    if n < 16 or not contiguous:  # exact: the cached second value stays double
        return normal_serial(gen, n, mean, std, dtype=dtype)
    kind = xp.dtype(dtype).type
    whole = n // 16 * 16
    # half types fill a float buffer through the float kernel, drawing only the whole blocks'
    # uniforms before the redrawn last 16
    half = kind not in (xp.float32, xp.float64)
    work = xp.float32 if half else kind
    u = unit_float(gen, whole if half else n, work)
    out = xp.empty(n, work)
    rows = u[:whole].reshape(-1, 16)
    done = out[:whole].reshape(-1, 16)
    for start in range(0, len(rows), _ROWS):  # in blocks: the temporaries stay in cache
        block = slice(start, start + _ROWS)
        _fill_16(rows[block], work(mean), work(std), n <= _EXACT_LIMIT, done[block])
    if n % 16:  # torch redraws the last 16 values and fills them as one block
        tail = unit_float(gen, 16, work).reshape(1, 16)
        _fill_16(tail, work(mean), work(std), True, tail)
        out[n - 16 :] = tail.reshape(-1)
    return out.astype(dtype, copy=False)


# -- integers -------------------------------------------------------------------------------
def random_from_to(gen, n: int, dtype, low: int, high: int):
    """``random_(from, to)``/``randint``: a word modulo the range (a 64-bit draw when the range
    needs more than 32 bits and the dtype can hold it)."""
    span = high - low
    wide = span >= 2**32 and xp.dtype(dtype) in (xp.int64, xp.float64, xp.float32)
    if wide:
        values = (gen.words64(n) % xp.uint64(span)).astype(xp.int64)
    elif span < 2**32:  # words and span fit 32 bits: the narrower division is faster
        values = (gen.words(n).astype(xp.uint32) % xp.uint32(span)).astype(xp.int64)
    else:
        values = (gen.words(n) % xp.uint64(span)).astype(xp.int64)
    values += xp.int64(low)
    return values.astype(dtype, copy=False)


def random_full(gen, n: int, dtype):
    """``random_()``: a word modulo the dtype's largest exactly held integer plus one."""
    kind = xp.dtype(dtype)
    if kind == xp.bool_:
        return (gen.words(n) & xp.uint64(1)).astype(xp.bool_)
    if kind == xp.int64:
        return (gen.words64(n) % xp.uint64(2**63)).astype(xp.int64)
    if kind == xp.float64:
        return (gen.words64(n) % xp.uint64(2**53 + 1)).astype(xp.float64)
    if kind.kind == "f" or kind.kind == "V" or kind.name == "bfloat16":
        digits = {xp.float32: 24, xp.float16: 11}.get(kind.type, 8)
        return (gen.words(n) % xp.uint64(2**digits + 1)).astype(dtype)
    return (gen.words(n) % xp.uint64(int(xp.iinfo(kind).max) + 1)).astype(dtype)


def randperm(gen, n: int):
    """torch's forward Fisher-Yates: for i < n - 1, swap i with i + word % (n - i)."""
    if n <= 1:
        return xp.arange(n, dtype=xp.int64)
    if n <= 2**32:  # words and ranges fit 32 bits: the narrower division is faster
        offsets = gen.words(n - 1).astype(xp.uint32) % xp.arange(n, 1, -1, dtype=xp.uint32)
    else:
        offsets = gen.words(n - 1) % xp.arange(n, 1, -1, dtype=xp.uint64)
    target = xp.arange(n, dtype=xp.int64)
    target[:-1] += offsets.astype(xp.int64)
    return swaps_to_permutation(target)


def swaps_to_permutation(target):
    """The array left by swapping positions i and ``target[i]`` (>= i) for i = 0, 1, ...,
    without the serial loop (Note [Swaps without a loop])."""
    # Note [Swaps without a loop]
    # Step i writes position i for good and position target[i]. So position i ends with the
    # value that target[i] held before step i: the value the previous step aiming at the
    # same position carried there, or target[i] itself if none did; and what a step carries
    # is what its own position held before it: the value the last earlier step aiming at it
    # brought, or its index. Following those "brought by" links back to a step nothing
    # reached before gives that index; pointer jumping follows all links in log(n) passes.
    n = len(target)
    index = xp.arange(n)
    if n < 2**31:  # a plain sort of (target, step) pairs (distinct keys) is the stable grouping
        key = target << 32
        key |= index
        key.sort()
        grouped = key >> 32
        order = key & 0xFFFFFFFF
    else:
        order = xp.argsort(target, kind="stable")
        grouped = target[order]
    before = xp.empty(n, xp.int64)  # the previous step aiming at the same position
    before[order[0]] = -1
    before[order[1:]] = _choose(grouped[1:] == grouped[:-1], order[:-1], -1)
    last = xp.full(n, -1)  # the last step aiming at each position
    last[grouped] = order  # later steps of a group overwrite earlier ones
    fixed = target == index
    brought = _choose(fixed, before, last)
    root = _choose(brought < 0, index, brought)
    while True:
        nxt = root[root]
        if (nxt == root).all():
            break
        root = nxt
    carried = _choose(before < 0, target, root[xp.maximum(before, 0)])
    return _choose(fixed, root, carried)


def _choose(mask, a, b):
    """``where(mask, a, b)`` for int64 values by arithmetic (NumPy's ``where`` branches per
    element, several times slower on random masks)."""
    out = a - b
    out *= mask
    out += b
    return out


# -- the other distributions ----------------------------------------------------------------
def bernoulli_scalar(gen, n: int, p: float):
    """``bernoulli_(p)`` for a number ``p``: a double uniform below ``p``."""
    if not 0 <= p <= 1:
        return unit_float(gen, n, xp.float64) < p
    # bits * 2**-53 < p exactly when the 53 bits are below ceil(p * 2**53): compare integers
    pairs = gen.words(2 * n).reshape(n, 2)
    bits = pairs[:, 0] & xp.uint64(_MASK53 >> 32)
    bits <<= xp.uint64(32)
    bits |= pairs[:, 1]
    return bits < xp.uint64(math.ceil(p * 2.0**53))


def bernoulli_tensor(gen, p):
    """``bernoulli(p)`` for a tensor of probabilities: a float uniform, or a double one when
    ``p`` is double, below each element."""
    kind = xp.float64 if p.dtype == xp.float64 else xp.float32
    return unit_float(gen, p.size, kind).reshape(p.shape) < p.astype(kind, copy=False)


# ``exact``: the values stay double (see the module's docstring)
def exponential(gen, n: int, lambd: float, exact: bool = True):
    u = unit_float(gen, n, xp.float64)
    return xp.float64(-1.0 / lambd) * libm("log1p", -u, exact)


def geometric(gen, n: int, p: float, exact: bool = True):
    return xp.ceil(libm("log", unit_float(gen, n, xp.float64), exact) / math.log1p(-p))


def cauchy(gen, n: int, median: float, sigma: float, exact: bool = True):
    u = unit_float(gen, n, xp.float64)
    return fma(libm("tan", math.pi * (u - 0.5), exact), sigma, median)


def log_normal(gen, n: int, mean: float, std: float, exact: bool = True):
    return libm("exp", normal_serial(gen, n, mean, std, exact), exact)


def multinomial(gen, probs, num_samples: int, replacement: bool):
    """Rows of category indices, as torch's CPU kernel draws them."""
    if not replacement or num_samples == 1:
        # torch's exponential race: the largest p / Exp(1) win
        exact = probs.dtype == xp.float64
        noise = exponential(gen, probs.size, 1.0, exact).astype(probs.dtype)
        noise = noise.reshape(probs.shape)
        keys = probs / noise
        return xp.argsort(-keys, axis=-1, kind="stable")[:, :num_samples]
    work = probs.dtype if probs.dtype in (xp.float32, xp.float64) else xp.float32
    cdf = xp.cumsum(probs.astype(work), axis=-1)
    total = cdf[:, -1:]
    cdf = xp.where(total > 0, cdf / total, cdf).astype(xp.float64)
    cdf[:, -1] = 1.0
    draws = unit_float(gen, probs.shape[0] * num_samples, xp.float64)
    draws = draws.reshape(probs.shape[0], num_samples)
    return xp.stack([xp.searchsorted(c, d, side="left") for c, d in zip(cdf, draws)])
