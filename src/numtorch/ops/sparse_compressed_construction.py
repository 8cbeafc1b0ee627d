"""Constructing sparse compressed tensors from their parts: ``sparse_compressed_tensor``
and the per-layout ``sparse_csr_tensor``, ``sparse_csc_tensor``, ``sparse_bsr_tensor`` and
``sparse_bsc_tensor``.

The compressed indices, plain indices and values (blocks for BSR/BSC) are checked as torch's
``check_invariants`` checks them (always: the COO storage of ``sparse_compressed`` holds valid
tensors only), then every specified element becomes one COO entry.
"""

from __future__ import annotations

from .._core.tensor import Tensor
from .._creation import tensor as _tensor_from
from ..backend import xp
from .sparse import SparseTensor, warn_unchecked_invariants
from .sparse_compressed import (
    _BLOCKED,
    _INDEX_NAMES,
    _LAYOUTS,
    _ROW_COMPRESSED,
    SparseCompressedTensor,
    _layout_name,
    sparse_bsc,
    sparse_bsr,
    sparse_csc,
    sparse_csr,
)
from .sparse_primitives import _compressed_created


def _index_array(indices):
    data = indices.detach().numpy() if isinstance(indices, Tensor) else xp.asarray(indices)
    return xp.asarray(data, dtype=xp.int64)


def _validate(comp, plain, layout, size, batch_dim, nnz) -> None:
    """torch's ``check_invariants`` (always run: the COO storage holds valid tensors only)."""
    cname, pname = _INDEX_NAMES[layout]
    row = layout in _ROW_COMPRESSED
    ncomp_name, nplain_name = ("nrows", "ncols") if row else ("ncols", "nrows")
    if (comp[..., 0] != 0).any():
        raise RuntimeError(f"`{cname}[..., 0] == 0` is not satisfied.")
    if (comp[..., -1] != nnz).any():
        raise RuntimeError(f"`{cname}[..., -1] == nnz` is not satisfied.")
    if (xp.diff(comp, axis=-1) < 0).any():
        raise RuntimeError(
            f"`0 <= {cname}[..., 1:] - {cname}[..., :-1] <= {nplain_name}` is not satisfied."
        )
    if plain.size and (plain.min() < 0 or plain.max() >= size):
        raise RuntimeError(f"`0 <= {pname} < {nplain_name}` is not satisfied.")
    flat_comp = comp.reshape(-1, comp.shape[-1])
    flat_plain = plain.reshape(len(flat_comp), plain.shape[-1])
    for c, p in zip(flat_comp, flat_plain):
        for start, stop in zip(c[:-1], c[1:]):
            if (xp.diff(p[start:stop]) <= 0).any():
                raise RuntimeError(
                    f"`{pname}[..., {cname}[..., i - 1]:{cname}[..., i]] for all i = 1, ..., "
                    f"{ncomp_name} are sorted and distinct along the last dimension values` "
                    "is not satisfied."
                )


def sparse_compressed_tensor(compressed_indices, plain_indices, values, size=None, *,
                             dtype=None, layout=None, device=None, requires_grad=False,
                             check_invariants=None):  # fmt: skip
    """A sparse compressed tensor (CSR, CSC, BSR or BSC by ``layout``) from its compressed
    indices (*batch, ncompressed + 1), plain indices (*batch, nnz) and values (*batch, nnz,
    *block, *dense)."""
    warn_unchecked_invariants(check_invariants)
    if layout not in _LAYOUTS:
        raise RuntimeError(
            "sparse_compressed_tensor expected sparse compressed tensor layout but got "
            f"{_layout_name(layout)}"
        )
    comp, plain = _index_array(compressed_indices), _index_array(plain_indices)
    if not isinstance(values, Tensor):
        values = _tensor_from(values)
    if dtype is not None:
        values = values.to(dtype)
    if requires_grad:
        values = values.detach()
    cname, pname = _INDEX_NAMES[layout]
    if comp.ndim < 1 or comp.ndim != plain.ndim:
        raise RuntimeError(
            f"{cname} and {pname} must have the same number of dimensions, but got "
            f"{comp.ndim} and {plain.ndim}, respectively"
        )
    batch_dim = comp.ndim - 1
    batch_shape = comp.shape[:-1]
    if plain.shape[:-1] != batch_shape or tuple(values.shape[:batch_dim]) != batch_shape:
        raise RuntimeError(
            f"all batch dimensions of {cname}, {pname} and values must be equal, got "
            f"{tuple(comp.shape)}, {tuple(plain.shape)} and {tuple(values.shape)}"
        )
    nnz = plain.shape[-1]
    if values.ndim <= batch_dim or values.shape[batch_dim] != nnz:
        raise RuntimeError(
            f"{pname} and values must have the same number of elements, but got "
            f"{pname}.numel(): {nnz}, values.numel(): "
            f"{values.shape[batch_dim] if values.ndim > batch_dim else 0}"
        )
    blocked = layout in _BLOCKED
    row = layout in _ROW_COMPRESSED
    blocksize = tuple(values.shape[batch_dim + 1 : batch_dim + 3]) if blocked else (1, 1)
    if blocked and len(blocksize) != 2:
        raise RuntimeError(
            "values must have dimensionality > sum of batch and block dimensionalities "
            f"(={batch_dim} + 2) but got {values.ndim}"
        )
    dense_shape = tuple(values.shape[batch_dim + 1 + 2 * blocked :])
    ncomp = comp.shape[-1] - 1
    if size is None:
        nplain = int(plain.max()) + 1 if plain.size else 0
        nrows, ncols = (ncomp, nplain) if row else (nplain, ncomp)
        size = batch_shape + (nrows * blocksize[0], ncols * blocksize[1]) + dense_shape
    size = tuple(int(s) for s in size)
    if len(size) != batch_dim + 2 + len(dense_shape):
        raise RuntimeError(
            f"tensor dimensionality must be sum of batch, base, and dense dimensionalities "
            f"(={batch_dim}, 2, {len(dense_shape)}) but got {len(size)}"
        )
    for d, b in enumerate(blocksize):
        if size[batch_dim + d] % b:
            raise RuntimeError(
                f"tensor shape[{batch_dim + d}] (={size[batch_dim + d]}) must be divisible "
                f"with blocksize[{d}] (={b}) as defined by values shape"
            )
    nrows, ncols = size[batch_dim] // blocksize[0], size[batch_dim + 1] // blocksize[1]
    _validate(comp, plain, layout, ncols if row else nrows, batch_dim, nnz)
    # the specified blocks' batch, row and column, then each of their elements
    nbatch = int(xp.prod(batch_shape)) if batch_dim else 1
    flat_comp = comp.reshape(nbatch, ncomp + 1)
    comp_ids = xp.concatenate([xp.repeat(xp.arange(ncomp), xp.diff(c)) for c in flat_comp])
    batch_ids = xp.repeat(xp.arange(nbatch), nnz)
    plain_ids = plain.reshape(-1)
    block_rows, block_cols = (comp_ids, plain_ids) if row else (plain_ids, comp_ids)
    br, bc = blocksize
    shape = (len(batch_ids), br, bc)
    rows = block_rows[:, None, None] * br + xp.arange(br)[None, :, None]
    cols = block_cols[:, None, None] * bc + xp.arange(bc)[None, None, :]
    indices = [xp.broadcast_to(a, shape).reshape(-1) for a in (rows, cols)]
    batch_index = xp.unravel_index(batch_ids, batch_shape) if batch_dim else ()
    indices = [xp.broadcast_to(a[:, None], (len(batch_ids), br * bc)).reshape(-1)
               for a in batch_index] + indices  # fmt: skip
    element_shape = (len(batch_ids) * br * bc,) + dense_shape
    # (a reshape to the same shape would record a view node torch does not have)
    element_values = values if values.shape == element_shape else values.reshape(element_shape)
    indices = xp.stack(indices) if indices else indices
    # row-major already (CSR, BSR with one-element blocks): nothing to reorder or record
    ordered = len(indices) and bool(
        (xp.diff(xp.ravel_multi_index(tuple(indices), size[: len(indices)])) > 0).all()
    )
    coo = SparseTensor._build(indices, element_values, size, ordered).coalesce()
    # the values' node is torch's constructor's, over numtorch's reordering (a CSC tensor's
    # values are kept row-major)
    values = _compressed_created(coo._value_tensor)
    coo = SparseTensor._build(coo._index_array, values, size, True)
    result = SparseCompressedTensor._from_coo(coo, layout, blocksize, batch_dim)
    if requires_grad:
        result._value_tensor = result._value_tensor.detach().requires_grad_()
    return result


# one per layout, with torch's argument names (crow/col where rows are compressed, ccol/row
# where columns are); pin_memory is accepted and unused: no pinned memory on the CPU alone


def sparse_csr_tensor(crow_indices, col_indices, values, size=None, *, dtype=None, device=None,
                      pin_memory=False, requires_grad=False, check_invariants=None):  # fmt: skip
    """A sparse tensor in CSR layout: ``sparse_compressed_tensor``'s."""
    return sparse_compressed_tensor(
        crow_indices, col_indices, values, size, dtype=dtype, layout=sparse_csr, device=device,
        requires_grad=requires_grad, check_invariants=check_invariants,
    )  # fmt: skip


def sparse_csc_tensor(ccol_indices, row_indices, values, size=None, *, dtype=None, device=None,
                      pin_memory=False, requires_grad=False, check_invariants=None):  # fmt: skip
    """A sparse tensor in CSC layout: ``sparse_compressed_tensor``'s."""
    return sparse_compressed_tensor(
        ccol_indices, row_indices, values, size, dtype=dtype, layout=sparse_csc, device=device,
        requires_grad=requires_grad, check_invariants=check_invariants,
    )  # fmt: skip


def sparse_bsr_tensor(crow_indices, col_indices, values, size=None, *, dtype=None, device=None,
                      pin_memory=False, requires_grad=False, check_invariants=None):  # fmt: skip
    """A sparse tensor in BSR layout: ``sparse_compressed_tensor``'s."""
    return sparse_compressed_tensor(
        crow_indices, col_indices, values, size, dtype=dtype, layout=sparse_bsr, device=device,
        requires_grad=requires_grad, check_invariants=check_invariants,
    )  # fmt: skip


def sparse_bsc_tensor(ccol_indices, row_indices, values, size=None, *, dtype=None, device=None,
                      pin_memory=False, requires_grad=False, check_invariants=None):  # fmt: skip
    """A sparse tensor in BSC layout: ``sparse_compressed_tensor``'s."""
    return sparse_compressed_tensor(
        ccol_indices, row_indices, values, size, dtype=dtype, layout=sparse_bsc, device=device,
        requires_grad=requires_grad, check_invariants=check_invariants,
    )  # fmt: skip
