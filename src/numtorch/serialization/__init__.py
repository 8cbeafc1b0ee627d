"""Checkpoints: ``save``/``load`` in torch.save's format, safetensors or .npz, never running
code from a file."""

from .allowlist import add_safe_globals, clear_safe_globals, get_safe_globals, safe_globals
from .checkpoint import get_unsafe_globals_in_checkpoint, load, save
from .errors import PickleRefusedError, UnsafeFileError
from .locations import (
    _package_registry as _package_registry,
)
from .locations import (
    default_restore_location,
    location_tag,
    normalize_storage_type,
    register_package,
    storage_to_tensor_type,
    validate_cuda_device,
)
from .options import (
    DEFAULT_PROTOCOL,
    INT_SIZE,
    LONG_SIZE,
    MAGIC_NUMBER,
    MAP_PRIVATE,
    MAP_SHARED,
    PROTOCOL_VERSION,
    SHORT_SIZE,
    STORAGE_KEY_SEPARATOR,
    LoadEndianness,
    SourceChangeWarning,
    get_crc32_options,
    get_default_load_endianness,
    get_default_mmap_options,
    set_crc32_options,
    set_default_load_endianness,
    set_default_mmap_options,
)
from .skipping import skip_data

__all__ = [
    "DEFAULT_PROTOCOL",
    "INT_SIZE",
    "LONG_SIZE",
    "LoadEndianness",
    "MAGIC_NUMBER",
    "MAP_PRIVATE",
    "MAP_SHARED",
    "PROTOCOL_VERSION",
    "PickleRefusedError",
    "SHORT_SIZE",
    "STORAGE_KEY_SEPARATOR",
    "SourceChangeWarning",
    "UnsafeFileError",
    "add_safe_globals",
    "clear_safe_globals",
    "default_restore_location",
    "get_crc32_options",
    "get_default_load_endianness",
    "get_default_mmap_options",
    "get_safe_globals",
    "get_unsafe_globals_in_checkpoint",
    "load",
    "location_tag",
    "normalize_storage_type",
    "register_package",
    "safe_globals",
    "save",
    "set_crc32_options",
    "set_default_load_endianness",
    "set_default_mmap_options",
    "skip_data",
    "storage_to_tensor_type",
    "validate_cuda_device",
]
