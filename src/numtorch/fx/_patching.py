"""Swapping functions for recording versions during a trace, and putting them back.

Note [Recording torch functions]
torch's tracer records ``torch.relu(proxy)`` through ``Proxy.__torch_function__``. numtorch's
functions check their arguments before anything else, so instead, for the time of a trace,
the public functions of ``torch``, ``torch.nn.functional``, ``torch.linalg``,
``torch.special`` and ``torch.fft`` (and the same objects bound in the traced function's
globals) are replaced by wrappers that record a ``call_function`` node with the original
function as target whenever an argument is a Proxy, and call the original otherwise.
Proxies also live outside traces (``torch.fx.Proxy(node)`` in graph surgery, a
Transformer's), and torch records functions called on them there too: the wrappers stay in
place while any Proxy is alive, while a Transformer runs and inside
``graph.inserting_before``/``inserting_after`` blocks (``_Recording`` counts the holders).
A wrapper compares and hashes equal to its function (``target == torch.sigmoid`` holds
meanwhile) but is not the same object, and costs a scan of the call's arguments; once
nothing holds them the functions are the plain ones again.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import inspect
import weakref

import numtorch

from ._functional_calls import FUNCTIONAL_CALLS
from ._torch_names import _index

_RECORDED_NAMESPACES = (
    "numtorch",
    "numtorch.nn.functional",
    "numtorch.linalg",
    "numtorch.special",
    "numtorch.fft",
)

# functions torch runs without asking __torch_function__: a Proxy argument is not recorded
_NOT_RECORDED = frozenset(
    {
        "is_tensor",
        "is_storage",
        "is_grad_enabled",
        "is_inference_mode_enabled",
        "get_default_dtype",
        "set_default_dtype",
        "manual_seed",
        "seed",
        "initial_seed",
        "typename",
        "set_printoptions",
        "get_rng_state",
        "set_rng_state",
        "promote_types",
        "set_grad_enabled",
        "no_grad",
        "enable_grad",
        "inference_mode",
        "compile",
        "vmap",
        # factories from sizes: torch's refuse a Proxy for a size
        "zeros",
        "ones",
        "empty",
        "full",
        "rand",
        "randn",
        "randint",
        "randperm",
        "arange",
        "range",
        "eye",
        "linspace",
        "logspace",
        "empty_strided",
        "scalar_tensor",
        "tensor",
    }
)


def find_proxy(args, kwargs):
    """The first Proxy in ``args`` or ``kwargs`` (looking into containers), or None."""
    from .proxy import Proxy  # proxy.py imports this module: load it late

    # iterative, so that no closure cycle keeps a found Proxy (and the wrappers) alive
    pending = [kwargs, args]
    while pending:
        a = pending.pop()
        if isinstance(a, Proxy):
            return a
        if isinstance(a, (tuple, list)):
            pending.extend(reversed(a))
        elif isinstance(a, dict):
            pending.extend(reversed(list(a.values())))
        elif isinstance(a, slice):
            pending.extend((a.step, a.stop, a.start))
    return None


class RecordingFunction:
    """Stands in for a function during a trace (Note [Recording torch functions]): equal to
    it, with its name, and calling it unless an argument is a Proxy."""

    def __init__(self, fn, call) -> None:
        functools.update_wrapper(self, fn)
        self.__fx_original__ = fn
        self._call = call

    def __call__(self, *args, **kwargs):
        return self._call(*args, **kwargs)

    def __eq__(self, other) -> bool:
        return other is self or other is self.__fx_original__

    def __hash__(self) -> int:
        return hash(self.__fx_original__)

    def __repr__(self) -> str:
        return repr(self.__fx_original__)


def recording(fn, *, wrapped: bool = False) -> RecordingFunction:
    """``fn``, recording a call_function node when given a Proxy (marked as a ``wrap``ped
    function if ``wrapped``)."""

    def record_or_call(*args, **kwargs):
        proxy = find_proxy(args, kwargs)
        if proxy is None:
            return fn(*args, **kwargs)
        result = proxy.tracer.create_proxy("call_function", fn, args, kwargs)
        if wrapped:
            result.node.meta["is_wrapped"] = True
        return result

    return RecordingFunction(fn, record_or_call)


def recording_functional(fn, name: str) -> RecordingFunction:
    """``fn`` of ``torch.nn.functional``, recorded as torch records it (Note [Recording
    torch functions]; the table in _functional_calls.py)."""
    entry = FUNCTIONAL_CALLS.get(name)
    if entry is None or isinstance(entry, str) and not entry.startswith("."):
        return recording(fn)
    if isinstance(entry, str):
        method = entry[1:]

        def record_method(input, *args, **kwargs):
            proxy = find_proxy((input, args), kwargs)
            if proxy is None:
                return fn(input, *args, **kwargs)
            return proxy.tracer.create_proxy("call_method", method, (input,), {})

        return RecordingFunction(fn, record_method)

    _, params, positional, keyword, defaults = entry
    params, positional, keyword = params.split(), positional.split(), keyword.split()
    accepted = set(inspect.signature(fn).parameters)

    def record_or_call(*args, **kwargs):
        proxy = find_proxy(args, kwargs)
        if proxy is None:
            return fn(*args, **kwargs)
        if len(args) > len(params):
            raise TypeError(f"{name}() takes {len(params)} arguments but {len(args)} were given")
        bound = {**defaults, **dict(zip(params, args)), **kwargs}
        missing = [p for p in positional if p not in bound]
        if missing:
            raise TypeError(f"{name}() missing required argument: '{missing[0]}'")
        call_args = tuple(bound[p] for p in positional)
        call_kwargs = {k: bound[k] for k in keyword if k in bound and k in accepted}
        return proxy.tracer.create_proxy("call_function", fn, call_args, call_kwargs)

    return RecordingFunction(fn, record_or_call)


class Patcher:
    """Sets attributes and dict entries for the length of a ``with`` block."""

    def __init__(self) -> None:
        self._undo: list = []

    def __enter__(self) -> Patcher:
        return self

    def __exit__(self, *exc) -> None:
        while self._undo:
            self._undo.pop()()

    def patch_attr(self, owner, name: str, value) -> None:
        missing = object()
        old = (
            owner.__dict__.get(name, missing)
            if isinstance(owner, type)
            else getattr(owner, name, missing)
        )
        setattr(owner, name, value)
        if old is missing:
            self._undo.append(lambda: delattr(owner, name))
        else:
            self._undo.append(lambda: setattr(owner, name, old))

    def patch_dict(self, d: dict, name: str, value) -> None:
        missing = object()
        old = d.get(name, missing)
        d[name] = value
        if old is missing:
            self._undo.append(lambda: d.pop(name, None))
        else:
            self._undo.append(lambda: d.__setitem__(name, old))

    def patch_tensor_methods(self) -> None:
        """A real tensor's method or operator given a Proxy records a call_method node, as
        ``Tensor.__torch_function__`` makes torch's tracer do."""
        tensor = numtorch.Tensor
        for name in dir(tensor):
            if name.startswith("_") and name not in _TENSOR_OPERATORS:
                continue
            value = inspect.getattr_static(tensor, name)
            if not callable(value) or isinstance(
                value, (type, staticmethod, classmethod, property)
            ):
                continue
            self.patch_attr(
                tensor, name, _recording_method(value, _TENSOR_OPERATORS.get(name, name))
            )

    def patch_torch_functions(self) -> dict[int, RecordingFunction]:
        """Note [Recording torch functions]; returns the wrappers by their function's id."""
        _index()  # name the originals before any is replaced
        replaced: dict[int, RecordingFunction] = {}
        for module_name in _RECORDED_NAMESPACES:
            module = importlib.import_module(module_name)
            for name, value in list(vars(module).items()):
                if (name.startswith("_") and name != "_assert") or name in _NOT_RECORDED:
                    continue
                if isinstance(value, type) or not callable(value) or not hasattr(value, "__name__"):
                    continue
                if hasattr(value, "__fx_original__") or type(value).__name__ == "module":
                    continue
                wrapper = replaced.get(id(value))
                if wrapper is None:
                    if module_name == "numtorch.nn.functional":
                        wrapper = recording_functional(value, name)
                    else:
                        wrapper = recording(value)
                    replaced[id(value)] = wrapper
                self.patch_attr(module, name, wrapper)
        return replaced

    def patch_globals(self, fn_globals: dict) -> None:
        """The recording wrappers also for torch functions bound to names of ``fn_globals``
        (``from torch import relu``)."""
        for name, value in list(fn_globals.items()):
            wrapper = _Recording.wrappers.get(id(value))
            if wrapper is not None and wrapper.__fx_original__ is value:
                self.patch_dict(fn_globals, name, wrapper)


# a tensor's operator given a Proxy is recorded as torch records it: the method it runs
_TENSOR_OPERATORS = {
    "__add__": "add",
    "__sub__": "sub",
    "__mul__": "mul",
    "__truediv__": "div",
    "__matmul__": "matmul",
    "__pow__": "pow",
    "__mod__": "remainder",
    "__eq__": "eq",
    "__ne__": "ne",
    "__lt__": "lt",
    "__le__": "le",
    "__gt__": "gt",
    "__ge__": "ge",
    "__floordiv__": "__floordiv__",
    "__and__": "__and__",
    "__or__": "__or__",
    "__xor__": "__xor__",
    "__lshift__": "__lshift__",
    "__rshift__": "__rshift__",
}


def _recording_method(fn, method: str):
    @functools.wraps(fn)
    def record_or_call(self, *args, **kwargs):
        proxy = find_proxy(args, kwargs)
        if proxy is None:
            return fn(self, *args, **kwargs)
        return proxy.tracer.create_proxy("call_method", method, (self, *args), kwargs)

    return record_or_call


class _Recording:
    """The wrappers of Note [Recording torch functions], in place while anything holds them:
    a trace, a Transformer's run, an inserting_before/after block, or a live Proxy."""

    holders = 0
    tracing = 0  # traces running: they hold the wrappers for their Proxies
    patcher: Patcher | None = None
    wrappers: dict[int, RecordingFunction] = {}


def acquire() -> None:
    if _Recording.holders == 0:
        patcher = Patcher()
        _Recording.wrappers = patcher.patch_torch_functions()
        _Recording.patcher = patcher
    _Recording.holders += 1


def release() -> None:
    _Recording.holders -= 1
    if _Recording.holders == 0 and _Recording.patcher is not None:
        patcher, _Recording.patcher = _Recording.patcher, None
        _Recording.wrappers = {}
        patcher.__exit__(None, None, None)


def hold_while_alive(obj) -> None:
    """Keeps the wrappers in place while ``obj`` (a Proxy made outside a trace) lives."""
    if _Recording.tracing:
        return
    acquire()
    weakref.finalize(obj, release).atexit = False


@contextlib.contextmanager
def tracing():
    """A trace: the wrappers in place, its own Proxies not holding them past its end."""
    acquire()
    _Recording.tracing += 1
    try:
        yield
    finally:
        _Recording.tracing -= 1
        release()


@contextlib.contextmanager
def recording_torch_functions():
    """Note [Recording torch functions], for the ``with`` block."""
    acquire()
    try:
        yield
    finally:
        release()
