"""torch.nn.quantized: the older name of torch.ao.nn.quantized."""

from ...ao.nn.quantized import LinearPackedParams
from . import dynamic

__all__ = ["LinearPackedParams", "dynamic"]
