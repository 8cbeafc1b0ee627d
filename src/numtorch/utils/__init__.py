"""Utilities, as ``torch.utils``."""

from . import checkpoint, data, dlpack, hooks

__all__ = ["checkpoint", "data", "dlpack", "hooks"]
