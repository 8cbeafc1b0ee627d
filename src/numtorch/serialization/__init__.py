"""Checkpoints: ``save``/``load`` in torch.save's format, safetensors or .npz, never running
code from a file."""

from .allowlist import add_safe_globals, clear_safe_globals, get_safe_globals, safe_globals
from .checkpoint import load, save
from .errors import PickleRefusedError, UnsafeFileError
from .skipping import skip_data

__all__ = [
    "PickleRefusedError",
    "UnsafeFileError",
    "add_safe_globals",
    "clear_safe_globals",
    "get_safe_globals",
    "load",
    "safe_globals",
    "save",
    "skip_data",
]
