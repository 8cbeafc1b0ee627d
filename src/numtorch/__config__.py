"""torch.__config__: what this build is made of, in the shape of torch's reports.

numtorch has no C++ build: ``show()`` names the Python, NumPy and BLAS it runs on and the
settings torch's report lists (no CUDA, no MKL, no OpenMP); ``parallel_info()`` the thread
counts and the environment variables that set them.
"""

from __future__ import annotations

import os
import platform

import numpy as np

from ._runtime import get_num_interop_threads, get_num_threads
from .version import __version__

__all__ = ["parallel_info", "show"]


def _blas() -> str:
    try:
        blas = np.__config__.CONFIG["Build Dependencies"]["blas"]
    except (AttributeError, KeyError):  # NumPy before 1.26 keeps no CONFIG
        return "unknown"
    return f"{blas.get('name', 'unknown')} {blas.get('version', '')}".strip()


def show() -> str:
    """A multi-line description of this build, as torch's ``__config__.show()``.

    Example:
        >>> import numtorch as torch
        >>> torch.__config__.show().splitlines()[0]
        'numtorch built with:'
    """
    settings = {
        "BLAS_INFO": _blas(),
        "LAPACK_INFO": _blas(),
        "TORCH_VERSION": __version__,
        "USE_CUDA": 0,
        "USE_CUDNN": "OFF",
        "USE_MKL": "OFF",
        "USE_MKLDNN": "OFF",
        "USE_MPI": "OFF",
        "USE_OPENMP": "OFF",
        "USE_ROCM": "OFF",
        "USE_XPU": "OFF",
    }
    lines = [
        "numtorch built with:",
        f"  - Python {platform.python_version()} ({platform.python_implementation()})",
        f"  - NumPy {np.__version__}",
        f"  - BLAS and LAPACK: {_blas()} (through NumPy)",
        "  - CPU capability usage: NumPy's own dispatch",
        "  - Build settings: " + "".join(f"{k}={v}, " for k, v in settings.items()),
    ]
    return "\n".join(lines) + "\n"


def parallel_info() -> str:
    """The thread settings, as torch's ``__config__.parallel_info()``."""
    lines = [
        "numtorch/Parallel:",
        f"\tget_num_threads() : {get_num_threads()}",
        f"\tget_num_interop_threads() : {get_num_interop_threads()}",
        f"{_blas()} (through NumPy)",
        f"os.cpu_count() : {os.cpu_count()}",
        "Environment variables:",
    ]
    for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        lines.append(f"\t{name} : {os.environ.get(name, '[not set]')}")
    lines.append("parallel backend: NumPy's BLAS threads")
    return "\n".join(lines) + "\n"
