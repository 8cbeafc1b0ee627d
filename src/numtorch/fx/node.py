"""torch.fx.node: a Node is one operation of a Graph, with its arguments and its users."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from ._patching import RecordingFunction
from ._torch_names import qualified_name, type_repr

__all__ = ["Node", "map_arg", "map_aggregate", "has_side_effect", "Argument", "Target"]

_side_effectful_functions: set = {operator.setitem}


def has_side_effect(fn):
    """Marks ``fn`` as impure: dead-code elimination keeps its calls."""
    _side_effectful_functions.add(fn)
    return fn


def map_aggregate(a, fn: Callable):
    """Applies ``fn`` to each leaf of ``a``, rebuilding tuples, lists, dicts and slices."""
    if isinstance(a, tuple):
        t = tuple(map_aggregate(elem, fn) for elem in a)
        # a NamedTuple is rebuilt as its own type
        return t if not hasattr(a, "_fields") else type(a)(*t)
    if isinstance(a, list):
        return [map_aggregate(elem, fn) for elem in a]
    if isinstance(a, dict):
        return {k: map_aggregate(v, fn) for k, v in a.items()}
    if isinstance(a, slice):
        return slice(
            map_aggregate(a.start, fn), map_aggregate(a.stop, fn), map_aggregate(a.step, fn)
        )
    return fn(a)


def map_arg(a, fn: Callable):
    """Applies ``fn`` to each Node in ``a``."""
    if not callable(fn):
        raise AssertionError("torch.fx.map_arg(a, fn): fn must be a callable")
    return map_aggregate(a, lambda x: fn(x) if isinstance(x, Node) else x)


def _format_arg(arg) -> str:
    if isinstance(arg, list):
        return f"[{', '.join(_format_arg(a) for a in arg)}]"
    if isinstance(arg, tuple):
        comma = "," if len(arg) == 1 else ""
        return f"({', '.join(_format_arg(a) for a in arg)}{comma})"
    if isinstance(arg, dict):
        return "{" + ", ".join(f"{k}: {_format_arg(v)}" for k, v in arg.items()) + "}"
    if isinstance(arg, Node):
        return "%" + str(arg)
    return str(arg)


class Node:
    """One operation of a Graph: ``op`` is placeholder, get_attr, call_function, call_method,
    call_module or output; ``target`` what it calls; ``users`` the nodes that read it."""

    def __init__(
        self, graph, name: str, op: str, target, args: tuple, kwargs: dict, return_type=None
    ):
        if op not in _OPS:
            raise AssertionError(f"Unknown op {op!r}: expected one of {sorted(_OPS)}")
        if op in (
            "call_method",
            "call_module",
            "get_attr",
            "placeholder",
            "output",
        ) and not isinstance(target, str):
            raise ValueError(
                f"Node [graph = {graph}, name = '{name}'] target {target} has type "
                f"{type(target)} but a str is expected for {op}"
            )
        if op == "call_function" and not callable(target):
            raise ValueError(
                f"Node [graph = {graph}, name = '{name}'] target {target} has type "
                f"{type(target)} but a Callable is expected"
            )
        self.graph = graph
        self.name = name
        self.op = op
        self.target = target
        self._input_nodes: dict[Node, None] = {}
        self._args: tuple = ()
        self._kwargs: dict = {}
        self.users: dict[Node, None] = {}
        self.type = return_type
        self._prev = self
        self._next = self
        self._erased = False
        self._repr_fn: Callable | None = None
        self.meta: dict[str, Any] = {}
        self._update_args_kwargs(args, kwargs)

    @property
    def target(self):
        return self._target

    @target.setter
    def target(self, value) -> None:
        if isinstance(value, RecordingFunction):  # Note [Recording torch functions]
            value = value.__fx_original__
        self._target = value

    # -- the linked list of the graph ---------------------------------------------------------
    @property
    def next(self) -> Node:
        return self._next

    @property
    def prev(self) -> Node:
        return self._prev

    def prepend(self, x: Node) -> None:
        """Inserts ``x`` before this node (moving it if it is already in the graph)."""
        if self.graph is not x.graph:
            raise AssertionError("Attempting to move a Node into a different Graph")
        if self is x:
            return
        x._remove_from_list()
        p = self._prev
        p._next, x._prev = x, p
        x._next, self._prev = self, x

    def append(self, x: Node) -> None:
        """Inserts ``x`` after this node."""
        self._next.prepend(x)

    def _remove_from_list(self) -> None:
        p, n = self._prev, self._next
        p._next, n._prev = n, p
        self._prev = self._next = self

    # -- arguments -----------------------------------------------------------------------------
    @property
    def args(self) -> tuple:
        return self._args

    @args.setter
    def args(self, a) -> None:
        self._update_args_kwargs(a, self._kwargs)

    @property
    def kwargs(self) -> dict:
        return self._kwargs

    @kwargs.setter
    def kwargs(self, k) -> None:
        self._update_args_kwargs(self._args, k)

    @property
    def all_input_nodes(self) -> list[Node]:
        return list(self._input_nodes)

    def update_arg(self, idx: int, arg) -> None:
        args = list(self.args)
        args[idx] = arg
        self.args = tuple(args)

    def update_kwarg(self, key: str, arg) -> None:
        self.kwargs = {**self.kwargs, key: arg}

    def _update_args_kwargs(self, new_args, new_kwargs) -> None:
        for old_use in self._input_nodes:
            old_use.users.pop(self)
        self._input_nodes = {}
        self._args = map_arg(tuple(new_args), self._collect_input)
        self._kwargs = map_arg(dict(new_kwargs), self._collect_input)
        for new_use in self._input_nodes:
            new_use.users.setdefault(self)

    def _collect_input(self, n: Node) -> Node:
        self._input_nodes.setdefault(n)
        return n

    @property
    def stack_trace(self) -> str | None:
        return self.meta.get("stack_trace")

    @stack_trace.setter
    def stack_trace(self, trace: str | None) -> None:
        self.meta["stack_trace"] = trace

    # -- rewiring ------------------------------------------------------------------------------
    def replace_all_uses_with(
        self, replace_with: Node, delete_user_cb=None, *, propagate_meta=False
    ) -> list[Node]:
        """Makes every user of this node read ``replace_with`` instead; returns those users."""
        if propagate_meta:
            if replace_with.meta:
                raise AssertionError(
                    "Called node.replace_all_uses_with(replace_with, propagate_meta=True), "
                    "but replace_with already has .meta keys"
                )
            replace_with.meta.update(self.meta)
        replaced = []
        for user in list(self.users):
            if delete_user_cb is not None and not delete_user_cb(user):
                continue
            user._replace_input(self, replace_with)
            replaced.append(user)
        return replaced

    def replace_input_with(self, old_input: Node, new_input: Node) -> None:
        """Makes this node read ``new_input`` wherever it read ``old_input``."""
        self._replace_input(old_input, new_input)

    def _replace_input(self, old: Node, new: Node) -> None:
        def swap(n):
            return new if n is old else n

        self._update_args_kwargs(map_arg(self._args, swap), map_arg(self._kwargs, swap))

    def is_impure(self) -> bool:
        """Whether dead-code elimination must keep this node although nothing reads it."""
        if self.op in ("placeholder", "output"):
            return True
        if self.op == "call_function":
            return self.target in _side_effectful_functions
        if self.op == "call_module":
            module = self.graph.owning_module
            if module is None:
                return False
            target = module.get_submodule(self.target)
            return getattr(target, "_is_impure", False)
        return False

    # -- printing ------------------------------------------------------------------------------
    def __repr__(self) -> str:
        if self._repr_fn is not None:
            return self._repr_fn(self)
        return self.name

    @staticmethod
    def _pretty_print_target(target) -> str:
        if isinstance(target, str):
            return target
        module = getattr(target, "__module__", None)
        name = getattr(target, "__name__", None)
        if name is not None and module == "builtins":
            return f"builtins.{name}"
        if name is not None and module == "_operator":
            return f"operator.{name}"
        return qualified_name(target)

    def format_node(self, placeholder_names=None, maybe_return_typename=None) -> str | None:
        """This node as ``str(graph)`` prints it."""
        typename = f"{type_repr(self.type)} " if self.type is not None else ""
        head = f"%{self.name} : {typename}[num_users={len(self.users)}] = {self.op}"
        if self.op == "placeholder":
            default = f"(default={self.args[0]})" if self.args else ""
            return f"{head}[target={self.target}]{default}"
        if self.op == "get_attr":
            return f"{head}[target={self._pretty_print_target(self.target)}]"
        if self.op == "output":
            if self.type and maybe_return_typename:
                maybe_return_typename[0] = f" -> {type_repr(self.type)}"
            return f"return {self.args[0]}"
        return (
            f"{head}[target={self._pretty_print_target(self.target)}]("
            f"args = {_format_arg(self.args)}, kwargs = {_format_arg(self.kwargs)})"
        )


_OPS = frozenset(
    ["placeholder", "call_method", "call_module", "call_function", "get_attr", "output", "root"]
)

# what a node calls, and what its arguments may hold (annotations in FX programs use them)
Target = Callable[..., Any] | str
Argument = tuple | list | dict | slice | range | Node | str | int | float | bool | complex | None
