"""``torch._dynamo``: the pass-through that numtorch's eager ``torch.compile`` implies.

Scripts reset it between runs, tune ``config`` and mark functions to keep out of graphs;
numtorch traces nothing, so each answers as dynamo does for code that is not being
compiled: ``is_compiling()`` is False and the markers return what they were given.
"""

from ..compiler import allow_in_graph, assume_constant_result, disable, is_compiling, reset
from . import config
from .marks import (
    graph_break,
    list_backends,
    mark_dynamic,
    mark_static,
    mark_static_address,
    maybe_mark_dynamic,
)

__all__ = [
    "allow_in_graph",
    "assume_constant_result",
    "config",
    "disable",
    "graph_break",
    "is_compiling",
    "list_backends",
    "mark_dynamic",
    "mark_static",
    "mark_static_address",
    "maybe_mark_dynamic",
    "reset",
]
