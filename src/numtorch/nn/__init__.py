"""``numtorch.nn``: modules, parameters, layers, losses, ``functional`` and ``init``."""

from . import functional, init, parallel, utils
from .modules import *  # noqa: F403
from .modules import __all__ as _modules_all
from .parameter import Buffer, Parameter, UninitializedParameter

__all__ = [
    "Buffer",
    "Parameter",
    "UninitializedParameter",
    "functional",
    "init",
    "parallel",
    "utils",
    *_modules_all,
]
