"""``torch.signal``: window functions (``torch.signal.windows``)."""

from . import windows

__all__ = ["windows"]
