"""torch.ao.nn.quantized.dynamic: modules whose weights are quantized ahead of time and
whose activations are quantized on each call."""

from .modules.linear import Linear
from .modules.rnn import LSTM

__all__ = ["LSTM", "Linear"]
