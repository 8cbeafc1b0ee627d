"""``torch.cpu.amp``: the deprecated CPU spellings of ``torch.amp``'s autocast and scaler."""

from ..amp.autocast_mode import cpu_autocast as autocast
from ..amp.grad_scaler import GradScaler

__all__ = ["GradScaler", "autocast"]
