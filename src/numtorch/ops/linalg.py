"""Matrix products: mm, bmm, mv, dot, addmm, matmul (composed like torch's), outer, einsum
(the other scaled-and-added products are in scaled_products.py)."""

from __future__ import annotations

import collections
import math
import string

from .._core import batch_rules
from .._core.dispatch import broadcast_shape, kernel_scales, require_tensors
from .._core.dtypes import bool_, int64, promote_types
from .._core.kernel_dtypes import NUMBERS, kernel
from .._core.observers import composite, dispatch
from .._core.op import defop, export
from .._core.tensor import Tensor, _read_dim
from ..autograd.forward_grad import add_terms, align, batch_shift, batched
from ..backend import xp
from . import complex_products
from .pointwise import _conj
from .shape import _unsafe_view
from .sparse import SparseTensor, check_dense_matrix, sparse_addmm, sparse_product


def _same_dtype(a: Tensor, b: Tensor, name: str) -> None:
    if a._data.dtype != b._data.dtype:
        raise RuntimeError(
            f"{name}: expected m1 and m2 to have the same dtype, but got: {a.dtype.c_name} != "
            f"{b.dtype.c_name}"
        )


def _column_major(shape, strides) -> bool:
    """A matrix laid out column by column (and not also row by row), from its strides (a
    dim of size 1 may have any stride, as in NumPy's flags)."""
    rows, columns = shape
    if rows == 0 or columns == 0:
        return False
    by_columns = (rows == 1 or strides[0] == 1) and (columns == 1 or strides[1] == rows)
    by_rows = (columns == 1 or strides[1] == 1) and (rows == 1 or strides[0] == columns)
    return by_columns and not by_rows


def _mat2_grad(grad, mat1, mat2_strides):
    # torch's mm_mat2_backward: when mat2 is column-major (typically weight.t() in linear),
    # compute the transposed product so that the gradient, once transposed back to the
    # weight's layout, is C-contiguous and lands in .grad without a transposing copy. Only
    # mat2's strides are saved, as torch's: changing mat2 in place leaves this backward be
    if _column_major((mat1.shape[1], grad.shape[1]), mat2_strides):
        return grad.t().mm(_conj(mat1)).t()
    return _conj(mat1).t().mm(grad)


def _mat1_grad(grad, mat2):
    return grad.mm(_conj(mat2).t())


# First-order backward of the products on real arrays (Note [Formulas on arrays]): the same
# GEMMs in the same layouts, without the transposes and products as recorded ops.
def _mat1_grad_array(grad, mat2):
    return gemm(grad, mat2.T)


def _mat2_grad_array(grad, mat1, mat2_strides):
    shape = (mat1.shape[1], grad.shape[1])
    if _column_major(shape, mat2_strides):
        # written column-major into an array of its own, so that once transposed back it
        # becomes .grad without a copy (Tensor._owned_copy)
        out = xp.empty(shape, xp.result_type(mat1, grad), order="F")
        return gemm(mat1.T, grad, out=out)
    return gemm(mat1.T, grad)


# Note [Products of one term]
# torch's mm and addmm run MKL's GEMM for every size, which gives a product over one term
# (inner size 1: an outer product, a linear layer's weight gradient at batch 1) as the
# elementwise products, a -0.0 from a zero times a negative number included; OpenBLAS's
# kernel adds them to +0 instead, and takes 5x the time of the multiply. (torch's bmm runs
# its own loop for small matrices, which adds to +0: it keeps NumPy's matmul.)
def gemm(a, b, out=None):
    """``a @ b`` of two 2-D arrays as torch's GEMM gives it (Note [Products of one term],
    real floating operands); an operand with a zero stride (an expanded gradient) is copied
    first, as NumPy's matmul otherwise leaves BLAS for a plain loop (2.6 ms against 0.04 for
    a 1 x 1000 by 1000 x 512 product)."""
    if a.shape[1] == 1 and a.dtype.kind == "f" and b.dtype.kind == "f":
        return xp.multiply(a, b, out=out)
    if 0 in a.strides and a.size > 1:
        a = xp.ascontiguousarray(a)
    if 0 in b.strides and b.size > 1:
        b = xp.ascontiguousarray(b)
    return xp.matmul(a, b, out=out)


_mat1_grad.array_form = _mat1_grad_array
_mat2_grad.array_form = _mat2_grad_array


def _addmm_mat1_grad(grad, mat2, alpha):
    return _times(_mat1_grad(grad, mat2), _conj(alpha))


def _addmm_mat2_grad(grad, mat1, mat2_strides, alpha):
    return _times(_mat2_grad(grad, mat1, mat2_strides), _conj(alpha))


def _scaled_array(form):
    def scaled(grad, *args):
        *operands, alpha = args
        out = form(grad, *operands)
        return out if alpha == 1 else out * alpha

    return scaled


_addmm_mat1_grad.array_form = _scaled_array(_mat1_grad_array)
_addmm_mat2_grad.array_form = _scaled_array(_mat2_grad_array)


# Forward derivatives (Note [Forward grads]): the products are bilinear, d(a b) = da b + a db,
# and each takes a leading batch of tangents too (matmul broadcasts it): jacfwd runs once.
def _matrix_vector(matrix, vector):
    if vector.ndim == 1:
        return _mv(matrix, vector)
    # a batch of vectors (its rows): one matrix product, V A^T
    return vector.matmul(matrix.t())


@batched
def _mm_jvp(input_t, mat2_t, input, mat2):
    return add_terms(
        None if input_t is None else input_t.matmul(mat2),
        None if mat2_t is None else input.matmul(mat2_t),
    )


@batched
def _bmm_jvp(input_t, mat2_t, input, mat2):
    return _mm_jvp(input_t, mat2_t, input, mat2)


@batched
def _mv_jvp(input_t, vec_t, input, vec):
    return add_terms(
        None if input_t is None else input_t.matmul(vec),
        None if vec_t is None else _matrix_vector(input, vec_t),
    )


@batched
def _dot_jvp(input_t, tensor_t, input, tensor):
    return add_terms(
        None if input_t is None else (input_t * tensor).sum(-1),
        None if tensor_t is None else (input * tensor_t).sum(-1),
    )


@batched
def _addmm_jvp(input_t, mat1_t, mat2_t, input, mat1, mat2, beta, alpha):
    product = _mm_jvp(mat1_t, mat2_t, mat1, mat2)
    if input_t is not None and beta != 0:
        input_t = _times(align(input_t, input, 2), beta)
    return add_terms(None if product is None else _times(product, alpha), input_t)


@defop(
    batch=batch_rules.mm,
    name="mm",
    dtypes=kernel("addmm_impl_cpu_", NUMBERS),
    input=lambda grad, mat2: _mat1_grad(grad, mat2),
    mat2=lambda grad, input, mat2_strides: _mat2_grad(grad, input, mat2_strides),
    jvp=_mm_jvp,
)
def _mm(input, mat2):
    if input.dtype.kind == "c":  # infinite parts as torch's kernels meet them
        return complex_products.mm(input, mat2)
    return gemm(input, mat2)


@export
def mm(input, mat2) -> Tensor:
    """Matrix product of two 2-D tensors."""
    require_tensors("mm", ("input", "mat2"), input, mat2)
    if dispatch.autocast is not None:  # cast before the dtype check, as torch's autocast does
        input, mat2 = dispatch.autocast.cast_op("mm", (input, mat2))
    if isinstance(input, SparseTensor) or isinstance(mat2, SparseTensor):  # any sparse layout
        if input.is_sparse:
            check_dense_matrix(mat2)
        return sparse_product(input, mat2)
    if input.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if mat2.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    if input.shape[1] != mat2.shape[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({input.shape[0]}x{input.shape[1]} and "
            f"{mat2.shape[0]}x{mat2.shape[1]})"
        )
    _same_dtype(input, mat2, "mm")
    if input._data.dtype == xp.bool_ and 0 in input.shape + mat2.shape[1:]:
        return _empty_product(input, (input.shape[0], mat2.shape[1]))
    return _mm(input, mat2)


def _empty_product(input, shape) -> Tensor:
    # torch's mm, mv and bmm kernels return (zeros) before choosing a kernel by dtype where
    # the result is empty or the sum has no terms: a bool product is refused only otherwise
    return Tensor._make(xp.zeros(shape, input._data.dtype))


_BMM = kernel("bmm", NUMBERS)


@defop(
    batch=batch_rules.bmm,
    name="bmm",
    dtypes=_BMM,
    # conjugate transposes: the formulas hold for complex matrices (Note [Complex autograd])
    input=lambda grad, mat2: grad.bmm(mat2.mH),
    mat2=lambda grad, input: input.mH.bmm(grad),
    jvp=_bmm_jvp,
)
def _bmm(input, mat2):
    return xp.matmul(input, mat2).astype(mat2.dtype, copy=False)  # (mixed: see bmm)


@export
def bmm(input, mat2) -> Tensor:
    """Batched matrix product of two 3-D tensors with the same batch size."""
    require_tensors("bmm", ("input", "mat2"), input, mat2)
    if dispatch.autocast is not None:  # cast before the dtype check, as torch's autocast does
        input, mat2 = dispatch.autocast.cast_op("bmm", (input, mat2))
    if input.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if mat2.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    b, n, m = input.shape
    if mat2.shape[0] != b or mat2.shape[1] != m:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{b}, {m}] but got: "
            f"[{mat2.shape[0]}, {mat2.shape[1]}]."
        )
    # torch's bmm checks dtypes only where it multiplies: with an empty operand or result it
    # returns zeros of mat2's dtype
    if input._data.dtype != mat2._data.dtype and 0 not in input.shape + mat2.shape[2:]:
        if input._data.dtype == xp.bool_:  # its kernel is chosen by the first dtype first
            raise _BMM.error(input._data.dtype)
        raise RuntimeError(
            f"expected scalar type {input.dtype.scalar_name} but found {mat2.dtype.scalar_name}"
        )
    if input._data.dtype == xp.bool_ and 0 in input.shape + mat2.shape[2:]:
        return _empty_product(input, (b, n, mat2.shape[2]))
    return _bmm(input, mat2)


@defop(
    batch=batch_rules.mv,
    name="mv",
    dtypes=kernel("addmv_impl_cpu", NUMBERS),
    input=lambda grad, vec: grad.outer(_conj(vec)),
    vec=lambda grad, input: _conj(input).t().mv(grad),
    jvp=_mv_jvp,
)
def _mv(input, vec):
    if input.dtype.kind == "c":  # infinite parts as torch's kernels meet them
        return complex_products.mv(input, vec)
    return xp.matmul(input, vec)


@export
def mv(input, vec) -> Tensor:
    """Matrix-vector product."""
    require_tensors("mv", ("input", "vec"), input, vec)
    if isinstance(input, SparseTensor):
        return sparse_product(input, vec)
    _read_dim(input.ndim, 0)  # torch reads the matrix's rows before the rank check
    if input.ndim != 2 or vec.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {input.ndim}, {vec.ndim}")
    if input.shape[1] != vec.shape[0]:
        raise RuntimeError(
            f"size mismatch, got input ({input.shape[0]}), mat ({input.shape[0]}x"
            f"{input.shape[1]}), vec ({vec.shape[0]})"
        )
    _same_dtype(input, vec, "mv")
    if input._data.dtype == xp.bool_ and 0 in input.shape:
        return _empty_product(input, (input.shape[0],))
    return _mv(input, vec)


@defop(
    batch=batch_rules.dot,
    name="dot",
    dtypes=kernel("dot", NUMBERS),
    input=lambda grad, tensor: grad * _conj(tensor),
    tensor=lambda grad, input: grad * _conj(input),
    jvp=_dot_jvp,
)
def _dot(input, tensor):
    if input.dtype.kind == "c":  # infinite parts as torch's kernels meet them
        return complex_products.dot(input, tensor)
    return xp.dot(input, tensor)


def _check_vectors(input, tensor):
    # torch's messages, the same for dot and vdot
    if input.ndim != 1 or tensor.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {input.ndim}D and {tensor.ndim}D tensors")
    if input.shape[0] != tensor.shape[0]:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{input.shape[0]}] and src "
            f"[{tensor.shape[0]}] to have the same number of elements, but got {input.shape[0]} "
            f"and {tensor.shape[0]} elements respectively"
        )
    if input._data.dtype != tensor._data.dtype:
        raise RuntimeError(
            "dot : expected both vectors to have same dtype, but found "
            f"{input.dtype.scalar_name} and {tensor.dtype.scalar_name}"
        )


@export
def dot(input, tensor) -> Tensor:
    """Inner product of two 1-D tensors."""
    require_tensors("dot", ("input", "tensor"), input, tensor)
    _check_vectors(input, tensor)
    return _dot(input, tensor)


@batched
def _vdot_jvp(input_t, other_t, input, other):
    return add_terms(
        None if input_t is None else (_conj(input_t) * other).sum(-1),
        None if other_t is None else (_conj(input) * other_t).sum(-1),
    )


# sum(conj(input) * other): the first vector is conjugated (torch's derivatives.yaml formulas)
@defop(
    batch=batch_rules.vdot,
    name="vdot",
    dtypes=kernel("dot", NUMBERS),
    input=lambda grad, other: _conj(grad) * other,
    other=lambda grad, input: grad * input,
    jvp=_vdot_jvp,
)
def _vdot(input, other):
    if input.dtype.kind == "c":  # infinite parts as torch's kernels meet them
        return complex_products.vdot(input, other)
    return xp.vdot(input, other)


@export
def vdot(input, other) -> Tensor:
    """Inner product of two 1-D tensors, the first one conjugated."""
    require_tensors("vdot", ("input", "other"), input, other)
    _check_vectors(input, other)
    return _vdot(input, other)


def scaled_input(input, shape, dtype, beta):
    """``beta * input`` in the product's shape and dtype: what BLAS writes when alpha is 0.

    The product is never formed then, so its NaNs and infinities do not reach the result and
    a -0.0 input keeps its sign (addmm, addmv and addbmm; baddbmm and addr form it)."""
    if beta == 0:
        return xp.zeros(shape, dtype)
    shifted = input if beta == 1 else input * xp.asarray(beta).astype(input.dtype)
    return xp.array(xp.broadcast_to(shifted, shape), dtype=dtype)


@defop(
    batch=batch_rules.addmm,
    name="addmm",
    dtypes=kernel("addmm_impl_cpu_", NUMBERS),
    scalars=("beta", "alpha"),
    input=lambda grad, beta: grad if beta == 1 else grad * _conj(beta),
    mat1=lambda grad, mat2, alpha: _addmm_mat1_grad(grad, mat2, alpha),
    mat2=lambda grad, mat1, mat2_strides, alpha: _addmm_mat2_grad(grad, mat1, mat2_strides, alpha),
    jvp=_addmm_jvp,
)
def _addmm(input, mat1, mat2, beta=1, alpha=1):
    if alpha == 0:
        return scaled_input(input, (mat1.shape[0], mat2.shape[1]), mat1.dtype, beta)
    # where it is faster, mat2 in column blocks written into the result's columns, or the
    # product as (mat2^T mat1^T)^T, column-major, which the input's add then writes out
    # row-major (Note [Transposed products])
    transposed = beta != 0 and _transposed_product_faster(input, mat1, mat2)
    block = _row_block(mat2.T, mat1.T) if transposed else 0
    if block:
        product = _matmul_by_column_blocks(mat1, mat2, block)
        transposed = False  # row-major already
    elif transposed:
        product = xp.matmul(mat2.T, mat1.T).T
    else:
        product = gemm(mat1, mat2)
    if alpha != 1:
        product *= alpha
    if beta == 0:  # BLAS ignores the input, NaNs included
        return product
    shifted = input if beta == 1 else beta * input
    if xp.result_type(product, shifted) == product.dtype:
        # the product is ours: reuse it, unless it is the column-major one
        out = xp.empty(product.shape, product.dtype) if transposed else product
        xp.add(product, shifted, out=out, casting="unsafe")
        return out
    return product + shifted


# Note [Row blocks]
# OpenBLAS (NumPy's BLAS) runs a product of at most 10^6 multiply-adds with a kernel for small
# matrices that does not pack its operands first. A larger single-precision product a b
# whose b has 16 to 128 columns and whose a has at least 256 columns runs faster as a stack
# of products of 8 (or 4) rows of a each, one batched matmul, when each is a small one
# (OpenBLAS's SkylakeX kernel; the rows of the result come out in place, C-contiguous).
# Alone: (512 x 512)(512 x 128) 0.90x, linear's products below. With b wider (256 columns:
# up to 4x slower), a narrower (1.1-1.2x), 16-row blocks at 128 columns (2.2x) or in double
# precision (gains only up to 64 columns) it is not. Each element is the same dot product,
# summed in the small kernel's order: the last bits may differ from one product's.
SMALL_PRODUCT = 10**6


def _row_block(a, b):
    """Rows of ``a`` per block (8 or 4) that make ``a b`` faster as a stack of small
    products, or 0 (Note [Row blocks])."""
    rows, inner = a.shape
    columns = b.shape[1]
    if not (
        16 <= columns <= 128
        and inner >= 256
        and rows * inner * columns > SMALL_PRODUCT
        and a.dtype == xp.float32
        and b.dtype == xp.float32
    ):
        return 0
    for block in (8, 4):
        if rows % block == 0 and block * inner * columns <= SMALL_PRODUCT:
            return block
    return 0


def matmul_by_row_blocks(a, b):
    """``a @ b`` of two 2-D arrays, as a stack of small products where that is faster
    (Note [Row blocks]); ``a`` C-contiguous."""
    block = _row_block(a, b)
    if not block:
        return xp.matmul(a, b)
    rows, inner = a.shape
    return xp.matmul(a.reshape(rows // block, block, inner), b).reshape(rows, b.shape[1])


def _matmul_by_column_blocks(a, b, block):
    """``a @ b`` of a C-contiguous ``a`` and a column-major ``b`` (linear's row-major weight
    read transposed) as one batched matmul of ``a`` by blocks of ``block`` columns of ``b``,
    each written into its columns of the row-major result (Note [Transposed products])."""
    rows, inner = a.shape
    columns = b.shape[1]
    out = xp.empty((rows, columns), xp.result_type(a, b))
    blocks = b.T.reshape(columns // block, block, inner).transpose(0, 2, 1)
    xp.matmul(a, blocks, out=out.reshape(rows, columns // block, block).transpose(1, 0, 2))
    return out


# Note [Transposed products]
# OpenBLAS's single-precision GEMM (its SkylakeX kernel) is slow on linear's product x W^T,
# x row-major and W row-major read transposed, when x has at most about a hundred rows and
# W many. The same product as W x^T, which comes out column-major, then added to the bias
# into a row-major result (the add a transposing pass over a result still in cache), is
# faster, more so where W x^T runs in row blocks (Note [Row blocks]). Alone, against x W^T
# and the bias add, for x of 16 / 64 / 128 rows: 784 -> 512 features 0.42 / 0.77 / 0.86x,
# 1024 -> 1024 0.33 / 0.78 / 0.90x, 256 -> 256 0.48 / 0.84 / 0.95x, 512 -> 64 (from 64
# rows) 0.74 / 0.86x; without row blocks 0.44-0.85x up to 96 rows, 0.92-0.99x at 128, so
# only there. At 256 rows and more, with W of fewer than 256 rows, or in double precision it
# is slower. Where W's rows make row blocks, the blocks' products are taken the other way
# round, x W_k^T for each block W_k of rows of W (columns of W^T), one batched matmul
# writing each (rows, block) product into its columns of the row-major result: the small
# kernel runs them as fast, and the bias is then added in place in one contiguous pass,
# where the transposing add took about 55 µs at 128 x 512. Against W x^T in row blocks and
# the transposing add: 128 rows 784 -> 512 0.89x, 512 -> 512 0.90x, 256 -> 256 0.89x,
# 64 rows 784 -> 512 0.92x, 16 rows 0.95x, 1024 -> 1024 (blocks of 4) 1.0x.
def _transposed_product_faster(input, mat1, mat2):
    rows, inner = mat1.shape
    if not (
        16 <= rows <= 128
        and mat1.dtype == xp.float32
        and input.dtype == xp.float32
        and mat1.flags.c_contiguous
        and mat2.flags.f_contiguous
    ):
        return False
    return bool(_row_block(mat2.T, mat1.T)) or (
        rows <= 96 and inner >= 4 * rows and mat2.shape[1] >= 256
    )


def _times(t, scale):
    return t if scale == 1 else t * scale


@export
def addmm(input, mat1, mat2, *, beta=1, alpha=1) -> Tensor:
    """``beta * input + alpha * (mat1 @ mat2)``."""
    require_tensors("addmm", ("input", "mat1", "mat2"), input, mat1, mat2)
    if dispatch.autocast is not None:  # cast before the dtype check, as torch's autocast does
        input, mat1, mat2 = dispatch.autocast.cast_op("addmm", (input, mat1, mat2))
    if isinstance(mat1, SparseTensor):  # COO or compressed: torch.sparse.addmm's product
        return sparse_addmm(input, mat1, mat2, beta, alpha)
    if mat1.ndim != 2 or mat2.ndim != 2 or mat1.shape[1] != mat2.shape[0]:
        mm(mat1, mat2)  # raises torch's error
    if input.dtype is not mat1.dtype or mat1.dtype is not mat2.dtype:
        other = mat1 if input.dtype is not mat1.dtype else mat2
        raise RuntimeError(
            f"self and mat2 must have the same dtype, but got {input.dtype.scalar_name} and "
            f"{other.dtype.scalar_name}"
        )
    if input._data.dtype.kind in "iu":  # (floats take the numbers as they are)
        beta, alpha = kernel_scales(input._data.dtype, beta, alpha)
    return _addmm(input, mat1, mat2, beta, alpha)


@export
def outer(input, vec2) -> Tensor:
    """Outer product of two vectors (composed as torch does: a column times a row)."""
    require_tensors("outer", ("input", "vec2"), input, vec2)
    for name, t in (("self", input), ("vec2", vec2)):
        if t.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {t.ndim}-D")
    return input.reshape(-1, 1) * vec2


ger = export(outer, name="ger")


def _fold(t1, t2):
    # (..., n, k) @ (k[, m]): fold the batch into one mm/mv, as torch does
    lead = t1.shape[:-1]
    flat = t1.reshape(math.prod(lead), t1.shape[-1])  # not -1: k may be 0
    out = mm(flat, t2) if t2.ndim == 2 else mv(flat, t2)
    return _unsafe_view(out, lead + ((t2.shape[-1],) if t2.ndim == 2 else ()))


def _folds(batch, small, transposed) -> bool:
    # torch's should_fold: a batch times a matrix or vector becomes one mm/mv always when the
    # small operand requires grad (its gradient then needs no batch sum), never for a 2-D
    # operand on the left otherwise (the transposed product would be copied back), and else
    # when the batch (transposed, when it is on the right) folds into rows without a copy
    if small.requires_grad:
        return True
    if transposed and small.ndim == 2:
        return False
    if batch.numel() == 0:
        return True
    t = batch.mT if transposed else batch
    shape, strides = t.shape, t.stride()
    return all(strides[i] == strides[i + 1] * shape[i + 1] for i in range(t.ndim - 2))


def _fold_transposed(input, other):
    # (n, k) or (k,) @ (..., k, m) folded as torch does: (other^T folded) @ input^T (an mv
    # for a vector), a matrix product transposed back; torch's contiguous() copy records
    # CloneBackward0 (TransposeBackward0 when the transposed result is already contiguous)
    t1 = other.mT
    folded = t1.reshape(math.prod(t1.shape[:-1]), t1.shape[-1])  # not -1: k may be 0
    if input.ndim == 1:
        return _unsafe_view(mv(folded, input), t1.shape[:-1])
    out = mm(folded, input.t())
    return _unsafe_view(out, t1.shape[:-1] + (input.shape[0],)).mT.contiguous()


@export
@composite("aten::matmul")
def matmul(input, other) -> Tensor:
    """Matrix product with numpy's broadcasting rules (1-D args are vectors)."""
    require_tensors("matmul", ("input", "other"), input, other)
    if isinstance(input, SparseTensor) or isinstance(other, SparseTensor):
        return sparse_product(input, other)
    d1, d2 = input.ndim, other.ndim
    if d1 == 0 or d2 == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {d1}D and {d2}D"
        )
    if d1 == 1 and d2 == 1:
        return dot(input, other)
    if d1 == 2 and d2 == 1:
        return mv(input, other)
    if d1 == 1 and d2 == 2:
        return _squeeze_result(mm(input.unsqueeze(0), other), 0)
    if d1 == 2 and d2 == 2:
        return mm(input, other)
    if d1 >= 3 and d2 <= 2 and _folds(input, other, transposed=False):
        if input.shape[-1] != other.shape[0]:
            rows = input.numel() // max(input.shape[-1], 1)  # torch folds the batch into rows
            raise RuntimeError(
                f"mat1 and mat2 shapes cannot be multiplied ({rows}x"
                f"{input.shape[-1]} and {other.shape[0]}x{other.shape[-1]})"
            )
        return _fold(input, other)
    if d1 <= 2 and d2 >= 3 and _folds(other, input, transposed=True):
        return _fold_transposed(input, other)
    if d1 == 3 and d2 == 3 and input.shape[0] != other.shape[0]:
        # torch sends a single matrix broadcast against a batch through the folded product
        # when it requires grad, so its gradient is one mm rather than a batch sum
        if input.shape[0] == 1 and input.requires_grad:
            return matmul(input.squeeze(0), other)
        if other.shape[0] == 1 and other.requires_grad:
            return matmul(input, other.squeeze(0))
    # torch's batched product: both operands expanded to the broadcast batch and flattened
    # to one batch dimension (a vector on the right as a column, squeezed off after bmm)
    n, k = input.shape[-2:] if d1 > 1 else (1, input.shape[0])
    k2, m = other.shape[-2:] if d2 > 1 else (other.shape[0], 1)
    batch = tuple(broadcast_shape(input.shape[:-2], other.shape[:-2]))
    size = math.prod(batch)
    if k != k2:  # as torch's bmm over the broadcast batch reports it
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{size}, {k}] but "
            f"got: [{size}, {k2}]."
        )
    a3 = input.expand(batch + (n, k)).reshape(size, n, k)
    shape = batch + ((n,) if d1 != 1 else ()) + ((m,) if d2 != 1 else ())
    if d2 == 1:
        b2 = other.expand(batch + (k,)).reshape(size, k).unsqueeze(2)
        return _unsafe_view(bmm(a3, b2).squeeze(-1), shape)
    b3 = other.expand(batch + (k, m)).reshape(size, k, m)
    return _unsafe_view(bmm(a3, b3), shape)


@batched
def _squeeze_jvp(input_t, input, dim):
    return input_t.squeeze(dim % input.ndim + batch_shift(input_t, input))


@defop(
    batch=batch_rules.squeeze_dims_,
    name="squeeze_",
    node="SqueezeBackward4",
    input=lambda grad, dim: grad.unsqueeze(dim),
    jvp=_squeeze_jvp,
)
def _squeeze_result(input, dim):
    # torch squeezes matmul's fresh result in place; here the result is not shared either
    return input.squeeze(dim)


Tensor.__matmul__ = lambda self, other: (
    matmul(self, other) if isinstance(other, Tensor) else NotImplemented
)
Tensor.__rmatmul__ = lambda self, other: (
    matmul(other, self) if isinstance(other, Tensor) else NotImplemented
)


# -- einsum ----------------------------------------------------------------------------------
def _parse_einsum(equation: str, n: int):
    equation = equation.replace(" ", "")
    if "->" in equation:
        inputs, output = equation.split("->")
    else:
        inputs = equation
        letters = inputs.replace(",", "")
        output = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    specs = inputs.split(",")
    if len(specs) != n:
        raise RuntimeError(
            "einsum(): more operands were provided than specified in the equation"
            if n > len(specs)
            else "einsum(): fewer operands were provided than specified in the equation"
        )
    return specs, output


def _check_equation(equation: str, n: int) -> None:
    """torch's checks of an equation's characters, ellipses and output, in its order."""
    if n == 0:
        raise ValueError(
            "einsum(): must specify the equation string and at least one operand, or at least "
            "one operand and its subscripts list"
        )
    arrow = equation.find("->")
    lhs = equation if arrow < 0 else equation[:arrow]
    operand, ellipsis, i = 0, False, 0
    while i < len(lhs):
        c = lhs[i]
        if c == ".":
            if ellipsis:
                raise RuntimeError(
                    f"einsum(): found '.' for operand {operand} for which an ellipsis was "
                    "already found"
                )
            if lhs[i : i + 3] != "...":
                raise RuntimeError(
                    f"einsum(): found '.' for operand {operand} that is not part of any ellipsis"
                )
            ellipsis, i = True, i + 2
        elif c == ",":
            operand, ellipsis = operand + 1, False
            if operand >= n:
                raise RuntimeError(
                    "einsum(): fewer operands were provided than specified in the equation"
                )
        elif c != " " and c not in string.ascii_letters:
            raise RuntimeError(
                f"einsum(): invalid subscript given at index {i} in the equation string, "
                "subscripts must be in [a-zA-Z]"
            )
        i += 1
    if operand != n - 1:
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    if arrow < 0:
        return
    rhs, seen, ellipsis, i = equation[arrow + 2 :], set(), False, 0
    while i < len(rhs):
        c = rhs[i]
        if c == ".":
            if ellipsis:
                raise RuntimeError(
                    "einsum(): found '.' for output but an ellipsis (...) was already found"
                )
            if rhs[i : i + 3] != "...":
                raise RuntimeError(
                    "einsum(): found '.' for output that is not part of any ellipsis (...)"
                )
            ellipsis, i = True, i + 2
        elif c != " ":
            if c not in string.ascii_letters:
                raise RuntimeError(
                    f"einsum(): invalid subscript given at index {arrow + 2 + i} in the "
                    "equation string, subscripts must be in [a-zA-Z]"
                )
            if c in seen or c not in lhs:
                raise RuntimeError(
                    f"einsum(): output subscript {c} "
                    + (
                        "appears more than once in the output"
                        if c in seen
                        else "does not appear in the equation for any input operand"
                    )
                )
            seen.add(c)
        i += 1


def _expand_ellipsis(equation: str, operands) -> tuple[str, list]:
    """The equation with each ``...`` spelt out in unused letters, and the operands expanded
    where a size-1 dimension meets a larger one (torch broadcasts them)."""
    _check_equation(equation, len(operands))
    specs, output = _parse_einsum(equation, len(operands))
    unused = [c for c in string.ascii_letters if c not in equation]
    widest = 0
    for k, (spec, t) in enumerate(zip(specs, operands)):
        if not isinstance(t, Tensor):
            raise TypeError(
                f"expected Tensor as element {k} in argument 1, but got {type(t).__name__}"
            )
        named = len(spec.replace("...", ""))
        if "..." not in spec and named != t.dim():
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({named}) does not match "
                f"the number of dimensions ({t.dim()}) for operand {k} and no ellipsis was given"
            )
        if named > t.dim():
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({named}) is more than "
                f"the number of dimensions ({t.dim()}) for operand {k}"
            )
        if "..." in spec:
            widest = max(widest, t.dim() - named)
    batch = "".join(unused[:widest])
    specs = [
        s.replace("...", batch[widest - (t.dim() - len(s) + 3) :]) if "..." in s else s
        for s, t in zip(specs, operands)
    ]
    if "->" in equation.replace(" ", ""):
        output = output.replace("...", batch)
    else:
        output = batch + output
    sizes: dict[str, int] = {}
    for k, (spec, t) in enumerate(zip(specs, operands)):
        own: dict[str, int] = {}
        for d, (c, n) in enumerate(zip(spec, t.shape)):
            if own.setdefault(c, n) != n:  # a diagonal: its sizes must agree exactly
                raise RuntimeError(
                    f"einsum(): subscript {c} is repeated for operand {k} but the sizes don't "
                    f"match, {n} != {own[c]}"
                )
            if sizes.get(c, 1) not in (1, n) and n != 1:
                if c in batch:  # (torch's message runs "operand 1has" together)
                    raise RuntimeError(
                        f"einsum(): dimension {d} covered by ellipsis in operand {k}has size "
                        f"{n} which does not broadcast with previously seen ellipsis with size "
                        f"{sizes[c]} for the respective dimension"
                    )
                raise RuntimeError(
                    f"einsum(): subscript {c} has size {n} for operand {k} which does not "
                    f"broadcast with previously seen size {sizes[c]}"
                )
            sizes[c] = n if sizes.get(c, 1) == 1 else sizes[c]
    # size-1 dims stay: they broadcast in the products (torch sums a subscript that only one
    # operand has wide before multiplying, which an expanded operand would hide)
    return ",".join(specs) + "->" + output, list(operands)


def _onto_diagonals(grad, full, target):
    """The gradient of an operand whose subscripts repeat a letter (``'ii'`` reads a
    diagonal): ``grad`` (over the distinct letters, in ``full``'s order) written onto those
    diagonals by ``diag_embed``, exact zeros off them (as torch's diagonal backward; a
    product with an identity matrix would turn an infinite gradient into NaN there)."""
    for p, c in enumerate(target):
        q = target.index(c)
        if q < p:  # a repeat: a new dim at p, diagonal with the one at q
            grad = grad.movedim(q, -1).diag_embed(0, q, p)
    return grad


def _einsum_backward(k):
    def formula(grads, equation, operands):
        specs, output = _parse_einsum(equation, len(operands))
        target = specs[k]
        # the other operands conjugated: an operand's gradient for complex tensors
        others = [_conj(o) for i, o in enumerate(operands) if i != k]
        other_specs = [s for i, s in enumerate(specs) if i != k]
        available = set(output).union(*other_specs)
        kept = "".join(c for c in dict.fromkeys(target) if c in available)
        grad = _contract(",".join([output] + other_specs) + "->" + kept, grads[0], *others)
        shape = operands[k].shape
        sizes = dict(zip(target, shape))
        wide = [d for d, c in enumerate(kept) if sizes[c] == 1 and grad.shape[d] != 1]
        if wide:  # subscripts this operand broadcast (size 1) against wider ones
            grad = grad.sum(wide, keepdim=True)
        full = "".join(dict.fromkeys(target))
        if kept != full:
            # letters summed in this operand alone: broadcast back over them
            grad = grad.reshape([sizes[c] if c in kept else 1 for c in full]).expand(
                [sizes[c] for c in full]
            )
        if full != target:
            grad = _onto_diagonals(grad, full, target)
        return grad

    return formula


def _batch_einsum(spec, args, dims):
    """A new subscript letter for the vmap batch, on the batched operands and the output."""
    equation, operands = args[0], args[1]
    terms, output = _parse_einsum(equation, len(operands))
    letter = next(c for c in string.ascii_letters if c not in equation)
    moved = []
    for k, (t, d) in enumerate(zip(operands, dims[1])):
        if d is not None:
            terms[k] = letter + terms[k]
            t = batch_rules.front(t, d)
        moved.append(t)
    return spec.run((",".join(terms) + "->" + letter + output, moved)), 0


@batched
def _einsum_jvp(operands_t, equation, operands):
    # multilinear: one product per operand with a tangent, that operand replaced by it; a
    # leading batch of tangents gets a subscript letter of its own, kept in the output
    terms, output = _parse_einsum(equation, len(operands))
    letter = next(c for c in string.ascii_letters if c not in equation)
    total = None
    for k, tangent in enumerate(operands_t):
        if tangent is None:
            continue
        batch = letter if batch_shift(tangent, operands[k]) else ""
        specs = [batch + t if i == k else t for i, t in enumerate(terms)]
        replaced = [tangent if i == k else o for i, o in enumerate(operands)]
        term = _einsum(",".join(specs) + "->" + batch + output, replaced)
        total = term if total is None else total + term
    return total


@defop(
    batch=_batch_einsum,
    name="einsum",
    lists=("operands",),
    operands=lambda grad, equation, operands: [
        _einsum_backward(k)((grad,), equation, operands) for k in range(len(operands))
    ],
    jvp=_einsum_jvp,
)
def _einsum(equation, operands):
    if len(operands) > 1:
        operands = [_unexpanded(op) for op in operands]
    out = xp.einsum(equation, *operands, optimize=_plans_pay(equation, operands))
    if len(operands) == 1 and not (out.flags.owndata and out.flags.c_contiguous):
        # torch sums an operand already permuted to the output's order, into a fresh
        # contiguous tensor; NumPy may hand back the operand's own memory (``ii->i``)
        out = out.copy(order="C")
    return out


def _unexpanded(array):
    """``array`` with its broadcast (stride 0) dims written out: NumPy's own einsum loop
    factors such an operand out of the sum, ``(sum a) * b`` for ``sum(a * b)``, which differs
    where ``b`` is infinite (``(1 - 1) * inf`` is NaN, ``1 * inf - 1 * inf`` too, but
    ``(2 - 1) * inf`` is not ``2 * inf - 1 * inf``); torch multiplies each pair."""
    if any(step == 0 and n > 1 for step, n in zip(array.strides, array.shape)):
        return xp.ascontiguousarray(array)
    return array


# Products of all subscript sizes below which NumPy's path planning costs more than it saves.
EINSUM_PLAN_MIN_WORK = 1 << 15


def _plans_pay(equation: str, operands) -> bool:
    """Whether np.einsum should plan its path (``optimize``): always for three or more
    operands; for two, when they contract like a matrix product (a summed subscript and a
    kept one on each side), which the plan hands to BLAS (~8x faster than einsum's own loop
    on a 256x256 product); never for elementwise products, outer products or traces."""
    if len(operands) != 2:
        return len(operands) > 2
    inputs, output = equation.split("->")
    first, second = (set(spec) for spec in inputs.split(","))
    if not (first & second) - set(output) or first <= second or second <= first:
        return False
    sizes = {}
    for spec, array in zip(inputs.split(","), operands):
        sizes.update(zip(spec, array.shape))
    return math.prod(sizes.values()) >= EINSUM_PLAN_MIN_WORK


@export(method=False)
def einsum(equation, *operands) -> Tensor:
    """Einstein summation over the operands; ``...`` stands for the broadcast leading dims."""
    if not isinstance(equation, str):  # the sublist form: operand, [dims], ..., [output]
        equation, operands = _sublist_equation((equation, *operands))
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if dispatch.autocast is not None:  # cast before the dtype check, as torch's autocast does
        operands = dispatch.autocast.cast_op("einsum", operands)
    shapes = [tuple(getattr(t, "shape", ())) for t in operands]  # before any broadcast
    equation, operands = _expand_ellipsis(equation, operands)  # (which refuses non-tensors)
    dtype = _check_contraction_dtypes(equation, operands, shapes)
    result = _in_torchs_order(equation, operands)
    return result if dtype is None or result.dtype is dtype else result.to(dtype)


def _subscript(n) -> str:
    # dims 0-25 are A-Z and 26-51 a-z (torch's letters: the implicit output sorts by them)
    if n is Ellipsis:
        return "..."
    if not 0 <= n < 52:
        raise ValueError(
            "einsum(): subscript in subscript list is not within the valid range [0, 52)"
        )
    return chr(ord("A") + n) if n < 26 else chr(ord("a") + n - 26)


def _sublist_equation(args):
    """``einsum(a, [0, 1], b, [1, 2], [0, 2])`` as its equation and operands."""
    operands, specs = args[0::2], args[1::2]
    output = None
    if len(args) % 2:  # an odd count ends with the output's sublist, not an operand
        operands, output = operands[:-1], operands[-1]
    inputs = ",".join("".join(_subscript(n) for n in spec) for spec in specs)
    if output is None:
        return inputs, operands
    return inputs + "->" + "".join(_subscript(n) for n in output), operands


# Note [einsum's views]
# torch's einsum returns views where its last step is one: a single operand whose
# subscripts all reach the output is its diagonals, permuted (a view of the operand itself);
# a pair that sums a subscript both operands have wide is a batched matrix product, viewed
# and permuted back into the common order of all subscripts (each step, not only the last:
# the next step's multiplication follows that layout); and with two or more operands, any
# summed subscript makes the result a view of the last product (torch drops the summed
# dims, kept of size 1 until then, with ``view``). numtorch returns the same views with
# the same strides, so that in-place ops, ``.view`` and version counters behave alike.


def _diagonals_permuted(spec, output, t) -> Tensor:
    while len(set(spec)) < len(spec):
        c = next(c for c in spec if spec.count(c) > 1)
        first = spec.index(c)
        second = spec.index(c, first + 1)
        t = t.diagonal(0, first, second)  # the diagonal's dim goes last
        spec = spec[:first] + spec[first + 1 : second] + spec[second + 1 :] + c
    return t.permute(tuple(spec.index(c) for c in output))


def _in_torchs_order(equation, operands) -> Tensor:
    """The einsum as torch evaluates it, step by step, so that infinities and NaNs meet the
    same products and sums (``inf * (1 - 1)`` is NaN, ``inf * 1 - inf * 1`` too, but
    ``(inf + 1) * 2`` is not ``inf * 2 + inf * -1``) and each step's result has torch's
    layout: every operand takes its diagonals and is unsqueezed and permuted to one common
    order of all subscripts (the output's, then the summed ones in letter order); then the
    operands are multiplied left to right, a pair summing the subscripts that no later
    operand has wide (size > 1), each first summing one it alone has wide."""
    inputs, output = equation.split("->")
    specs = inputs.split(",")
    if len(operands) == 1:
        if set(specs[0]) <= set(output):  # Note [einsum's views]
            return _diagonals_permuted(specs[0], output, operands[0])
        return _summed(equation, operands[0])
    order = output + "".join(sorted(set(inputs) - set(output) - {","}))
    terms = [_in_common_order(spec, t, order) for spec, t in zip(specs, operands)]
    contracted = range(len(output), len(order))
    count = {d: sum(t.shape[d] != 1 for t in terms) for d in contracted}
    a = terms[0]
    for b in terms[1:]:
        summed, own_a, own_b = [], [], []
        for d in contracted:
            if a.shape[d] != 1 and b.shape[d] != 1:
                count[d] -= 1
                if count[d] == 1:
                    summed.append(d)
                    count[d] = 0
            elif count[d] == 1 and (a.shape[d] != 1 or b.shape[d] != 1):
                (own_a if a.shape[d] != 1 else own_b).append(d)
                count[d] = 0
        if own_a:  # torch's sum: bools and integers sum as int64
            a = a.sum(own_a, keepdim=True)
        if own_b:
            b = b.sum(own_b, keepdim=True)
        if not summed:
            # nothing to sum: torch multiplies (MulBackward0), where a sum of products from
            # 0 (NumPy's einsum loop) would make a product of -0 a +0
            a = a * b
            continue
        if a.numel() and b.numel():  # a batched matrix product: no bool kernel
            _BMM.check_tensor(a)
        a = _batched_product(a, b, summed)
    if len(order) > len(output):  # Note [einsum's views]
        return a.view(a.shape[: len(output)])
    return a


def _in_common_order(spec, t, order) -> Tensor:
    """An operand as torch aligns it: its diagonals taken (each at its letter's first
    place), a size-1 dim appended for each letter it lacks, all permuted into ``order``."""
    letters = ""
    for c in spec:
        if c in letters:  # a repeat: the diagonal of the two dims, back at the first's place
            first = letters.index(c)
            t = t.diagonal(0, first, len(letters)).movedim(-1, first)
        else:
            letters += c
    for c in order:
        if c not in letters:
            t = t.unsqueeze(len(letters))
            letters += c
    return t.permute(tuple(letters.index(c) for c in order))


def _batched_product(a, b, summed) -> Tensor:
    """A pair's product summed over ``summed`` (dims wide in both) as torch's bmm lays it
    out: the dims wide in both, then those wide in the first only, the summed ones (size 1)
    and the rest, viewed from the bmm result and permuted back into the common order."""
    both, left, right = [], [], []
    for d in range(a.dim()):
        if d in summed:
            continue
        if a.shape[d] != 1 and b.shape[d] != 1:
            both.append(d)
        elif a.shape[d] != 1:
            left.append(d)
        else:
            right.append(d)
    if left and right and right[-1] < left[0]:  # torch swaps the pair to keep the order
        a, b, left, right = b, a, right, left
    lead = both + left + summed + right
    a3 = a.permute(lead).reshape(
        math.prod(a.shape[d] for d in both),
        math.prod(a.shape[d] for d in left),
        math.prod(a.shape[d] for d in summed),
    )
    b3 = b.permute(both + summed + right + left).reshape(
        math.prod(b.shape[d] for d in both),
        math.prod(b.shape[d] for d in summed),
        math.prod(b.shape[d] for d in right),
    )
    base = _einsum("bmk,bkn->bmn", [a3, b3])
    if not base.is_contiguous():
        base = base.contiguous()
    sizes = [a.shape[d] for d in both + left] + [1] * len(summed) + [b.shape[d] for d in right]
    return base.view(sizes).permute(tuple(lead.index(d) for d in range(a.dim())))


def _summed(equation, t) -> Tensor:
    """One operand summed over subscripts no other operand has: torch runs ``sum``, which
    sums bools and integers as int64."""
    if t._data.dtype.kind in "biu":
        t = t.long()
    return _einsum(equation, [t])


def _contract(equation, *operands) -> Tensor:
    # the backward formulas' einsum: torch's derivatives are products that promote
    equation, operands = _expand_ellipsis(equation, operands)
    return _einsum(equation, operands)


def _check_contraction_dtypes(equation, operands, shapes):
    """torch contracts the operands left to right, pair by pair: a pair that shares a summed
    subscript (of size > 1 in both) is a batched matrix product, which refuses two dtypes;
    any other pair is an elementwise product, which promotes. With an empty operand the
    product is skipped: its zeros take the second operand's dtype. An operand first summed
    over subscripts of its own is int64 if it was bool or integral (``_summed``). Returns the
    result's dtype (None when the operands share one)."""
    if len({t.dtype for t in operands}) == 1 and operands[0]._data.dtype.kind not in "biu":
        return None
    inputs, output = equation.split("->")
    specs = inputs.split(",")
    last = {c: k for k, spec in enumerate(specs) for c in spec}
    wide = [{c for c, n in zip(spec, shape) if n != 1} for spec, shape in zip(specs, shapes)]
    count = collections.Counter(c for w in wide for c in w if c not in output)
    alone = (
        [set(specs[0]) - set(output)]
        if len(specs) == 1
        else [{c for c in w - set(output) if count[c] == 1} for w in wide]
    )  # a single operand sums every subscript the output lacks
    dtypes = [
        int64 if t._data.dtype.kind in "biu" and own else t.dtype
        for t, own in zip(operands, alone)
    ]  # fmt: skip
    if len(set(dtypes)) == 1 and dtypes[0] is not bool_:
        return None
    # each operand's sizes once its own subscripts are summed (an empty one of those sums to
    # zeros of size 1: the operand is no longer empty), and the running result's
    sizes = [
        {c: 1 if c in own else n for c, n in zip(spec, shape)}
        for spec, shape, own in zip(specs, shapes, alone)
    ]
    dtype, alive, held = dtypes[0], wide[0], sizes[0]
    for k in range(1, len(specs)):
        other = dtypes[k]
        summed = {c for c in alive & wide[k] if last[c] == k and c not in output}
        # a product with an empty operand (the running result or this one) is skipped
        empty = 0 in held.values() or 0 in sizes[k].values()
        if summed and dtype is bool_ and not empty:
            raise _BMM.error(xp.dtype(bool))
        if summed and dtype is not other:
            if not empty:
                raise RuntimeError(
                    f"expected scalar type {dtype.scalar_name} but found {other.scalar_name}"
                )
            dtype = other
        if not summed:
            dtype = promote_types(dtype, other)
        alive = {c for c in alive | wide[k] if last[c] > k or c in output}
        held = {
            c: 0 if 0 in (held.get(c, 1), sizes[k].get(c, 1)) else max(held.get(c, 1), n)
            for c, n in {**held, **sizes[k]}.items()
            if c not in summed
        }
    return dtype
