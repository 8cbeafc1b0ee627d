"""``torch.cuda.amp``: the deprecated CUDA spellings of ``torch.amp``'s autocast and scaler.

On a CPU-only build torch warns that CUDA is unavailable and disables both; so does numtorch.
"""

from .._core import dtypes as _dtypes
from ..amp import autocast_mode, grad_scaler


class autocast(autocast_mode.autocast):
    """``torch.cuda.amp.autocast``: deprecated; without CUDA it warns and stays disabled."""

    def __init__(self, enabled: bool = True, dtype=_dtypes.float16, cache_enabled=True):
        autocast_mode.deprecated_spelling(
            "torch.cuda.amp.autocast", "torch.amp.autocast('cuda', args...)"
        )
        super().__init__("cuda", dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)


class GradScaler(grad_scaler.GradScaler):
    """``torch.cuda.amp.GradScaler``: deprecated; without CUDA it warns and disables itself."""

    def __init__(
        self,
        init_scale: float = 2.0**16,
        growth_factor: float = 2.0,
        backoff_factor: float = 0.5,
        growth_interval: int = 2000,
        enabled: bool = True,
    ):
        autocast_mode.deprecated_spelling(
            "torch.cuda.amp.GradScaler", "torch.amp.GradScaler('cuda', args...)"
        )
        super().__init__(
            "cuda", init_scale, growth_factor, backoff_factor, growth_interval, enabled
        )


__all__ = ["GradScaler", "autocast"]
