"""Sparse CSR matrices (``layout=torch.sparse_csr``): ``to_sparse_csr``,
``sparse_csr_tensor``, ``crow_indices``/``col_indices``/``values``, products with dense
tensors, ``to_dense`` and ``to_sparse``.

A CSR matrix is kept as the coalesced COO matrix with the same entries (row-major order is
CSR's order), so products, sums and scaling are the COO ones; ``crow_indices`` is computed
from the row indices when asked for. Two-dimensional matrices only.
"""

from __future__ import annotations

from .._core import dtypes as _dtypes
from .._core.tensor import Size, Tensor
from .._core.tensor_str import _add_suffixes, array_body
from .._creation import tensor as _tensor_from
from ..backend import xp
from .sparse import SparseTensor, layout, to_sparse

sparse_csr = layout("sparse_csr")
Tensor.is_sparse_csr = False


class SparseCsrTensor(SparseTensor):
    """A sparse CSR matrix; torch's ``is_sparse`` is False for it, ``is_sparse_csr`` True."""

    is_sparse = False
    is_sparse_csr = True
    layout = sparse_csr

    @staticmethod
    def _from_coo(coo: SparseTensor) -> SparseCsrTensor:
        coo = coo.coalesce()
        t = object.__new__(SparseCsrTensor)
        for name in ("_requires_grad", "_grad_fn", "_base", "_index_array", "_value_tensor"):
            setattr(t, name, getattr(coo, name))
        t._size = Size(coo._size)
        t._coalesced = True
        return t

    def crow_indices(self) -> Tensor:
        counts = xp.bincount(self._index_array[0], minlength=self._size[0])
        return Tensor._make(xp.concatenate([xp.zeros(1, xp.int64), xp.cumsum(counts)]))

    def col_indices(self) -> Tensor:
        return Tensor._make(self._index_array[1].copy())

    def to_sparse(self, sparse_dim=None, *, layout=None) -> SparseTensor:
        return SparseTensor._build(self._index_array, self._value_tensor, self._size, True)

    to_sparse_coo = to_sparse

    @property
    def grad(self):
        """A CSR leaf's gradient keeps its layout, as torch's does."""
        grad = SparseTensor.grad.fget(self)
        return None if grad is None else SparseCsrTensor._from_coo(grad)

    @grad.setter
    def grad(self, value) -> None:
        SparseTensor.grad.fset(self, value)

    def to_sparse_csr(self, dense_dim=None) -> SparseCsrTensor:
        return self

    def _with_values(self, values: Tensor) -> SparseCsrTensor:
        return SparseCsrTensor._from_coo(super()._with_values(values))

    def __add__(self, other):
        if isinstance(other, SparseCsrTensor):
            return SparseCsrTensor._from_coo(self.to_sparse() + other.to_sparse())
        return super().__add__(other)

    add = __add__

    def detach(self) -> SparseCsrTensor:
        return SparseCsrTensor._from_coo(super().detach())

    def __repr__(self) -> str:
        parts = []
        for name, data, indent in (
            ("crow_indices", self.crow_indices()._data, 20),
            ("col_indices", self._index_array[1], 19),
            ("values", self._value_tensor.detach().numpy(), 14),
        ):
            body = array_body(data, indent + len("tensor("))
            if data.size == 0:
                body += f", size={tuple(data.shape)}"
            parts.append(f"{name}=tensor({body})")
        text = "tensor(" + ",\n       ".join(parts)
        suffixes = [f"size={tuple(self._size)}", f"nnz={self._nnz()}"]
        default = _dtypes.get_default_dtype()
        if self.dtype not in (default, _dtypes.int64, _dtypes.bool_, default.to_complex()):
            suffixes.append(f"dtype={self.dtype}")
        suffixes.append("layout=torch.sparse_csr")
        grad_fn = self.grad_fn
        if grad_fn is not None:
            suffixes.append(f"grad_fn=<{grad_fn.name().rsplit('::', 1)[-1]}>")
        elif self.requires_grad:
            suffixes.append("requires_grad=True")
        return _add_suffixes(text, suffixes, 7)


def _matrix_only(input, what: str) -> None:
    if input.ndim != 2:
        raise NotImplementedError(
            f"{what}: numtorch's sparse CSR tensors are matrices (2-D), got a "
            f"{input.ndim}-D tensor; batched CSR is not supported"
        )


def to_sparse_csr(input, dense_dim=None) -> SparseCsrTensor:
    """The nonzero entries of a dense matrix (or a sparse COO one) in CSR layout.

    Example:
        >>> import numtorch as torch
        >>> torch.tensor([[0.0, 1.0], [2.0, 3.0]]).to_sparse_csr().crow_indices()
        tensor([0, 1, 3])
    """
    _matrix_only(input, "to_sparse_csr")
    if dense_dim:
        raise NotImplementedError("numtorch's sparse CSR tensors have no dense dims")
    coo = input if isinstance(input, SparseTensor) else to_sparse(input)
    return SparseCsrTensor._from_coo(coo)


def sparse_csr_tensor(crow_indices, col_indices, values, size=None, *, dtype=None,
                      device=None, requires_grad=False, check_invariants=None):  # fmt: skip
    """A CSR matrix from row pointers (``nrows + 1``), column indices and values (nnz)."""
    crow, col = (
        xp.asarray(t.detach().numpy() if isinstance(t, Tensor) else t, dtype=xp.int64)
        for t in (crow_indices, col_indices)
    )
    if not isinstance(values, Tensor):
        values = _tensor_from(values)
    if dtype is not None:
        values = values.to(dtype)
    if crow.ndim != 1 or col.ndim != 1 or values.ndim != 1:
        raise NotImplementedError(
            "sparse_csr_tensor: numtorch's sparse CSR tensors are matrices (1-D crow_indices, "
            "col_indices and values)"
        )
    if crow.size == 0 or crow[0] != 0:
        raise RuntimeError("`crow_indices[..., 0] == 0` is not satisfied.")
    if crow[-1] != col.size:
        raise RuntimeError("`crow_indices[..., -1] == nnz` is not satisfied.")
    if (xp.diff(crow) < 0).any():
        raise RuntimeError(
            "`0 <= crow_indices[..., 1:] - crow_indices[..., :-1] <= ncols` is not satisfied."
        )
    if values.shape[0] != col.size:
        raise RuntimeError(
            f"col_indices and values must have the same number of elements, but got "
            f"col_indices.numel(): {col.size}, values.numel(): {values.shape[0]}"
        )
    if size is None:
        size = (crow.size - 1, int(col.max()) + 1 if col.size else 0)
    size = tuple(int(s) for s in size)
    if col.size and (col.min() < 0 or col.max() >= size[1]):
        raise RuntimeError("`0 <= col_indices < ncols` is not satisfied.")
    rows = xp.repeat(xp.arange(crow.size - 1), xp.diff(crow))
    if requires_grad:
        values = values.detach().requires_grad_()
    coo = SparseTensor._build(xp.stack([rows, col]), values, size, False)
    return SparseCsrTensor._from_coo(coo)


Tensor.to_sparse_csr = to_sparse_csr
SparseTensor.to_sparse_csr = to_sparse_csr
