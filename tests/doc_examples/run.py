"""One docstring example run under a library, and the two runs compared.

An example's statements run in order in a fresh namespace (``torch``, ``nn``, ``F``, ``np``
bound to the library; ``import torch...`` inside the example imports the library's module of
that name), after ``manual_seed(0)``. Each statement leaves an outcome: the value of an
expression statement (what the doctest would print), what it printed, or the type of the
exception it raised. torch's run decides what is compared: statements marked
``# doctest: +SKIP`` run in neither, and the example stops before the first statement that
raises under torch where the docstring shows no traceback (an undefined name, CUDA, a file):
an example stopped at its first statement is skipped, with torch's exception as the reason.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import importlib
import io
import os
import re
import signal
import tempfile
import warnings
from dataclasses import dataclass, field

import numpy as np

from doc_examples.extract import resolve

TIME_LIMIT = 20.0  # seconds per statement


class StatementTimeout(BaseException):
    """A statement ran past TIME_LIMIT (a BaseException, so no example catches it)."""


@dataclass
class Outcome:
    kind: str  # "value", "none" (a statement, or an expression giving None), "raised"
    value: object = None  # the summary of the value, or (exception type, message)
    printed: str = ""


@dataclass
class Run:
    outcomes: list = field(default_factory=list)
    stopped: tuple | None = None  # (statement index, exception type, message) torch stopped at


def _importer(lib_name):
    real_import = builtins.__import__

    def _import(name, globals=None, locals=None, fromlist=(), level=0):
        if lib_name != "torch" and level == 0 and (name == "torch" or name.startswith("torch.")):
            name = lib_name + name[len("torch") :]
        return real_import(name, globals, locals, fromlist, level)

    return _import


_STANDARD_MODULES = (
    "collections",
    "copy",
    "functools",
    "io",
    "itertools",
    "math",
    "os",
    "tempfile",
)


def _namespace_names(lib, namespace):
    """The public names of the namespace an example was found in (``Bernoulli`` in
    ``torch.distributions``' examples), and the namespace itself under its last name
    (``prune``), as a doctest run in that module would see them; none for torch itself."""
    if namespace in ("torch", "torch.Tensor"):
        return {}
    try:
        module = resolve(lib.__name__ + namespace[len("torch") :])
    except (ImportError, AttributeError):  # the library lacks the namespace
        return {}
    names = {namespace.rsplit(".", 1)[-1]: module}
    for name in dir(module):
        if not name.startswith("_"):
            with contextlib.suppress(Exception):
                names[name] = getattr(module, name)
    return names


def _scope(lib, namespace="torch"):
    scope_builtins = dict(vars(builtins))
    scope_builtins["__import__"] = _importer(lib.__name__)
    return {
        **_namespace_names(lib, namespace),
        "__builtins__": scope_builtins,
        "__name__": "__doc_example__",
        "torch": lib,
        "nn": importlib.import_module(f"{lib.__name__}.nn"),
        "F": importlib.import_module(f"{lib.__name__}.nn.functional"),
        "np": np,
        "numpy": np,
        # standard modules torch's own modules import, which their examples use unimported
        **{name: importlib.import_module(name) for name in _STANDARD_MODULES},
    }


def _reset(lib):
    # an example may leave process-wide modes changed: undo that for the next one
    lib.set_grad_enabled(True)
    lib.autograd.set_detect_anomaly(False)
    lib.set_default_dtype(lib.float32)
    lib.set_printoptions(profile="default")
    for reset in (
        lambda: lib.use_deterministic_algorithms(False),
        lambda: lib.set_default_device(None),  # an example may set "cuda"
        lambda: lib.set_flush_denormal(False),  # process-wide: other tests read denormals
    ):
        with contextlib.suppress(Exception):
            reset()


@contextlib.contextmanager
def _inside(folder):  # contextlib.chdir, which Python 3.10 lacks
    previous = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(previous)


def _alarm(signum, frame):
    raise StatementTimeout


def _run_statement(source, scope):
    tree = ast.parse(source)
    if len(tree.body) == 1 and isinstance(tree.body[0], ast.Expr):
        return eval(compile(ast.Expression(tree.body[0].value), "<example>", "eval"), scope)
    exec(compile(tree, "<example>", "exec"), scope)
    return None


def run(lib, example, seed=0, upto=None):
    """The outcomes of an example's statements under ``lib`` (all, or the first ``upto``)."""
    result = Run()
    scope = _scope(lib, example.namespace)
    statements = example.statements if upto is None else example.statements[:upto]
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        # examples save files (torch.save(x, "tensor.pt")): they land in a scratch folder
        with (
            warnings.catch_warnings(),
            tempfile.TemporaryDirectory() as scratch,
            _inside(scratch),
        ):
            warnings.simplefilter("ignore")
            lib.manual_seed(seed)
            for index, statement in enumerate(statements):
                if statement.skip:
                    result.outcomes.append(Outcome("skipped"))
                    continue
                printed = io.StringIO()
                signal.setitimer(signal.ITIMER_REAL, TIME_LIMIT)
                try:
                    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
                        value = _run_statement(statement.source, scope)
                        # reading the value (its device, its values) may raise too
                        outcome = (
                            Outcome("none")
                            if value is None
                            else Outcome("value", summary(lib, value))
                        )
                except StatementTimeout:
                    outcome = Outcome("raised", ("StatementTimeout", "ran too long"))
                except Exception as error:
                    outcome = Outcome("raised", (type(error).__name__, str(error)[:300]))
                finally:
                    signal.setitimer(signal.ITIMER_REAL, 0)
                outcome.printed = printed.getvalue()
                result.outcomes.append(outcome)
                if outcome.kind == "raised" and (
                    not statement.expects_error or outcome.value[0] == "StatementTimeout"
                ):
                    result.stopped = (index, *outcome.value)
                    break
    finally:
        signal.signal(signal.SIGALRM, previous)
        _reset(lib)
    return result


# --- values as library-neutral summaries ---------------------------------------------------

_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def _neutral(text):
    return _ADDRESS.sub("0x?", text.replace("numtorch", "torch"))


def _tensor_values(lib, tensor):
    tensor = tensor.detach()
    if str(tensor.device) == "meta":
        return None
    with contextlib.suppress(Exception):
        if tensor.layout != lib.strided:
            tensor = tensor.to_dense()
    if str(tensor.dtype) in ("torch.bfloat16", "torch.float16"):
        tensor = tensor.float()
    try:
        return np.array(tensor.resolve_conj().numpy() if tensor.is_complex() else tensor.numpy())
    except Exception:  # quantized, nested and other tensors NumPy cannot hold
        return None


def summary(lib, value, depth=0):
    """What is compared of a value: tensors in full, containers by item, others by repr."""
    if depth > 4:
        return ("repr", type(value).__name__)
    if isinstance(value, lib.Tensor):
        node = value.grad_fn
        return (
            "tensor",
            {
                "shape": tuple(value.shape),
                "dtype": str(value.dtype),
                "requires_grad": value.requires_grad,
                "grad_fn": None if node is None else type(node).__name__,
                "values": _tensor_values(lib, value),
            },
        )
    if isinstance(value, lib.Size):
        return ("size", tuple(value))
    if isinstance(value, (bool, int, str, bytes, type(None))):
        return ("exact", value)
    if isinstance(value, (float, complex)):
        return ("number", value)
    if isinstance(value, np.ndarray):
        return ("array", value)
    if isinstance(value, np.generic):
        return ("number", value.item())
    if isinstance(value, (list, tuple)):
        return ("sequence", [summary(lib, v, depth + 1) for v in value])
    if isinstance(value, dict):
        return ("dict", {str(k): summary(lib, v, depth + 1) for k, v in value.items()})
    if isinstance(value, (lib.dtype, lib.device, lib.layout)):
        return ("exact", _neutral(str(value)))
    if isinstance(value, lib.nn.Module):
        return ("repr", _neutral(repr(value)))
    if callable(value) and not isinstance(value, type):
        return ("object", "callable")  # torch's builtins are numtorch's Python functions
    text = repr(value)
    if " object at 0x" in text or text.startswith("<"):
        return ("object", _neutral(type(value).__name__))
    return ("repr", _neutral(text))
