"""``torch.compiler``: numtorch has no compiler, so code always runs eagerly.

Libraries ask ``torch.compiler.is_compiling()`` to pick an eager path, and mark functions
with ``disable`` or ``allow_in_graph``; here those questions have the eager answer and the
markers return the function unchanged.
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


def is_compiling() -> bool:
    """False: numtorch never traces a program."""
    return False


def is_dynamo_compiling() -> bool:
    return False


def is_exporting() -> bool:
    return False


def disable(fn=None, recursive: bool = True, *, reason=None):
    """Keep ``fn`` out of compilation: it already is, so ``fn`` comes back unchanged (also
    as a decorator, with or without arguments)."""
    if fn is None:
        return lambda f: f
    return fn


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
    leaves the ops' own nodes, and a function comes back unchanged)."""
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

    if not graph_node.differentiates_as_one_node(backend):
        return model

    @functools.wraps(model)
    def compiled(*args, **kwargs):
        return graph_node.run_as_graph(model, (), args, kwargs)

    return compiled
