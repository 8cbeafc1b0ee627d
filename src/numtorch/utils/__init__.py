"""Utilities, as ``torch.utils``."""

from . import _pytree as _pytree
from . import checkpoint, data, dlpack, hooks

__all__ = ["checkpoint", "data", "dlpack", "hooks"]
