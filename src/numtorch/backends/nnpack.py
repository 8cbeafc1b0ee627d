"""``torch.backends.nnpack``: numtorch has no NNPACK convolutions."""

import contextlib

_enabled = [False]


def is_available() -> bool:
    return False


def set_flags(_enabled_flag):
    """Record the flag; returns the previous one as a 1-tuple, as torch's."""
    previous = (_enabled[0],)
    _enabled[0] = bool(_enabled_flag)
    return previous


@contextlib.contextmanager
def flags(enabled=False):
    previous = set_flags(enabled)
    try:
        yield
    finally:
        set_flags(*previous)
