"""``torch.nn.modules.pixelshuffle``: the module path torch programs import from."""

from .upsampling import PixelShuffle, PixelUnshuffle

__all__ = ["PixelShuffle", "PixelUnshuffle"]
