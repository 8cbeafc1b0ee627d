"""``torch.cuda.amp``: the deprecated CUDA spellings of ``torch.amp``'s autocast and scaler.

On a CPU-only build torch warns that CUDA is unavailable and disables both; so does numtorch.
"""

from ..amp.autocast_mode import cuda_autocast as autocast
from ..amp.grad_scaler import cuda_grad_scaler as GradScaler

__all__ = ["GradScaler", "autocast"]
