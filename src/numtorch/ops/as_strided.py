"""``as_strided`` and ``as_strided_``: a view of a tensor's storage with any sizes, strides
and storage offset.

The storage is the NumPy array that owns the tensor's memory (as ``storage_offset`` reads
it). The backward scatters the gradient into a storage-sized buffer at the positions the
view reads (adding where it reads one element twice) and gathers it at the input's
positions, as torch's ``AsStridedBackward`` does.
"""

from __future__ import annotations

from .._creation import zeros
from .._tensor import Tensor
from ..backend import xp
from .registry import defop, export


def _owner(array):
    while isinstance(array.base, xp.ndarray):
        array = array.base
    return array


def _storage(array):
    """The flat storage of ``array`` and ``array``'s offset in it (in elements)."""
    owner = _owner(array)
    if not owner.flags.c_contiguous:
        owner = owner.reshape(-1)  # a copy: numtorch's storages are contiguous in practice
    flat = owner.reshape(-1)
    start = array.__array_interface__["data"][0] - flat.__array_interface__["data"][0]
    return flat, start // array.itemsize


def _positions(shape, strides, offset):
    # storage index of every element of a view, in row-major order
    index = xp.full(shape, offset, dtype=xp.int64)
    for d, (n, s) in enumerate(zip(shape, strides)):
        index += (xp.arange(n, dtype=xp.int64) * s).reshape((n,) + (1,) * (len(shape) - d - 1))
    return index.reshape(-1)


def _backward(grad, storage_size, in_positions, out_positions):
    flat = zeros(storage_size, dtype=grad.dtype).index_add(0, out_positions, grad.reshape(-1))
    return flat[in_positions]


def _forward(input, size, stride, storage_offset, storage_size, in_positions, out_positions):
    flat, _ = _storage(input)
    strides = tuple(s * input.itemsize for s in stride)
    # built on the storage array itself, so that storage_offset() can walk back to it
    return xp.ndarray(
        size, input.dtype, buffer=flat, offset=storage_offset * input.itemsize, strides=strides
    )


def _formula(grad, input_shape, storage_size, in_positions, out_positions):
    return _backward(grad, storage_size, in_positions, out_positions).reshape(input_shape)


_as_strided = defop(name="as_strided", view=True, input=_formula)(_forward)
_as_strided_ = defop(name="as_strided_", node="AsStridedBackward1", input=_formula)(_forward)


def _arguments(input, size, stride, storage_offset):
    size, stride = tuple(int(s) for s in size), tuple(int(s) for s in stride)
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    flat, own_offset = _storage(input._data)
    offset = own_offset if storage_offset is None else int(storage_offset)
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    needed = 1 + sum((n - 1) * s for n, s in zip(size, stride)) if all(size) else 0
    if needed and offset + needed > flat.size:
        raise RuntimeError(
            f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset {offset}, "
            f"and itemsize {input._data.itemsize} requiring a storage size of "
            f"{(offset + needed) * input._data.itemsize} are out of bounds for storage of size "
            f"{flat.size * input._data.itemsize}"
        )
    in_strides = input.stride()
    positions = (
        Tensor._make(_positions(input._data.shape, in_strides, own_offset)),
        Tensor._make(_positions(size, stride, offset)),
    )
    return size, stride, offset, flat.size, *positions


@export(function=True)
def as_strided(input, size, stride, storage_offset=None) -> Tensor:
    """A view of ``input``'s storage with the given sizes, strides (in elements) and offset.

    Example:
        >>> import numtorch as torch
        >>> torch.arange(6.0).as_strided((2, 2), (1, 2))
        tensor([[0., 2.],
                [1., 3.]])
    """
    return _as_strided(input, *_arguments(input, size, stride, storage_offset))


def as_strided_(self, size, stride, storage_offset=None) -> Tensor:
    """In-place :func:`as_strided`: this tensor takes the new geometry."""
    from .inplace_views import _restride

    args = _arguments(self, size, stride, storage_offset)
    return _restride(self, _as_strided_, _as_strided, "as_strided_", *args)


Tensor.as_strided_ = as_strided_


def fill_diagonal_(self, fill_value, wrap=False) -> Tensor:
    """Fill the main diagonal in place (through a strided view, so a graph records it as
    torch does: ``CopySlices``); ``wrap`` continues below a tall matrix every ``cols + 1``
    rows."""
    shape = self.shape
    if self.ndim < 2:
        raise RuntimeError("dimensions must larger than 1")
    if self.ndim > 2 and len(set(shape)) != 1:
        raise RuntimeError("all dimensions of input must be of equal length")
    step = sum(self.stride())
    count = min(shape)
    if wrap and self.ndim == 2 and shape[0] > shape[1] + 1 and self.is_contiguous():
        count = (self.numel() + step - 1) // step
    if count:
        self.as_strided((count,), (step,)).fill_(fill_value)
    return self


Tensor.fill_diagonal_ = fill_diagonal_
