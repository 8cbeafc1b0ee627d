"""torch.ao.nn: quantized modules."""

from . import quantized

__all__ = ["quantized"]
