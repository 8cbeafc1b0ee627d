"""``torch.fft``: discrete Fourier transforms and their helpers, with gradients."""

from .ops.boundary import publish_all as _publish_all
from .ops.fft import (
    fft,
    fft2,
    fftfreq,
    fftn,
    fftshift,
    hfft,
    hfft2,
    hfftn,
    ifft,
    ifft2,
    ifftn,
    ifftshift,
    ihfft,
    ihfft2,
    ihfftn,
    irfft,
    irfft2,
    irfftn,
    rfft,
    rfft2,
    rfftfreq,
    rfftn,
)


def __getattr__(name):
    raise AttributeError(f"module 'numtorch.fft' has no attribute '{name}'")


# what `from ... import *` gives, and the names type checkers treat as this module's API
__all__ = [
    "fft",
    "fft2",
    "fftfreq",
    "fftn",
    "fftshift",
    "hfft",
    "hfft2",
    "hfftn",
    "ifft",
    "ifft2",
    "ifftn",
    "ifftshift",
    "ihfft",
    "ihfft2",
    "ihfftn",
    "irfft",
    "irfft2",
    "irfftn",
    "rfft",
    "rfft2",
    "rfftfreq",
    "rfftn",
]

# torch's out= and its errors at the boundary, as the numtorch.<name> functions have them
_publish_all(globals(), __all__, "fft_")
