"""``torch.version``: what this build is and which GPU toolkits it was built with (none).

Note [Reported version]: ``__version__`` is the torch API version numtorch follows, with
numtorch's own release as the PEP 440 local label (torch's own builds use ``+cpu``).
Programs gate features on ``torch.__version__`` (``>= "2.0"``, ``packaging.version``,
``int(__version__.split(".")[0]) >= 2``); numtorch's release number would send them down
their pre-2.0 branches. The package's metadata keeps numtorch's own version.
"""

from .torch_version import TorchVersion

__all__ = ["__version__", "debug", "cuda", "git_version", "hip", "rocm", "xpu"]

# the torch release whose API and semantics numtorch follows
TORCH_API_VERSION = "2.13.0"
# numtorch's own release (pyproject.toml's version; tests keep the two equal)
NUMTORCH_VERSION = "0.1.0"

__version__ = TorchVersion(f"{TORCH_API_VERSION}+numtorch.{NUMTORCH_VERSION}")
debug = False
# programs test ``torch.version.cuda is None`` (or ``hip``) to learn they run without a GPU
cuda = None
git_version = "Unknown"
hip = None
rocm = None
xpu = None
