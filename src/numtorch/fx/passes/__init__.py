"""torch.fx.passes: analyses and rewrites over a GraphModule."""

from . import shape_prop

__all__ = ["shape_prop"]
