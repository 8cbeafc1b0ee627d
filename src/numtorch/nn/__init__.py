"""``numtorch.nn``: modules, parameters, layers, losses, ``functional`` and ``init``.

The layers load on first use (PEP 562): ``import numtorch`` needs ``nn.functional`` for
torch's top-level nn functions, not the ~150 module classes.
"""

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what type checkers and editors see: the names, as if loaded eagerly
    from . import attention as attention
    from . import functional as functional
    from . import init as init
    from . import parallel as parallel
    from . import utils as utils
    from .modules import *  # noqa: F403
    from .parallel import DataParallel as DataParallel
    from .parameter import Buffer as Buffer
    from .parameter import Parameter as Parameter
    from .parameter import UninitializedBuffer as UninitializedBuffer
    from .parameter import UninitializedParameter as UninitializedParameter

_SUBMODULES = (
    "functional",
    "init",
    "parallel",
    "utils",
    "modules",
    "parameter",
    "attention",
    "common_types",
    "grad",
    "quantized",
)
_PARAMETER_NAMES = ("Buffer", "Parameter", "UninitializedParameter", "UninitializedBuffer")
_PARALLEL_NAMES = ("DataParallel",)


def __getattr__(name):
    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    if name in _PARAMETER_NAMES:
        value = getattr(importlib.import_module(f"{__name__}.parameter"), name)
    elif name in _PARALLEL_NAMES:
        value = getattr(importlib.import_module(f"{__name__}.parallel"), name)
    elif name == "__all__" or not name.startswith("_"):
        modules = importlib.import_module(f"{__name__}.modules")
        if name == "__all__":
            value = [
                *_PARAMETER_NAMES,
                *_PARALLEL_NAMES,
                "functional",
                "init",
                "parallel",
                "utils",
                *modules.__all__,
            ]
        elif name in modules.__all__:
            value = getattr(modules, name)
        else:
            # a torch.nn name numtorch lacks: name the missing feature (see numtorch.__getattr__)
            raise AttributeError(
                f"torch.nn.{name} is not supported by numtorch (module 'numtorch.nn' has no "
                f"attribute '{name}')"
            )
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__getattr__("__all__")))
