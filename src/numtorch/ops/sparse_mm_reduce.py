"""``torch.sparse.mm(csr, dense, reduce)``: each output row reduces (sum, mean, amax, amin)
the products of its row's stored entries with the dense rows they pick, instead of summing
them. Rows without entries give zero, as torch's kernel does.

Sum and mean are weighted sums of the entry products, ``out[r, j] = sum_e w[e, j] *
values[e] * dense[cols[e], j]`` over the entries ``e`` of row ``r``: weight 1 for sum,
1 / (entries in the row) for mean, so their gradients are the product's, weighted. amax and
amin keep, per output element, the entry torch's kernel picks (Note [Picked entries]), and
only that entry's product gets the gradient. As in torch, the gradients come from a
backward op with no derivative of its own (no second order).
"""

from __future__ import annotations

from .._core.op import defop, not_implemented
from .._core.tensor import Tensor
from ..autograd.forward_grad import no_forward_derivative
from ..backend import xp
from .sparse import _index_tensor

# torch also takes max and min for amax and amin, though its message lists only these five
REDUCTIONS = {"sum": "sum", "mean": "mean", "amax": "amax", "max": "amax", "amin": "amin"}
REDUCTIONS["min"] = "amin"


# Note [Picked entries]
# torch's amax/amin kernel walks a row's entries in CSR order from -inf (amax) or +inf
# (amin) and takes an entry whose product is strictly beyond the running extreme, or NaN: so
# ties keep the first entry, a NaN product keeps the last NaN, and a row whose products all
# equal the starting infinity picks nothing (its output stays infinite, without gradient).
# The backward gives each output element's gradient to its picked entry alone: an unpicked
# entry gets no term at all, so an infinite factor there never turns into NaN (0 * inf).
def _picked(values, dense, indices, size, reduce):
    """The entry each output element picks (rows x columns), ``nnz`` where none is picked."""
    rows, cols = indices
    nnz, columns = len(rows), dense.shape[1]
    products = values[:, None] * dense[cols]
    start = xp.inf if reduce == "amin" else -xp.inf
    extreme = xp.full((size[0], columns), start, products.dtype)
    (xp.fmin if reduce == "amin" else xp.fmax).at(extreme, rows, products)
    order = xp.arange(nnz)[:, None]
    first = xp.full(extreme.shape, nnz)
    reached = (products == extreme[rows]) & (products != start)
    xp.minimum.at(first, rows, xp.where(reached, order, nnz))
    last_nan = xp.full(extreme.shape, -1)
    xp.maximum.at(last_nan, rows, xp.where(xp.isnan(products), order, -1))
    return xp.where(last_nan >= 0, last_nan, first)


def _weights(values, dense, indices, size, reduce):
    """The constant weight of each entry product (nnz x columns) for this reduction."""
    rows, cols = indices
    shape = (len(rows), dense.shape[1])
    if reduce == "sum":
        return xp.ones(shape, dense.dtype)
    if reduce == "mean":
        counts = xp.bincount(rows, minlength=size[0])
        return xp.broadcast_to((1 / counts[rows]).astype(dense.dtype)[:, None], shape).copy()
    picked = _picked(values, dense, indices, size, reduce)
    return (picked[rows] == xp.arange(len(rows))[:, None]).astype(dense.dtype)


def _weights_of(values, dense, indices, size, reduce) -> Tensor:
    arrays = (values.detach().numpy(), dense.detach().numpy(), indices.numpy())
    return Tensor._make(_weights(*arrays, size, reduce))


# torch's backward is its own op, _sparse_mm_reduce_impl_backward, which has no derivative:
# gradients come from it, and a second order through them raises torch's error
@defop(
    name="_sparse_mm_reduce_impl_backward",
    schema_args=6,  # (self, grad_out, weight, reduce, arg_out, output_mask)
    node="NotImplemented",
    grad=not_implemented("_sparse_mm_reduce_impl_backward"),
    values=not_implemented("_sparse_mm_reduce_impl_backward"),
    dense=not_implemented("_sparse_mm_reduce_impl_backward"),
    jvp=no_forward_derivative("_sparse_mm_reduce_impl_backward"),
)
def sparse_mm_reduce_backward(grad, values, dense, indices, size, reduce, which):
    """The gradient for ``values`` or ``dense`` (``which``) of the reduction."""
    rows, cols = indices
    if reduce in ("amax", "amin"):
        picked = _picked(values, dense, indices, size, reduce)
        row, column = xp.nonzero(picked != len(rows))
        entry = picked[row, column]
        if which == "values":
            out = xp.zeros(values.shape, grad.dtype)
            xp.add.at(out, entry, dense[cols[entry], column] * grad[row, column])
        else:
            out = xp.zeros(dense.shape, grad.dtype)
            xp.add.at(out, (cols[entry], column), values[entry] * grad[row, column])
        return out
    weights = _weights(values, dense, indices, size, reduce)
    if which == "values":
        return (grad[rows] * dense[cols] * weights).sum(-1)
    out = xp.zeros(dense.shape, grad.dtype)
    xp.add.at(out, cols, values[:, None] * weights * grad[rows])
    return out


def _values_grad(grad, values, dense, indices, size, reduce):
    return sparse_mm_reduce_backward(grad, values, dense, indices, size, reduce, "values")


def _dense_grad(grad, values, dense, indices, size, reduce):
    return sparse_mm_reduce_backward(grad, values, dense, indices, size, reduce, "dense")


def _reduce_jvp(values_t, dense_t, values, dense, indices, size, reduce):
    weights = _weights_of(values, dense, indices, size, reduce)
    rows, cols = indices[0], indices[1]
    tangent = None
    if values_t is not None:
        tangent = values_t.unsqueeze(-1) * dense.index_select(0, cols)
    if dense_t is not None:
        term = values.unsqueeze(-1) * dense_t.index_select(0, cols)
        tangent = term if tangent is None else tangent + term
    out = tangent.new_zeros((size[0], dense.shape[1]))
    return out.index_add(0, rows, tangent * weights)


@defop(
    name="sparse_mm_reduce",
    aten="_sparse_mm_reduce_impl",
    schema_args=3,
    node="SparseMmReduceImplBackward0",
    values=_values_grad,
    dense=_dense_grad,
    jvp=_reduce_jvp,
)
def _mm_reduce(values, dense, indices, size, reduce):
    rows, cols = indices
    out = xp.zeros((size[0], dense.shape[1]), dense.dtype)
    if reduce in ("sum", "mean"):
        xp.add.at(out, rows, values[:, None] * dense[cols])
        if reduce == "mean":  # divided after summing, as torch rounds it
            out /= xp.maximum(xp.bincount(rows, minlength=size[0]), 1)[:, None].astype(out.dtype)
        return out
    # the extreme product itself, as torch's kernel keeps it (a weighted sum would turn an
    # unpicked infinite product into NaN: 0 * inf); NaN propagates, empty rows give 0
    products = values[:, None] * dense[cols]
    out[...] = xp.inf if reduce == "amin" else -xp.inf
    (xp.minimum if reduce == "amin" else xp.maximum).at(out, rows, products)
    out[xp.bincount(rows, minlength=size[0]) == 0] = 0
    return out


def sparse_mm_reduce(input, other, reduce: str) -> Tensor:
    """``torch.sparse.mm(input, other, reduce)`` for a sparse CSR ``input`` and a dense
    matrix ``other``, with torch's argument checks."""
    if reduce not in REDUCTIONS:
        if reduce == "prod":
            raise RuntimeError("sparse_mm_reduce: reduce type of prod has not been enabled.")
        raise RuntimeError(
            f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}"
        )
    if not getattr(input, "is_sparse_csr", False):
        if getattr(input, "is_sparse", False):
            raise NotImplementedError(
                "Could not run 'aten::_sparse_mm_reduce_impl' with arguments from the "
                "'SparseCPU' backend: torch.sparse.mm with reduce= takes a sparse CSR matrix "
                "(convert with to_sparse_csr())"
            )
        raise RuntimeError("sparse_mm_reduce: expect self to be SparseCsr, got Strided")
    # torch checks the dtypes first, then the shape
    if other.dtype is not input.dtype:
        raise RuntimeError(
            f"Expected tensor for argument #1 'other' to have scalar type "
            f"{input.dtype.scalar_name}; but got {other.type()} instead (while checking "
            "arguments for sparse_mm_reduce)"
        )
    if other.ndim == 0:  # torch's check reads other.size(0) for its message first
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    if other.ndim != 2 or other.shape[0] != input.shape[1]:
        raise RuntimeError(
            f"Expected a tensor of dimension 2 and tensor.size[0] == {input.shape[1]} but got: "
            f"dimension {other.ndim} and tensor.size[0] = {other.shape[0]}"
        )
    if not input.dtype.is_floating_point:
        raise NotImplementedError(
            f"\"spmm_reduce_kernel\" not implemented for '{input.dtype.scalar_name}'"
        )
    indices = _index_tensor(input._index_array)
    return _mm_reduce(input._value_tensor, other, indices, tuple(input.shape), REDUCTIONS[reduce])
