"""Utilities, as ``torch.utils``."""

from .._swap import swap_tensors
from . import _pytree as _pytree
from . import checkpoint, data, dlpack, hooks

__all__ = ["checkpoint", "data", "dlpack", "hooks", "swap_tensors"]
