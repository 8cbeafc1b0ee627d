"""``torch.cuda.amp``: the deprecated CUDA spellings of ``torch.amp``'s autocast and scaler.

On a CPU-only build torch warns that CUDA is unavailable and disables both; so does numtorch.
"""

from .._core import dtypes as _dtypes
from ..amp import autocast_mode, custom_functions, grad_scaler


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


def custom_fwd(fwd=None, *, cast_inputs=None):
    """``torch.cuda.amp.custom_fwd``: deprecated spelling of
    ``torch.amp.custom_fwd(device_type="cuda")``."""
    autocast_mode.deprecated_spelling(
        "torch.cuda.amp.custom_fwd", "torch.amp.custom_fwd(args..., device_type='cuda')"
    )
    return custom_functions.custom_fwd(fwd, device_type="cuda", cast_inputs=cast_inputs)


def custom_bwd(bwd=None):
    """``torch.cuda.amp.custom_bwd``: deprecated spelling of
    ``torch.amp.custom_bwd(device_type="cuda")``."""
    autocast_mode.deprecated_spelling(
        "torch.cuda.amp.custom_bwd", "torch.amp.custom_bwd(args..., device_type='cuda')"
    )
    return custom_functions.custom_bwd(bwd, device_type="cuda")


__all__ = ["GradScaler", "autocast", "custom_bwd", "custom_fwd"]
