"""torch.fx.interpreter: running a GraphModule node by node (Interpreter), and rebuilding its
graph through overridable per-op methods (Transformer)."""

from __future__ import annotations

import inspect

from ._patching import recording_torch_functions
from ._symbolic_trace import Tracer
from .graph import Graph
from .graph_module import GraphModule
from .node import Node, map_aggregate, map_arg
from .proxy import Proxy

__all__ = ["Interpreter", "Transformer"]


class Interpreter:
    """Runs a GraphModule one node at a time; override ``run_node`` or the per-op methods
    (``call_function``, ``call_module``, ...) to observe or change what each node does.

    Example::

        >>> import numtorch as torch
        >>> gm = torch.fx.symbolic_trace(lambda x: torch.relu(x) * 2)
        >>> torch.fx.Interpreter(gm).run(torch.tensor([-1.0, 3.0]))
        tensor([0., 6.])
    """

    def __init__(
        self, module: GraphModule, garbage_collect_values: bool = True, graph: Graph | None = None
    ) -> None:
        self.module = module
        self.submodules = dict(module.named_modules())
        self.graph = graph if graph is not None else module.graph
        self.env: dict[Node, object] = {}
        self.name = "Interpreter"
        self.garbage_collect_values = garbage_collect_values
        self.extra_traceback = True
        if garbage_collect_values:
            # a value is dropped from the environment after the last node that reads it
            node_to_last_use: dict[Node, Node] = {}
            self.user_to_last_uses: dict[Node, list[Node]] = {}
            for node in reversed(self.graph.nodes):
                for n in node._input_nodes:
                    if n not in node_to_last_use:
                        node_to_last_use[n] = node
                        self.user_to_last_uses.setdefault(node, []).append(n)

    def run(self, *args, initial_env: dict | None = None, enable_io_processing: bool = True):
        """Runs the graph on ``args``; returns what its output node returns."""
        self.env = initial_env if initial_env is not None else {}
        self.args_iter = iter(args)
        for node in self.graph.nodes:
            if node in self.env:
                continue
            try:
                self.env[node] = self.run_node(node)
            except Exception as e:
                if self.extra_traceback:
                    msg = f"While executing {node.format_node()}"
                    msg = f"{e.args[0]}\n\n{msg}" if e.args else str(msg)
                    e.args = (msg,) + e.args[1:]
                    if isinstance(e, KeyError):
                        raise RuntimeError(*e.args) from e
                raise
            if self.garbage_collect_values:
                for to_delete in self.user_to_last_uses.get(node, []):
                    del self.env[to_delete]
            if node.op == "output":
                return self.env[node]
        return None

    def boxed_run(self, args_list: list):
        args_iter = iter(args_list)
        env = {}
        for n in self.graph.nodes:
            if n.op == "placeholder":
                env[n] = next(args_iter)
        args_list.clear()
        return self.run(initial_env=env)

    def run_node(self, n: Node):
        """Runs one node: fetches its arguments, then calls the method named by its op."""
        args, kwargs = self.fetch_args_kwargs_from_env(n)
        return getattr(self, n.op)(n.target, args, kwargs)

    # -- one method per op ---------------------------------------------------------------------
    def placeholder(self, target: str, args: tuple, kwargs: dict):
        if target.startswith("*"):
            return list(self.args_iter)
        try:
            return next(self.args_iter)
        except StopIteration as si:
            if args:
                return args[0]
            raise RuntimeError(
                f"Expected positional argument for parameter {target}, but one was not passed in!"
            ) from si

    def get_attr(self, target: str, args: tuple, kwargs: dict):
        return self.fetch_attr(target)

    def call_function(self, target, args: tuple, kwargs: dict):
        return target(*args, **kwargs)

    def call_method(self, target: str, args: tuple, kwargs: dict):
        self_obj, *args_tail = args
        return getattr(self_obj, target)(*args_tail, **kwargs)

    def call_module(self, target: str, args: tuple, kwargs: dict):
        submod = self.fetch_attr(target)
        return submod(*args, **kwargs)

    def output(self, target, args: tuple, kwargs: dict):
        return args[0]

    # -- helpers -------------------------------------------------------------------------------
    def fetch_attr(self, target: str):
        atoms = target.split(".")
        attr = self.module
        for i, atom in enumerate(atoms):
            if not hasattr(attr, atom):
                raise RuntimeError(f"Node referenced nonexistent target {'.'.join(atoms[: i + 1])}")
            attr = getattr(attr, atom)
        return attr

    def fetch_args_kwargs_from_env(self, n: Node) -> tuple[tuple, dict]:
        return self.map_nodes_to_values(n.args, n), self.map_nodes_to_values(n.kwargs, n)

    def map_nodes_to_values(self, args, n: Node):
        def load_arg(n_arg: Node):
            if n_arg not in self.env:
                raise RuntimeError(
                    f"Node {n} referenced nonexistent value {n_arg}! Run Graph.lint() "
                    "to diagnose such issues"
                )
            return self.env[n_arg]

        return map_arg(args, load_arg)


class _TransformerTracer(Tracer):
    def __init__(self, graph: Graph) -> None:
        super().__init__()
        self.graph = graph
        self.tensor_attrs = {}

    def is_leaf_module(self, _, __) -> bool:
        return True


class Transformer(Interpreter):
    """Builds a new GraphModule by running the graph on Proxies: override ``call_function``
    and friends to record something else in a node's place."""

    def __init__(self, module: GraphModule) -> None:
        super().__init__(module)
        self.new_graph = Graph()
        self.tracer = _TransformerTracer(self.new_graph)
        self.tracer.root = module

    def placeholder(self, target: str, args: tuple, kwargs: dict) -> Proxy:
        default = next(iter(args)) if args else inspect.Signature.empty
        return Proxy(self.new_graph.placeholder(target, default_value=default), self.tracer)

    def get_attr(self, target: str, args: tuple, kwargs: dict) -> Proxy:
        return self.tracer.create_proxy("get_attr", target, args, kwargs)

    def call_module(self, target: str, args: tuple, kwargs: dict):
        submod = self.fetch_attr(target)
        return self.tracer.call_module(submod, submod.forward, args, kwargs)

    def call_function(self, target, args: tuple, kwargs: dict):
        return self.tracer.create_proxy("call_function", target, args, kwargs)

    def transform(self) -> GraphModule:
        """The transformed GraphModule."""
        with recording_torch_functions():
            result = super().run()
        if result is not None:
            out = self.new_graph.output(
                map_aggregate(result, lambda a: a.node if isinstance(a, Proxy) else a)
            )
            old_out = list(self.graph.nodes)[-1]
            out.meta.update(old_out.meta)
        return GraphModule(self.module, self.new_graph)
