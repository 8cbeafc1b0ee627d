"""Small torch-level helpers: is_tensor, is_tensor_like, is_inference, numel, result_type,
memory formats."""

from __future__ import annotations

from ._core import dtypes as _dtypes
from ._core.tensor import Tensor
from .backend import xp


def is_tensor(obj) -> bool:
    """True if ``obj`` is a numtorch Tensor."""
    return isinstance(obj, Tensor)


def is_tensor_like(inp) -> bool:
    """A Tensor, or an object whose class defines ``__torch_function__``."""
    return type(inp) is Tensor or hasattr(inp, "__torch_function__")


def is_floating_point(input: Tensor) -> bool:
    return input.is_floating_point()


def is_inference(input: Tensor) -> bool:
    if not isinstance(input, Tensor):
        raise TypeError(
            "is_inference(): argument 'input' (position 1) must be Tensor, not "
            f"{type(input).__name__}"
        )
    return input.is_inference()


def numel(input: Tensor) -> int:
    return input.numel()


def result_type(tensor1, tensor2) -> _dtypes.dtype:
    """The dtype torch's promotion gives for an op on ``tensor1`` and ``tensor2``."""
    return _dtypes.result_type(tensor1, tensor2)


class memory_format:
    """A memory layout tag (``torch.contiguous_format``...). ``to``, ``contiguous``,
    ``clone``, ``empty`` and ``Module.to`` lay tensors out in channels-last strides, and
    convolutions keep that layout (Note [Channels last]); other ops may answer row-major."""

    def __init__(self, name: str):
        self._name = name

    def __repr__(self) -> str:
        return f"torch.{self._name}"


contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")


def memory_format_order(memory_format, ndim: int) -> tuple:
    """The dims from outermost to innermost in memory that ``torch.empty(...,
    memory_format=...)`` lays out: channels-last formats keep dim 1 innermost."""
    if memory_format is None or memory_format is contiguous_format:
        return tuple(range(ndim))
    if memory_format is preserve_format:
        raise RuntimeError("unsupported memory format Preserve")
    rank = 4 if memory_format is channels_last else 5
    if ndim != rank:
        raise RuntimeError(f"required rank {rank} tensor to use {memory_format._name} format")
    return (0, *range(2, ndim), 1)


def empty_in_order(shape: tuple, order: tuple, dtype):
    """An uninitialised array of ``shape`` whose memory runs through dims in ``order``."""
    storage = xp.empty(tuple(shape[d] for d in order), dtype)
    return storage.transpose(tuple(order.index(d) for d in range(len(order))))
