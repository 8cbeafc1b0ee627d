"""``torch.utils.hooks``: the handle every ``register_*_hook`` returns."""

from .._core.graph import RemovableHandle

__all__ = ["RemovableHandle"]
