"""``torch.cuda`` stand-in: numtorch computes on the CPU, so nothing is available.

The probes answer as torch's CPU build does (False, 0, None); what needs a GPU raises
torch's ``AssertionError("Torch not compiled with CUDA enabled")``.
"""

from .._build_features import OutOfMemoryError as OutOfMemoryError
from .._legacy_types import CUDA_TYPES as _LEGACY_TYPES
from . import amp as amp

globals().update(_LEGACY_TYPES)  # torch.cuda.FloatTensor...: naming works, making raises


def _not_compiled(*args, **kwargs):
    raise AssertionError("Torch not compiled with CUDA enabled (numtorch runs on the CPU only)")


def is_available() -> bool:
    return False


def device_count() -> int:
    return 0


def is_initialized() -> bool:
    return False


def is_bf16_supported(including_emulation: bool = True) -> bool:
    return False


def manual_seed(seed: int) -> None:
    """No-op (there is no GPU generator)."""


manual_seed_all = manual_seed


def empty_cache() -> None:
    """No-op: there is no GPU memory to release."""


def _zero_bytes(device=None) -> int:
    return 0


memory_allocated = max_memory_allocated = memory_reserved = max_memory_reserved = _zero_bytes
current_device = synchronize = get_device_name = get_device_capability = _not_compiled
get_device_properties = set_device = init = _not_compiled
