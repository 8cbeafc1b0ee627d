"""``torch.sparse.spdiags``: a sparse matrix from rows of diagonals, as SciPy's ``spdiags``
lays them out: diagonal ``k`` sits at offset ``offsets[k]`` (above the main diagonal when
positive) and the entry in column ``j`` takes ``diagonals[k, j]``."""

from __future__ import annotations

from .._core import dtypes as _dtypes
from .._core.op import defop, not_implemented
from .._core.tensor import Tensor
from ..autograd.forward_grad import not_implemented_jvp
from ..backend import xp
from .sparse import SparseTensor, sparse_coo
from .sparse_compressed import SparseCompressedTensor, sparse_csr


# torch records a node that refuses backward (grad_fn=<NotImplemented>)
@defop(
    name="sparse_spdiags",
    aten="_spdiags",
    schema_args=4,
    node="NotImplemented",
    diagonals=not_implemented("_spdiags"),
    jvp=not_implemented_jvp("_spdiags"),
)
def _diagonal_values(diagonals, positions):
    return diagonals[tuple(positions)]


def _check(diagonals, offsets, shape, layout) -> None:
    for name, position, value in (("diagonals", 1, diagonals), ("offsets", 2, offsets)):
        if not isinstance(value, Tensor):
            raise TypeError(
                f"_spdiags(): argument '{name}' (position {position}) must be Tensor, not "
                f"{type(value).__name__}"
            )
    if diagonals.ndim not in (1, 2):
        raise RuntimeError("Diagonals must be vector or matrix")
    if len(shape) != 2:
        raise RuntimeError("Output shape must be 2d")
    if any(int(n) < 0 for n in shape):  # torch's kernel runs past its buffers here
        raise RuntimeError(f"spdiags: the output shape must not be negative, got {tuple(shape)}")
    if offsets.ndim > 1:
        raise RuntimeError("Offsets must be scalar or vector")
    rows = 1 if diagonals.ndim == 1 else diagonals.shape[0]
    if rows != offsets.numel():
        raise RuntimeError(
            f"Number of diagonals ({rows}) does not match the number of offsets ({offsets.numel()})"
        )
    if offsets.dtype is not _dtypes.int64:
        raise RuntimeError(
            f"Offset Tensor must have dtype Long but got {offsets.dtype.scalar_name}"
        )
    if len(set(offsets.tolist() if offsets.ndim else [offsets.item()])) != offsets.numel():
        raise RuntimeError("Offset tensor contains duplicate values")
    if layout not in (None, sparse_coo, sparse_csr):
        name = "Strided" if repr(layout) == "torch.strided" else repr(layout)
        raise RuntimeError(
            f"Only output layouts (Sparse, SparseCsc, SparseCsr) are supported, got {name}"
        )


def spdiags(diagonals, offsets, shape, layout=None):
    """A sparse matrix of ``shape`` whose diagonals at ``offsets`` take the rows of
    ``diagonals`` (the entry in column ``j`` from column ``j``).

    Example:
        >>> import numtorch as torch
        >>> torch.sparse.spdiags(torch.tensor([[1, 2, 3]]), torch.tensor([1]), (3, 3)).to_dense()
        tensor([[0, 2, 0],
                [0, 0, 3],
                [0, 0, 0]])
    """
    _check(diagonals, offsets, shape, layout)
    n_rows, n_cols = (int(n) for n in shape)
    matrix = diagonals.reshape(-1, diagonals.shape[-1]) if diagonals.ndim == 1 else diagonals
    empty = xp.zeros(0, xp.int64)
    picks, rows, cols = [empty], [empty], [empty]
    for k, offset in enumerate(offsets.reshape(-1).tolist()):
        columns = xp.arange(max(0, offset), min(n_cols, n_rows + offset, matrix.shape[1]))
        picks.append(xp.full(len(columns), k))
        rows.append(columns - offset)
        cols.append(columns)
    positions = xp.array([xp.concatenate(picks), xp.concatenate(cols)], xp.int64)
    values = _diagonal_values(matrix, Tensor._make(positions))
    indices = xp.array([xp.concatenate(rows), xp.concatenate(cols)], xp.int64)
    coo = SparseTensor._build(indices, values, (n_rows, n_cols), False)
    return SparseCompressedTensor._from_coo(coo) if layout is sparse_csr else coo
