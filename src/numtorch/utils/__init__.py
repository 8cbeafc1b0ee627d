"""Utilities, as ``torch.utils``."""

from .._swap import swap_tensors
from . import checkpoint, data, hooks

__all__ = ["checkpoint", "data", "hooks", "swap_tensors"]
