"""torch's once-per-program warnings (TORCH_WARN_ONCE in its C++ sources, module flags in its
Python ones): the first occurrence warns, later ones stay silent for the rest of the process.

One table for all of them, keyed by the message or by a name when several messages share one
warning (torch's deprecated overloads warn once between them). Tests clear ``given`` to see a
warning again.
"""

from __future__ import annotations

import warnings

given: set = set()


def warn_once(message: str, category=UserWarning, stacklevel: int = 2, key=None) -> None:
    """Warn ``message`` unless ``key`` (the message itself by default) has warned before;
    ``stacklevel`` counts from the caller, as ``warnings.warn``'s does."""
    key = message if key is None else key
    if key in given:
        return
    given.add(key)
    warnings.warn(message, category, stacklevel=stacklevel + 1)
