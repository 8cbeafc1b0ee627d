"""``numtorch.nn``: modules, parameters, layers, losses, ``functional`` and ``init``."""

from . import functional, init
from .modules import *  # noqa: F403
from .modules import __all__ as _modules_all
from .parameter import Buffer, Parameter

__all__ = ["Buffer", "Parameter", "functional", "init", *_modules_all]
