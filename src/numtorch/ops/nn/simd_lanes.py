"""Which elements torch's CPU kernels handle in SIMD vectors and which one at a time.

Note [SIMD lanes and NaN]
A few torch kernels give NaN another answer in their vector form than in their scalar form
(a vector mask ``(x < -l) | (x > l)`` is false at NaN where the scalar test
``!(x >= -l && x <= l)`` is true; a vector maximum propagates NaN where ``std::max`` skips
it). Which form meets an element depends on the vector width: torch runs its AVX512
kernels (64-byte vectors) where the CPU has them, AVX2's (32 bytes) elsewhere, and a loop
over ``n`` elements in memory order takes ``n // width * width`` of them in vectors and
the rest one at a time.
"""

from __future__ import annotations

try:
    from numpy._core._multiarray_umath import __cpu_features__ as _CPU
except ImportError:  # NumPy 1.x
    from numpy.core._multiarray_umath import __cpu_features__ as _CPU

from ...backend import xp

_AVX512 = ("AVX512F", "AVX512BW", "AVX512VL", "AVX512DQ")
SIMD_BYTES = 64 if all(_CPU.get(f) for f in _AVX512) else 32


def vector_lanes(array, vectors=1):
    """A bool array: whether each element of ``array`` falls in the vector part of a loop
    over its elements in memory order that takes ``vectors`` vectors a step (Note [SIMD
    lanes and NaN])."""
    n = array.size
    width = SIMD_BYTES // array.dtype.itemsize * vectors
    # the elements' ranks in memory: axes ordered by decreasing stride
    order = sorted(range(array.ndim), key=lambda d: -abs(array.strides[d]))
    ranks = xp.arange(n).reshape([array.shape[d] for d in order])
    ranks = ranks.transpose([order.index(d) for d in range(array.ndim)])
    return ranks < n // width * width
