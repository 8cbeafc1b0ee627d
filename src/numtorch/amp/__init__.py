"""``torch.amp``: automatic mixed precision (autocast regions and gradient scaling)."""

from .autocast_mode import (
    autocast,
    get_autocast_cpu_dtype,
    get_autocast_dtype,
    is_autocast_cpu_enabled,
    is_autocast_enabled,
)
from .custom_functions import custom_bwd, custom_fwd, is_autocast_available
from .grad_scaler import GradScaler

__all__ = [
    "GradScaler",
    "autocast",
    "custom_bwd",
    "custom_fwd",
    "is_autocast_available",
    "get_autocast_cpu_dtype",
    "get_autocast_dtype",
    "is_autocast_cpu_enabled",
    "is_autocast_enabled",
]
