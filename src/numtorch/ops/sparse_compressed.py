"""Sparse compressed tensors: the CSR, CSC, BSR and BSC layouts (``sparse_csr_tensor`` ...
``sparse_compressed_tensor``, ``to_sparse_csr/csc/bsr/bsc``, ``to_sparse(layout=,
blocksize=)``, ``crow_indices``/``col_indices``/``ccol_indices``/``row_indices``/``values``).

One implementation serves the four layouts, parameterised as torch's are: the compressed
dimension (rows for CSR/BSR, columns for CSC/BSC) and the block size (1 x 1 for CSR/CSC).
Leading batch dimensions (each batch with the same number of specified elements) and
trailing dense dimensions are kept too.

A compressed tensor is stored as the coalesced sparse COO tensor of its specified elements,
with the batch dimensions and the two matrix dimensions as sparse dimensions (a block's
elements are all stored, its zeros included, so the block pattern survives). Products,
sums, scaling and ``to_dense`` are then the COO ones; the compressed indices, plain indices
and the values in the layout's order are derived from the COO indices when asked for.
"""

from __future__ import annotations

from .._core import dtypes as _dtypes
from .._core.tensor import Size, Tensor
from .._core.tensor_str import _add_suffixes, array_body
from .._core.warn_once import warn_once
from ..backend import xp
from .sparse import SparseTensor, layout, sparse_coo, to_sparse
from .sparse_primitives import CONVERTED_AS, GATHER_AS, _gather, _values_of

sparse_csr = layout("sparse_csr")
sparse_csc = layout("sparse_csc")
sparse_bsr = layout("sparse_bsr")
sparse_bsc = layout("sparse_bsc")
Tensor.is_sparse_csr = False

_ROW_COMPRESSED = (sparse_csr, sparse_bsr)
_BLOCKED = (sparse_bsr, sparse_bsc)
_LAYOUTS = (sparse_csr, sparse_csc, sparse_bsr, sparse_bsc)
# (compressed indices, plain indices) and the C++ name torch's messages give each layout
_INDEX_NAMES = {
    sparse_csr: ("crow_indices", "col_indices"),
    sparse_bsr: ("crow_indices", "col_indices"),
    sparse_csc: ("ccol_indices", "row_indices"),
    sparse_bsc: ("ccol_indices", "row_indices"),
}
_TORCH_NAMES = {
    sparse_coo: "Sparse",
    sparse_csr: "SparseCsr",
    sparse_csc: "SparseCsc",
    sparse_bsr: "SparseBsr",
    sparse_bsc: "SparseBsc",
}


def _layout_name(value) -> str:
    return _TORCH_NAMES.get(value, "Strided" if value is not None else "none")


class SparseCompressedTensor(SparseTensor):
    """A sparse compressed tensor; torch's ``is_sparse`` is False for it, ``is_sparse_csr``
    True for the CSR layout only."""

    is_sparse = False
    layout = sparse_csr
    _blocksize = (1, 1)
    _batch_dim = 0

    @property
    def is_sparse_csr(self) -> bool:
        return self.layout is sparse_csr

    @staticmethod
    def _from_coo(coo: SparseTensor, layout=sparse_csr, blocksize=(1, 1), batch_dim=0):
        """``coo`` (sparse dims: the batch dims and the two matrix dims) in ``layout``."""
        # torch warns once per program, naming the first compressed layout it makes
        warn_once(
            f"Sparse {_TORCH_NAMES[layout][6:].upper()} tensor support is in beta state. If you "
            "miss a functionality in the sparse tensor support, please submit a feature request "
            "to https://github.com/pytorch/pytorch/issues.",
            stacklevel=4,
            key="sparse compressed beta",
        )
        coo = coo.coalesce()
        t = object.__new__(SparseCompressedTensor)
        for name in ("_requires_grad", "_grad_fn", "_base", "_index_array", "_value_tensor"):
            setattr(t, name, getattr(coo, name))
        t._size = Size(coo._size)
        t._coalesced = True
        t.layout = layout
        t._blocksize = tuple(blocksize)
        t._batch_dim = batch_dim
        return t

    def _like(self, coo: SparseTensor) -> SparseCompressedTensor:
        return SparseCompressedTensor._from_coo(coo, self.layout, self._blocksize, self._batch_dim)

    # -- structure, derived from the COO indices ---------------------------------------------
    def _blocks(self):
        """The specified blocks in the layout's order: (batch index, compressed index, plain
        index) arrays, and the batch shape and compressed/plain sizes in blocks."""
        b = self._batch_dim
        batch_shape = tuple(self._size[:b])
        nbatch = int(xp.prod(batch_shape)) if b else 1
        index = self._index_array
        batch = xp.ravel_multi_index(tuple(index[:b]), batch_shape) if b else index[0] * 0
        rows, cols = index[b] // self._blocksize[0], index[b + 1] // self._blocksize[1]
        nrows = self._size[b] // self._blocksize[0]
        ncols = self._size[b + 1] // self._blocksize[1]
        if self.layout in _ROW_COMPRESSED:
            comp, plain, ncomp, nplain = rows, cols, nrows, ncols
        else:
            comp, plain, ncomp, nplain = cols, rows, ncols, nrows
        key = xp.unique((batch * ncomp + comp) * nplain + plain)
        batch, rest = xp.divmod(key, ncomp * nplain)
        comp, plain = xp.divmod(rest, nplain)
        return batch, comp, plain, batch_shape, nbatch, ncomp

    def _nnz(self) -> int:
        batch, _, _, _, nbatch, _ = self._blocks()
        return len(batch) // nbatch

    def sparse_dim(self) -> int:
        return 2

    def dense_dim(self) -> int:
        return len(self._size) - self._batch_dim - 2

    def _compressed(self, what: str) -> Tensor:
        self._check_layout(what, True)
        batch, comp, _, batch_shape, nbatch, ncomp = self._blocks()
        counts = xp.bincount(batch * ncomp + comp, minlength=nbatch * ncomp)
        counts = counts.reshape(nbatch, ncomp)
        out = xp.concatenate([xp.zeros((nbatch, 1), xp.int64), xp.cumsum(counts, 1)], 1)
        return Tensor._make(out.reshape(batch_shape + (ncomp + 1,)))

    def _plain(self, what: str) -> Tensor:
        self._check_layout(what, False)
        batch, _, plain, batch_shape, nbatch, _ = self._blocks()
        return Tensor._make(plain.reshape(batch_shape + (len(batch) // nbatch,)))

    def _check_layout(self, what: str, compressed: bool) -> None:
        names = _INDEX_NAMES[self.layout]
        if what not in names:
            kind = "column" if self.layout in _ROW_COMPRESSED else "row"
            raise RuntimeError(
                f"{what} expected sparse {kind} compressed tensor layout but got "
                f"{_TORCH_NAMES[self.layout]}"
            )

    def crow_indices(self) -> Tensor:
        return self._compressed("crow_indices")

    def ccol_indices(self) -> Tensor:
        return self._compressed("ccol_indices")

    def col_indices(self) -> Tensor:
        return self._plain("col_indices")

    def row_indices(self) -> Tensor:
        return self._plain("row_indices")

    def values(self) -> Tensor:
        """The specified values in the layout's order: (*batch, nnz, *block, *dense)."""
        batch, comp, plain, batch_shape, nbatch, _ = self._blocks()
        nnz = len(batch) // nbatch
        dense_shape = tuple(self._size[self._batch_dim + 2 :])
        if self.layout is sparse_csr:  # the COO order is already CSR's
            values = _values_of(self._value_tensor)
            return (
                values
                if not self._batch_dim
                else values.reshape(batch_shape + (nnz,) + dense_shape)
            )
        rows, cols = (comp, plain) if self.layout in _ROW_COMPRESSED else (plain, comp)
        br, bc = self._blocksize
        b = self._batch_dim
        grid = self.to_dense().reshape(
            (nbatch, self._size[b] // br, br, self._size[b + 1] // bc, bc) + dense_shape
        )
        grid = grid.movedim(3, 2)  # (batch, block row, block col, br, bc, *dense)
        blocks = grid[Tensor._make(batch), Tensor._make(rows), Tensor._make(cols)]
        if self.layout not in _BLOCKED:
            blocks = blocks.reshape((len(batch),) + dense_shape)
        return blocks.reshape(batch_shape + (nnz,) + tuple(blocks.shape[1:]))

    # -- conversions -------------------------------------------------------------------------
    def _coo(self) -> SparseTensor:
        """The stored coalesced COO tensor of the specified elements."""
        return SparseTensor._build(self._index_array, self._value_tensor, self._size, True)

    def to_sparse(self, sparse_dim=None, *, layout=None, blocksize=None, dense_dim=None):
        """In COO layout the elements keep the compressed layout's order (block by block,
        each block row-major), so only a CSR tensor gives a coalesced one, as in torch."""
        if layout in _LAYOUTS:
            return _to_compressed(self, layout, blocksize, dense_dim, "to_sparse")
        if self.layout is sparse_csr:  # the same elements, under torch's node
            values = CONVERTED_AS[None](self._value_tensor)
            return SparseTensor._build(self._index_array, values, self._size, True)
        b = self._batch_dim
        index = self._index_array
        br, bc = self._blocksize
        rows, cols = index[b], index[b + 1]
        blocks = (rows // br, cols // bc)
        if self.layout not in _ROW_COMPRESSED:
            blocks = blocks[::-1]
        # lexsort's last key is its primary one
        order = xp.lexsort((cols % bc, rows % br, blocks[1], blocks[0], *index[:b][::-1]))
        values = _gather(self._value_tensor, Tensor._make(order[None]))  # torch's node
        return SparseTensor._build(index[:, order], values, self._size, False)

    def to_sparse_coo(self, sparse_dim=None):
        return self.to_sparse(sparse_dim)

    @property
    def grad(self):
        """A compressed leaf's gradient keeps its layout, as torch's does."""
        grad = SparseTensor.grad.fget(self._coo())
        return None if grad is None else self._like(grad)

    @grad.setter
    def grad(self, value) -> None:
        SparseTensor.grad.fset(self, value)

    def _linear(self):
        return self._coo()._linear()  # over the batch dims too, which the COO stores

    def _check_product(self) -> None:
        if self._batch_dim:  # torch has no batched products of compressed tensors
            raise RuntimeError(f"expand is unsupported for {_TORCH_NAMES[self.layout]} tensors")
        if self.layout is sparse_bsc:  # torch's CPU kernels take the other three layouts
            raise RuntimeError(
                "addmm: computation on CPU is not implemented for Strided + SparseBsc @ Strided"
            )

    def __matmul__(self, other):
        self._check_product()
        return super().__matmul__(other)

    matmul = __matmul__

    def mm(self, mat2):
        self._check_product()
        return super().mm(mat2)

    def _with_values(self, values: Tensor) -> SparseCompressedTensor:
        return self._like(super()._with_values(values))

    def __add__(self, other):
        if isinstance(other, SparseCompressedTensor) and other.layout is self.layout:
            return self._like(SparseTensor.__add__(self._coo(), other._coo()))
        return super().__add__(other)

    add = __add__

    def detach(self) -> SparseCompressedTensor:
        return self._like(super().detach())

    def __repr__(self) -> str:
        compressed, plain = _INDEX_NAMES[self.layout]
        parts = []
        for name, data in (
            (compressed, self._compressed(compressed)._data),
            (plain, self._plain(plain)._data),
            ("values", self.values().detach().numpy()),
        ):
            body = array_body(data, len(f"       {name}=tensor("))
            if data.size == 0:
                body += f", size={tuple(data.shape)}"
            parts.append(f"{name}=tensor({body})")
        text = "tensor(" + ",\n       ".join(parts)
        suffixes = [f"size={tuple(self._size)}", f"nnz={self._nnz()}"]
        default = _dtypes.get_default_dtype()
        if self.dtype not in (default, _dtypes.int64, _dtypes.bool_, default.to_complex()):
            suffixes.append(f"dtype={self.dtype}")
        suffixes.append(repr(self.layout))
        suffixes[-1] = f"layout={suffixes[-1]}"
        grad_fn = self.grad_fn
        if grad_fn is not None:
            suffixes.append(f"grad_fn=<{grad_fn.name().rsplit('::', 1)[-1]}>")
        elif self.requires_grad:
            suffixes.append("requires_grad=True")
        return _add_suffixes(text, suffixes, 7)


# -- conversions -----------------------------------------------------------------------------
def _check_blocksize(layout, blocksize, what: str):
    if layout in _BLOCKED:
        if blocksize is None:
            raise RuntimeError(
                f"{what}: conversion from Strided to {_TORCH_NAMES[layout]} without blocksize "
                "argument given is not supported"
            )
        if len(blocksize) != 2:
            raise RuntimeError(f"{what}: blocksize needs to be a tuple of size 2, got {blocksize}")
        return tuple(int(b) for b in blocksize)
    if blocksize is not None:
        raise RuntimeError(
            f"{what}: conversion from Strided to {_TORCH_NAMES[layout]} with blocksize "
            "argument given is not supported"
        )
    return (1, 1)


def _to_compressed(input, layout, blocksize, dense_dim, what: str) -> SparseCompressedTensor:
    """``input`` (dense, COO or compressed) in ``layout``; with blocks, every block that holds
    a specified (or, from a dense tensor, nonzero) element is kept whole. The values' node
    is named as torch's: ``to_sparse_csr()`` and friends record ``ToSparseCsrBackward0``,
    ``to_sparse(layout=...)`` records ``ToSparseBackward1``."""
    short = _TORCH_NAMES[layout][len("Sparse") :].lower() if what.endswith(_SHORTS) else None
    if isinstance(input, SparseTensor):
        if isinstance(input, SparseCompressedTensor) and input.layout in _BLOCKED:
            blocksize = input._blocksize if blocksize is None else blocksize
        _check_sparse_conversion(input, layout, blocksize, dense_dim)
    blocksize = _check_blocksize(layout, blocksize, what)
    if isinstance(input, SparseTensor):
        dense_dim = input.dense_dim()
        coo = input._coo() if isinstance(input, SparseCompressedTensor) else input.coalesce()
    else:
        dense_dim = dense_dim or 0
        if input.ndim < 2 + dense_dim:
            raise RuntimeError(
                f"{what}: expected tensor with at least {2 + dense_dim} dimensions, got "
                f"{input.ndim}"
            )
        coo = None
    batch_dim = input.ndim - 2 - dense_dim
    if batch_dim < 0:
        raise RuntimeError(
            f"{what}: a sparse tensor of {input.ndim - dense_dim} sparse dims cannot be "
            f"compressed: two are needed"
        )
    rows, cols = input.shape[batch_dim], input.shape[batch_dim + 1]
    if rows % blocksize[0] or cols % blocksize[1]:
        raise RuntimeError(
            f"{what}: tensor sparse size ({rows},{cols}) must be divisible by given "
            f"blocksize ({blocksize[0]},{blocksize[1]})"
        )
    if coo is not None and blocksize == (1, 1):
        values = CONVERTED_AS[short](coo._value_tensor)
        coo = SparseTensor._build(coo._index_array, values, coo._size, True)
        result = SparseCompressedTensor._from_coo(coo, layout, blocksize, batch_dim)
    else:
        sparse_shape = tuple(input.shape[: batch_dim + 2])
        if coo is not None:
            mask = xp.zeros(sparse_shape, bool)
            mask[tuple(coo._index_array)] = True
            source = input.to_dense()
        else:
            mask = input.detach().numpy() != 0
            mask = mask.reshape(sparse_shape + (-1,)).any(-1)
            source = input
        if blocksize != (1, 1):  # a block with any specified element is kept whole
            br, bc = blocksize
            grid = mask.reshape(sparse_shape[:-2] + (rows // br, br, cols // bc, bc))
            held = grid.any(axis=(-3, -1), keepdims=True)
            mask = xp.broadcast_to(held, grid.shape).reshape(sparse_shape)
        indices = xp.array(xp.nonzero(mask), dtype=xp.int64).reshape(len(sparse_shape), -1)
        gather = _gather if short is None else GATHER_AS[short]
        values = gather(source, Tensor._make(indices))
        if coo is not None:  # blocks of a sparse tensor, gathered from its dense form
            values = CONVERTED_AS[short](values)
        coo = SparseTensor._build(indices, values, input.shape, True)
        result = SparseCompressedTensor._from_coo(coo, layout, blocksize, batch_dim)
    _check_batches(result)
    return result


_SHORTS = ("_csr", "_csc", "_bsr", "_bsc")  # the conversions named by their layout


def _check_sparse_conversion(input, layout, blocksize, dense_dim) -> None:
    """The conversions between sparse layouts torch refuses, with its messages."""
    target = _TORCH_NAMES[layout]
    short = target[len("Sparse") :].lower()
    source = _TORCH_NAMES[input.layout]
    if not isinstance(input, SparseCompressedTensor):
        prefix = f"coo_to_sparse_{short}: conversion from Sparse to {target}"
        if dense_dim is not None:
            raise RuntimeError(f"{prefix} with dense_dim argument given is not supported")
        if input.sparse_dim() != 2:
            raise RuntimeError(f"{prefix} for input tensors with sparse_dim()!=2 is not supported")
        return
    same = input.layout is layout
    prefix = f"{'to' if same else 'sparse_compressed_to'}_sparse_{short}"
    if dense_dim is not None:
        raise RuntimeError(
            f"{prefix}: conversion from {source} to {target} with dense_dim argument given "
            "is not supported"
        )
    if layout not in _BLOCKED and input.layout in _BLOCKED:
        raise RuntimeError(f"{prefix}: expected SparseCsr or SparseCsc layout but got {source}")
    if layout in _BLOCKED and input.layout not in _BLOCKED and input._batch_dim:
        raise RuntimeError(
            f"{prefix}: conversion from {source} to {target} for batched inputs is not supported"
        )
    changed = blocksize is not None and tuple(blocksize) != input._blocksize
    if layout in _BLOCKED and input.layout in _BLOCKED and changed:
        raise RuntimeError(
            f"{prefix}: conversion from {source} to {target} with blocksize changed from "
            f"{list(input._blocksize)} to {list(blocksize)} is not supported"
        )


def _check_batches(t: SparseCompressedTensor) -> None:
    batch, _, _, _, nbatch, _ = t._blocks()
    if nbatch > 1 and len(set(xp.bincount(batch, minlength=nbatch).tolist())) > 1:
        raise RuntimeError("Expect the same number of specified elements per batch.")


def to_sparse_csr(input, dense_dim=None) -> SparseCompressedTensor:
    """The specified (or nonzero) elements of ``input`` in CSR layout.

    Example:
        >>> import numtorch as torch
        >>> torch.tensor([[0.0, 1.0], [2.0, 3.0]]).to_sparse_csr().crow_indices()
        tensor([0, 1, 3])
    """
    return _to_compressed(input, sparse_csr, None, dense_dim, "to_sparse_csr")


def to_sparse_csc(input, dense_dim=None) -> SparseCompressedTensor:
    """The specified (or nonzero) elements of ``input`` in CSC layout."""
    return _to_compressed(input, sparse_csc, None, dense_dim, "to_sparse_csc")


def to_sparse_bsr(input, blocksize, dense_dim=None) -> SparseCompressedTensor:
    """The blocks of ``input`` that hold a specified (or nonzero) element, in BSR layout."""
    return _to_compressed(input, sparse_bsr, blocksize, dense_dim, "dense_to_sparse_bsr")


def to_sparse_bsc(input, blocksize, dense_dim=None) -> SparseCompressedTensor:
    """The blocks of ``input`` that hold a specified (or nonzero) element, in BSC layout."""
    return _to_compressed(input, sparse_bsc, blocksize, dense_dim, "dense_to_sparse_bsc")


def to_sparse_with_layout(input, sparse_dim=None, *, layout=None, blocksize=None,
                          dense_dim=None):  # fmt: skip
    """``Tensor.to_sparse``: COO (``sparse_dim`` sparse dims), or the compressed ``layout``."""
    if layout in _LAYOUTS:
        if sparse_dim is not None:
            raise RuntimeError("to_sparse: sparse_dim argument must be None for compressed layouts")
        return _to_compressed(input, layout, blocksize, dense_dim, "dense_to_sparse")
    if layout not in (None, sparse_coo):
        raise RuntimeError(f"to_sparse: unexpected layout {layout}")
    return to_sparse(input, sparse_dim, dense_dim=dense_dim)


def _coo_to_sparse(self, sparse_dim=None, *, layout=None, blocksize=None, dense_dim=None):
    """A COO tensor's ``to_sparse``: itself, or its elements in a compressed layout."""
    if layout in (None, sparse_coo):
        return self
    return to_sparse_with_layout(
        self, sparse_dim, layout=layout, blocksize=blocksize, dense_dim=dense_dim
    )


for _method in (to_sparse_csr, to_sparse_csc, to_sparse_bsr, to_sparse_bsc):
    setattr(Tensor, _method.__name__, _method)
    setattr(SparseTensor, _method.__name__, _method)
Tensor.to_sparse = to_sparse_with_layout
SparseTensor.to_sparse = _coo_to_sparse


def _strided_index_reader(what: str, kind: str):
    def read(self):
        raise RuntimeError(
            f"{what} expected sparse {kind} compressed tensor layout but got "
            f"{_layout_name(self.layout)}"
        )

    read.__name__ = read.__qualname__ = what
    return read


# a dense or COO tensor has none of the compressed indices: torch raises naming its layout
for _what, _kind in (
    ("crow_indices", "row"),
    ("col_indices", "row"),
    ("ccol_indices", "column"),
    ("row_indices", "column"),
):
    setattr(Tensor, _what, _strided_index_reader(_what, _kind))


def crow_indices_copy(input) -> Tensor:
    """A copy of ``input.crow_indices()``."""
    return input.crow_indices().clone()


def col_indices_copy(input) -> Tensor:
    """A copy of ``input.col_indices()``."""
    return input.col_indices().clone()


def ccol_indices_copy(input) -> Tensor:
    """A copy of ``input.ccol_indices()``."""
    return input.ccol_indices().clone()


def row_indices_copy(input) -> Tensor:
    """A copy of ``input.row_indices()``."""
    return input.row_indices().clone()
