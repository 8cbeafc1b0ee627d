"""Which dtypes an op's kernel runs, declared on its entry (defop's ``dtypes=``).

Note [Kernel dtypes]
torch's kernels are compiled for a list of dtypes (``AT_DISPATCH_..._TYPES``): ``lt`` has no
complex loop, ``softmax`` no integer one, ``mm`` no bool one, and a call with another dtype
raises ``"lt_cpu" not implemented for 'ComplexFloat'`` (NotImplementedError), or the op's own
message where it checks first (``maximum not implemented for complex tensors.``). NumPy has
loops for almost everything, so an entry names the dtypes its torch kernel runs, and the
runners check the dtype the op computes in (after promotion: ``erf`` of an integer tensor
runs in float) against that set, once, at the op boundary: a set membership, generated only
into the runners of ops that declare one.
"""

from __future__ import annotations

from ..backend import xp
from . import dtypes as _dtypes

BOOL = frozenset({xp.dtype(bool)})
INTEGRAL = frozenset(
    xp.dtype(t) for t in (xp.uint8, xp.int8, xp.int16, xp.int32, xp.int64)
)  # torch's "integral types" (uint16/32/64 are barely supported types)
UNSIGNED_WIDE = frozenset(xp.dtype(t) for t in (xp.uint16, xp.uint32, xp.uint64))
HALVES = frozenset({xp.dtype(xp.float16), _dtypes.BFLOAT16_NP})
FLOATING = frozenset({xp.dtype(xp.float32), xp.dtype(xp.float64)})
COMPLEX = frozenset({xp.dtype(xp.complex64), xp.dtype(xp.complex128)})
EVERY = BOOL | INTEGRAL | UNSIGNED_WIDE | HALVES | FLOATING | COMPLEX
REAL = EVERY - COMPLEX
NUMBERS = EVERY - BOOL
FLOATS = HALVES | FLOATING  # torch's AT_DISPATCH_FLOATING_TYPES_AND2(Half, BFloat16)


class KernelDtypes:
    """The dtypes an op's kernel runs, and the error for any other."""

    __slots__ = ("supported", "kernel", "message", "error_type")

    def __init__(self, supported, kernel=None, message=None, error_type=NotImplementedError):
        self.supported = frozenset(supported)
        self.kernel = kernel  # torch's kernel name, for "<kernel>" not implemented for '<T>'
        # or the op's own message ({dtype}: torch's scalar name; {kind}: complex, bool, ...)
        self.message = message
        self.error_type = error_type

    def error(self, np_dtype) -> Exception:
        name = _dtypes.from_numpy_dtype(np_dtype).scalar_name
        if self.message is None:
            return NotImplementedError(f"\"{self.kernel}\" not implemented for '{name}'")
        kind = {"c": "complex", "b": "bool"}.get(np_dtype.kind, name)
        error = self.error_type(self.message.format(dtype=name, kind=kind))
        # the op's own check: an in-place op raises it before its output's checks when the
        # output itself has the refused dtype (clamp_ of a complex tensor; a bool tensor
        # clamped by a complex bound fails the cast first)
        error.refused_dtype = np_dtype
        return error

    def in_kernel(self, np_dtype) -> bool:
        """Whether the kernel refuses ``np_dtype`` (after the iterator has checked the
        shapes), rather than the op's own check before it."""
        return self.message is None

    def check(self, np_dtype) -> None:
        if np_dtype not in self.supported:
            raise self.error(np_dtype)

    def check_tensor(self, tensor) -> None:
        """For functions composed of several ops that torch runs as one kernel."""
        if tensor._data.dtype not in self.supported:
            raise self.error(tensor._data.dtype)


def kernel(name: str, supported) -> KernelDtypes:
    """A kernel that raises ``"<name>" not implemented for '<T>'`` outside ``supported``."""
    return KernelDtypes(supported, kernel=name)


def own_message(supported, message: str, error_type=RuntimeError) -> KernelDtypes:
    """An op that checks the dtype itself, with its own message, before its kernel runs."""
    return KernelDtypes(supported, message=message, error_type=error_type)
