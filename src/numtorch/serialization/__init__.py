"""Safe checkpoints: ``save``/``load`` with safetensors or .npz, never pickle."""

from .allowlist import add_safe_globals, clear_safe_globals, get_safe_globals
from .checkpoint import load, save
from .refusal import PickleRefusedError

__all__ = [
    "PickleRefusedError",
    "add_safe_globals",
    "clear_safe_globals",
    "get_safe_globals",
    "load",
    "save",
]
