"""``numtorch.signal``: signal-processing helpers (``signal.windows``)."""

from . import windows  # noqa: F401
