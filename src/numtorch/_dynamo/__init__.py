"""``torch._dynamo``: the pass-through that numtorch's eager ``torch.compile`` implies.

``torch.compile(module)`` wraps the module in an ``OptimizedModule`` as torch does
(``eval_frame``): ``_orig_mod``, the ``_orig_mod.`` prefix of its state-dict keys and its
repr are torch's, and its forward runs the module eagerly. Scripts reset it between runs,
tune ``config`` and mark functions to keep out of graphs; numtorch traces nothing, so each
answers as dynamo does: ``is_compiling()`` is True inside a compiled call and False
elsewhere, and the markers leave the code running eagerly.
"""

from ..compiler import allow_in_graph, assume_constant_result, disable, is_compiling, reset
from . import config, eval_frame
from .eval_frame import OptimizedModule
from .marks import (
    graph_break,
    list_backends,
    mark_dynamic,
    mark_static,
    mark_static_address,
    maybe_mark_dynamic,
)

__all__ = [
    "OptimizedModule",
    "allow_in_graph",
    "assume_constant_result",
    "config",
    "disable",
    "eval_frame",
    "graph_break",
    "is_compiling",
    "list_backends",
    "mark_dynamic",
    "mark_static",
    "mark_static_address",
    "maybe_mark_dynamic",
    "reset",
]
