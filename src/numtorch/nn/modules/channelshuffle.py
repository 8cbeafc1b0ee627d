"""``torch.nn.modules.channelshuffle``: the module path torch programs import from."""

from .upsampling import ChannelShuffle

__all__ = ["ChannelShuffle"]
