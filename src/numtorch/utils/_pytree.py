"""Pytrees, as ``torch.utils._pytree``: nested tuples, lists, dicts and namedtuples of leaves.

``tree_flatten`` returns the leaves in order and a ``TreeSpec`` that ``tree_unflatten`` uses to
rebuild the structure. Like torch, ``None`` is a leaf, dicts keep their insertion order and
two specs are equal only when their node types, keys and children are.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

__all__ = [
    "TreeSpec",
    "tree_flatten",
    "tree_leaves",
    "tree_map",
    "tree_structure",
    "tree_unflatten",
    "treespec_pprint",
]


def _is_namedtuple(value) -> bool:
    return isinstance(value, tuple) and hasattr(type(value), "_fields")


_CHILDREN = {
    tuple: lambda v: ("tuple", None, list(v)),
    list: lambda v: ("list", None, list(v)),
    dict: lambda v: ("dict", list(v), list(v.values())),
    OrderedDict: lambda v: ("OrderedDict", list(v), list(v.values())),
}


def _node_of(value):
    """``(type_name, context, children)`` for a container, or None for a leaf."""
    children = _CHILDREN.get(type(value))
    if children is not None:
        return children(value)
    if _is_namedtuple(value):
        return "namedtuple", type(value), list(value)
    return None


class TreeSpec:
    """The structure of a pytree: a node type, its context (dict keys, namedtuple class) and
    the specs of its children; a leaf has type None."""

    __slots__ = ("type", "context", "children_specs", "num_leaves")

    def __init__(self, type: str | None, context: Any, children_specs: list[TreeSpec]):
        self.type = type
        self.context = context
        self.children_specs = children_specs
        self.num_leaves = 1 if type is None else sum(c.num_leaves for c in children_specs)

    def is_leaf(self) -> bool:
        return self.type is None

    def __eq__(self, other) -> bool:
        if not isinstance(other, TreeSpec):
            return NotImplemented
        return (
            self.type == other.type
            and self.context == other.context
            and self.children_specs == other.children_specs
        )

    def __hash__(self):
        return hash((self.type, len(self.children_specs)))

    def __repr__(self) -> str:
        if self.type is None:
            return "*"
        children = ", ".join(repr(c) for c in self.children_specs)
        return f"TreeSpec({self.type}, {self.context!r}, [{children}])"


LEAF = TreeSpec(None, None, [])


def tree_flatten(tree) -> tuple[list, TreeSpec]:
    """The leaves of ``tree`` in order, and its structure."""
    leaves: list = []
    return leaves, _flatten_into(tree, leaves)


def _flatten_into(tree, leaves: list) -> TreeSpec:
    node = _node_of(tree)
    if node is None:
        leaves.append(tree)
        return LEAF
    kind, context, children = node
    return TreeSpec(kind, context, [_flatten_into(c, leaves) for c in children])


def tree_unflatten(leaves, spec: TreeSpec):
    """Rebuild a tree of ``spec``'s structure from its leaves."""
    leaves = list(leaves)
    if len(leaves) != spec.num_leaves:
        raise ValueError(
            f"treespec.unflatten(leaves): `leaves` has length {len(leaves)} but the spec "
            f"refers to a pytree that holds {spec.num_leaves} items ({spec})."
        )
    return _build(iter(leaves), spec)


def _build(leaves, spec: TreeSpec):
    if spec.type is None:
        return next(leaves)
    children = [_build(leaves, c) for c in spec.children_specs]
    if spec.type == "tuple":
        return tuple(children)
    if spec.type == "list":
        return children
    if spec.type == "namedtuple":
        return spec.context(*children)
    if spec.type == "OrderedDict":
        return OrderedDict(zip(spec.context, children))
    return dict(zip(spec.context, children))


def treespec_pprint(spec: TreeSpec) -> str:
    """A short picture of a structure: ``(*, [*, {'k': *}])``."""
    if spec.type is None:
        return "*"
    parts = [treespec_pprint(c) for c in spec.children_specs]
    if spec.type in ("dict", "OrderedDict"):
        inner = ", ".join(f"{k!r}: {p}" for k, p in zip(spec.context, parts))
        return "{" + inner + "}" if spec.type == "dict" else f"OrderedDict({{{inner}}})"
    if spec.type == "list":
        return "[" + ", ".join(parts) + "]"
    if spec.type == "namedtuple":
        fields = ", ".join(f"{k}={p}" for k, p in zip(spec.context._fields, parts))
        return f"{spec.context.__name__}({fields})"
    return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"


def tree_leaves(tree) -> list:
    return tree_flatten(tree)[0]


def tree_structure(tree) -> TreeSpec:
    return tree_flatten(tree)[1]


def tree_map(fn, tree):
    """``tree`` with ``fn`` applied to every leaf."""
    leaves, spec = tree_flatten(tree)
    return tree_unflatten([fn(leaf) for leaf in leaves], spec)


def broadcast_prefix(prefix, spec: TreeSpec) -> list | None:
    """One value per leaf of ``spec``: a leaf of ``prefix`` covers the whole subtree at its
    position (vmap's ``in_dims``/``out_dims``); None when ``prefix`` is not a prefix of it."""
    result: list = []
    return result if _broadcast(prefix, spec, result) else None


def _broadcast(prefix, spec: TreeSpec, result: list) -> bool:
    node = _node_of(prefix)
    if node is None:
        result.extend([prefix] * spec.num_leaves)
        return True
    kind, context, children = node
    if kind != spec.type or len(children) != len(spec.children_specs):
        return False
    if kind in ("dict", "OrderedDict"):
        if set(context) != set(spec.context):
            return False
        # Matched by key, in the order of the tree's own keys.
        by_key = dict(zip(context, children))
        children = [by_key[k] for k in spec.context]
    elif kind == "namedtuple" and context is not spec.context:
        return False
    return all(_broadcast(p, s, result) for p, s in zip(children, spec.children_specs))
