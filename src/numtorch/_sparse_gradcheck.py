"""``torch.sparse.as_sparse_gradcheck``: gradcheck (or a partial of it) extended to functions
that take or return sparse tensors, by checking them through their values.

A sparse input that requires grad becomes three arguments, a marker, its metadata (layout,
shape, indices) and its values; the checked function rebuilds the sparse tensor from them,
and sparse outputs that require grad are made dense. Without ``masked=True`` the input's
unspecified elements are materialised as zeros first, so the whole dense Jacobian is checked.
"""

from __future__ import annotations

from ._core import grad_mode
from ._core.tensor import Tensor
from ._creation import arange, ones
from .ops.sparse import sparse_coo, sparse_coo_tensor
from .ops.sparse_compressed import sparse_csr
from .ops.sparse_compressed_construction import sparse_csr_tensor

__all__ = ["as_sparse_gradcheck"]

_SPARSE_LAYOUTS = (sparse_coo, sparse_csr)
_MARKER = "__STRIDED_REPRESENTATION__"


def _strided_representation(args, masked):
    """Differentiable sparse tensors replaced by (marker, metadata, values)."""
    if not isinstance(args, (list, tuple)):
        args = (args,)
    converted: list = []
    for obj in args:
        if not (isinstance(obj, Tensor) and obj.requires_grad and obj.layout in _SPARSE_LAYOUTS):
            converted.append(obj)
            continue
        meta = {"layout": obj.layout, "shape": obj.shape}
        if obj.layout == sparse_coo:
            if not masked:  # every element specified: the dense Jacobian is checked
                full = ones(obj.shape, dtype=bool).to_sparse(dense_dim=obj.dense_dim())
                obj = obj.to_dense().sparse_mask(full)
            meta.update(indices=obj._indices(), is_coalesced=obj.is_coalesced())
            values = obj._values()
        elif masked:
            meta.update(compressed=obj.crow_indices(), plain=obj.col_indices())
            values = obj.values()
        else:  # a full 2-D CSR layout: row r holds columns 0..m-1
            rows, columns = obj.shape
            meta.update(
                compressed=arange(0, rows * columns + 1, columns),
                plain=arange(columns).repeat(rows),
            )
            values = obj.to_dense().reshape(-1)
        converted.extend((_MARKER, meta, values.requires_grad_(True)))
    return tuple(converted)


def _restored(args):
    restored = []
    args = list(args)
    while args:
        arg = args.pop(0)
        if isinstance(arg, str) and arg == _MARKER:
            meta, values = args.pop(0), args.pop(0)
            if meta["layout"] == sparse_coo:
                arg = sparse_coo_tensor(
                    meta["indices"], values, size=meta["shape"], is_coalesced=meta["is_coalesced"]
                )
            else:
                arg = sparse_csr_tensor(meta["compressed"], meta["plain"], values, meta["shape"])
        restored.append(arg)
    return tuple(restored)


def as_sparse_gradcheck(gradcheck):
    """Wrap ``gradcheck`` so that the checked function may take and return sparse tensors
    (COO and CSR); ``masked=True`` checks only the specified elements.

    Example:
        >>> import numtorch as torch
        >>> gradcheck = torch.sparse.as_sparse_gradcheck(torch.autograd.gradcheck)
        >>> x = torch.tensor([[0.0, 1.0], [2.0, 3.0]], dtype=torch.float64).to_sparse_coo()
        >>> gradcheck(lambda x: x.to_sparse_csr(), x.requires_grad_(True))
        True
    """

    def gradcheck_with_sparse_support(func, inputs, **kwargs):
        masked = kwargs.pop("masked", False)

        def func_wrapper(*args, **func_kwargs):
            outputs = func(*_restored(args), **func_kwargs)
            several = isinstance(outputs, (list, tuple))
            # numtorch's gradcheck evaluates the finite differences without grad: the
            # outputs that would require grad are the floating ones then
            evaluating = not grad_mode.is_grad_enabled()
            dense = tuple(
                o.to_dense(masked_grad=masked)
                if isinstance(o, Tensor)
                and o.layout in _SPARSE_LAYOUTS
                and (o.requires_grad or (evaluating and o.dtype.is_floating_point))
                else o
                for o in (outputs if several else (outputs,))
            )
            return dense if several else dense[0]

        return gradcheck(func_wrapper, _strided_representation(inputs, masked), **kwargs)

    return gradcheck_with_sparse_support
