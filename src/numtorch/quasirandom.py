"""``torch.quasirandom.SobolEngine``: the Sobol' sequence, point for point as torch draws it
(Gray-code order, 30-bit integers, the first point all zeros unless scrambled).

Direction numbers: dimension 1 is van der Corput's; the others come from Joe and Kuo's
published primitive polynomials and initial numbers (new-joe-kuo-6), of which the first
``MAX_DIMENSION`` are tabulated here (degree s, coefficient bits a, initial m_1..m_s).
"""

from __future__ import annotations

from . import _creation
from ._core import dtypes
from ._core.tensor import Tensor
from .backend import xp

# (s, a, m_1..m_s) for dimensions 2, 3, ...
_JOE_KUO = [
    (1, 0, (1,)),
    (2, 1, (1, 3)),
    (3, 1, (1, 3, 1)),
    (3, 2, (1, 1, 1)),
    (4, 1, (1, 1, 3, 3)),
    (4, 4, (1, 3, 5, 13)),
    (5, 2, (1, 1, 5, 5, 17)),
    (5, 4, (1, 1, 5, 5, 5)),
    (5, 7, (1, 1, 7, 11, 19)),
    (5, 11, (1, 1, 5, 1, 1)),
    (5, 13, (1, 1, 1, 3, 11)),
    (5, 14, (1, 3, 5, 5, 31)),
    (6, 1, (1, 3, 3, 9, 7, 49)),
    (6, 13, (1, 1, 1, 15, 21, 21)),
    (6, 16, (1, 3, 1, 13, 27, 49)),
]
MAXBIT = 30
MAX_DIMENSION = len(_JOE_KUO) + 1


def _direction_numbers(dimension):
    v = xp.zeros((dimension, MAXBIT), dtype=xp.int64)
    v[0] = 1 << (MAXBIT - 1 - xp.arange(MAXBIT))
    for d in range(1, dimension):
        s, a, m = _JOE_KUO[d - 1]
        for j in range(MAXBIT):
            if j < s:
                v[d, j] = m[j] << (MAXBIT - 1 - j)
                continue
            # v_j = v_{j-s} ^ (v_{j-s} >> s) ^ sum over the polynomial's inner coefficients
            value = v[d, j - s] ^ (v[d, j - s] >> s)
            for k in range(1, s):
                if (a >> (s - 1 - k)) & 1:
                    value ^= v[d, j - k]
            v[d, j] = value
    return v


def _lowest_zero_bit(n: int) -> int:
    return (~n & (n + 1)).bit_length() - 1


class SobolEngine:
    """Draws Sobol' points in [0, 1)^dimension.

    >>> SobolEngine(2).draw(3)
    tensor([[0.0000, 0.0000],
            [0.5000, 0.5000],
            [0.7500, 0.2500]])
    """

    MAXBIT = MAXBIT
    MAXDIM = MAX_DIMENSION

    def __init__(self, dimension: int, scramble: bool = False, seed: int | None = None):
        if not 1 <= dimension <= 21201:
            raise ValueError("Supported range of dimensionality for SobolEngine is [1, 21201]")
        if dimension > MAX_DIMENSION:
            raise NotImplementedError(
                f"SobolEngine supports dimensions up to {MAX_DIMENSION} here (torch's go to "
                f"21201; the direction numbers beyond are not tabulated), got {dimension}"
            )
        self.seed, self.scramble, self.dimension = seed, scramble, dimension
        self._directions = _direction_numbers(dimension)
        self._shift = xp.zeros(dimension, dtype=xp.int64)
        if scramble:
            self._scramble()
        # torch divides the first point in the default dtype once, and casts that on draw
        self._first_point = (self._shift / 2.0**MAXBIT).astype(dtypes.get_default_dtype().np)
        self.reset()

    def _scramble(self):
        # Owen-style linear matrix scrambling with a digital shift, drawn as torch draws them
        # (from a generator seeded with ``seed``, else the global one): the shift's bits, then
        # one random lower-triangular bit matrix per dimension with its diagonal set to 1.
        # Each direction number's bits (most significant first) are multiplied by that
        # matrix modulo 2.
        generator = None if self.seed is None else _creation.Generator().manual_seed(self.seed)
        shift_bits = _creation.randint(2, (self.dimension, MAXBIT), generator=generator)._data
        self._shift = shift_bits @ (1 << xp.arange(MAXBIT, dtype=xp.int64))
        ltm = _creation.randint(2, (self.dimension, MAXBIT, MAXBIT), generator=generator)._data
        ltm = xp.tril(ltm)
        ltm[:, xp.arange(MAXBIT), xp.arange(MAXBIT)] = 1
        powers = 1 << (MAXBIT - 1 - xp.arange(MAXBIT, dtype=xp.int64))
        bits = (self._directions[:, :, None] & powers) != 0  # (dimension, j, bit k)
        scrambled = (ltm[:, None, :, :] * bits[:, :, None, :]).sum(-1) % 2  # (d, j, bit p)
        self._directions = scrambled @ powers

    def reset(self) -> SobolEngine:
        self._quasi = self._shift.copy()
        self.num_generated = 0
        return self

    def _next(self):
        # the n-th point (n >= 1) flips the direction of the lowest zero bit of n - 1
        self._quasi = self._quasi ^ self._directions[:, _lowest_zero_bit(self.num_generated - 1)]

    def draw(self, n: int = 1, out: Tensor | None = None, dtype=None) -> Tensor:
        """The next ``n`` points, as an (n, dimension) tensor (of the default dtype unless
        ``dtype`` is given)."""
        dtype = dtypes.get_default_dtype() if dtype is None else dtype
        rows, from_start = [], self.num_generated == 0
        for _ in range(n):
            if self.num_generated:
                self._next()
            rows.append(self._quasi.copy())
            self.num_generated += 1
        points = xp.stack(rows) if rows else xp.zeros((0, self.dimension), dtype=xp.int64)
        points = (points / 2.0**MAXBIT).astype(dtype.np)
        if from_start and n:
            points[0] = self._first_point
        result = Tensor._make(points)
        if out is not None:
            out.resize_as_(result).copy_(result)
            return out
        return result

    def draw_base2(self, m: int, out: Tensor | None = None, dtype=None) -> Tensor:
        """The next ``2**m`` points, keeping the sequence's balance."""
        n = 2**m
        total = n + self.num_generated
        if total & (total - 1):
            raise ValueError(
                "The balance properties of Sobol' points require n to be a power of 2. "
                f"{self.num_generated} points have been previously generated, then: "
                f"n={self.num_generated}+2**{m}={total}. If you still want to do this, please "
                "use 'SobolEngine.draw()' instead."
            )
        return self.draw(n, out=out, dtype=dtype)

    def fast_forward(self, n: int) -> SobolEngine:
        """Skips the next ``n`` points."""
        for _ in range(n):
            if self.num_generated:
                self._next()
            self.num_generated += 1
        return self

    def __repr__(self) -> str:
        fields = [f"dimension={self.dimension}"]
        if self.scramble:
            fields.append("scramble=True")
        if self.seed is not None:
            fields.append(f"seed={self.seed}")
        return f"{type(self).__name__}({', '.join(fields)})"
