"""Triangles and diagonals of matrices: tril, triu, diagonal, diag, diag_embed, diagflat, trace.

``diagonal`` is a view, as in torch: it is a strided NumPy view that can be written through
(``x.diagonal().zero_()`` changes ``x``), where ``numpy.diagonal`` would be read-only.
"""

from __future__ import annotations

from .._core import batch_rules, shape_batch_rules
from .._core import dtypes as _dtypes
from .._core.op import defop, export
from .._core.tensor import Tensor, _wrap_dim
from ..autograd.forward_grad import batch_shift, batched
from ..backend import xp
from .pointwise import where


def _check_matrix(input, name):
    if input.ndim < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")


# Forward derivatives (Note [Forward grads]): all these ops are linear; the written ones
# name the last two dims from the end, so a leading batch of tangents passes through.
@batched
def _tril_jvp(input_t, diagonal):
    return input_t.tril(diagonal)


@batched
def _triu_jvp(input_t, diagonal):
    return input_t.triu(diagonal)


@batched
def _trace_jvp(input_t, input):
    return input_t.diagonal(0, -2, -1).sum(-1)


def _lead(tangent, primal) -> tuple:
    return tuple(tangent.shape[: batch_shift(tangent, primal)])


def _shifted(tangent, primal, *dims) -> tuple:
    """``dims`` (non-negative) past a leading batch of tangents."""
    shift = batch_shift(tangent, primal)
    return tuple(d + shift for d in dims)


# -- tril and triu ---------------------------------------------------------------------------
@defop(
    batch=batch_rules.first_only,
    name="tril",
    input=lambda grad, diagonal: grad.tril(diagonal),
    jvp=_tril_jvp,
)
def _tril(input, diagonal):
    return xp.tril(input, diagonal)


@defop(
    batch=batch_rules.first_only,
    name="triu",
    input=lambda grad, diagonal: grad.triu(diagonal),
    jvp=_triu_jvp,
)
def _triu(input, diagonal):
    return xp.triu(input, diagonal)


@export(inplace=True)
def tril(input, diagonal=0) -> Tensor:
    """The lower triangle of the last two dims (elements on or below ``diagonal``); the
    rest is zero.

    Example:
        >>> import numtorch as torch
        >>> torch.ones(2, 3).tril()
        tensor([[1., 0., 0.],
                [1., 1., 0.]])
    """
    _check_matrix(input, "tril")
    return _tril(input, int(diagonal))


@export(inplace=True)
def triu(input, diagonal=0) -> Tensor:
    """The upper triangle of the last two dims (elements on or above ``diagonal``).

    Example:
        >>> import numtorch as torch
        >>> torch.ones(2, 3).triu(1)
        tensor([[0., 1., 1.],
                [0., 0., 1.]])
    """
    _check_matrix(input, "triu")
    return _triu(input, int(diagonal))


# -- diagonal (a view) and its backward ------------------------------------------------------
def diagonal_view(a, offset: int, dim1: int, dim2: int):
    """The writable strided view of ``a``'s diagonal: the other dims in order, then the
    diagonal as the last dim."""
    key = [slice(None)] * a.ndim
    if offset >= 0:
        key[dim2] = slice(offset, None)
    else:
        key[dim1] = slice(-offset, None)
    a = a[tuple(key)]
    n = min(a.shape[dim1], a.shape[dim2])
    rest = [d for d in range(a.ndim) if d not in (dim1, dim2)]
    shape = tuple(a.shape[d] for d in rest) + (n,)
    strides = tuple(a.strides[d] for d in rest) + (a.strides[dim1] + a.strides[dim2],)
    writeable = a.flags.writeable
    return xp.lib.stride_tricks.as_strided(a, shape, strides, writeable=writeable)


@defop(
    batch=shape_batch_rules.into_shape("input_shape", "dim1", "dim2"),
    name="diagonal_backward",
    node="DiagonalBackwardBackward0",
    grad_output=lambda grad, offset, dim1, dim2: grad.diagonal(offset, dim1, dim2),
    jvp=batched(
        lambda grad_output_t, grad_output, input_shape, offset, dim1, dim2: _diagonal_backward(
            grad_output_t,
            _lead(grad_output_t, grad_output) + tuple(input_shape),
            offset,
            *_shifted(grad_output_t, grad_output, dim1, dim2),
        )
    ),
)
def _diagonal_backward(grad_output, input_shape, offset, dim1, dim2):
    out = xp.zeros(input_shape, grad_output.dtype)
    diagonal_view(out, offset, dim1, dim2)[...] = grad_output
    return out


def _diagonal_grad(grad, input_shape, offset, dim1, dim2):
    return _diagonal_backward(grad, input_shape, offset, dim1, dim2)


@defop(
    batch=batch_rules.along("dim1", "dim2"),
    name="diagonal",
    view=True,
    input=_diagonal_grad,
    jvp="linear",
)
def _diagonal(input, offset, dim1, dim2):
    return diagonal_view(input, offset, dim1, dim2)


@defop(
    batch=batch_rules.along("dim1", "dim2"),
    name="diagonal_copy",
    node="DiagonalBackward0_copy",
    input=_diagonal_grad,
    jvp=batched(
        lambda input_t, input, offset, dim1, dim2: _diagonal_copy(
            input_t, offset, *_shifted(input_t, input, dim1, dim2)
        )
    ),
)
def _diagonal_copy(input, offset, dim1, dim2):
    return diagonal_view(input, offset, dim1, dim2).copy()


def _diagonal_dims(ndim, dim1, dim2):
    d1, d2 = _wrap_dim(dim1, ndim), _wrap_dim(dim2, ndim)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return d1, d2


@export
def diagonal(input, offset=0, dim1=0, dim2=1) -> Tensor:
    """The diagonal of the matrices spanned by ``dim1`` and ``dim2``, as a view whose last
    dim runs along it (``offset`` > 0 above the main diagonal, < 0 below).

    Example:
        >>> import numtorch as torch
        >>> torch.arange(9.0).view(3, 3).diagonal(1)
        tensor([1., 5.])
    """
    d1, d2 = _diagonal_dims(input.ndim, dim1, dim2)
    return _diagonal(input, int(offset), d1, d2)


# -- diag_embed, diag, diagflat --------------------------------------------------------------
@batched
def _diag_embed_jvp(input_t, input, offset, dim1, dim2):
    if input.ndim == 0 and batch_shift(input_t, input):  # a batch of 0-d tangents: the rows
        return _diag_embed(input_t.unsqueeze(-1), offset, dim1 + 1, dim2 + 1)
    return _diag_embed(input_t, offset, *_shifted(input_t, input, dim1, dim2))


@defop(
    batch=batch_rules.along("dim1", "dim2", extra_rank=1),
    name="diag_embed",
    input=lambda grad, offset, dim1, dim2: grad.diagonal(offset, dim1, dim2),
    jvp=_diag_embed_jvp,
)
def _diag_embed(input, offset, dim1, dim2):
    n = input.shape[-1] + abs(offset) if input.ndim else 1 + abs(offset)
    shape = list(input.shape[:-1])
    for d in sorted((dim1, dim2)):
        shape.insert(d, n)
    out = xp.zeros(shape, input.dtype)
    diagonal_view(out, offset, dim1, dim2)[...] = input
    return out


@export
def diag_embed(input, offset=0, dim1=-2, dim2=-1) -> Tensor:
    """A tensor whose diagonals (over ``dim1``, ``dim2``) hold the last dim of ``input``;
    zero elsewhere.

    Example:
        >>> import numtorch as torch
        >>> torch.diag_embed(torch.tensor([1.0, 2.0]))
        tensor([[1., 0.],
                [0., 2.]])
    """
    d1, d2 = _diagonal_dims(input.ndim + 1, dim1, dim2)
    return _diag_embed(input, int(offset), d1, d2)


@export
def diag(input, diagonal=0) -> Tensor:
    """A 1-D ``input`` becomes the ``diagonal``-th diagonal of a square matrix; a 2-D
    ``input`` gives a copy of its ``diagonal``-th diagonal.

    Example:
        >>> import numtorch as torch
        >>> torch.diag(torch.tensor([[1, 2], [3, 4]]))
        tensor([1, 4])
    """
    if input.ndim == 1:
        return _diag_embed(input, int(diagonal), 0, 1)
    if input.ndim != 2:
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {input.ndim}D")
    return _diagonal_copy(input, int(diagonal), 0, 1)


@export
def diagflat(input, offset=0) -> Tensor:
    """The flattened ``input`` on the ``offset``-th diagonal of a square matrix.

    Example:
        >>> import numtorch as torch
        >>> torch.diagflat(torch.tensor([[1, 2]]))
        tensor([[1, 0],
                [0, 2]])
    """
    return _diag_embed(input.reshape(-1), int(offset), 0, 1)


# -- trace -----------------------------------------------------------------------------------
def _trace_backward(grad, input_shape):
    # d trace / dA = I (rectangular for non-square A), the gradient placed on the diagonal of
    # zeros as torch fills it: a NaN or infinite gradient stays off the rest (grad * I spread
    # NaN = nan * 0 there)
    eye = Tensor._make(xp.eye(*input_shape, dtype=xp.bool_))
    return where(eye, grad, 0.0)


@defop(
    batch=batch_rules.trace,
    name="trace",
    input=_trace_backward,
    jvp=_trace_jvp,
)
def _trace(input):
    dtype = xp.int64 if input.dtype.kind in "iu" else None
    return xp.trace(input, dtype=dtype)


@export
def trace(input) -> Tensor:
    """Sum of the main diagonal of a 2-D tensor (integers sum as int64).

    Example:
        >>> import numtorch as torch
        >>> torch.arange(9).view(3, 3).trace()
        tensor(12)
    """
    if input.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {input.ndim}")
    if input._data.dtype == xp.bool_:
        raise NotImplementedError(f"\"trace\" not implemented for '{input.dtype.scalar_name}'")
    return _trace(input)


# -- index lists of triangles ----------------------------------------------------------------
def _triangle_indices(name, picker, row, col, offset, dtype):
    dt = _dtypes.int64 if dtype is None else _dtypes.to_dtype(dtype)
    if dt.np.kind not in "iu":
        raise NotImplementedError(f"\"{name}\" not implemented for '{dt.scalar_name}'")
    rows, cols = picker(row, offset, col)
    return Tensor._make(xp.stack([rows, cols]).astype(dt.np).reshape(2, -1))


@export(method=False)
def tril_indices(row, col, offset=0, *, dtype=None, device=None, layout=None) -> Tensor:
    """The (row, column) indices of the lower triangle of a ``row`` x ``col`` matrix, as a
    2 x N tensor, row by row.

    Example:
        >>> import numtorch as torch
        >>> torch.tril_indices(3, 3)
        tensor([[0, 1, 1, 2, 2, 2],
                [0, 0, 1, 0, 1, 2]])
    """
    return _triangle_indices("tril_indices", xp.tril_indices, row, col, offset, dtype)


@export(method=False)
def triu_indices(row, col, offset=0, *, dtype=None, device=None, layout=None) -> Tensor:
    """The (row, column) indices of the upper triangle, as a 2 x N tensor."""
    return _triangle_indices("triu_indices", xp.triu_indices, row, col, offset, dtype)
