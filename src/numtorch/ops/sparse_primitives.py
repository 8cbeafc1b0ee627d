"""The primitives under sparse COO tensors (ops/sparse.py): registered ops on a sparse
tensor's values (and dense operands), each with torch's ``grad_fn`` name. Formulas are
written with these primitives and dense ops, so they differentiate again.
"""

from __future__ import annotations

from .._core.kernel_dtypes import NUMBERS, kernel
from .._core.op import defop
from ..autograd.forward_grad import add_terms
from ..backend import xp
from .pointwise import _conj


# -- array kernels ---------------------------------------------------------------------------
def _scatter(values, indices, size):
    if not len(indices):  # no sparse dims: every entry is the whole (dense) tensor
        return values.sum(0).astype(values.dtype, copy=False).reshape(size)
    out = xp.zeros(size, values.dtype)
    xp.add.at(out, tuple(indices), values)
    return out


def _entries(grad, indices):
    if not len(indices):  # no sparse dims: each entry is the whole tensor
        return grad.unsqueeze(0).expand(indices.shape[1], *grad.shape)
    return grad[tuple(indices)]


def _column(values, ndim):
    return values.reshape((-1,) + (1,) * (ndim - 1))


# -- primitives on values --------------------------------------------------------------------
@defop(
    name="sparse_to_dense",
    aten="to_dense",
    node="ToDenseBackward0",
    values=lambda grad, indices: _entries(grad, indices),
    jvp="linear",
)
def _to_dense(values, indices, size):
    return _scatter(values, indices, size)


def _gather_array(input, indices):
    if not len(indices):  # no sparse dims (a 0-d tensor): each entry is the whole tensor
        return xp.repeat(input[None], indices.shape[1], axis=0)
    return input[tuple(indices)]


# the argument counts of torch's conversions, for the profiler (to_sparse: its layout overload)
_SCHEMA_ARGS = {None: 4, "csr": 2, "csc": 2, "bsr": 3, "bsc": 3}


def _gathering(name, node, aten, schema_args):
    """The dense entries at ``indices``, as a sparse tensor's values, recorded under the
    node torch names the conversion by (``to_sparse``'s two overloads, ``to_sparse_csr``...)."""
    return defop(
        name=name,
        aten=aten,
        node=node,
        schema_args=schema_args,
        input=lambda grad, input_shape, indices: _to_dense(grad, indices, input_shape),
        jvp="linear",
    )(lambda input, indices: _gather_array(input, indices))


_gather = _gathering("sparse_gather", "ToSparseBackward1", "to_sparse", 4)  # to_sparse(layout=)
_gather_dims = _gathering("sparse_gather_dims", "ToSparseBackward0", "to_sparse", 2)
# to_sparse_csr(), to_sparse_csc(), to_sparse_bsr(), to_sparse_bsc() of a dense tensor
GATHER_AS = {
    short: _gathering(
        f"sparse_gather_{short}",
        f"ToSparse{short.title()}Backward0",
        f"to_sparse_{short}",
        _SCHEMA_ARGS[short],
    )
    for short in ("csr", "csc", "bsr", "bsc")
}


def _segment_sum(values, inverse, count):
    out = xp.zeros((count,) + values.shape[1:], values.dtype)
    xp.add.at(out, inverse, values)
    return out


@defop(
    name="sparse_coalesce",
    aten="coalesce",
    node="CoalesceBackward0",
    values=lambda grad, inverse: grad.index_select(0, inverse),
    jvp="linear",
)
def _coalesce_values(values, inverse, count):
    # torch's coalesce starts each sum from the first value of its index, not from 0: a
    # lone -0.0 (or a sum of them) stays -0.0
    _, first = xp.unique(inverse, return_index=True)
    out = values[first]
    rest = xp.ones(len(inverse), bool)
    rest[first] = False
    xp.add.at(out, inverse[rest], values[rest])
    return out


@defop(
    name="sparse_sum_dims",
    aten="_sparse_sum",
    node="SparseSumBackward0",
    values=lambda grad, inverse: grad.index_select(0, inverse),
    jvp="linear",
)
def _sum_values(values, inverse, count):
    return _segment_sum(values, inverse, count)


def _add_grad(grad, inverse, first: bool, count):
    part = inverse.narrow(0, 0, count) if first else inverse.narrow(0, count, len(inverse) - count)
    return grad.index_select(0, part)


@defop(
    name="sparse_add",
    aten="add",
    schema_args=3,
    node="AddBackward0",
    input=lambda grad, inverse, input_shape: _add_grad(grad, inverse, True, input_shape[0]),
    other=lambda grad, inverse, input_shape: _add_grad(grad, inverse, False, input_shape[0]),
    jvp="linear",
)
def _add_values(input, other, inverse, count):
    return _segment_sum(xp.concatenate([input, other]), inverse, count)


def _alias(name, node, aten, schema_args=None):
    """An identity on values recorded under torch's node name (TBackward0, ...)."""
    return defop(
        name=name,
        node=node,
        aten=aten,
        schema_args=schema_args,
        input=lambda grad: grad,
        jvp="linear",
    )(lambda input: input.copy())


# torch gathers the values' gradient with a non-differentiable read of the sparse gradient's
# values: under create_graph it never requires grad, even where the gradient of a product
# with a dense operand that requires grad does
# The result shares the values' memory, not their version counter, as torch's sparse tensor
# does: a product that saved the sparse tensor reads values modified in place later
_created = defop(
    name="sparse_coo_tensor",
    node="SparseCooTensorWithDimsAndTensorsBackward0",
    aten="sparse_coo_tensor",
    input=lambda grad: grad.detach(),
    jvp="linear",
)(lambda input: input)
# the same conversions of a sparse tensor (None: to_sparse(layout=)), and the compressed
# constructor
CONVERTED_AS = {
    None: _alias("sparse_to_sparse", "ToSparseBackward1", "to_sparse", _SCHEMA_ARGS[None]),
    **{
        short: _alias(
            f"sparse_to_{short}",
            f"ToSparse{short.title()}Backward0",
            f"to_sparse_{short}",
            _SCHEMA_ARGS[short],
        )
        for short in ("csr", "csc", "bsr", "bsc")
    },
}
_compressed_created = _alias(
    "sparse_compressed_tensor", "SparseCompressedTensorBackward0", "sparse_compressed_tensor", 8
)
_transposed = _alias("sparse_t", "TBackward0", "t")
_transposed_dims = _alias("sparse_transpose", "TransposeBackward0", "transpose")


def _values_grad(grad, input):
    return grad


# torch's values() is a view of the sparse tensor: an in-place write through it changes the
# sparse tensor's values, and records a CopySlices whose backward fails (Note [Sparse roots]).
# Its ValuesBackward0 saves the sparse tensor (values_backward(grad, self)), so an in-place
# op that only restrides the view (squeeze_, t_) still fails backward's version check: here
# the dense values tensor, the sparse tensor's stand-in, is saved for that check
@defop(
    name="sparse_values",
    node="ValuesBackward0",
    aten="values",
    view=True,
    input=_values_grad,
    jvp="linear",
)
def _values_view(input):
    return input.view()


def _values_of(values):
    out = _values_view(values)
    values._sparse_root = True
    return out


def _product_jvp(product):
    """The forward derivative of a product of a sparse tensor's values and a dense operand:
    bilinear, so one product per operand with a tangent."""

    def jvp(values_t, dense_t, values, dense, indices, size):
        return add_terms(
            None if values_t is None else product(values_t, dense, indices, size),
            None if dense_t is None else product(values, dense_t, indices, size),
        )

    return jvp


# sparse (m x k) @ dense (k x n or k): rows of the result gather the products of each entry.
# The gradients conjugate the other operand (Note [Complex autograd]).
def _mm_values_grad(grad, dense, indices):
    products = grad.index_select(0, indices[0]) * _conj(dense).index_select(0, indices[1])
    return products.sum(-1) if products.ndim == 2 else products


def _mm_forward(values, dense, indices, size):
    out = xp.zeros((size[0],) + dense.shape[1:], xp.result_type(values, dense))
    xp.add.at(out, indices[0], _column(values, dense.ndim) * dense[indices[1]])
    return out


# Note [Kernel dtypes]: every sparse-dense product runs torch's addmm_sparse_dense kernel,
# which has no bool loop
_SPARSE_DENSE = kernel("addmm_sparse_dense", NUMBERS)


def _sparse_dense_op(name, node, aten):
    def dense_grad(grad, values, indices, size):
        return op(_conj(values), grad, indices.flip(0), (size[1], size[0]))

    op = defop(
        name=name,
        node=node,
        aten=aten,
        dtypes=_SPARSE_DENSE,
        values=lambda grad, dense, indices: _mm_values_grad(grad, dense, indices),
        dense=dense_grad,
        jvp=_product_jvp(lambda values, dense, indices, size: op(values, dense, indices, size)),
    )(_mm_forward)
    return op


_spmm = _sparse_dense_op("sparse_mm", "MmBackward0", "mm")
_spaddmm = _sparse_dense_op("sparse_addmm", "SparseAddmmBackward0", "addmm")
_spmv = _sparse_dense_op("sparse_mv", "MvBackward0", "mv")


def _dense_sparse_grad(grad, values, indices, size):
    return _dsmm(grad, _conj(values), indices.flip(0), (size[1], size[0]))


def _dense_sparse_values_grad(grad, dense, indices):
    return (_conj(dense).index_select(1, indices[0]) * grad.index_select(1, indices[1])).sum(0)


# dense (n x m) @ sparse (m x k): columns of the result gather the products of each entry
@defop(
    name="dense_sparse_mm",
    aten="mm",
    dtypes=_SPARSE_DENSE,
    node="MmBackward0",
    dense=_dense_sparse_grad,
    values=_dense_sparse_values_grad,
    jvp=_product_jvp(lambda values, dense, indices, size: _dsmm(dense, values, indices, size)),
)
def _dsmm(dense, values, indices, size):
    # column-major, as torch computes (sparse^T dense^T)^T
    out = xp.zeros((size[1], dense.shape[0]), xp.result_type(values, dense))
    xp.add.at(out, indices[1], (dense[:, indices[0]] * values).T)
    return out.T


def _merge(a, b):
    """torch's sparse addition: one merge pass over both entry lists, as if each were sorted,
    adding entries that meet at the same index (duplicates elsewhere stay apart). Returns the
    merged linear indices and, for every input entry in order, its output position."""
    a, b = a.tolist(), b.tolist()
    merged, slots_a, slots_b = [], [], []
    i = j = 0
    while i < len(a) or j < len(b):
        if j == len(b) or (i < len(a) and a[i] < b[j]):
            slots_a.append(len(merged))
            merged.append(a[i])
            i += 1
        elif i == len(a) or b[j] < a[i]:
            slots_b.append(len(merged))
            merged.append(b[j])
            j += 1
        else:
            slots_a.append(len(merged))
            slots_b.append(len(merged))
            merged.append(a[i])
            i, j = i + 1, j + 1
    return xp.array(merged, xp.int64), xp.array(slots_a + slots_b, xp.int64)


# beta * input + alpha * (sparse @ dense), torch.sparse.addmm: one node over all three
# operands, as torch records it
def _scaled_addmm_forward(input, values, dense, indices, size, beta, alpha):
    product = _mm_forward(values, dense, indices, size) * alpha
    # beta == 0 ignores input, NaN and inf included, as BLAS does
    return product if beta == 0 else product + beta * input


def _scaled_addmm_jvp(input_t, values_t, dense_t, input, values, dense, indices, size, beta, alpha):
    product_t = _product_jvp(_spaddmm)(values_t, dense_t, values, dense, indices, size)
    return add_terms(
        None if product_t is None else product_t * alpha,
        None if input_t is None or beta == 0 else input_t * beta,
    )


_spaddmm_scaled = defop(
    name="sparse_addmm_scaled",
    node="SparseAddmmBackward0",
    dtypes=_SPARSE_DENSE,
    aten="addmm",
    schema_args=5,
    # as torch: the input's and the values' gradients take beta and alpha themselves, the
    # dense operand's takes alpha's conjugate
    input=lambda grad, beta: grad * beta,
    values=lambda grad, dense, indices, alpha: _mm_values_grad(grad, dense, indices) * alpha,
    dense=lambda grad, values, indices, size, alpha: (
        _spaddmm(_conj(values), grad, indices.flip(0), (size[1], size[0])) * _conj(alpha)
    ),
    jvp=_scaled_addmm_jvp,
)(_scaled_addmm_forward)
