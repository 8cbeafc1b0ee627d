"""``torch.version``: what this build is and which GPU toolkits it was built with (none)."""

from .torch_version import TorchVersion

__all__ = ["__version__", "debug", "cuda", "git_version", "hip", "rocm", "xpu"]

__version__ = TorchVersion("0.1.0")
debug = False
# programs test ``torch.version.cuda is None`` (or ``hip``) to learn they run without a GPU
cuda = None
git_version = "Unknown"
hip = None
rocm = None
xpu = None
