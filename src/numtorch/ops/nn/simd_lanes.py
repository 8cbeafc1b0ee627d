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
    """A bool array: whether each element of ``array`` falls in the vector part of torch's
    loop over it that takes ``vectors`` vectors a step (Note [SIMD lanes and NaN]).

    torch's iterator orders the dims by stride and merges those that lie back to back in
    memory into its inner loop; an outer index runs that loop once per row. Each row
    takes ``row // width * width`` elements in vectors, and none where its elements are
    not adjacent (a strided inner dim runs the scalar loop only). An expanded operand
    (a stride of 0) keeps the result's logical order, as the contiguous result torch
    allocates for it; a broadcast inner dim is read as one scalar, in vectors too."""
    item = array.dtype.itemsize
    width = SIMD_BYTES // item * vectors
    strides = array.strides
    dims = [d for d in range(array.ndim) if array.shape[d] > 1]
    if any(strides[d] == 0 for d in dims):
        dims.reverse()  # innermost first
    else:
        dims.sort(key=strides.__getitem__)
    if not dims or strides[dims[0]] not in (0, item):
        return xp.zeros(array.shape, dtype=bool)
    row, position, inner = 1, xp.zeros((1,) * array.ndim, dtype=xp.intp), None
    for d in dims:  # innermost first, while each dim continues the one inside it
        if inner is not None and strides[d] != strides[inner] * array.shape[inner]:
            break
        index = xp.arange(array.shape[d]).reshape([-1 if e == d else 1 for e in range(array.ndim)])
        position = position + index * row
        row *= array.shape[d]
        inner = d
    return xp.broadcast_to(position < row // width * width, array.shape)


# Note [Equal zeros in maximum and minimum]
# Between 0.0 and -0.0, torch's maximum and minimum give their second operand in the vector
# loop (the x86 max/min instructions' rule, which NumPy's maximum and minimum follow
# everywhere) and their first in the scalar loop that takes what is left of each run of
# elements after its last whole vector. A run is the whole array where the operands share
# the result's memory order (or are single values); otherwise each row of the last dim.
def vector_extreme(extreme, a, b):
    """``extreme(a, b)`` (NumPy's maximum or minimum) with torch's choice between equal
    zeros (Note [Equal zeros in maximum and minimum])."""
    result = out = extreme(a, b)
    if out.dtype.kind != "f" or out.size == 0:
        return result
    width = SIMD_BYTES // out.dtype.itemsize
    if out.ndim > 1 and out.flags.f_contiguous and not out.flags.c_contiguous:
        a, b = (_full(x, out.shape).T for x in (a, b))  # memory order, as views
        out = out.T
    if out.flags.c_contiguous and all(_follows(x, out) for x in (a, b)):
        tail = out.size % width
        if tail:
            flat = out.reshape(-1)
            flat[-tail:] = extreme(_last(b, tail), _last(a, tail))
        return result
    a, b = xp.broadcast_to(a, out.shape), xp.broadcast_to(b, out.shape)
    run = out.shape[-1] if out.ndim else 1
    # a row vectorizes only where every operand steps through it densely (or not at all)
    dense = all(x.ndim and x.strides[-1] in (0, x.itemsize) for x in (out, a, b))
    cut = run // width * width if dense else 0
    if cut < run:
        out[..., cut:] = extreme(b[..., cut:], a[..., cut:])
    return result


def _full(x, shape):
    x = xp.asarray(x)
    return x if x.size == 1 else xp.broadcast_to(x, shape)


def _follows(x, out) -> bool:
    x = xp.asarray(x)
    return x.size == 1 or (x.shape == out.shape and x.strides == out.strides)


def _last(x, n):
    x = xp.asarray(x)
    return x.reshape(()) if x.size == 1 else x.reshape(-1)[-n:]
