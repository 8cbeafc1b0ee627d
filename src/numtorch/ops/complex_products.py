"""Complex mm, mv, dot and vdot with infinite or NaN parts, as torch's CPU kernels compute them.

Each complex product is the textbook one (re = ar br - ai bi, im = ar bi + ai br), summed per
part; which parts turn NaN then depends on where the kernel multiplies by alpha = 1 + 0j
(a complex product: ``(inf + 0j) * (1 + 0j)`` is ``inf + nanj``):

- mv (gemv): the result times alpha; with one column (k = 1) the vector times alpha first;
- mm: with a single column (n = 1) and more than one row, the result times alpha (gemv);
  with a column-major second operand (a transposed view, as the backward's ``grad @ B^H``)
  and no dimension of 1, the result times alpha below a size (fewer than 4 rows where the
  first operand is column-major too, else fewer than 8 columns in complex64 and 12 in
  complex128), else no alpha; otherwise with fewer than 4 rows, or k = 1, the first operand
  times alpha first (the small-matrix kernel); else no alpha;
- dot and vdot (the first vector conjugated): no alpha.

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


# complex64 and complex128 (by item size): below this many columns torch's kernel for a
# column-major second operand multiplies the result by alpha
_COLUMNS = {8: 8, 16: 12}


def _column_major(a) -> bool:
    """Whether torch would hand this matrix to BLAS transposed (unit stride down columns);
    torch asks for a row-major layout first, and copies one that is neither."""
    row_major = a.strides[1] == a.itemsize and a.strides[0] >= a.itemsize * max(1, a.shape[1])
    return not row_major and a.strides[0] == a.itemsize and a.strides[1] >= a.itemsize * a.shape[0]


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
    columns = mat2.shape[1]
    if columns == 1 and rows > 1:  # gemv
        return _times_alpha(_by_parts(input, mat2))
    if min(rows, k, columns) > 1 and _column_major(mat2):
        small = rows < 4 if _column_major(input) else columns < _COLUMNS[mat2.dtype.itemsize]
        product = _by_parts(input, mat2)
        return _times_alpha(product) if small else product
    if rows < 4 or k == 1:
        input = _times_alpha(input)
    return _by_parts(input, mat2)


def dot(input, tensor):
    if _finite(input, tensor):
        return xp.dot(input, tensor)
    return _by_parts(input, tensor)


def vdot(input, other):
    if _finite(input, other):
        return xp.vdot(input, other)
    return _by_parts(xp.conj(input), other)
