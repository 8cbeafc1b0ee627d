"""``torch.nn.modules.fold``: the module path torch programs import from."""

from .upsampling import Fold, Unfold

__all__ = ["Fold", "Unfold"]
