"""Utilities, as ``torch.utils``."""

from . import checkpoint, data, hooks

__all__ = ["checkpoint", "data", "hooks"]
