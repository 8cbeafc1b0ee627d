"""Complex mm, mv and dot with infinite or NaN parts, as torch's CPU kernels compute them.

Each complex product is the textbook one (re = ar br - ai bi, im = ar bi + ai br), summed per
part; which parts turn NaN then depends on where the kernel multiplies by alpha = 1 + 0j
(a complex product: ``(inf + 0j) * (1 + 0j)`` is ``inf + nanj``):

- mv (gemv): the result times alpha; with one column (k = 1) the vector times alpha first;
- mm: with a single column (n = 1) and more than one row, the result times alpha (gemv);
  otherwise with fewer than 4 rows, or k = 1, the first operand times alpha first (the
  small-matrix kernel); else no alpha;
- dot: no alpha.

Finite operands take NumPy's products: the values agree up to rounding.
"""

from __future__ import annotations

from ..backend import xp

_ALPHA = 1 + 0j


def _finite(*arrays) -> bool:
    return all(a.dtype.kind != "c" or xp.isfinite(a).all() for a in arrays)


def _by_parts(a, b):
    """``a @ b`` with each complex product written out and the sums taken per part (NumPy's
    complex BLAS calls combine the parts of infinite products in another order)."""
    ar, ai, br, bi = a.real, a.imag, b.real, b.imag
    with xp.errstate(all="ignore"):
        real = xp.matmul(ar, br) - xp.matmul(ai, bi)
        imag = xp.matmul(ar, bi) + xp.matmul(ai, br)
    out = xp.empty(real.shape, xp.result_type(a, b))
    out.real, out.imag = real, imag
    return out


def _times_alpha(a):
    with xp.errstate(all="ignore"):
        return a * a.dtype.type(_ALPHA)


def mv(input, vec):
    if _finite(input, vec):
        return xp.matmul(input, vec)
    if input.shape[1] == 1:
        return _by_parts(input, _times_alpha(vec))
    return _times_alpha(_by_parts(input, vec))


def mm(input, mat2):
    if _finite(input, mat2):
        return xp.matmul(input, mat2)
    rows, k = input.shape
    if mat2.shape[1] == 1 and rows > 1:  # gemv
        return _times_alpha(_by_parts(input, mat2))
    if rows < 4 or k == 1:
        input = _times_alpha(input)
    return _by_parts(input, mat2)


def dot(input, tensor):
    if _finite(input, tensor):
        return xp.dot(input, tensor)
    return _by_parts(input, tensor)
