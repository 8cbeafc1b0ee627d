"""Small torch-level helpers: is_tensor, numel, result_type."""

from __future__ import annotations

from . import _dtypes
from ._tensor import Tensor


def is_tensor(obj) -> bool:
    """True if ``obj`` is a numtorch Tensor."""
    return isinstance(obj, Tensor)


def is_floating_point(input: Tensor) -> bool:
    return input.is_floating_point()


def numel(input: Tensor) -> int:
    return input.numel()


def result_type(tensor1, tensor2) -> _dtypes.dtype:
    """The dtype torch's promotion gives for an op on ``tensor1`` and ``tensor2``."""
    return _dtypes.result_type(tensor1, tensor2)


class memory_format:
    """A memory layout tag (``torch.contiguous_format``...). numtorch stores every tensor
    row-major, so the tags are accepted and compared, not acted on."""

    def __init__(self, name: str):
        self._name = name

    def __repr__(self) -> str:
        return f"torch.{self._name}"


contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")


class layout:
    """A tensor layout tag; numtorch tensors are all ``torch.strided``."""

    def __init__(self, name: str):
        self._name = name

    def __repr__(self) -> str:
        return f"torch.{self._name}"


strided = layout("strided")
Tensor.layout = property(lambda self: strided)


def can_cast(from_: _dtypes.dtype, to: _dtypes.dtype) -> bool:
    """Whether torch's casting rules allow ``from_`` into ``to`` (as in-place ops need):
    no float to integer, no complex to real, nothing but bool to bool."""
    from .ops.inplace import _can_cast

    return _can_cast(from_, to)


def _contains(self, element) -> bool:
    # ``x in t``: any element of t equal to x, as torch's Tensor.__contains__
    if isinstance(element, (Tensor, int, float, bool)):
        return bool((self == element).any().item())
    raise RuntimeError(
        f"Tensor.__contains__ only supports Tensor or scalar, but you passed in a {type(element)}."
    )


Tensor.__contains__ = _contains
