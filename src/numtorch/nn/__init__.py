"""``numtorch.nn``: modules, parameters, layers, losses, ``functional`` and ``init``."""

from . import functional, init, parallel, utils
from .modules import *  # noqa: F403
from .modules import __all__ as _modules_all
from .parallel import DataParallel
from .parameter import Buffer, Parameter, UninitializedParameter

__all__ = [
    "Buffer",
    "DataParallel",
    "Parameter",
    "UninitializedParameter",
    "functional",
    "init",
    "parallel",
    "utils",
    *_modules_all,
]


def __getattr__(name: str):
    # a torch.nn name numtorch lacks: name the missing feature (see numtorch.__getattr__)
    if name.startswith("_"):
        raise AttributeError(f"module 'numtorch.nn' has no attribute '{name}'")
    raise AttributeError(
        f"torch.nn.{name} is not supported by numtorch (module 'numtorch.nn' has no "
        f"attribute '{name}')"
    )
