"""The examples of the installed torch's docstrings, read at run time.

Every documented name of the namespaces in ``NAMESPACES`` (and the methods of the classes
among them) whose ``__doc__`` holds ``>>>`` lines gives one ``Example``: the docstring's
statements in order, as one small program, under the name the docstring was first found
by (aliases share a docstring and run once). Nothing of torch's text is stored here.
"""

from __future__ import annotations

import doctest
import importlib
import inspect
from dataclasses import dataclass

# torch's namespaces whose docstrings carry examples, in the order names are claimed
NAMESPACES = (
    "torch.Tensor",
    "torch",
    "torch.nn.functional",
    "torch.linalg",
    "torch.special",
    "torch.fft",
    "torch.nn",
    "torch.nn.init",
    "torch.nn.utils",
    "torch.nn.utils.rnn",
    "torch.nn.utils.parametrize",
    "torch.nn.utils.prune",
    "torch.autograd",
    "torch.autograd.functional",
    "torch.autograd.forward_ad",
    "torch.autograd.graph",
    "torch.func",
    "torch.distributions",
    "torch.optim",
    "torch.optim.lr_scheduler",
    "torch.utils.data",
    "torch.testing",
    "torch.random",
    "torch.nn.utils.parametrizations",
    "torch.nn.utils.stateless",
    "torch.utils.checkpoint",
    "torch.masked",
    "torch.sparse",
    "torch.optim.swa_utils",
    "torch.distributions.kl",
    "torch.distributions.transforms",
    "torch.signal.windows",
    "torch.autograd.profiler",
    "torch.profiler",
    "torch.serialization",
    "torch.overrides",
)


@dataclass(frozen=True)
class Statement:
    source: str
    line: int  # within the docstring, for reports
    skip: bool  # marked `# doctest: +SKIP`
    expects_error: bool  # the docstring shows a traceback for it


@dataclass(frozen=True)
class Example:
    id: str  # the qualified name, e.g. "torch.nn.functional.relu"
    statements: tuple[Statement, ...]
    namespace: str = "torch"  # where it was found: its names are in scope, as for a doctest


_PARSER = doctest.DocTestParser()
_SKIP = doctest.OPTIONFLAGS_BY_NAME["SKIP"]


def resolve(path):
    head, _, rest = path.partition(".")
    obj = importlib.import_module(head)
    for part in rest.split(".") if rest else ():
        try:
            obj = getattr(obj, part)
        except AttributeError:
            obj = importlib.import_module(f"{obj.__name__}.{part}")
    return obj


def _members(namespace):
    obj = resolve(namespace)
    for name in sorted(dir(obj)):
        if name.startswith("_"):
            continue
        try:
            member = getattr(obj, name)
        except Exception:  # a lazy attribute that fails to load documents nothing
            continue
        if inspect.ismodule(member):
            module = member.__name__
        else:
            module = getattr(member, "__module__", None) or "torch"
        if not module.startswith("torch"):  # a name torch imports (collections.Counter, tempfile)
            continue
        yield f"{namespace}.{name}", member
        # torch's typed tensor classes repeat Tensor's methods, claimed under torch.Tensor
        if inspect.isclass(member) and namespace != "torch.Tensor":
            for method in sorted(vars(member)):
                if not method.startswith("_") or method == "__init__":
                    yield f"{namespace}.{name}.{method}", vars(member)[method]


def _compiles(source):
    try:
        compile(source, "<example>", "exec")
    except SyntaxError:
        return False
    return True


def _statements(doc):
    """The doctest statements of ``doc``. Some of torch's docstrings write ``>>>`` on the
    continuation lines of a block or a bracket too: a statement that is indented, or that
    follows one that does not compile on its own, continues the one before (as a doctest
    written with ``...`` would have it)."""
    statements = []
    for part in _PARSER.parse(doc):
        if not isinstance(part, doctest.Example):
            continue
        statement = Statement(
            source=part.source,
            line=part.lineno + 1,
            skip=bool(part.options.get(_SKIP)),
            expects_error=part.exc_msg is not None,
        )
        if statements and (part.source[:1].isspace() or not _compiles(statements[-1].source)):
            before = statements.pop()
            statement = Statement(
                source=before.source + part.source,
                line=before.line,
                skip=before.skip or statement.skip,
                expects_error=statement.expects_error,
            )
        statements.append(statement)
    return tuple(statements)


def examples():
    """Every example of the installed torch's docstrings, each under its first name."""
    seen = set()
    found = []
    for namespace in NAMESPACES:
        try:
            members = list(_members(namespace))
        except Exception:  # a namespace this torch lacks
            continue
        for qualname, member in members:
            if isinstance(member, (staticmethod, classmethod)):
                member = member.__func__
            elif isinstance(member, property):
                member = member.fget
            doc = getattr(member, "__doc__", None)
            if not isinstance(doc, str) or ">>>" not in doc or doc in seen:
                continue
            seen.add(doc)
            try:
                statements = _statements(doc)
            except ValueError:  # a docstring doctest cannot parse (bad indentation)
                continue
            if statements:
                found.append(Example(qualname, statements, namespace))
    return found
