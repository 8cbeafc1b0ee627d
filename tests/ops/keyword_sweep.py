"""The calls behind test_keyword_sweep.py: every op sample of the table run under torch with
a recording mode, each top-level call it makes replayed by keyword, with ``out=`` and in its
other form (function or method), in both libraries.

``python tests/ops/keyword_sweep.py`` prints today's differences, one line each.
"""

from __future__ import annotations

import functools
import inspect
import warnings
import zlib

import numpy as np
import torch
from torch.overrides import TorchFunctionMode

import numtorch
from numtorch.testing.opinfo import OP_DB

# torch's namespaces, searched in this order for a recorded function's public name
_NAMESPACES = (
    "torch",
    "torch.nn.functional",
    "torch.linalg",
    "torch.special",
    "torch.fft",
)
_MODULES = {
    "torch": torch,
    "torch.nn.functional": torch.nn.functional,
    "torch.linalg": torch.linalg,
    "torch.special": torch.special,
    "torch.fft": torch.fft,
}
_PUBLIC: dict = {}  # id(torch function) -> (namespace, name)
for _namespace in reversed(_NAMESPACES):
    _module = _MODULES[_namespace]
    for _name in dir(_module):
        if not _name.startswith("__"):
            _PUBLIC[id(getattr(_module, _name))] = (_namespace, _name)


class _Recorder(TorchFunctionMode):
    """Keeps the calls the op sample makes itself (a mode sees only the outermost ones),
    with their tensors as they were before the call."""

    def __init__(self):
        super().__init__()
        self.calls = []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if _convertible((args, kwargs)):
            self.calls.append((func, _frozen(args), _frozen(kwargs)))
        return func(*args, **kwargs)


class _Frozen:
    """A tensor argument as it was: its values, whether it required grad, was a leaf."""

    def __init__(self, tensor):
        self.data = tensor.detach().clone()
        self.requires_grad = tensor.requires_grad
        self.leaf = tensor.grad_fn is None


def _frozen(value):
    if isinstance(value, torch.Tensor):
        return _Frozen(value)
    if isinstance(value, (list, tuple)) and not isinstance(value, torch.Size):
        return type(value)(_frozen(v) for v in value)
    if isinstance(value, dict):
        return {k: _frozen(v) for k, v in value.items()}
    return value


class Call:
    """One recorded call: torch's function or method, and numtorch's under the same name."""

    def __init__(self, func, args, kwargs):
        self.args = args
        self.kwargs = kwargs
        self.method = _method_name(func)
        if self.method is not None:
            self.name = self.method
            self.torch = getattr(torch.Tensor, self.method)
            self.ours = getattr(numtorch.Tensor, self.method, None)
            self.namespace = "Tensor"
        else:
            self.namespace, self.name = _PUBLIC.get(id(func), (None, None))
            self.torch = func
            self.ours = None
            if self.namespace is not None:
                module = _ours_module(self.namespace)
                self.ours = getattr(module, self.name, None)

    @property
    def label(self) -> str:
        return f"{self.namespace}.{self.name}"

    def arguments(self, lib, grad=True):
        """Fresh copies of the arguments as ``lib`` tensors (without grad: detached)."""
        return _thaw(self.args, lib, grad), _thaw(self.kwargs, lib, grad)


def _thaw(value, lib, grad):
    if isinstance(value, _Frozen):
        tensor = value.data.clone() if lib is torch else to_ours(value.data)
        if grad and value.requires_grad:
            tensor.requires_grad_(True)
            if not value.leaf:
                tensor = tensor.clone()
        return tensor
    if isinstance(value, (list, tuple)) and not isinstance(value, torch.Size):
        return type(value)(_thaw(v, lib, grad) for v in value)
    if isinstance(value, dict):
        return {k: _thaw(v, lib, grad) for k, v in value.items()}
    if lib is numtorch:
        return to_ours(value)
    return value


def _ours_module(namespace):
    module = numtorch
    for part in namespace.split(".")[1:]:
        module = getattr(module, part)
    return module


def _method_name(func):
    name = getattr(func, "__name__", None)
    if name is None or name.startswith("_"):
        return None
    if getattr(torch.Tensor, name, None) is func:
        return name
    if getattr(func, "__objclass__", None) is torch._C.TensorBase:
        return name
    return None


def _seed(name) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(name.encode()))


def _torch_arg(value):
    if isinstance(value, np.ndarray) and value.dtype.kind == "f":
        return torch.tensor(value, dtype=torch.float64).requires_grad_(True)
    return value


def recorded_calls() -> list:
    """The public top-level calls the op samples make under torch, the first of each
    function or method with each number of positional arguments and set of keywords."""
    calls, seen = [], set()
    for info in OP_DB:
        for sample in info.samples(_seed(info.name)):
            args = [_torch_arg(a) for a in sample.args]
            recorder = _Recorder()
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    torch.default_generator.manual_seed(0)
                    with recorder:
                        info.op(torch, *args, **sample.kwargs)
            except Exception:
                pass
            for func, call_args, call_kwargs in recorder.calls:
                call = Call(func, call_args, call_kwargs)
                if call.name is None:
                    continue
                key = (call.label, len(call_args), tuple(sorted(call_kwargs)))
                if key not in seen:  # each overload a function is called with
                    seen.add(key)
                    calls.append(call)
    return calls


def _convertible(value) -> bool:
    if isinstance(value, torch.Tensor):
        return (
            type(value) in (torch.Tensor, torch.nn.Parameter)
            and value.layout == torch.strided
            and not value.is_nested  # torch.nested's calls: their own sample entries
        )
    if isinstance(value, (list, tuple)):
        return all(_convertible(v) for v in value)
    if isinstance(value, dict):
        return all(_convertible(v) for v in value.values())
    return (
        isinstance(
            value, (int, float, complex, bool, str, type(None), torch.dtype, torch.Size, slice)
        )
        or value is Ellipsis
    )


def to_ours(value):
    """A torch value as numtorch's (tensors by value)."""
    if isinstance(value, torch.Tensor):
        data = value.detach().resolve_conj().resolve_neg()
        if data.dtype == torch.bfloat16:
            return numtorch.tensor(data.float().numpy()).to(numtorch.bfloat16)
        return numtorch.tensor(data.numpy().copy(), dtype=getattr(numtorch, _dtype(data)))
    if isinstance(value, torch.dtype):
        return getattr(numtorch, _dtype(value))
    if isinstance(value, torch.Size):
        return numtorch.Size(value)
    if isinstance(value, tuple):
        return tuple(to_ours(v) for v in value)
    if isinstance(value, list):
        return [to_ours(v) for v in value]
    if isinstance(value, dict):
        return {k: to_ours(v) for k, v in value.items()}
    return value


def _dtype(value) -> str:
    dtype = value if isinstance(value, torch.dtype) else value.dtype
    return str(dtype).removeprefix("torch.")


# --- running and comparing -------------------------------------------------------------


@functools.cache
def _seeded_state():
    """numtorch's generator state after manual_seed(0), made once."""
    return numtorch.Generator().manual_seed(0).get_state()


class Outcome:
    """What one call did: its result or its exception type, and the warnings it gave."""

    def __init__(self, fn, args, kwargs):
        self.result = self.error = None
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            # the same draws in both (torch.manual_seed also seeds every accelerator's
            # generator, and numtorch's seeding costs more than restoring a state: slow)
            if _is_torch(fn):
                torch.default_generator.manual_seed(0)
            else:
                numtorch.set_rng_state(_seeded_state())
            try:
                self.result = fn(*args, **kwargs)
            except Exception as error:
                self.error = error
        # the warning of a resized out (deprecation warnings are torch's once per process)
        self.warnings = [str(w.message) for w in caught if "was resized" in str(w.message)]


def _is_torch(fn) -> bool:
    module = getattr(fn, "__module__", None) or ""
    if module.startswith("numtorch"):
        return False
    owner = getattr(fn, "__objclass__", None)
    return module.startswith("torch") or owner is torch._C.TensorBase or "torch" in repr(fn)


def describe(value) -> object:
    """A result as comparable plain data: values, dtypes and shapes."""
    if isinstance(value, (torch.Tensor, numtorch.Tensor)):
        if str(value.layout).rpartition(".")[2] != "strided":
            return ("tensor", str(value.layout), tuple(value.shape), describe(value.to_dense())[3])
        if isinstance(value, torch.Tensor):
            data = value.detach().resolve_conj().resolve_neg()
            if data.dtype == torch.bfloat16:
                data = data.float()
            array = data.numpy()
        else:
            data = value.detach()
            if data.dtype == numtorch.bfloat16:
                data = data.float()
            array = data.numpy()
        return ("tensor", _dtype_name(value), tuple(value.shape), array)
    if isinstance(value, (tuple, list)):
        return (type(value).__name__ == "list", tuple(describe(v) for v in value))
    if isinstance(value, (torch.dtype, numtorch.dtype)):
        return str(value)
    return value


def _dtype_name(value) -> str:
    return str(value.dtype).removeprefix("torch.").removeprefix("numtorch.")


def difference(ours: Outcome, theirs: Outcome) -> str | None:
    """Why two outcomes disagree, or None."""
    if theirs.error is not None or ours.error is not None:
        if theirs.error is None:
            return f"numtorch raised {type(ours.error).__name__}: {ours.error}"[:300]
        if ours.error is None:
            return f"torch raised {type(theirs.error).__name__}: {theirs.error}"[:300]
        if not _same_error_type(ours.error, theirs.error):
            return (
                f"numtorch raised {type(ours.error).__name__}: {ours.error}; "
                f"torch {type(theirs.error).__name__}: {theirs.error}"
            )[:300]
        return None
    return _compare(describe(ours.result), describe(theirs.result))


def _same_error_type(ours, theirs) -> bool:
    # torch's errors are Python's builtin types or subclasses of them (torch's
    # NotImplementedError subclass of RuntimeError, LinAlgError of RuntimeError)
    for kind in (TypeError, IndexError, ValueError, NotImplementedError, RuntimeError):
        if isinstance(theirs, kind):
            return isinstance(ours, kind)
    return type(ours).__name__ == type(theirs).__name__


def _compare(ours, theirs) -> str | None:
    if isinstance(theirs, tuple) and theirs and theirs[0] == "tensor":
        if not (isinstance(ours, tuple) and ours and ours[0] == "tensor"):
            return f"result {type(ours).__name__}, torch a tensor"
        if ours[1] != theirs[1]:
            return f"dtype {ours[1]}, torch {theirs[1]}"
        if ours[2] != theirs[2]:
            return f"shape {ours[2]}, torch {theirs[2]}"
        if not np.allclose(ours[3], theirs[3], rtol=1e-6, atol=1e-8, equal_nan=True):
            return "values differ"
        return None
    if isinstance(theirs, tuple) and len(theirs) == 2 and isinstance(theirs[1], tuple):
        if not (isinstance(ours, tuple) and len(ours) == 2 and isinstance(ours[1], tuple)):
            return f"result {ours!r:.60}, torch a sequence"
        if len(ours[1]) != len(theirs[1]):
            return f"{len(ours[1])} results, torch {len(theirs[1])}"
        for a, b in zip(ours[1], theirs[1]):
            why = _compare(a, b)
            if why:
                return why
        return None
    if isinstance(theirs, float) and isinstance(ours, float):
        return None if np.isclose(ours, theirs, equal_nan=True) else "values differ"
    return None if ours == theirs else f"result {ours!r:.60}, torch {theirs!r:.60}"


# --- keyword names ---------------------------------------------------------------------


def keyword_forms(call: Call) -> list:
    """The call's positional arguments after ``self`` given by name, one list of names per
    naming torch might take (its schemas for built-in functions, the signature for those
    written in Python)."""
    leading = 1 if call.method is not None else 0
    count = len(call.args) - leading
    if count <= 0:
        return []
    fn = call.torch
    if hasattr(fn, "__code__"):
        params = list(inspect.signature(fn).parameters.values())
        kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
        if len(params) < len(call.args) or any(p.kind not in kinds for p in params[: count + 1]):
            return []
        return [[p.name for p in params[leading : leading + count]]]
    forms = []
    for schema in torch._C._jit_get_schemas_for_operator("aten::" + call.name):
        names = [a.name for a in schema.arguments if not a.kwarg_only]
        if call.method is not None:
            if not names or names[0] != "self":
                continue
            names = names[1:]
        else:
            names = ["input" if n == "self" else n for n in names]
        if len(names) >= count and names[:count] not in forms:
            forms.append(names[:count])
    return forms


def _by_name(call, lib, names):
    args, kwargs = call.arguments(lib)
    leading = 1 if call.method is not None else 0
    return args[:leading], {**dict(zip(names, args[leading:])), **kwargs}


def keyword_differences(calls) -> dict:
    """label -> why, for calls whose keyword form torch takes and numtorch answers otherwise."""
    found = {}
    for call in calls:
        if call.ours is None or call.label in found:
            continue
        positional = Outcome(call.torch, *call.arguments(torch))
        for names in keyword_forms(call):
            theirs = Outcome(call.torch, *_by_name(call, torch, names))
            if isinstance(theirs.error, TypeError) and not isinstance(positional.error, TypeError):
                continue  # torch does not take these names
            ours = Outcome(call.ours, *_by_name(call, numtorch, names))
            why = difference(ours, theirs)
            if why is not None:
                found[call.label] = f"{names}: {why}"
            break
    return found


# --- out= ------------------------------------------------------------------------------


def _zeros_like(value, lib, shape=None, dtype=None):
    if isinstance(value, (tuple, list)):
        return tuple(_zeros_like(v, lib, shape, dtype) for v in value)
    return lib.zeros(value.shape if shape is None else shape, dtype=dtype or value.dtype)


def _all_tensors(value) -> bool:
    if isinstance(value, (tuple, list)):
        return bool(value) and all(_all_tensors(v) for v in value)
    return isinstance(value, torch.Tensor)


# the out= cases: (shape, dtype) of out, None for the result's
_OUT_CASES = {
    "right": (None, None),
    "empty": ((0,), None),
    "wrong shape": ((7,), None),
    "int64": (None, torch.int64),
    "float32": (None, torch.float32),
    "complex128": (None, torch.complex128),
    "bool": (None, torch.bool),
}


def out_differences(calls) -> dict:
    """label -> why, for functions taking ``out=`` in torch: a right, an empty, a wrongly
    shaped and a wrongly typed ``out``, and one with inputs that require grad."""
    found = {}
    for call in calls:
        if call.method is not None or call.ours is None or call.label in found:
            continue
        plain = Outcome(call.torch, *call.arguments(torch, grad=False))
        if plain.error is not None or not _all_tensors(plain.result):
            continue
        args, kwargs = call.arguments(torch, grad=False)
        probe = Outcome(call.torch, args, {**kwargs, "out": _zeros_like(plain.result, torch)})
        if isinstance(probe.error, TypeError):
            continue  # torch takes no out= here
        for case, (shape, dtype) in _OUT_CASES.items():
            why = _out_case(call, plain.result, shape, dtype)
            if why:
                found[call.label] = f"out {case}: {why}"
                break
        else:
            why = _out_grad(call, plain.result)
            if why:
                found[call.label] = f"out with requires_grad: {why}"
    return found


def _out_case(call, result, shape, dtype):
    their_out = _zeros_like(result, torch, shape, dtype)
    our_out = _zeros_like(to_ours(result), numtorch, shape, dtype and to_ours(dtype))
    args, kwargs = call.arguments(torch, grad=False)
    theirs = Outcome(call.torch, args, {**kwargs, "out": their_out})
    args, kwargs = call.arguments(numtorch, grad=False)
    ours = Outcome(call.ours, args, {**kwargs, "out": our_out})
    why = difference(ours, theirs)
    if why or theirs.error is not None:
        return why
    if _same_objects(theirs.result, their_out) and not _same_objects(ours.result, our_out):
        return "the result is not the out tensor"
    if bool(ours.warnings) != bool(theirs.warnings):
        return f"warnings {ours.warnings}, torch {theirs.warnings}"[:300]
    return _compare(describe(our_out), describe(their_out))


def _same_objects(result, out) -> bool:
    if isinstance(out, tuple):
        return isinstance(result, (tuple, list)) and all(a is b for a, b in zip(result, out))
    return result is out


def _out_grad(call, result):
    args, kwargs = call.arguments(torch)
    if not any(isinstance(a, torch.Tensor) and a.requires_grad for a in args):
        return None
    theirs = Outcome(call.torch, args, {**kwargs, "out": _zeros_like(result, torch)})
    args, kwargs = call.arguments(numtorch)
    our_out = _zeros_like(to_ours(result), numtorch)
    ours = Outcome(call.ours, args, {**kwargs, "out": our_out})
    why = difference(ours, theirs)
    refusal = "automatic differentiation"
    if (
        why is None
        and theirs.error is not None
        and ((refusal in str(theirs.error)) != (refusal in str(ours.error)))
    ):
        return f"numtorch: {ours.error}; torch: {theirs.error}"[:300]
    return why


# --- function and method forms ---------------------------------------------------------


def _forms(lib, name) -> tuple:
    return (
        callable(getattr(lib, name, None)),
        callable(getattr(lib.Tensor, name, None)),
        callable(getattr(lib.Tensor, name + "_", None)),
    )


def form_differences() -> dict:
    """name -> why, for torch's names that are both a function and a Tensor method, where
    numtorch has some of the forms but not the same set."""
    found = {}
    for name in dir(torch.Tensor):
        if name.startswith("_") or not callable(getattr(torch, name, None)):
            continue
        theirs, ours = _forms(torch, name), _forms(numtorch, name)
        if any(ours) and ours != theirs:
            kinds = ("torch.{}", "Tensor.{}", "Tensor.{}_")
            missing = [k.format(name) for k, a, b in zip(kinds, ours, theirs) if b and not a]
            extra = [k.format(name) for k, a, b in zip(kinds, ours, theirs) if a and not b]
            found[name] = f"missing {missing}, beyond torch {extra}"
    return found


def other_form_differences(calls) -> dict:
    """label -> why, for calls of a name that is both a function and a method, where the
    function, the method, or the in-place method on a copy answers otherwise than torch's."""
    found = {}
    for call in calls:
        name = call.name
        if call.namespace not in ("torch", "Tensor") or call.label in found:
            continue
        if not call.args or not isinstance(call.args[0], _Frozen):
            continue
        if not (callable(getattr(torch, name, None)) and hasattr(torch.Tensor, name)):
            continue
        forms = [
            ("function", getattr(torch, name), getattr(numtorch, name, None)),
            ("method", getattr(torch.Tensor, name), getattr(numtorch.Tensor, name, None)),
            ("in place", getattr(torch.Tensor, name + "_", None),
             getattr(numtorch.Tensor, name + "_", None)),
        ]  # fmt: skip
        for form, their_fn, our_fn in forms:
            if their_fn is None or our_fn is None:
                continue
            their_args, their_kwargs = call.arguments(torch, grad=False)
            our_args, our_kwargs = call.arguments(numtorch, grad=False)
            theirs = Outcome(their_fn, their_args, their_kwargs)
            ours = Outcome(our_fn, our_args, our_kwargs)
            if isinstance(theirs.error, TypeError):
                continue  # this form takes other arguments (x.permute(1, 0), polygamma(n, x))
            why = difference(ours, theirs)
            if why is None and form == "in place" and theirs.error is None:
                if ours.result is not our_args[0]:
                    why = "the result is not self"
                else:
                    why = _compare(describe(our_args[0]), describe(their_args[0]))
            if why:
                found[call.label] = f"{form}: {why}"
                break
    return found


if __name__ == "__main__":
    import time

    start = time.perf_counter()
    all_calls = recorded_calls()
    print(f"{len(all_calls)} calls recorded in {time.perf_counter() - start:.1f} s")
    for title, finder in (
        ("keywords", lambda: keyword_differences(all_calls)),
        ("out=", lambda: out_differences(all_calls)),
        ("forms", form_differences),
        ("other forms", lambda: other_form_differences(all_calls)),
    ):
        table = finder()
        print(f"== {title}: {len(table)}  ({time.perf_counter() - start:.1f} s)")
        for label, why in sorted(table.items()):
            print(f"{label}: {why}")
