"""``torch.jit`` as pass-throughs: numtorch has no TorchScript compiler.

``script`` and ``trace`` return what they are given (a module or function that runs eagerly,
with the same results) and warn once that they did nothing; the decorators (``ignore``,
``unused``, ``export``) leave functions as they are, and ``is_scripting``/``is_tracing``
answer False. Saving or loading TorchScript archives is not supported.
"""

from __future__ import annotations

import builtins
import typing
import warnings

from . import _async
from ._core.warn_once import warn_once
from .futures import Future  # noqa: F401
from .nn.modules.module import Module

Final = typing.Final


def _pass_through(what: str, obj):
    warn_once(
        f"torch.jit.{what}: numtorch has no TorchScript compiler; the "
        f"{'module' if isinstance(obj, Module) else 'function'} is returned unchanged and "
        "runs eagerly",
        stacklevel=3,
        key=f"torch.jit.{what}",
    )
    return obj


def script(obj, optimize=None, _frames_up=0, _rcb=None, example_inputs=None):
    """Return ``obj`` unchanged (warns once): numtorch runs everything eagerly."""
    return _pass_through("script", obj)


def trace(func, example_inputs=None, *args, **kwargs):
    """Return ``func`` unchanged (warns once): numtorch records no traces."""
    return _pass_through("trace", func)


def trace_module(mod, inputs=None, *args, **kwargs):
    return _pass_through("trace_module", mod)


def fork(func, *args, **kwargs):
    """Run ``func`` now and return a completed ``Future`` (deprecated in torch, as here)."""
    warnings.warn(
        "`torch.jit.fork` is deprecated. Please use `torch.compile` instead.",
        DeprecationWarning,
        stacklevel=2,
    )
    return _async.fork(func, *args, **kwargs)


def wait(future):
    """The value of a ``Future`` from ``fork`` (deprecated in torch, as here)."""
    warnings.warn(
        "`torch.jit.wait` is deprecated. Please use `torch.compile` instead.",
        DeprecationWarning,
        stacklevel=2,
    )
    return _async.wait(future)


def script_if_tracing(fn):
    return fn


def _decorator(fn=None, **options):
    # @torch.jit.ignore and @torch.jit.ignore(drop=True) both leave the function as it is
    return (lambda f: f) if fn is None else fn


ignore = unused = export = interface = _decorator


def is_scripting() -> bool:
    return False


def is_tracing() -> bool:
    return False


def annotate(the_type, the_value):
    return the_value


def isinstance(obj, target_type) -> bool:
    return builtins.isinstance(obj, typing.get_origin(target_type) or target_type)


def freeze(mod, preserved_attrs=None, optimize_numerics=True):
    return mod


def optimize_for_inference(mod, other_methods=None):
    return mod


class ScriptModule(Module):
    """Stands for torch's compiled module class (numtorch compiles nothing)."""


class ScriptFunction:
    """Stands for torch's compiled function class (numtorch compiles nothing)."""


class TracerWarning(Warning):
    pass


def _no_archives(*args, **kwargs):
    raise NotImplementedError(
        "torch.jit.save/load: numtorch has no TorchScript; save the state_dict with "
        "torch.save(model.state_dict(), path) instead"
    )


save = load = _no_archives
