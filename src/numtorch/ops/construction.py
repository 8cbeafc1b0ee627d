"""Tensors assembled from others: meshgrid, cartesian_prod, block_diag, rot90, and sliding
windows (``Tensor.unfold``, a view)."""

from __future__ import annotations

import warnings

from .._core import batch_rules, shape_batch_rules
from .._core import dtypes as _dtypes
from .._core.op import defop, export
from .._core.tensor import Tensor, _wrap_dim
from ..autograd.forward_grad import batch_shift, batched
from ..backend import layout as dense_layout
from ..backend import xp
from .concatenation import stack


# -- meshgrid and cartesian_prod (composite) -------------------------------------------------
@export(method=False)
def meshgrid(*tensors, indexing: str | None = None):
    """Coordinate grids from 1-D tensors: output ``i`` varies along dim ``i``
    (``indexing='ij'``), or with the first two dims swapped (``'xy'``).

    Example:
        >>> import numtorch as torch
        >>> gx, gy = torch.meshgrid(torch.tensor([1, 2]), torch.tensor([3, 4, 5]), indexing="ij")
        >>> gy
        tensor([[3, 4, 5],
                [3, 4, 5]])
    """
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:
        warnings.warn(
            "torch.meshgrid: in an upcoming release, it will be required to pass the indexing "
            "argument.",
            UserWarning,
            stacklevel=2,
        )
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(
            f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}'
        )
    for t in tensors:
        if t.ndim > 1:
            raise RuntimeError(
                f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {t}"
            )
    if len({t.dtype for t in tensors}) > 1:
        raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    tensors = list(tensors)
    swap = indexing == "xy" and len(tensors) >= 2
    if swap:
        tensors[0], tensors[1] = tensors[1], tensors[0]
    shape = [t.numel() for t in tensors]
    grids = []
    for i, t in enumerate(tensors):
        view_shape = [1] * len(tensors)
        view_shape[i] = -1
        grids.append(t.view(view_shape).expand(shape))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


@export(method=False)
def cartesian_prod(*tensors) -> Tensor:
    """Every combination of one element from each 1-D tensor, one per row.

    Example:
        >>> import numtorch as torch
        >>> torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4]))
        tensor([[1, 3],
                [1, 4],
                [2, 3],
                [2, 4]])
    """
    for t in tensors:
        if t.ndim != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {list(t.shape)}")
    if len(tensors) == 1:
        return tensors[0]
    grids = meshgrid(*tensors, indexing="ij")
    return stack([g.flatten() for g in grids], 1)


# -- block_diag ------------------------------------------------------------------------------
def _as_matrix_shape(shape):
    if len(shape) == 0:
        return (1, 1)
    if len(shape) == 1:
        return (1, shape[0])
    return tuple(shape)


def _block_diag_backward(grad, tensors_shape):
    grads = []
    row = col = 0
    for shape in tensors_shape:
        if tuple(shape) == (0,):
            # torch's backward skips an empty vector without moving down past the row its
            # (1, 0) block took in the forward: the blocks after it read the gradient one row
            # up, and so they do here
            grads.append(grad.new_zeros((0,)))
            continue
        h, w = _as_matrix_shape(shape)
        grads.append(grad[row : row + h, col : col + w].reshape(shape))
        row, col = row + h, col + w
    return grads


@defop(name="block_diag", lists=("tensors",), tensors=_block_diag_backward, jvp="linear")
def _block_diag(tensors, dtype):
    blocks = [t.reshape(_as_matrix_shape(t.shape)) for t in tensors]
    out = xp.zeros((sum(b.shape[0] for b in blocks), sum(b.shape[1] for b in blocks)), dtype)
    row = col = 0
    for b in blocks:
        out[row : row + b.shape[0], col : col + b.shape[1]] = b
        row, col = row + b.shape[0], col + b.shape[1]
    return out


@export(method=False)
def block_diag(*tensors) -> Tensor:
    """A block-diagonal matrix with the given tensors (0-D, 1-D or 2-D) as blocks.

    Example:
        >>> import numtorch as torch
        >>> torch.block_diag(torch.tensor([[1, 2]]), torch.tensor(3))
        tensor([[1, 2, 0],
                [0, 0, 3]])
    """
    for i, t in enumerate(tensors):
        if t.ndim > 2:
            raise RuntimeError(
                "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input "
                f"{i} has {t.ndim} dimensions"
            )
    if not tensors:
        return _block_diag([], _dtypes.get_default_dtype().np)
    dtype = _dtypes.result_type(*tensors) if len(tensors) > 1 else tensors[0].dtype
    return _block_diag(list(tensors), dtype.np)


# -- rot90 -----------------------------------------------------------------------------------
@batched
def _rot90_jvp(input_t, input, k, dims):
    shift = batch_shift(input_t, input)
    return _rot90(input_t, k, (dims[0] + shift, dims[1] + shift))


@defop(
    batch=batch_rules.along("dims"),
    name="rot90",
    input=lambda grad, k, dims: grad.rot90(-k, dims),
    jvp=_rot90_jvp,
)
def _rot90(input, k, dims):
    # torch's layout: k = 1 and 3 flip one dim into a copy laid out like the input (its
    # empty_like: an expanded input's copy is dense in C order), then transpose it (a
    # non-contiguous result, which reshape copies rather than views)
    d0, d1 = dims

    def flipped(axes):
        out = dense_layout.empty_like(input)
        out[...] = xp.flip(input, axes)
        return out

    if k == 1:
        return flipped(d1).swapaxes(d0, d1)
    if k == 2:
        return flipped(dims)
    if k == 3:
        return flipped(d0).swapaxes(d0, d1)
    return input.copy()


@export
def rot90(input, k=1, dims=(0, 1)) -> Tensor:
    """Rotate by 90 degrees ``k`` times in the plane of ``dims``, from the first towards
    the second.

    Example:
        >>> import numtorch as torch
        >>> torch.tensor([[1, 2], [3, 4]]).rot90()
        tensor([[2, 4],
                [1, 3]])
    """
    dims = list(dims)
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if input.ndim < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {input.ndim}")
    d0, d1 = (_wrap_dim(d, input.ndim) for d in dims)
    if d0 == d1:
        raise RuntimeError(
            f"expected rotation dims to be different, but got dim0 = {dims[0]} and dim1 = {dims[1]}"
        )
    return _rot90(input, int(k) % 4, (d0, d1))


# -- unfold: sliding windows as a view -------------------------------------------------------
def _windows(input, dim, size, step):
    if input.ndim == 0:
        return input.reshape(1)
    count = (input.shape[dim] - size) // step + 1
    shape = input.shape[:dim] + (count,) + input.shape[dim + 1 :] + (size,)
    strides = input.strides
    strides = strides[:dim] + (strides[dim] * step,) + strides[dim + 1 :] + (strides[dim],)
    # overlapping windows alias memory: writing through them is refused (as torch does)
    writeable = input.flags.writeable and (step >= size or count <= 1)
    return xp.lib.stride_tricks.as_strided(input, shape, strides, writeable=writeable)


@batched
def _unfold_backward_jvp(grad_in_t, grad_in, input_shape, dim, size, step):
    if not batch_shift(grad_in_t, grad_in):
        return _unfold_backward(grad_in_t, input_shape, dim, size, step)
    if not input_shape:
        return grad_in_t.reshape(grad_in_t.shape[0])
    return _unfold_backward(grad_in_t, (grad_in_t.shape[0], *input_shape), dim + 1, size, step)


@defop(
    batch=shape_batch_rules.into_shape("input_shape", "dim"),
    name="unfold_backward",
    node="UnfoldBackwardBackward0",
    grad_in=lambda grad, dim, size, step: grad.unfold(dim, size, step),
    jvp=_unfold_backward_jvp,
)
def _unfold_backward(grad_in, input_shape, dim, size, step):
    if not input_shape:
        return grad_in.reshape(())
    out = xp.zeros(input_shape, grad_in.dtype)
    count = grad_in.shape[dim]
    lead = (slice(None),) * dim
    for offset in range(size):
        # window i covers position i * step + offset: distinct positions for one offset
        out[lead + (slice(offset, offset + (count - 1) * step + 1, step),)] += grad_in[..., offset]
    return out


@batched
def _unfold_jvp(input_t, input, dimension, size, step):
    if input.ndim == 0:
        return input_t.unsqueeze(-1)
    return _unfold(input_t, dimension + batch_shift(input_t, input), size, step)


@defop(
    batch=batch_rules.along("dimension"),
    name="unfold",
    view=True,
    input=lambda grad, input_shape, dimension, size, step: _unfold_backward(
        grad, input_shape, dimension, size, step
    ),
    jvp=_unfold_jvp,
)
def _unfold(input, dimension, size, step):
    return _windows(input, dimension, size, step)


def unfold(self, dimension, size, step) -> Tensor:
    """A view of every slice of length ``size`` along ``dimension``, ``step`` apart, as a
    new last dim.

    Example:
        >>> import numtorch as torch
        >>> torch.arange(5).unfold(0, 2, 2)
        tensor([[0, 1],
                [2, 3]])
    """
    dim = _wrap_dim(dimension, max(self.ndim, 1))
    length = self.shape[dim] if self.ndim else 1
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if size > length:
        raise RuntimeError(
            f"maximum size for tensor at dimension {dim} is {length} but size is {size}"
        )
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    return _unfold(self, dim, int(size), int(step))


Tensor.unfold = unfold


# -- vander (composite: torch fills it in place) ---------------------------------------------
@export(method=False)
def vander(x, N=None, increasing=False) -> Tensor:
    """The Vandermonde matrix of a 1-D ``x``: columns ``x**(N-1), ..., x, 1`` (ascending
    powers with ``increasing``); integers give int64.

    Example:
        >>> import numtorch as torch
        >>> torch.vander(torch.tensor([1, 2, 3]))
        tensor([[1, 1, 1],
                [4, 2, 1],
                [9, 3, 1]])
    """
    if x.ndim != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    from .._creation import empty

    result = empty(x.shape[0], n, dtype=_dtypes.promote_types(x.dtype, _dtypes.int64))
    if n > 0:
        result.fill_(1)
        if n > 1:
            # as torch: powers by a running product, written into the columns in place
            tail = result[:, 1:]
            tail.copy_(x.unsqueeze(1))
            tail.copy_(tail.cumprod(1))
    return result if increasing else result.flip(1)


# -- combinations (composite: one index_select per position, then stack) --------------------
@export(method=False)
def combinations(input, r=2, with_replacement=False) -> Tensor:
    """The length-``r`` combinations of a 1-D tensor's elements, one per row, in
    lexicographic order of positions (``itertools.combinations``).

    Example:
        >>> import numtorch as torch
        >>> torch.combinations(torch.tensor([1, 2, 3]))
        tensor([[1, 2],
                [1, 3],
                [2, 3]])
    """
    if input.ndim != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(input.shape)}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return input.new_empty(0)
    # torch's composition: masked_select on r expanded views of the input keeps them (saved
    # views share the input's version counter: changing it in place fails the backward)
    n = input.shape[0]
    positions = xp.indices((n,) * r, sparse=True)
    mask = xp.ones((n,) * r, dtype=bool)
    for before, after in zip(positions, positions[1:]):
        mask &= (before <= after) if with_replacement else (before < after)
    mask = Tensor._make(mask)
    grids = meshgrid(*[input] * r, indexing="ij")
    return stack([grid.masked_select(mask) for grid in grids], 1)
