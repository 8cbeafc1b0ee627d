"""Sparse COO tensors: ``sparse_coo_tensor``, ``to_sparse``/``to_dense``, ``coalesce``,
sparse @ dense products and ``torch.sparse.sum``, with gradients.

A ``SparseTensor`` holds an int64 index array (sparse_dim x nnz), a dense values tensor
(nnz x dense dims) and a size. Autograd runs on the values: every op below is a registered
primitive whose differentiable input is a values tensor (or a dense operand), so a sparse
tensor's ``grad_fn`` is its values' and gradients reach the values' history. A sparse leaf
(``requires_grad_()``) keeps its gradient on its values, and ``.grad`` reads it back as a
sparse tensor with the coalesced pattern, as torch's ``torch.sparse.mm`` gives it.

NumPy only: products scatter with ``numpy.add.at``. A dense op reached with a sparse tensor
raises torch's NotImplementedError naming the op and the 'SparseCPU' backend (see
``_dense_only``).
"""

from __future__ import annotations

import sys

from .._core import dtypes as _dtypes
from .._core.dispatch import kernel_scales
from .._core.op import OpSpec
from .._core.tensor import Size, Tensor, _wrap_dim
from .._core.warn_once import warn_once
from .._creation import tensor as _tensor_from
from ..backend import xp
from .numpy_keywords import WRAPPER_CODE
from .sparse_primitives import (
    _add_values,
    _coalesce_values,
    _created,
    _dsmm,
    _gather,
    _gather_dims,
    _merge,
    _spaddmm,
    _spaddmm_scaled,
    _spmm,
    _spmv,
    _sum_values,
    _to_dense,
    _transposed,
    _transposed_dims,
    _values_of,
)
from .sparse_repr import sparse_repr


class layout:
    """A tensor layout tag (``torch.strided``, ``torch.sparse_coo``)."""

    def __init__(self, name: str):
        self._name = name

    def __repr__(self) -> str:
        return f"torch.{self._name}"


strided = layout("strided")
sparse_coo = layout("sparse_coo")
Tensor.layout = strided


def _dense_only(tensor):
    """Reading a sparse tensor's dense array means a dense kernel was reached: name its op."""
    frame = sys._getframe(1)
    name = None
    while frame is not None and frame.f_globals.get("__name__", "").startswith("numtorch"):
        spec = frame.f_locals.get("spec")
        if spec is None and frame.f_code.co_filename.endswith(">"):
            spec = frame.f_globals.get("spec")  # an op's generated runner keeps it global
        if isinstance(spec, OpSpec):
            name = spec.aten  # torch's op: mean, not numtorch's private overload mean_all
            break
        if frame.f_code is not WRAPPER_CODE:
            name = frame.f_code.co_name  # else the outermost numtorch function called
        frame = frame.f_back
    raise NotImplementedError(
        f"Could not run 'aten::{name}' with arguments from the 'SparseCPU' backend: "
        "numtorch's sparse COO tensors support construction, coalesce, to_dense, transpose, "
        "sums, scaling, addition, zero-preserving pointwise ops and products with dense "
        "matrices; call .to_dense() first for other ops."
    )


# -- the tensor ------------------------------------------------------------------------------
def _index_tensor(indices) -> Tensor:
    return Tensor._make(indices)


class SparseTensor(Tensor):
    """A sparse COO tensor (``layout=torch.sparse_coo``)."""

    is_sparse = True
    layout = sparse_coo
    _data = property(_dense_only)

    @staticmethod
    def _build(indices, values: Tensor, size, coalesced: bool) -> SparseTensor:
        t = object.__new__(SparseTensor)
        t._requires_grad = False
        t._grad_fn = None
        t._base = None
        t._index_array = xp.ascontiguousarray(indices, dtype=xp.int64)
        t._value_tensor = values
        t._size = Size(int(s) for s in size)
        t._coalesced = coalesced
        return t

    # -- metadata ----------------------------------------------------------------------------
    shape = property(lambda self: self._size)
    dtype = property(lambda self: self._value_tensor.dtype)
    device = property(lambda self: self._value_tensor.device)
    is_cpu = property(lambda self: self._value_tensor.is_cpu)
    is_meta = property(lambda self: self._value_tensor.is_meta)
    ndim = property(lambda self: len(self._size))

    def size(self, dim=None):
        return self._size if dim is None else self._size[_wrap_dim(dim, len(self._size))]

    def dim(self) -> int:
        return len(self._size)

    def numel(self) -> int:
        return self._size.numel()

    def sparse_dim(self) -> int:
        return self._index_array.shape[0]

    def dense_dim(self) -> int:
        return len(self._size) - self._index_array.shape[0]

    def _nnz(self) -> int:
        return self._index_array.shape[1]

    def is_coalesced(self) -> bool:
        return self._coalesced

    def is_floating_point(self) -> bool:
        return self.dtype.is_floating_point

    def is_complex(self) -> bool:
        return self.dtype.is_complex

    def is_contiguous(self, memory_format=None) -> bool:
        return False

    def element_size(self) -> int:
        return self.dtype.itemsize

    def __len__(self) -> int:
        return self._size[0]

    def numpy(self, *, force: bool = False):
        raise TypeError("can't convert Sparse layout tensor to numpy. Use Tensor.to_dense() first.")

    # -- autograd, carried by the values -----------------------------------------------------
    @property
    def requires_grad(self) -> bool:
        return self._value_tensor.requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        self._value_tensor.requires_grad = value

    def requires_grad_(self, requires_grad: bool = True) -> SparseTensor:
        self._value_tensor.requires_grad_(requires_grad)
        return self

    @property
    def grad_fn(self):
        return self._value_tensor.grad_fn

    @property
    def is_leaf(self) -> bool:
        return self._value_tensor.is_leaf

    @property
    def grad(self):
        grad = self._value_tensor._grad
        if grad is None:
            return None
        # each entry's gradient is the one at its position: keep the first of duplicates
        linear = self._linear()
        unique, first = xp.unique(linear, return_index=True)
        indices = xp.array(xp.unravel_index(unique, self._size[: self.sparse_dim()]))
        return SparseTensor._build(indices, grad.detach()[first.tolist()], self._size, True)

    @grad.setter
    def grad(self, value) -> None:
        if value is not None:
            raise RuntimeError("numtorch sets the gradient of a sparse tensor only to None")
        self._value_tensor.grad = None

    def detach(self) -> SparseTensor:
        values = self._value_tensor.detach()
        return SparseTensor._build(self._index_array, values, self._size, self._coalesced)

    data = property(detach)

    def clone(self, *, memory_format=None) -> SparseTensor:
        values = self._value_tensor.clone()
        return SparseTensor._build(self._index_array.copy(), values, self._size, self._coalesced)

    def _owned_copy(self) -> SparseTensor:
        return self  # a gradient's entries are fresh: .grad takes them over

    def _sum_gradient(self, other) -> Tensor:
        """Gradient accumulation into a sparse ``.grad``: torch's sparse addition (a merge
        pass over contiguous values, else the new entries appended, uncoalesced); a dense
        gradient makes the sum dense."""
        if not isinstance(other, SparseTensor):
            return other + self.to_dense()
        if all(v._value_tensor._data.flags.c_contiguous for v in (self, other)):
            return self + other  # torch's merge pass, for contiguous values
        indices = xp.concatenate([self._index_array, other._index_array], 1)
        values = Tensor._make(
            xp.concatenate([self._value_tensor._data, other._value_tensor._data], 0)
        )
        return SparseTensor._build(indices, values, self._size, False)

    def _with_values(self, values: Tensor) -> SparseTensor:
        return SparseTensor._build(self._index_array, values, self._size, self._coalesced)

    def to(self, *args, **kwargs) -> SparseTensor:
        return self._with_values(self._value_tensor.to(*args, **kwargs))

    def float(self) -> SparseTensor:
        return self.to(_dtypes.float32)

    def double(self) -> SparseTensor:
        return self.to(_dtypes.float64)

    def cpu(self) -> SparseTensor:
        return self

    # -- structure -------------------------------------------------------------------------
    def _linear(self):
        sparse_size = self._size[: self.sparse_dim()]
        if not self._nnz():
            return xp.zeros(0, xp.int64)
        return xp.ravel_multi_index(tuple(self._index_array), sparse_size)

    def coalesce(self) -> SparseTensor:
        """Sorted, unique indices; the values of duplicates summed."""
        if self._coalesced:
            return self
        unique, inverse = xp.unique(self._linear(), return_inverse=True)
        indices = xp.array(xp.unravel_index(unique, self._size[: self.sparse_dim()]))
        indices = indices.reshape(self.sparse_dim(), -1)
        values = _coalesce_values(self._value_tensor, _index_tensor(inverse), len(unique))
        return SparseTensor._build(indices, values, self._size, True)

    def _check_coalesced(self, what: str) -> None:
        if not self._coalesced:
            raise RuntimeError(
                f"Cannot get {what} on an uncoalesced tensor, please call .coalesce() first"
            )

    def indices(self) -> Tensor:
        self._check_coalesced("indices")
        return _index_tensor(self._index_array)

    def _indices(self) -> Tensor:
        return _index_tensor(self._index_array)

    def values(self) -> Tensor:
        self._check_coalesced("values")
        return _values_of(self._value_tensor)

    def _values(self) -> Tensor:
        return self._value_tensor.detach()

    def to_dense(self, dtype=None, *, masked_grad=None) -> Tensor:
        out = _to_dense(self._value_tensor, _index_tensor(self._index_array), tuple(self._size))
        return out if dtype is None else out.to(dtype)

    def to_sparse(self, sparse_dim=None, *, layout=None) -> SparseTensor:
        return self

    def t(self) -> SparseTensor:
        if self.sparse_dim() != 2 or self.dense_dim():
            raise RuntimeError(
                f"t() expects a tensor with <= 2 sparse and 0 dense dimensions, but got "
                f"{self.sparse_dim()} sparse and {self.dense_dim()} dense dimensions"
            )
        values = _transposed(self._value_tensor)
        size = (self._size[1], self._size[0])
        return SparseTensor._build(self._index_array[::-1], values, size, False)

    def transpose(self, dim0, dim1) -> SparseTensor:
        dim0, dim1 = _wrap_dim(dim0, self.ndim), _wrap_dim(dim1, self.ndim)
        sd = self.sparse_dim()
        if max(dim0, dim1) >= sd:
            raise RuntimeError(
                "sparse transpose: transposed dimensions must be sparse Got sparse_dim: "
                f"{sd}, d0: {dim0}, d1: {dim1}"
            )
        order = list(range(self.sparse_dim()))
        order[dim0], order[dim1] = order[dim1], order[dim0]
        size = list(self._size)
        size[dim0], size[dim1] = size[dim1], size[dim0]
        values = _transposed_dims(self._value_tensor)
        return SparseTensor._build(self._index_array[order], values, size, False)

    # -- arithmetic ------------------------------------------------------------------------
    def __mul__(self, other):
        if isinstance(other, SparseTensor):
            return NotImplemented
        if isinstance(other, Tensor) and other.ndim:
            if tuple(other.shape) != tuple(self._size):
                raise RuntimeError(
                    f"mul: expected a dense tensor of size {list(self._size)} for a sparse "
                    f"tensor, got {list(other.shape)}"
                )
            other = other[tuple(_index_tensor(self._index_array))]
        return self._with_values(self._value_tensor * other)

    __rmul__ = __mul__
    mul = __mul__

    def __truediv__(self, other):
        if isinstance(other, Tensor) and other.ndim:
            return NotImplemented
        return self._with_values(self._value_tensor / other)

    div = __truediv__

    def __neg__(self):
        return self._with_values(-self._value_tensor)

    neg = __neg__

    def __add__(self, other):
        if not isinstance(other, SparseTensor):
            raise RuntimeError(
                "add(sparse, dense) is not supported. Use add(dense, sparse) instead."
            )
        if other._size != self._size:
            raise RuntimeError(
                f"add: expected 'self' and 'other' to have same size, but self has size "
                f"{list(self._size)} while other has size {list(other._size)} (FYI: "
                "op2-sparse addition does not currently support broadcasting)"
            )
        merged, inverse = _merge(self._linear(), other._linear())
        indices = xp.array(xp.unravel_index(merged, self._size[: self.sparse_dim()]))
        values = _add_values(
            self._value_tensor, other._value_tensor, _index_tensor(inverse), len(merged)
        )
        coalesced = self._coalesced and other._coalesced
        return SparseTensor._build(
            indices.reshape(self.sparse_dim(), -1), values, self._size, coalesced
        )

    add = __add__

    def __radd__(self, other):
        # dense + sparse: a dense result, as torch's
        return other + self.to_dense()

    def _map_values(self, fn) -> SparseTensor:
        # ops that keep zeros at zero act on the values of the coalesced tensor, as torch's
        coalesced = self.coalesce()
        return coalesced._with_values(fn(coalesced._value_tensor))

    def abs(self):
        return self._map_values(lambda v: v.abs())

    def relu(self):
        return self._map_values(lambda v: v.relu())

    def sqrt(self):
        return self._map_values(lambda v: v.sqrt())

    def tanh(self):
        return self._map_values(lambda v: v.tanh())

    def sin(self):
        return self._map_values(lambda v: v.sin())

    def pow(self, exponent):
        if not isinstance(exponent, (int, float)) or exponent <= 0:
            raise NotImplementedError(
                "numtorch's sparse pow takes a positive number as exponent (zeros stay zeros)"
            )
        return self._map_values(lambda v: v.pow(exponent))

    __pow__ = pow

    def sum(self, dim=None, keepdim=False, dtype=None):
        return sparse_sum(self, dim, dtype=dtype)

    # -- products ----------------------------------------------------------------------------
    def __matmul__(self, other):
        return sparse_product(self, other)

    def __rmatmul__(self, other):
        return sparse_product(other, self)

    matmul = __matmul__

    def mm(self, mat2):
        check_dense_matrix(mat2)
        return sparse_product(self, mat2)

    spmm = mm

    def mv(self, vec):
        return sparse_product(self, vec)

    def __repr__(self) -> str:
        return sparse_repr(self)


# -- functions -------------------------------------------------------------------------------
def _check_product(sparse, dense, name) -> None:
    if sparse.sparse_dim() != 2 or sparse.dense_dim():
        raise RuntimeError(f"{name}: expected a 2-D sparse matrix, got size {list(sparse.shape)}")
    if sparse.dtype is not dense.dtype:
        raise RuntimeError(
            f"{name}: expected mat1 and mat2 to have the same dtype, but got: "
            f"{sparse.dtype} != {dense.dtype}"
        )


def check_dense_matrix(other, read_dim=-1) -> None:
    """torch's IndexErrors for the dense operand of a sparse matrix product (mm, spmm,
    sparse.mm, sparse.addmm), which reads that operand's ``read_dim`` size first."""
    if isinstance(other, SparseTensor) or not isinstance(other, Tensor) or other.ndim >= 2:
        return
    if other.ndim == 0:
        raise IndexError(f"Dimension specified as {read_dim} but tensor has no dimensions")
    raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got 1)")


def sparse_product(input, other, node: str = "mm") -> Tensor:
    """``input @ other`` where either is sparse (torch.mm, torch.spmm, torch.sparse.mm)."""
    if isinstance(input, SparseTensor) and isinstance(other, SparseTensor):
        return sparse_product(input, other.to_dense(), node).to_sparse()
    if isinstance(input, SparseTensor):
        _check_product(input, other, "addmm")
        if other.ndim not in (1, 2) or other.shape[0] != input.shape[1]:
            raise RuntimeError(
                f"addmm: Argument #3 (dense): Expected dim 0 size {input.shape[1]}, got "
                f"{other.shape[0] if other.ndim else 0}"
            )
        op = _spmv if other.ndim == 1 else (_spaddmm if node == "sparse.mm" else _spmm)
        indices = _index_tensor(input._index_array)
        return op(input._value_tensor, other, indices, tuple(input.shape))
    if input.ndim == 0:  # torch reads the dense operand's size(-2) before any other check
        raise IndexError("Dimension specified as -2 but tensor has no dimensions")
    _wrap_dim(-2, input.ndim)
    _check_product(other, input, "mm")
    if input.ndim != 2 or input.shape[1] != other.shape[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({input.shape[0]}x{input.shape[-1]} and "
            f"{other.shape[0]}x{other.shape[1]})"
        )
    indices = _index_tensor(other._index_array)
    return _dsmm(input, other._value_tensor, indices, tuple(other.shape))


def sparse_addmm(input, mat1, mat2, beta=1.0, alpha=1.0) -> Tensor:
    """``beta * input + alpha * (mat1 @ mat2)`` with a sparse COO ``mat1`` (torch.sparse.addmm);
    a dense ``mat1`` falls back to torch.addmm, as torch's does."""
    if not isinstance(mat1, SparseTensor):
        return input.addmm(mat1, mat2, beta=beta, alpha=alpha)
    if isinstance(mat2, SparseTensor):
        raise RuntimeError(
            "addmm_sparse_dense: expected either 'mat1' to have sparse layout and 'mat2' to have "
            "strided layout, got 'mat1' with layout Sparse and 'mat2' with layout Sparse"
        )
    check_dense_matrix(mat2, 1)
    if isinstance(input, Tensor) and input.dtype != mat1.dtype:
        raise RuntimeError(
            f"expected scalar type {mat1.dtype.scalar_name} but found {input.dtype.scalar_name}"
        )
    _check_product(mat1, mat2, "addmm")
    if mat2.ndim != 2 or mat2.shape[0] != mat1.shape[1]:
        raise RuntimeError(
            f"addmm: Argument #3 (dense): Expected dim 0 size {mat1.shape[1]}, got "
            f"{mat2.shape[0] if mat2.ndim else 0}"
        )
    indices = _index_tensor(mat1._index_array)
    size = tuple(mat1.shape)
    values = mat1._value_tensor
    beta, alpha = kernel_scales(values._data.dtype, beta, alpha)
    return _spaddmm_scaled(input, values, mat2, indices, size, beta, alpha)


def sparse_sum(input, dim=None, dtype=None) -> Tensor:
    """``torch.sparse.sum``: a dense scalar over everything, else a sparse tensor."""
    values = input._value_tensor if dtype is None else input._value_tensor.to(dtype)
    if dim is None:
        return values.sum()
    dims = sorted({_wrap_dim(d, input.ndim) for d in ((dim,) if isinstance(dim, int) else dim)})
    sparse_dim = input.sparse_dim()
    dense = [d for d in dims if d >= sparse_dim]
    if dense:  # dense dims reduce within each entry's values
        values = values.sum([d - sparse_dim + 1 for d in dense])
    keep = [d for d in range(sparse_dim) if d not in dims]
    if not keep:
        return values.sum(0)
    kept = input._index_array[keep]
    dense_size = [n for d, n in enumerate(input.shape) if d >= sparse_dim and d not in dense]
    size = [input.shape[d] for d in keep] + dense_size
    linear = xp.ravel_multi_index(tuple(kept), size[: len(keep)]) if kept.size else kept[0]
    unique, inverse = xp.unique(linear, return_inverse=True)
    indices = xp.array(xp.unravel_index(unique, size[: len(keep)])).reshape(len(keep), -1)
    summed = _sum_values(values, _index_tensor(inverse), len(unique))
    return SparseTensor._build(indices, summed, size, True)


def to_sparse(input, sparse_dim=None, *, layout=None, blocksize=None, dense_dim=None):
    """The nonzero entries of a dense tensor as a coalesced sparse COO tensor."""
    if layout not in (None, sparse_coo):
        raise NotImplementedError(f"numtorch has sparse COO tensors only, not {layout}")
    # torch's two overloads: to_sparse(sparse_dim) records ToSparseBackward0, to_sparse(*,
    # layout, blocksize, dense_dim) ToSparseBackward1
    gather = _gather if sparse_dim is None else _gather_dims
    if dense_dim is not None:
        sparse_dim = input.ndim - dense_dim
    sparse_dim = input.ndim if sparse_dim is None else sparse_dim
    mask = input._data != 0  # the array itself: numpy() refuses bfloat16
    if sparse_dim < input.ndim:
        mask = mask.reshape(mask.shape[:sparse_dim] + (-1,)).any(-1)
    if mask.ndim:
        indices = xp.array(xp.nonzero(mask), dtype=xp.int64).reshape(sparse_dim, -1)
    else:  # a 0-d tensor: one entry, or none where it is zero
        indices = xp.zeros((0, int(mask)), dtype=xp.int64)
    values = gather(input, _index_tensor(indices))
    return SparseTensor._build(indices, values, input.shape, True)


def warn_unchecked_invariants(check_invariants) -> None:
    """torch's constructors of sparse tensors warn once per program when neither the call
    nor the program chose whether to check the tensor's invariants."""
    if check_invariants is None:
        warn_once(
            "Sparse invariant checks are implicitly disabled. Memory errors (e.g. SEGFAULT) "
            "will occur when operating on a sparse tensor which violates the invariants, but "
            "checks incur performance overhead. To silence this warning, explicitly opt in or "
            "out. See `torch.sparse.check_sparse_tensor_invariants.__doc__` for guidance. ",
            stacklevel=3,
        )


def sparse_coo_tensor(
    indices,
    values,
    size=None,
    *,
    dtype=None,
    device=None,
    requires_grad=False,
    check_invariants=None,
    is_coalesced=None,
) -> SparseTensor:
    """A sparse COO tensor from ``indices`` (sparse_dim x nnz) and ``values`` (nnz, ...)."""
    warn_unchecked_invariants(check_invariants)
    index = indices.detach().numpy() if isinstance(indices, Tensor) else xp.asarray(indices)
    index = index.astype(xp.int64)  # as torch, float indices are truncated
    if not isinstance(values, Tensor):
        values = _tensor_from(values)
    if dtype is not None and values.dtype is not _dtypes.to_dtype(dtype):
        values = values.to(dtype)
    if index.ndim != 2:
        raise RuntimeError(
            f"'len(size) == sparse_dim + dense_dim' is not satisfied: len(size) = "
            f"{len(size) if size is not None else 0}, sparse_dim = {len(index)}, "
            f"dense_dim = {values.ndim - 1}"
        )
    sparse_dim, nnz = index.shape
    if values.ndim == 0 or values.shape[0] != nnz:
        raise RuntimeError(
            "indices and values must have same nnz, but got nnz from indices: "
            f"{nnz}, nnz from values: {values.shape[0] if values.ndim else 1}"
        )
    if size is None:
        size = [int(index[d].max()) + 1 if nnz else 0 for d in range(sparse_dim)]
        size += list(values.shape[1:])
    size = tuple(int(s) for s in size)
    if len(size) != sparse_dim + values.ndim - 1:
        raise RuntimeError(
            f"'len(size) == sparse_dim + dense_dim' is not satisfied: len(size) = {len(size)}, "
            f"sparse_dim = {sparse_dim}, dense_dim = {values.ndim - 1}"
        )
    expected = [values.shape[0], *size[sparse_dim:]]
    if list(values.shape) != expected:  # the dense dims must match the size's
        raise RuntimeError(
            f"values has incorrect size, expected {expected}, got {list(values.shape)}"
        )
    for d in range(sparse_dim):
        if nnz and index[d].min() < 0:
            raise RuntimeError(f"found negative index {int(index[d].min())} for dim {d}")
        if nnz and index[d].max() >= size[d]:
            raise RuntimeError(
                f"size is inconsistent with indices: for dim {d}, size is {size[d]} but found "
                f"index {int(index[d].max())}"
            )
    if values.requires_grad and not requires_grad:
        values = _created(values)
    elif values._vc is None or not values._vc.inference:
        # torch's sparse tensor shares the values' memory, not their version counter
        values = Tensor._make(values._data).requires_grad_(requires_grad)
    elif requires_grad:
        values = values.detach().requires_grad_()
    return SparseTensor._build(index, values, size, bool(is_coalesced) or nnz <= 1)


def _dense_to_dense(input, dtype=None, *, masked_grad=None) -> Tensor:
    return input if dtype is None else input.to(dtype)  # a dense tensor is already dense


Tensor.to_dense = _dense_to_dense
Tensor.to_sparse = to_sparse
Tensor.to_sparse_coo = to_sparse


# -- concatenation and selection along sparse dims -------------------------------------------
def sparse_cat(tensors, dim, concatenate) -> SparseTensor:
    """``torch.cat`` of sparse tensors along a sparse dim: the index lists are stacked (each
    shifted by the sizes before it) and the values concatenated with ``concatenate`` (the
    dense cat, so the result's ``grad_fn`` is ``CatBackward0``). Not coalesced, as in torch."""
    for i, t in enumerate(tensors):
        if not t.is_sparse:
            raise RuntimeError(
                f"Concatenating sparse tensors, but a dense tensor was found at position {i}."
            )
    ref = tensors[0]
    dim = _wrap_dim(dim, ref.ndim)
    for i, t in enumerate(tensors):
        same = all(a == b for d, (a, b) in enumerate(zip(ref.shape, t.shape)) if d != dim)
        if t.ndim != ref.ndim or not same or t.sparse_dim() != ref.sparse_dim():
            raise RuntimeError(
                f"All tensors must have the same shape: {list(ref.shape)} (except in the "
                f"concatenating dimension), but found shape: {list(t.shape)} at position {i}."
            )
    if dim >= ref.sparse_dim():
        return _cat_dense_dim(tensors, dim, concatenate)
    blocks, offset = [], 0
    for t in tensors:
        indices = t._index_array.copy()
        indices[dim] += offset
        blocks.append(indices)
        offset += t.shape[dim]
    size = list(ref.shape)
    size[dim] = offset
    values = concatenate([t._value_tensor for t in tensors], 0)
    return SparseTensor._build(xp.concatenate(blocks, axis=1), values, size, False)


def _cat_dense_dim(tensors, dim, concatenate) -> SparseTensor:
    """``cat`` along a dense dim, as torch: the entries of each tensor in turn, their values
    zero outside that tensor's block of the dim."""
    axis = dim - tensors[0].sparse_dim() + 1
    total = sum(t.shape[dim] for t in tensors)
    padded, offset = [], 0
    for t in tensors:
        values = t._value_tensor
        parts = []
        for width in (offset, total - offset - t.shape[dim]):
            shape = list(values.shape)
            shape[axis] = width
            parts.append(Tensor._make(xp.zeros(shape, values._data.dtype)))
        padded.append(concatenate([parts[0], values, parts[1]], axis))
        offset += t.shape[dim]
    size = list(tensors[0].shape)
    size[dim] = total
    indices = xp.concatenate([t._index_array for t in tensors], axis=1)
    return SparseTensor._build(indices, concatenate(padded, 0), size, False)


def sparse_index_select(input, dim, index, select) -> SparseTensor:
    """``index_select`` along a sparse dim: for each position of ``index`` in turn, the entries
    at that coordinate in stored order, renumbered; the values are picked with ``select``
    (the dense index_select, so the ``grad_fn`` is ``IndexSelectBackward0``)."""
    dim = _wrap_dim(dim, input.ndim)
    if dim >= input.sparse_dim():  # a dense dim: every entry keeps its place
        values = select(input._value_tensor, dim - input.sparse_dim() + 1, index)
        out_size = list(input.shape)
        out_size[dim] = values.shape[dim - input.sparse_dim() + 1]
        return SparseTensor._build(input._index_array.copy(), values, out_size, input._coalesced)
    wanted = xp.asarray(index._data).reshape(-1).astype(xp.int64)
    size = input.shape[dim]
    for k in wanted.tolist():
        if not -size <= k < size:
            raise IndexError(
                f"index_select(): index contains {k} that is out of range for tensor of size "
                f"{list(input.shape)} at dimension {dim}"
            )
    wanted = xp.where(wanted < 0, wanted + size, wanted)
    coords = input._index_array[dim]
    # (position in index, entry) pairs where the entry's coordinate is that index
    position, entry = xp.nonzero(wanted[:, None] == coords[None, :])
    indices = input._index_array[:, entry].copy()
    indices[dim] = position
    values = select(input._value_tensor, 0, _index_tensor(entry))
    out_size = list(input.shape)
    out_size[dim] = len(wanted)
    return SparseTensor._build(indices, values, out_size, False)


def sparse_narrow_copy(input, dim, start, length, narrow, select) -> SparseTensor:
    """``narrow_copy`` of a sparse COO tensor: along a sparse dim the entries inside the range,
    renumbered (the values picked with the dense ``select``); along a dense dim every entry
    keeps its place and its values are narrowed with the dense ``narrow``."""
    dim = _wrap_dim(dim, input.ndim)
    size = input.shape[dim]
    if start < 0 or length < 0 or start + length > size:
        raise RuntimeError(
            "Invalid range to narrow. range(start, start+length) must be a subset of "
            f"range(0, {size})."
        )
    out_size = list(input.shape)
    out_size[dim] = length
    if dim >= input.sparse_dim():
        values = narrow(input._value_tensor, dim - input.sparse_dim() + 1, start, length)
        return SparseTensor._build(input._index_array.copy(), values, out_size, input._coalesced)
    coords = input._index_array[dim]
    entry = xp.nonzero((coords >= start) & (coords < start + length))[0]
    indices = input._index_array[:, entry].copy()
    indices[dim] -= start
    values = select(input._value_tensor, 0, _index_tensor(entry))
    return SparseTensor._build(indices, values, out_size, input._coalesced)
