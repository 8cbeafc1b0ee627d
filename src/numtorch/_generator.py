"""torch's CPU random generator: a 32-bit Mersenne Twister (mt19937) seeded as torch seeds it.

Note [torch's random streams]
torch's CPU generator is mt19937 seeded with the low 32 bits of the seed (Knuth's
initialisation, the same as NumPy's legacy ``RandomState`` seeding), so NumPy's ``MT19937``
bit generator yields torch's raw 32-bit words, many at a time (``random_raw``). A 64-bit
draw is two words, the first one high. Each distribution then turns words into values the
way torch's CPU kernels do (``_random_kernels.py``). Besides the twister, the generator
keeps the second value of the last per-element Box-Muller pair (torch's
``next_double_normal_sample``), which the next per-element normal draw returns first.

The state is torch's 5056-byte ``CPUGeneratorImplState``: the initial seed, ``left`` and
``next`` (where the twister stands), ``seeded``, the 624 state words widened to 64 bits,
the cached normal values and their flags; states move between numtorch and torch.
"""

from __future__ import annotations

import numbers
import os
import struct

from ._core.device import device
from ._core.tensor import Tensor
from .backend import xp

_STATE_WORDS = 624
_STATE_BYTES = 5056
_HEADER = struct.Struct("<qiiQ")  # initial seed, left, seeded, next
_NORMALS = struct.Struct("<dddi")  # normal_x, normal_y (the cached double), normal_rho, valid
_FLOAT_NORMAL = struct.Struct("<f?")  # the cached float and its flag
_WORDS_AT = _HEADER.size
_NORMALS_AT = _WORDS_AT + 8 * _STATE_WORDS
_FLOAT_NORMAL_AT = _NORMALS_AT + _NORMALS.size + 4  # 4 bytes of padding before it

default_seed = 67280421310721  # torch's seed for a generator nobody seeded


class Generator:
    """A random number generator giving torch's CPU streams for the same seed.

    Example:
        >>> import numtorch as torch
        >>> g = torch.Generator().manual_seed(0)
        >>> torch.rand(2, generator=g)
        tensor([0.4963, 0.7682])
    """

    def __init__(self, device="cpu"):
        self._bits = xp.random.MT19937()
        self.manual_seed(default_seed)

    def manual_seed(self, seed: int) -> Generator:
        if type(seed) is not int:  # a Python int only (torch.manual_seed converts first)
            if isinstance(seed, numbers.Integral) and not isinstance(seed, (bool, Tensor)):
                raise TypeError("an integer is required")
            kind = type(seed)
            name = (
                kind.__name__
                if kind.__module__ in ("builtins", Tensor.__module__)
                else (f"{kind.__module__}.{kind.__name__}")
            )
            raise RuntimeError(f"manual_seed expected a long, but got {name}")
        if not -(2**63) <= seed < 2**64:
            raise ValueError("Overflow when unpacking long long")
        self._seed = seed & (2**64 - 1)
        self._bits.state = xp.random.RandomState(seed & 0xFFFFFFFF).get_state(legacy=False)
        self._fresh = True  # torch reports next=0 until the first draw
        self._next_double_normal = None
        self._next_float_normal = None
        return self

    def seed(self) -> int:
        seed = int.from_bytes(os.urandom(8), "little")
        self.manual_seed(seed)
        return seed

    def initial_seed(self) -> int:
        return self._seed

    def get_state(self) -> Tensor:
        bits = self._bits.state["state"]
        pos = int(bits["pos"])
        left, next_ = (1, 0) if self._fresh else (_STATE_WORDS + 1 - pos, pos)
        seed = self._seed - 2**64 if self._seed >= 2**63 else self._seed
        raw = bytearray(_STATE_BYTES)
        _HEADER.pack_into(raw, 0, seed, left, 1, next_)
        raw[_WORDS_AT:_NORMALS_AT] = bits["key"].astype("<u8").tobytes()
        double = self._next_double_normal
        _NORMALS.pack_into(raw, _NORMALS_AT, 0.0, double or 0.0, 0.0, double is not None)
        single = self._next_float_normal
        _FLOAT_NORMAL.pack_into(raw, _FLOAT_NORMAL_AT, single or 0.0, single is not None)
        return Tensor._make(xp.frombuffer(bytes(raw), dtype=xp.uint8).copy())

    def set_state(self, new_state: Tensor) -> Generator:
        if not isinstance(new_state, Tensor) or new_state._data.dtype != xp.uint8:
            raise TypeError("RNG state must be a torch.ByteTensor")
        raw = new_state._data.tobytes()
        if len(raw) != _STATE_BYTES:
            raise RuntimeError(
                f"Expected a CPUGeneratorImplState of size {_STATE_BYTES} but found the input "
                f"RNG state size to be {len(raw)}"
            )
        seed, left, _, next_ = _HEADER.unpack_from(raw, 0)
        if not 1 <= left <= _STATE_WORDS:
            raise RuntimeError(f"The input RNG state has an invalid 'left' value: {left}")
        words = xp.frombuffer(raw, dtype="<u8", count=_STATE_WORDS, offset=_WORDS_AT)
        key = (words & 0xFFFFFFFF).astype(xp.uint32)
        self._bits.state = {
            "bit_generator": "MT19937",
            "state": {"key": key, "pos": _STATE_WORDS + 1 - left},
        }
        self._seed = seed & (2**64 - 1)
        self._fresh = left == 1 and next_ == 0
        _, double, _, valid = _NORMALS.unpack_from(raw, _NORMALS_AT)
        self._next_double_normal = double if valid else None
        single, single_valid = _FLOAT_NORMAL.unpack_from(raw, _FLOAT_NORMAL_AT)
        self._next_float_normal = single if single_valid else None
        return self

    @property
    def device(self):
        return device("cpu")

    # -- raw draws (Note [torch's random streams]) --------------------------------------------
    def words(self, n: int):
        """The next ``n`` 32-bit words (as uint64), torch's ``random()``."""
        if n:
            self._fresh = False
        return self._bits.random_raw(int(n))

    def words64(self, n: int):
        """The next ``n`` 64-bit draws, torch's ``random64()``: two words, the first high."""
        pairs = self.words(2 * n)
        high = pairs[0::2] << xp.uint64(32)
        high |= pairs[1::2]
        return high


default_generator = Generator()


def generator_or_default(generator) -> Generator:
    if generator is None:
        return default_generator
    if not isinstance(generator, Generator):
        raise TypeError(f"expected a torch.Generator, but got {type(generator).__name__}")
    return generator
