"""``torch.backends.mkl``: numtorch does not link Intel MKL (NumPy's BLAS may be any)."""

import contextlib

VERBOSE_OFF = 0
VERBOSE_ON = 1


def is_available() -> bool:
    return False


@contextlib.contextmanager
def verbose(enable):
    """MKL's verbose logging: there is no MKL to log, so the block runs unchanged."""
    yield
