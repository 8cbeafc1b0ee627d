"""Safe checkpoints: ``save``/``load`` with safetensors or .npz, never pickle."""

from .checkpoint import load, save
from .refusal import PickleRefusedError

__all__ = ["PickleRefusedError", "load", "save"]
