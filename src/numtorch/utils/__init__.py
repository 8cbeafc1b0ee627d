"""Utilities, as ``torch.utils``."""

from . import data

__all__ = ["data"]
