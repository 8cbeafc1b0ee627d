"""Modules of quantized weights."""

from .linear import LinearPackedParams

__all__ = ["LinearPackedParams"]
