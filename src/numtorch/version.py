"""``torch.version``: the build facts programs print at start-up, as a CPU-only build has them.

Example:
    >>> import numtorch as torch
    >>> torch.version.cuda is None
    True
"""

from __future__ import annotations

__all__ = ["__version__", "cuda", "debug", "git_version", "hip", "rocm", "xpu"]

__version__ = "0.1.0"  # numtorch's own version, as torch.__version__
debug = False
cuda = None
hip = None
rocm = None
xpu = None
git_version = "Unknown"
