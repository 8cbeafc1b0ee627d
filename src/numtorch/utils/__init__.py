"""Utilities, as ``torch.utils``."""

from . import checkpoint, data

__all__ = ["checkpoint", "data"]
