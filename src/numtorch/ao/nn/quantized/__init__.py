"""torch.ao.nn.quantized: the modules quantization swaps in."""

from . import dynamic
from .modules.linear import LinearPackedParams

__all__ = ["LinearPackedParams", "dynamic"]
