"""What this build has, as torch's top-level flags report it (``torch.has_lapack``...), and
the error classes torch raises for accelerator failures, which programs name in ``except``
clauses even on a CPU (``torch.OutOfMemoryError``, ``torch.cuda.OutOfMemoryError``)."""

from __future__ import annotations

from ._core.op import export

__all__ = [
    "AcceleratorError",
    "OutOfMemoryError",
    "compiled_with_cxx11_abi",
    "has_lapack",
    "has_mkl",
    "has_openmp",
    "has_spectral",
    "init_num_threads",
    "is_distributed",
    "is_vulkan_available",
    "newaxis",
]

has_lapack = True  # NumPy's linalg carries LAPACK
has_spectral = True  # NumPy's FFT backs torch.fft
has_mkl = False
has_openmp = False
newaxis = None  # ``x[:, torch.newaxis]`` as NumPy's


class OutOfMemoryError(RuntimeError):
    """An accelerator ran out of memory (never raised by numtorch, which runs on the CPU)."""


class AcceleratorError(RuntimeError):
    """An accelerator reported an error (never raised by numtorch)."""


def compiled_with_cxx11_abi() -> bool:
    return True


def is_vulkan_available() -> bool:
    return False


@export(function=False)  # also Tensor.is_distributed, as torch has it
def is_distributed(input) -> bool:
    """Whether ``input`` is a distributed tensor: never here."""
    return False


def init_num_threads() -> None:
    """Set up the thread pool of an OpenMP build; NumPy's BLAS needs nothing."""
