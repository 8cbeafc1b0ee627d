"""``torch.serialization.skip_data``: save and load a checkpoint's layout without its bytes.

Inside the context a save writes every storage at its full size but as zero bytes (to be
filled in a separate pass), and a load of torch's format rebuilds every tensor, shapes,
dtypes, views and sharing included, without reading the storages' bytes: torch leaves them
uninitialised, numtorch fills them with zeros.
"""

from __future__ import annotations

import threading

_state = threading.local()


def skipping() -> bool:
    return getattr(_state, "skip", False)


class skip_data:  # torch's name
    """Skip writing/reading storage bytes in ``torch.save``/``torch.load`` calls.

    Args:
        materialize_fake_tensors: accepted for torch's signature; numtorch has no fake
            tensors.

    Example:
        >>> import io
        >>> import numtorch as torch
        >>> buffer = io.BytesIO()
        >>> with torch.serialization.skip_data():
        ...     torch.save(torch.ones(2, 3), buffer)
        >>> _ = buffer.seek(0)
        >>> torch.load(buffer, weights_only=True)
        tensor([[0., 0., 0.],
                [0., 0., 0.]])
    """

    def __init__(self, materialize_fake_tensors: bool = False):
        self.materialize_fake_tensors = materialize_fake_tensors

    def __enter__(self):
        self._old = skipping()
        _state.skip = True

    def __exit__(self, type, value, tb):
        _state.skip = self._old
