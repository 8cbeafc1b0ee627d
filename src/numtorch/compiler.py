"""``torch.compiler``: numtorch has no compiler, so code always runs eagerly.

Libraries ask ``torch.compiler.is_compiling()`` to pick a path, and mark functions with
``disable`` or ``allow_in_graph``; here the answer is torch's for the code torch would trace
(True inside a compiled call, False inside a disabled function) and the code runs eagerly.
"""

from __future__ import annotations

import functools
import sys

__all__ = [
    "allow_in_graph",
    "assume_constant_result",
    "compile",
    "cudagraph_mark_step_begin",
    "disable",
    "is_compiling",
    "is_dynamo_compiling",
    "is_exporting",
    "list_backends",
    "reset",
]


# How many compiled calls are running (minus the disabled calls inside them): torch answers
# is_compiling() with True in the code it traces, which numtorch runs eagerly instead.
_compiling = [0]


def is_compiling() -> bool:
    """True inside a call of a compiled function or module (torch traces that code; numtorch
    runs it), False elsewhere and inside functions marked with ``disable``."""
    return _compiling[0] > 0


def is_dynamo_compiling() -> bool:
    return _compiling[0] > 0


def run_compiled(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` as code being compiled: ``is_compiling()`` is True inside."""
    _compiling[0] += 1
    try:
        return fn(*args, **kwargs)
    finally:
        _compiling[0] -= 1


def is_exporting() -> bool:
    return False


def disable(fn=None, recursive: bool = True, *, reason=None):
    """Keep ``fn`` out of compilation (also as a decorator, with or without arguments): it
    runs eagerly as everything does, and ``is_compiling()`` is False inside it."""
    if fn is None:
        return lambda f: disable(f, recursive, reason=reason)

    @functools.wraps(fn)
    def disabled(*args, **kwargs):
        depth = _compiling[0]
        _compiling[0] = 0
        try:
            return fn(*args, **kwargs)
        finally:
            _compiling[0] = depth

    return disabled


def allow_in_graph(fn):
    return fn


def assume_constant_result(fn):
    return fn


def reset() -> None:
    """Clear compilation caches: there are none."""


def cudagraph_mark_step_begin() -> None:
    """No CUDA graphs on the CPU: nothing to mark."""


def list_backends(exclude_tags=("debug", "experimental")) -> list:
    """No compiler backends are installed."""
    return []


def compile(model=None, **options):
    """numtorch has no compiler: a module comes back wrapped in an ``OptimizedModule`` as
    torch's (``_orig_mod``, prefixed state-dict keys), a function wrapped (also as a
    decorator, with or without options), and either runs eagerly, its outputs that need a
    gradient behind one ``CompiledFunctionBackward`` node as torch's (the ``eager`` backend
    leaves the ops' own nodes) and ``is_compiling()`` True inside."""
    if model is None:
        return lambda fn: compile(fn, **options)
    if options.get("disable", False):
        return model
    backend = options.get("backend", "inductor")
    # a module exists only once the nn package has loaded: never load it here
    modules = sys.modules.get(f"{__package__}.nn.modules.module")
    if modules is not None and isinstance(model, modules.Module):
        from ._dynamo.eval_frame import OptimizedModule  # it imports nn

        return OptimizedModule(model, backend=backend)
    from ._dynamo import graph_node

    one_node = graph_node.differentiates_as_one_node(backend)

    @functools.wraps(model)
    def compiled(*args, **kwargs):
        if not one_node:
            return run_compiled(model, *args, **kwargs)
        return run_compiled(graph_node.run_as_graph, model, (), args, kwargs)

    return compiled
