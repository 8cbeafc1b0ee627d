"""torch.nested: batches of tensors of equal rank and different sizes (the strided layout).

See Note [Nested tensor layout] in _tensor.py.
"""

from __future__ import annotations

from .._core.tensor import Tensor
from ._creation import (
    _plain_to_padded_tensor,
    as_nested_tensor,
    narrow,
    nested_tensor,
    to_padded_tensor,
)

__all__ = ["as_nested_tensor", "narrow", "nested_tensor", "to_padded_tensor"]

# a plain tensor's method raises as torch's does (NestedTensor overrides it)
Tensor.to_padded_tensor = _plain_to_padded_tensor


def __getattr__(name):
    if name.startswith("_"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    raise AttributeError(
        f"torch.nested.{name} is not supported by numtorch (module 'numtorch.nested' has no "
        f"attribute '{name}'): numtorch has the strided layout only, not the jagged one"
    )
