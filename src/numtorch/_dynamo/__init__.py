"""``torch._dynamo``: the names scripts reach for around ``torch.compile``.

numtorch has no compiler (Note in ``compiler.py``): ``torch.compile(module)`` wraps the module
in an ``OptimizedModule`` as torch does, so ``_orig_mod``, the ``_orig_mod.`` prefix of its
state-dict keys and its repr are torch's, and its forward runs the module eagerly.
"""

from __future__ import annotations

from ..compiler import allow_in_graph, assume_constant_result, disable, is_compiling, reset
from . import config, eval_frame
from .eval_frame import OptimizedModule

__all__ = [
    "OptimizedModule",
    "allow_in_graph",
    "assume_constant_result",
    "config",
    "disable",
    "eval_frame",
    "graph_break",
    "is_compiling",
    "mark_dynamic",
    "mark_static",
    "maybe_mark_dynamic",
    "reset",
]


def graph_break() -> None:
    """Nothing to break: every program runs eagerly."""


def mark_dynamic(t, index, *, min=None, max=None) -> None:
    """A shape hint for the compiler: there is none to give it to."""


def maybe_mark_dynamic(t, index) -> None:
    """A shape hint for the compiler: there is none to give it to."""


def mark_static(t, index=None) -> None:
    """A shape hint for the compiler: there is none to give it to."""
