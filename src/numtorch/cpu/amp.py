"""``torch.cpu.amp``: the deprecated CPU spellings of ``torch.amp``'s autocast and scaler."""

from .._core import dtypes as _dtypes
from ..amp import autocast_mode
from ..amp.grad_scaler import GradScaler


class autocast(autocast_mode.autocast):
    """``torch.cpu.amp.autocast``: deprecated spelling of ``torch.autocast("cpu")``."""

    def __init__(self, enabled: bool = True, dtype=_dtypes.bfloat16, cache_enabled=True):
        autocast_mode.deprecated_spelling(
            "torch.cpu.amp.autocast", "torch.amp.autocast('cpu', args...)"
        )
        super().__init__("cpu", dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)


__all__ = ["GradScaler", "autocast"]
