"""torch.overrides: the ``__torch_function__`` protocol ("Extending torch" in torch's notes).

A Tensor subclass, or any object whose class defines ``__torch_function__``, takes over the
torch functions it is passed to: ``cls.__torch_function__(func, types, args, kwargs)`` runs
instead of the op. ``Tensor.__torch_function__`` (what ``super()`` reaches) runs the op with
subclass dispatch disabled and converts tensor results to the subclass, so a plain
``class Tagged(torch.Tensor): pass`` keeps its type through ops, as in torch.
``TorchFunctionMode`` sees every op run inside its ``with`` block.

Note [Torch function dispatch]
Nothing is checked until it can matter: defining a Tensor subclass that dispatches
(numtorch's own subclasses and classes whose ``__torch_function__`` is
``_disabled_torch_function_impl``, such as ``nn.Parameter``, opt out), or entering a mode,
installs ``dispatch.torch_function``. From then on four places offer a call to
``_dispatch``: the public functions (``torch.add``: ops/boundary.py, with the caller's own
arguments), the in-place methods (``Tensor.add_``: _core/inplace.py), the functions built
of ops that torch runs as one op (``F.linear``, ``F.layer_norm``: ``composite`` in
_core/observers.py, so a handler sees ``linear``, not its matrix product), and every op run
(``_core/dispatch.py``'s ``observed``, which ops take while the switch is on: methods and
operators, with the op's arguments positionally, defaults included, and as ``func`` the
method or function that runs exactly that op, else one named after it). Inside a handler
subclass dispatch is off (``DisableTorchFunctionSubclass``) and the mode is popped, so each
call is offered once. An object that is not a tensor is offered a public function's call
once the function refused it (``dispatch.torch_function_objects``), which costs nothing
before. Factories and tensor attributes (``.shape``) run without asking.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import inspect
from collections.abc import Callable, Iterable

import numtorch

from . import ops as _ops
from ._core.backward_run import current_run
from ._core.dispatch import dispatch
from ._core.observers import refresh_slow
from ._core.tensor import Tensor
from ._tensor_queries import is_tensor_like
from .ops.boundary import publish

__all__ = [
    "BaseTorchFunctionMode",
    "get_ignored_functions",
    "get_overridable_functions",
    "get_testing_overrides",
    "handle_torch_function",
    "has_torch_function",
    "has_torch_function_unary",
    "has_torch_function_variadic",
    "is_tensor_like",
    "is_tensor_method_or_property",
    "redispatch_function",
    "resolve_name",
    "wrap_torch_function",
    "TorchFunctionMode",
]


class _State:
    subclass_disabled = 0  # DisableTorchFunctionSubclass blocks entered
    all_disabled = 0  # DisableTorchFunction blocks entered
    skip_one_hop = False  # redispatch_function: the next offer of a call is not made
    modes: list = []  # the TorchFunctionMode stack, innermost last


_state = _State()


def _disabled_torch_function_impl(func, types, args=(), kwargs=None):
    """A ``__torch_function__`` that opts a class out: the op runs as for a plain Tensor."""
    with DisableTorchFunctionSubclass():
        return func(*args, **(kwargs or {}))


class DisableTorchFunctionSubclass:
    """Within the block, subclasses' ``__torch_function__`` is not called (modes still are)."""

    def __enter__(self):
        _state.subclass_disabled += 1
        return self

    def __exit__(self, *exc):
        _state.subclass_disabled -= 1


class DisableTorchFunction:
    """Within the block, neither subclasses nor modes are asked."""

    def __enter__(self):
        _state.all_disabled += 1
        return self

    def __exit__(self, *exc):
        _state.all_disabled -= 1


def _install() -> None:
    if dispatch.torch_function is None:
        dispatch.torch_function = _dispatch
        refresh_slow()


def _dispatches(cls) -> bool:
    """Whether instances of ``cls`` take over the functions they are passed to."""
    method = getattr(cls, "__torch_function__", None)
    if method is None:
        return False
    if getattr(method, "__func__", method) is _disabled_torch_function_impl or cls is Tensor:
        return False
    # numtorch's own subclasses (sparse and batched tensors) run ops as plain tensors do,
    # unless they opt in as torch's MaskedTensor does
    if getattr(cls, "_dispatches_torch_function", False):
        return True
    return not (issubclass(cls, Tensor) and cls.__module__.startswith("numtorch."))


@functools.cache
def _class_dispatches(cls) -> bool:
    return _dispatches(cls)


def _init_subclass(cls, **kwargs):
    # numtorch's own dispatching classes (MaskedTensor) install it with their first instance:
    # importing torch.masked for its reductions keeps every other op on the fast path
    if _dispatches(cls) and not getattr(cls, "_dispatches_torch_function", False):
        _install()


def install_dispatch() -> None:
    """Offer calls to ``__torch_function__`` from now on (a no-op once installed)."""
    _install()


def _default_torch_function(cls, func, types, args=(), kwargs=None):
    """Run ``func`` without subclass dispatch and give tensor results the type ``cls``."""
    if kwargs is None:
        kwargs = {}
    if not all(issubclass(cls, t) for t in types):
        return NotImplemented
    with DisableTorchFunctionSubclass():
        result = func(*args, **kwargs)
        if func is Tensor.__getattribute__:
            return result
        return _convert(result, cls)


def _convert(result, cls):
    if cls is Tensor:
        return result
    if isinstance(result, Tensor) and not isinstance(result, cls):
        return result.as_subclass(cls)
    if isinstance(result, (tuple, list)) and not hasattr(result, "_fields"):
        return type(result)(_convert(r, cls) for r in result)
    return result


def _make_subclass(cls, data, require_grad: bool = False, **kwargs):
    """A leaf of class ``cls`` sharing ``data``'s memory (how subclasses such as torch's
    Parameter build their instances)."""
    if not (isinstance(cls, type) and issubclass(cls, Tensor)):
        raise TypeError(f"cls must be a type (got {type(cls).__name__})")
    if not isinstance(data, Tensor):
        raise TypeError(f"data must be a Tensor (got {type(data).__name__})")
    result = data.detach()
    result.__class__ = cls
    return result.requires_grad_(require_grad)


Tensor._make_subclass = staticmethod(_make_subclass)
Tensor.__torch_function__ = classmethod(_default_torch_function)
Tensor.__init_subclass__ = classmethod(_init_subclass)
_plain_backward = Tensor.backward


@functools.wraps(_plain_backward)
def _backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    if dispatch.torch_function is not None:  # a subclass's handler sees backward too
        keywords = {"gradient": gradient, "retain_graph": retain_graph}
        keywords |= {"create_graph": create_graph, "inputs": inputs}
        taken = _dispatch(_backward, (self,), keywords)
        if taken is not NotImplemented:
            return taken
    return _plain_backward(self, gradient, retain_graph, create_graph, inputs)


Tensor.backward = _backward


def _overloaded(values: Iterable) -> list:
    """The arguments that take over, in torch's order: a subclass before its parent class,
    otherwise left to right, one per type."""
    found: list = []
    types: list = []
    for value in values:
        if isinstance(value, (list, tuple)):
            candidates = value
        else:
            candidates = (value,)
        for arg in candidates:
            cls = type(arg)
            if cls is Tensor or cls in types or not _class_dispatches(cls):
                continue
            if _state.subclass_disabled and isinstance(arg, Tensor):
                continue
            index = len(found)
            for i, earlier in enumerate(types):
                if issubclass(cls, earlier):
                    index = i
                    break
            types.insert(index, cls)
            found.insert(index, arg)
    return found


def has_torch_function(relevant_args: Iterable) -> bool:
    """Whether any of ``relevant_args`` (or an active mode) takes over a call."""
    if _state.all_disabled:
        return False
    found = bool(_state.modes) or bool(_overloaded(relevant_args))
    return found and not _skipped_hop()


def _skipped_hop() -> bool:
    """Whether redispatch_function asked to skip this offer (it is skipped once)."""
    if _state.skip_one_hop:
        _state.skip_one_hop = False
        return True
    return False


def redispatch_function(func: Callable, types, args=(), kwargs=None):
    """Call ``func`` skipping one level of ``__torch_function__`` dispatch: what a handler
    calls to run the function it was offered while the calls inside it are offered again.

    The first offer ``func``'s call makes (a ``has_torch_function`` check, or an op run) is
    not made. numtorch's own functions stand for torch's built-in ops, whose one level is
    the whole call: they run with no dispatch, and give plain tensors.

    Example:
        >>> import numtorch as torch
        >>> class Logged(torch.Tensor):
        ...     __module__ = "__main__"  # a script's class (numtorch's own never dispatch)
        ...
        ...     @classmethod
        ...     def __torch_function__(cls, func, types, args, kwargs=None):
        ...         print("calling", func.__name__)
        ...         return torch.overrides.redispatch_function(func, types, args, kwargs)
        >>> x = Logged(torch.tensor([3.0]))
        >>> y = (x * 4) + 1
        calling mul
        >>> type(y).__name__, y
        ('Tensor', tensor([13.]))
    """
    kwargs = kwargs or {}
    if (getattr(func, "__module__", None) or "").startswith("numtorch"):
        with DisableTorchFunction():
            return func(*args, **kwargs)
    previous, _state.skip_one_hop = _state.skip_one_hop, True
    try:
        return func(*args, **kwargs)
    finally:
        _state.skip_one_hop = previous


def has_torch_function_unary(inp) -> bool:
    """``has_torch_function((inp,))``."""
    return has_torch_function((inp,))


def has_torch_function_variadic(*args) -> bool:
    """``has_torch_function(args)``."""
    return has_torch_function(args)


def _function_name(func) -> str:
    name = getattr(func, "__name__", repr(func))
    return f"torch.{name}" if not name.startswith("torch.") else name


def handle_torch_function(public_api: Callable, relevant_args: Iterable, *args, **kwargs):
    """Call the ``__torch_function__`` of the innermost mode, else of each overloaded
    argument in turn, until one returns something other than ``NotImplemented``."""
    overloaded = _overloaded(relevant_args)
    types = tuple(type(a) for a in overloaded)
    if _state.modes and not _state.all_disabled:
        mode = _state.modes.pop()  # a mode is not asked about the calls it makes itself
        try:
            result = mode.__torch_function__(public_api, types, args, kwargs)
        finally:
            _state.modes.append(mode)
        if result is not NotImplemented:
            return result
    for arg in overloaded:
        result = type(arg).__torch_function__(public_api, types, args, kwargs)
        if result is not NotImplemented:
            return result
    listed = "\n".join(
        f"  - {'tensor subclass' if issubclass(t, Tensor) else 'object'} {t}" for t in types
    )
    raise TypeError(
        f"Multiple dispatch failed for '{_function_name(public_api)}'; all "
        f"__torch_function__ handlers returned NotImplemented:\n\n{listed}\n"
    )


def _spec_of(function):
    while hasattr(function, "__wrapped__"):
        function = function.__wrapped__
    return getattr(function, "__globals__", {}).get("spec")


@functools.cache
def _published(spec):
    """The function handlers see for ``spec``: ``numtorch.<name>`` (or the Tensor method)
    when that runs exactly this op, else a function named after torch's op that runs it
    (a private overload such as ``sum`` of all elements)."""
    for name in [*spec.public_names, spec.name, spec.aten]:
        for owner in (Tensor, numtorch):  # calls that reach an op's spec are mostly methods
            function = getattr(owner, name, None)
            if function is not None and _spec_of(function) is spec:
                return function

    def op(*args, **kwargs):
        return spec.run(spec.bind(args, kwargs) if kwargs else args)

    op.__name__ = op.__qualname__ = spec.public_names[0] if spec.public_names else spec.aten
    return op


_PLAIN = frozenset({int, float, bool, complex, str, type(None)})


def _dispatch(op, args, kwargs=None):
    """Offer one call to modes and overloaded arguments (Note [Torch function dispatch]):
    ``op`` is an op's spec (its runner's arguments) or an in-place method."""
    if not _state.modes and not kwargs:
        for arg in args:  # most calls: plain tensors and numbers only, nothing to ask
            if arg.__class__ is not Tensor and arg.__class__ not in _PLAIN:
                break
        else:
            return NotImplemented
    if _state.all_disabled or current_run():
        # torch's engine runs backward formulas without asking (hooks included)
        return NotImplemented
    if not _state.modes and not _overloaded([*args, *(kwargs or {}).values()]):
        return NotImplemented
    if _state.skip_one_hop and _skipped_hop():
        return NotImplemented
    func = _published(op) if hasattr(op, "public_names") else op
    # a keyword argument's class is asked too (a mask given as attn_mask=...)
    relevant = [*args, *kwargs.values()] if kwargs else args
    return handle_torch_function(func, relevant, *args, **(kwargs or {}))


def _dispatch_objects(public_api, args, kwargs):
    """An op refused a non-tensor argument: let one that defines ``__torch_function__``
    take the call over (torch checks before running; the result is the same)."""
    if _state.all_disabled:
        return NotImplemented
    relevant = [*args, *kwargs.values()]
    if not any(not isinstance(a, Tensor) and _class_dispatches(type(a)) for a in relevant):
        return NotImplemented
    return handle_torch_function(public_api, relevant, *args, **kwargs)


dispatch.torch_function_objects = _dispatch_objects


class TorchFunctionMode:
    """Sees every op run in its ``with`` block: override ``__torch_function__(self, func,
    types, args=(), kwargs=None)`` and call ``func(*args, **kwargs)`` to run the op."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        raise NotImplementedError

    def __enter__(self):
        _install()
        _state.modes.append(self)
        return self

    def __exit__(self, *exc):
        _state.modes.remove(self)

    @classmethod
    def push(cls, *args, **kwargs):
        return cls(*args, **kwargs)


class BaseTorchFunctionMode(TorchFunctionMode):
    """A mode that runs every function as given: a base for modes that only look."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


def _get_current_function_mode():
    return _state.modes[-1] if _state.modes else None


def _get_current_function_mode_stack() -> list:
    return list(_state.modes)


def _is_torch_function_mode_enabled() -> bool:
    return bool(_state.modes)


def _is_torch_function_enabled() -> bool:
    return not _state.all_disabled


def _public_callables(owner) -> dict:
    names = (n for n in dir(owner) if not n.startswith("_"))
    found = {n: getattr(owner, n, None) for n in names}
    return {n: f for n, f in found.items() if callable(f) and not isinstance(f, type)}


# the code of every public function ops/boundary.py publishes: they all dispatch
_PUBLIC_CODE = publish("probe", lambda: None).__code__


def _runs_an_op(function) -> bool:
    if getattr(function, "__code__", None) is _PUBLIC_CODE:
        return True
    spec = _spec_of(function)
    return spec is not None and _ops.REGISTRY.get(spec.name) is spec


def get_ignored_functions() -> set:
    """The functions of ``torch`` that ``__torch_function__`` never sees: factories, queries
    and functions composed in Python rather than registry ops."""
    found = [*_public_callables(numtorch).values(), *_public_callables(Tensor).values()]
    return {f for f in found if not _runs_an_op(f)}


def get_overridable_functions() -> dict:
    """``{namespace: [functions]}`` of the functions that dispatch (numtorch's registry ops)."""
    result: dict = collections.defaultdict(list)
    for owner in (numtorch, Tensor):
        result[owner] = [f for f in _public_callables(owner).values() if _runs_an_op(f)]
    return result


def _dummy(function):
    def dummy(*args, **kwargs):
        return -1

    with contextlib.suppress(TypeError, ValueError):  # none to copy: the dummy takes anything
        dummy.__signature__ = inspect.signature(function)
    return dummy


def get_testing_overrides() -> dict:
    """``{function: dummy}`` for every overridable function: each dummy has the function's
    signature and returns -1, for testing the coverage of a ``__torch_function__`` type.

    torch's table is written by hand and some of its dummies' signatures differ from the
    functions' own (``torch.add``'s lacks ``alpha``); these copy numtorch's signatures."""
    overridable = get_overridable_functions()
    return {f: _dummy(f) for functions in overridable.values() for f in functions}


def is_tensor_method_or_property(func: Callable) -> bool:
    """Whether ``func`` is a method or property of Tensor (as opposed to a torch function)."""
    return func is getattr(Tensor, getattr(func, "__name__", ""), None)


def resolve_name(f) -> str | None:
    """``"torch.add"`` for ``numtorch.add``, ``"torch.Tensor.add"`` for a method."""
    name = getattr(f, "__name__", None)
    if name is None:
        return None
    if is_tensor_method_or_property(f):
        return f"torch.Tensor.{name}"
    return f"torch.{name}"


def wrap_torch_function(dispatcher: Callable):
    """Decorate a function so arguments that ``dispatcher(*args, **kwargs)`` returns can take
    it over through ``__torch_function__``."""

    def decorate(func):
        @functools.wraps(func)
        def wrapped(*args, **kwargs):
            relevant = dispatcher(*args, **kwargs)
            if has_torch_function(relevant):
                return handle_torch_function(wrapped, relevant, *args, **kwargs)
            return func(*args, **kwargs)

        return wrapped

    return decorate


@contextlib.contextmanager
def enable_reentrant_dispatch():
    yield
