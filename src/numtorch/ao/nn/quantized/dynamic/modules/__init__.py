"""Dynamically quantized modules."""

from .linear import Linear
from .rnn import LSTM

__all__ = ["LSTM", "Linear"]
