"""Dynamically quantized modules."""

from .linear import Linear

__all__ = ["Linear"]
