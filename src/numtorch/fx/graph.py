"""torch.fx.graph: a Graph is a list of Nodes in execution order, printed and compiled as
torch prints and compiles it."""

from __future__ import annotations

import inspect

from ._codegen import python_code
from ._namespace import Namespace, snake_case
from ._patching import RecordingFunction, acquire, release
from ._torch_names import torch_name
from .node import Node, map_arg

__all__ = ["Graph", "PythonCode"]


class PythonCode:
    """The source of a graph's ``forward`` and the globals it runs with."""

    def __init__(self, src: str, globals: dict) -> None:
        self.src = src
        self.globals = globals


class _node_list:
    """A live view of a graph's nodes, in order (or reversed)."""

    def __init__(self, graph: Graph, direction: str = "_next") -> None:
        self._graph = graph
        self._direction = direction

    def __len__(self) -> int:
        return self._graph._len

    def __iter__(self):
        root = self._graph._root
        cur = getattr(root, self._direction)
        while cur is not root:
            following = getattr(cur, self._direction)
            if not cur._erased:
                yield cur
            cur = following

    def __reversed__(self):
        return iter(_node_list(self._graph, "_prev" if self._direction == "_next" else "_next"))


class _InsertPoint:
    """Moves the graph's insert point; as a ``with`` block, moves it back at the end and,
    inside, records torch functions called on Proxies (Note [Recording torch functions])."""

    def __init__(self, graph: Graph, insert) -> None:
        self.graph = graph
        self.orig_insert, graph._insert = graph._insert, insert

    def __enter__(self) -> None:
        acquire()

    def __exit__(self, *exc) -> None:
        self.graph._insert = self.orig_insert
        release()


class Graph:
    """The intermediate representation of symbolic tracing: a list of Nodes."""

    def __init__(self, owning_module=None, tracer_cls=None, tracer_extras=None) -> None:
        self._root = Node(self, "", "root", "", (), {})
        self._insert = self._root.prepend
        self._len = 0
        self._graph_namespace = Namespace()
        self._owning_module = owning_module
        self._tracer_cls = tracer_cls
        self._tracer_extras = tracer_extras

    @property
    def owning_module(self):
        return self._owning_module

    @owning_module.setter
    def owning_module(self, module) -> None:
        self._owning_module = module

    @property
    def nodes(self) -> _node_list:
        return _node_list(self)

    def output_node(self) -> Node:
        out = next(iter(reversed(self.nodes)))
        if out.op != "output":
            raise AssertionError(f"Expected output node, got op={out.op}")
        return out

    def find_nodes(self, *, op: str, target=None, sort: bool = True) -> list[Node]:
        return [n for n in self.nodes if n.op == op and (target is None or n.target == target)]

    # -- building ------------------------------------------------------------------------------
    def create_node(
        self, op: str, target, args=None, kwargs=None, name=None, type_expr=None
    ) -> Node:
        """Creates a Node and inserts it at the current insert point."""
        args = () if args is None else tuple(args)
        kwargs = {} if kwargs is None else dict(kwargs)
        if isinstance(target, RecordingFunction):  # Note [Recording torch functions]
            target = target.__fx_original__
        candidate = name if name is not None else self._target_to_str(target)
        name = self._graph_namespace.create_name(candidate, None)
        n = Node(self, name, op, target, args, kwargs, type_expr)
        self._graph_namespace.associate_name_with_obj(name, n)
        self._insert(n)
        self._len += 1
        return n

    def _target_to_str(self, target) -> str:
        if callable(target):
            # an alias (torch.arctan is numtorch's atan) is named as torch names it
            known = torch_name(target)
            op = known.rsplit(".", 1)[-1] if known else target.__name__
        else:
            op = target
            if op.startswith("__") and op.endswith("__"):
                op = op[2:-2]
        return snake_case(op)

    def placeholder(self, name: str, type_expr=None, default_value=inspect.Signature.empty) -> Node:
        args = () if default_value is inspect.Signature.empty else (default_value,)
        return self.create_node("placeholder", name, args=args, type_expr=type_expr)

    def get_attr(self, qualified_name: str, type_expr=None) -> Node:
        return self.create_node("get_attr", qualified_name, type_expr=type_expr)

    def call_module(self, module_name: str, args=None, kwargs=None, type_expr=None) -> Node:
        return self.create_node("call_module", module_name, args, kwargs, type_expr=type_expr)

    def call_method(self, method_name: str, args=None, kwargs=None, type_expr=None) -> Node:
        return self.create_node("call_method", method_name, args, kwargs, type_expr=type_expr)

    def call_function(
        self, the_function, args=None, kwargs=None, type_expr=None, name=None
    ) -> Node:
        return self.create_node(
            "call_function", the_function, args, kwargs, name=name, type_expr=type_expr
        )

    def output(self, result, type_expr=None) -> Node:
        return self.create_node("output", "output", (result,), type_expr=type_expr)

    def node_copy(self, node: Node, arg_transform=lambda x: x) -> Node:
        """Copies ``node`` (of another graph) into this one, mapping its inputs through
        ``arg_transform``."""
        args = map_arg(node.args, arg_transform)
        kwargs = map_arg(node.kwargs, arg_transform)
        result = self.create_node(node.op, node.target, args, kwargs, node.name, node.type)
        result.meta = dict(node.meta)
        return result

    def graph_copy(self, g: Graph, val_map: dict, return_output_node: bool = False):
        """Copies every node of ``g`` but its output into this graph; returns what the
        output returned, mapped to the copies."""
        for node in g.nodes:
            if node in val_map:
                continue
            if node.op == "output":
                out = map_arg(node.args[0], lambda n: val_map[n])
                return (out, node) if return_output_node else out
            val_map[node] = self.node_copy(node, lambda n: val_map[n])
        return None

    def __deepcopy__(self, memo=None) -> Graph:
        g = Graph(tracer_cls=self._tracer_cls)
        val_map: dict = {}
        result = g.graph_copy(self, val_map, return_output_node=True)
        if result is not None:
            out, old_out = result
            new_out = g.output(out, type_expr=old_out.type)
            new_out.meta = dict(old_out.meta)
        return g

    # -- editing -------------------------------------------------------------------------------
    def erase_node(self, to_erase: Node) -> None:
        """Removes a node that nothing reads."""
        if to_erase.users:
            raise RuntimeError(
                f"Tried to erase Node {to_erase} but it still had {len(to_erase.users)} "
                f"users in the graph: {to_erase.users}!"
            )
        if to_erase.graph is not self:
            raise RuntimeError(f"Attempting to remove {to_erase} from wrong graph!")
        if to_erase._erased:
            return
        to_erase._remove_from_list()
        to_erase._erased = True
        self._len -= 1
        to_erase._update_args_kwargs((), {})

    def inserting_before(self, n: Node | None = None) -> _InsertPoint:
        """Within the ``with`` block, new nodes go before ``n`` (the graph's start if None)."""
        if n is None:
            return self.inserting_after(self._root)
        if n.graph is not self:
            raise AssertionError("Node to insert before is not in graph.")
        return _InsertPoint(self, n.prepend)

    def inserting_after(self, n: Node | None = None) -> _InsertPoint:
        """Within the ``with`` block, new nodes go after ``n`` (the graph's end if None)."""
        if n is None:
            return self.inserting_before(self._root)
        if n.graph is not self:
            raise AssertionError("Node to insert after is not in graph.")
        return _InsertPoint(self, n.append)

    def eliminate_dead_code(self, is_impure_node=None) -> bool:
        """Removes the nodes whose values nothing reads and that have no side effect."""
        self.lint()
        impure = is_impure_node or (lambda node: node.is_impure())
        changed = False
        for node in reversed(self.nodes):
            if not impure(node) and not node.users:
                self.erase_node(node)
                changed = True
        return changed

    def lint(self) -> None:
        """Checks that every node belongs to this graph and comes after the nodes it reads."""
        seen: set = set()
        names: set = set()
        for node in self.nodes:
            if node.op not in (
                "placeholder",
                "call_method",
                "call_module",
                "call_function",
                "get_attr",
                "output",
            ):
                raise RuntimeError(f"Node {node} had unknown opcode {node.op}!")
            if node.graph is not self:
                raise RuntimeError(f"Node '{node}' does not belong to this Graph!")
            for arg in node._input_nodes:
                if arg.graph is not self:
                    raise RuntimeError(
                        f"Argument '{arg}' of Node '{node}' does not belong to this Graph, "
                        "but was used as an argument! If you are copying nodes from another "
                        "graph, make sure to use ``arg_transform`` on node_copy() to remap "
                        f"values\n{self}"
                    )
                if arg not in seen:
                    raise RuntimeError(
                        f"Argument '{arg}' of Node '{node}' was used before it has been "
                        "defined! Please check that Nodes in the graph are topologically "
                        f"ordered\n{self}"
                    )
            if node.name in names:
                raise RuntimeError(f"Node redefined name {node.name}!")
            seen.add(node)
            names.add(node.name)
        module = self.owning_module
        if module is None:
            return
        for node in self.nodes:
            if node.op in ("get_attr", "call_module"):
                obj = module
                for i, atom in enumerate(node.target.split(".")):
                    if not hasattr(obj, atom):
                        seen_qualname = ".".join(node.target.split(".")[:i])
                        raise RuntimeError(
                            f"Node {node} target {node.target} references nonexistent "
                            f"attribute {atom} of {seen_qualname}"
                        )
                    obj = getattr(obj, atom)

    # -- printing ------------------------------------------------------------------------------
    def __str__(self) -> str:
        s = "graph():"
        for node in self.nodes:
            s += "\n    " + node.format_node()
        return s

    def print_tabular(self) -> None:
        """Prints the nodes as a table (needs the ``tabulate`` package, as torch's does)."""
        try:
            from tabulate import tabulate
        except ImportError:
            print(
                "`print_tabular` relies on the library `tabulate`, which could not be found "
                "on this machine. Run `pip install tabulate` to install the library."
            )
            raise
        specs = [[n.op, n.name, n.target, n.args, n.kwargs] for n in self.nodes]
        print(tabulate(specs, headers=["opcode", "name", "target", "args", "kwargs"]))

    def python_code(self, root_module: str, *, verbose: bool = False) -> PythonCode:
        """The Python source of this graph's ``forward``, reading attributes from
        ``root_module``."""
        src, globals_ = python_code(self, root_module, verbose=verbose)
        return PythonCode(src, globals_)
