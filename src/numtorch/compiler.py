"""``torch.compiler`` stand-in: numtorch has no compiler, so code runs eagerly and the
queries a program makes (``is_compiling()``) answer as torch does outside a compiled region.

Example:
    >>> import numtorch as torch
    >>> torch.compiler.is_compiling()
    False
"""

from __future__ import annotations

from ._runtime import compile

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
    return False


def is_dynamo_compiling() -> bool:
    return False


def is_exporting() -> bool:
    return False


def disable(fn=None, recursive: bool = True, *, reason=None):
    """Returns ``fn`` unchanged (also as a decorator with arguments): it runs eagerly."""
    if fn is None:
        return lambda f: f
    return fn


def allow_in_graph(fn):
    return fn


def assume_constant_result(fn):
    return fn


def reset() -> None:
    """No-op: there are no compiled caches to clear."""


def cudagraph_mark_step_begin() -> None:
    """No-op: there are no CUDA graphs on the CPU."""


def list_backends(exclude_tags=("debug", "experimental")) -> list:
    return []
