"""Grad modes: no_grad, enable_grad, set_grad_enabled, inference_mode (thread-local),
set_multithreading_enabled and enforce_grad_layout_policy.

Each works as a context manager and as a decorator (also on generator functions, where the
mode is restored around every resumption, so it never leaks between ``yield``s).

The modes live in context variables: per thread (a new thread starts with grad enabled, as in
torch) and also per asyncio task; reading one is several times cheaper than a
``threading.local`` attribute, which matters because every op checks it.
"""

from __future__ import annotations

import contextvars
import functools
import inspect
import warnings
from collections.abc import Callable
from typing import Any, TypeVar, overload

from . import inference
from .inference import _inference, is_inference_mode_enabled  # noqa: F401

_enabled = contextvars.ContextVar("numtorch_grad_enabled", default=True)
_multithreading = contextvars.ContextVar("numtorch_multithreading", default=True)
_grad_layout = contextvars.ContextVar("numtorch_grad_layout_enforced", default=True)

# True when operations are being recorded for backward (a bound method: the fastest read).
is_grad_enabled = _enabled.get
set_enabled = _enabled.set


class _DecoratorContextManager:
    """Base for grad-mode objects usable as ``with m:`` and as ``@m``."""

    def clone(self):
        return self.__class__()

    def __call__(self, func):
        if inspect.isclass(func):
            # deprecated in torch, which warns and constructs the class under the mode
            warnings.warn(
                "Decorating classes is deprecated and will be disabled in future versions. You "
                "should only decorate functions or methods. To preserve the current behavior "
                "of class decoration, you can directly decorate the `__init__` method and "
                "nothing else.",
                FutureWarning,
                stacklevel=2,
            )
            cls = func

            def func(*args, **kwargs):
                return cls(*args, **kwargs)

        if inspect.isgeneratorfunction(func):
            return self._wrap_generator(func)

        @functools.wraps(func)
        def decorated(*args, **kwargs):
            with self.clone():
                return func(*args, **kwargs)

        return decorated

    def _wrap_generator(self, func):
        @functools.wraps(func)
        def generator(*args, **kwargs):
            gen = func(*args, **kwargs)
            try:
                with self.clone():
                    response = gen.send(None)
                while True:
                    try:
                        request = yield response
                    except GeneratorExit:
                        with self.clone():
                            gen.close()
                        raise
                    except BaseException as error:
                        with self.clone():
                            response = gen.throw(error)
                    else:
                        with self.clone():
                            response = gen.send(request)
            except StopIteration as stop:
                return stop.value

        return generator


_F = TypeVar("_F", bound=Callable[..., Any])
_T = TypeVar("_T")


class _NoParamDecorator(_DecoratorContextManager):
    # Allows both ``@no_grad`` and ``@no_grad()``.
    @overload
    def __new__(cls, orig_func: _F) -> _F: ...  # type: ignore[misc]
    @overload
    def __new__(cls: type[_T], orig_func: None = None) -> _T: ...

    def __new__(cls, orig_func=None):
        if orig_func is None:
            return super().__new__(cls)
        return cls()(orig_func)


class no_grad(_NoParamDecorator):
    """Disable recording: results of ops do not require grad.

    Example:
        >>> import numtorch as torch
        >>> x = torch.ones(2, requires_grad=True)
        >>> with torch.no_grad():
        ...     y = x * 2
        >>> y.requires_grad
        False
    """

    def __enter__(self):
        self.prev = _enabled.get()
        _enabled.set(False)

    def __exit__(self, *exc):
        _enabled.set(self.prev)


class enable_grad(_NoParamDecorator):
    """Enable recording inside a ``no_grad`` region."""

    def __enter__(self):
        self.prev = _enabled.get()
        _enabled.set(True)

    def __exit__(self, *exc):
        _enabled.set(self.prev)


class set_grad_enabled(_DecoratorContextManager):
    """Set grad mode to ``mode``: takes effect at once, and as a context manager restores it.

    Example:
        >>> import numtorch as torch
        >>> _ = torch.set_grad_enabled(False)
        >>> torch.is_grad_enabled()
        False
        >>> _ = torch.set_grad_enabled(True)
    """

    def __init__(self, mode: bool):
        if mode.__class__ is not bool:
            raise TypeError(
                "set_grad_enabled(): argument 'enabled' (position 1) must be bool, not "
                f"{type(mode).__name__}"
            )
        self.prev = _enabled.get()
        self.mode = mode
        _enabled.set(self.mode)

    def __call__(self, func):
        _enabled.set(self.prev)  # used as a decorator: the mode applies inside calls only
        return super().__call__(func)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        _enabled.set(self.prev)

    def clone(self):
        return self.__class__(self.mode)

    def __repr__(self) -> str:
        return f"torch.autograd.grad_mode.set_grad_enabled(mode={self.mode})"


class inference_mode(_DecoratorContextManager):
    """Like ``no_grad`` for inference: no graph is recorded.

    ``mode=False`` turns inference mode off and grad mode on (torch's guard sets grad mode to
    ``not mode``), so it re-enables recording even inside ``no_grad`` or ``inference_mode()``.
    """

    def __new__(cls, mode=True):
        if isinstance(mode, bool):
            return super().__new__(cls)
        return cls()(mode)

    def __init__(self, mode: bool = True):
        self.mode = mode

    def __enter__(self):
        self.prev = (_enabled.get(), _inference.get())
        _enabled.set(not self.mode)
        _inference.set(self.mode)
        if self.mode:
            inference.enter()

    def __exit__(self, *exc):
        _enabled.set(self.prev[0])
        _inference.set(self.prev[1])
        if self.mode:
            inference.exit()

    def clone(self):
        return self.__class__(self.mode)


class set_multithreading_enabled(_DecoratorContextManager):
    """torch's switch for backward on per-device worker threads. numtorch's engine always runs
    backward on the calling thread, so the setting is only recorded (thread-local) and
    restored on exit, for code that sets it."""

    def __init__(self, mode: bool) -> None:
        self.prev = _multithreading.get()
        self.mode = bool(mode)
        _multithreading.set(self.mode)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc) -> None:
        _multithreading.set(self.prev)

    def clone(self):
        return self.__class__(self.mode)


class enforce_grad_layout_policy(_DecoratorContextManager):
    """Whether a leaf's first gradient is made to follow the leaf's layout (torch's gradient
    layout contract: the strides of a non-overlapping, dense leaf, row-major otherwise).

    With ``enable=False`` a gradient the engine may take over becomes ``.grad`` in the layout
    it came in; a gradient that has to be copied still gets the leaf's layout. Thread-local;
    works as a function, a context manager and a decorator, like ``set_grad_enabled``.

    Example:
        >>> import numtorch as torch
        >>> p = torch.zeros(2, 3, 4).permute(2, 0, 1).requires_grad_()
        >>> with torch.autograd.enforce_grad_layout_policy(False):
        ...     (p * 2).sum().backward()
        >>> p.stride(), p.grad.stride()
        ((1, 12, 4), (6, 3, 1))
    """

    def __init__(self, enable: bool = True) -> None:
        self.prev = _grad_layout.get()
        self.mode = bool(enable)
        _grad_layout.set(self.mode)

    def __call__(self, func):
        _grad_layout.set(self.prev)  # as a decorator it applies around calls only
        return super().__call__(func)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc) -> None:
        _grad_layout.set(self.prev)

    def clone(self):
        return self.__class__(self.mode)


def is_grad_layout_enforced() -> bool:
    """What ``enforce_grad_layout_policy`` last set on this thread (True by default)."""
    return _grad_layout.get()


def is_multithreading_enabled() -> bool:
    """What ``set_multithreading_enabled`` last set on this thread (True by default)."""
    return _multithreading.get()


def is_view_replay_enabled() -> bool:
    """False: numtorch records views as torch does by default, without replaying them."""
    return False
