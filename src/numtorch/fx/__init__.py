"""torch.fx: symbolic tracing of Modules into Graphs, and Graphs back into Python code."""

from . import graph, graph_module, interpreter, node, passes, proxy, subgraph_rewriter
from ._symbolic_trace import PH, Tracer, symbolic_trace, wrap
from .graph import Graph
from .graph_module import GraphModule
from .interpreter import Interpreter, Transformer
from .node import Node, has_side_effect, map_arg
from .proxy import Proxy
from .subgraph_rewriter import replace_pattern

__all__ = [
    "symbolic_trace",
    "Tracer",
    "wrap",
    "Graph",
    "GraphModule",
    "Interpreter",
    "Transformer",
    "Node",
    "Proxy",
    "replace_pattern",
    "has_side_effect",
    "map_arg",
    "PH",
    "graph",
    "graph_module",
    "interpreter",
    "node",
    "passes",
    "proxy",
    "subgraph_rewriter",
]


def __getattr__(name):
    # a part of torch.fx numtorch lacks (experimental, _lazy_graph_module, ...): say so
    raise AttributeError(
        f"torch.fx.{name} is not supported by numtorch (module 'numtorch.fx' has no "
        f"attribute '{name}'); see docs/guides/fx.md for what numtorch.fx implements"
    )
