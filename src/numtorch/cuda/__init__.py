"""``torch.cuda`` stand-in: numtorch computes on the CPU, so nothing is available.

The probes answer as torch's CPU build does (False, 0, None); what needs a GPU raises
torch's ``AssertionError("Torch not compiled with CUDA enabled")``.
"""

import collections
import contextlib

from .._build_features import OutOfMemoryError as OutOfMemoryError
from .._legacy_types import CUDA_TYPES as _LEGACY_TYPES
from . import amp as amp
from . import nvtx as nvtx

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
get_rng_state = current_stream = default_stream = ipc_collect = mem_get_info = _not_compiled
set_per_process_memory_fraction = can_device_access_peer = current_blas_handle = _not_compiled
memory_cached = max_memory_cached = _zero_bytes


def seed() -> None:
    """No-op (there is no GPU generator)."""


seed_all = seed


def set_rng_state(new_state, device="cuda") -> None:
    """No-op, as on torch's CPU build: there is no GPU generator to restore."""


def set_rng_state_all(new_states) -> None:
    """No-op, as on torch's CPU build."""


def get_rng_state_all() -> list:
    return []


def get_arch_list() -> list:
    return []


def get_gencode_flags() -> str:
    return ""


def is_tf32_supported() -> bool:
    return False


def memory_stats(device=None) -> collections.OrderedDict:
    return collections.OrderedDict()


def _dummy_class(name: str, message: str) -> type:
    # torch's CPU build defines these classes so that code naming them imports; making one
    # raises, as here
    def __init__(self, *args, **kwargs):
        raise RuntimeError(message)

    return type(name, (), {"__init__": __init__, "__module__": __name__})


Stream = _dummy_class("Stream", "torch.cuda.Stream requires CUDA support")
Event = _dummy_class("Event", "Tried to instantiate dummy base class Event")
CUDAGraph = _dummy_class("CUDAGraph", "Tried to instantiate dummy base class CUDAGraph")


class device:
    """``with torch.cuda.device(i)``: entering with a GPU index fails, as on torch's CPU build;
    a negative index selects nothing."""

    def __init__(self, device):
        self.idx = device if isinstance(device, int) else getattr(device, "index", device)

    def __enter__(self):
        if self.idx is None or self.idx >= 0:
            raise RuntimeError("PyTorch was compiled without CUDA support")

    def __exit__(self, *exc):
        return False


def device_of(obj):
    """``with torch.cuda.device_of(tensor)``: a CPU tensor selects no GPU."""
    return contextlib.nullcontext()


def stream(stream):
    """``with torch.cuda.stream(None)``: no stream to select, as on torch's CPU build."""
    if stream is not None:
        raise RuntimeError("torch.cuda.Stream requires CUDA support")
    return contextlib.nullcontext()
