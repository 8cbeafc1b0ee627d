"""torch.ao: quantization (dynamic quantization of nn.Linear)."""

from . import nn, quantization

__all__ = ["nn", "quantization"]
