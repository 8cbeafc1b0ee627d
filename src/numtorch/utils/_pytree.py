"""Pytrees, as ``torch.utils._pytree``: nested containers whose leaves functions map over.

A container type is a pytree node when it is registered (``register_pytree_node``, with a
function that splits it into children and a context, and one that rebuilds it); tuples,
lists, dicts, namedtuples, ``OrderedDict``, ``defaultdict``, ``deque`` and ``torch.Size`` are
registered here, everything else is a leaf (``None`` included). ``tree_flatten`` returns the
leaves in order and a ``TreeSpec`` that ``tree_unflatten`` rebuilds the structure from; two
specs are equal only when their node types, contexts and children are. Messages and reprs
are torch's.
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict, defaultdict, deque, namedtuple
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from .._core.tensor import Size

__all__ = [
    "GetAttrKey",
    "LeafSpec",
    "MappingKey",
    "SequenceKey",
    "SUPPORTED_NODES",
    "TreeSpec",
    "is_namedtuple",
    "is_namedtuple_class",
    "is_namedtuple_instance",
    "keystr",
    "key_get",
    "register_pytree_node",
    "tree_all",
    "tree_all_only",
    "tree_any",
    "tree_any_only",
    "tree_flatten",
    "tree_flatten_with_path",
    "tree_is_leaf",
    "tree_iter",
    "tree_leaves",
    "tree_leaves_with_path",
    "tree_map",
    "tree_map_",
    "tree_map_only",
    "tree_map_only_",
    "tree_map_with_path",
    "tree_structure",
    "tree_unflatten",
    "treespec_pprint",
]


# Paths to a leaf: one key per level (``keystr`` prints them as Python would index).
@dataclasses.dataclass(frozen=True)
class SequenceKey:
    idx: int

    def __str__(self) -> str:
        return f"[{self.idx!r}]"

    def get(self, sequence):
        return sequence[self.idx]


@dataclasses.dataclass(frozen=True)
class MappingKey:
    key: Any

    def __str__(self) -> str:
        return f"[{self.key!r}]"

    def get(self, mapping):
        return mapping[self.key]


@dataclasses.dataclass(frozen=True)
class GetAttrKey:
    name: str

    def __str__(self) -> str:
        return f".{self.name}"

    def get(self, obj):
        return getattr(obj, self.name)


class NodeDef(NamedTuple):
    type: Any
    flatten_fn: Callable
    unflatten_fn: Callable
    flatten_with_keys_fn: Callable | None


SUPPORTED_NODES: dict[Any, NodeDef] = {}


def register_pytree_node(
    cls,
    flatten_fn: Callable,
    unflatten_fn: Callable,
    *,
    serialized_type_name: str | None = None,
    to_dumpable_context: Callable | None = None,
    from_dumpable_context: Callable | None = None,
    flatten_with_keys_fn: Callable | None = None,
) -> None:
    """Make ``cls`` a pytree node: ``flatten_fn(obj) -> (children, context)`` and
    ``unflatten_fn(children, context) -> obj``.

    The serialization arguments are accepted for torch's signature; numtorch has no
    ``treespec_dumps``, so they are unused.
    """
    if cls in SUPPORTED_NODES:
        raise ValueError(f"{cls} is already registered as pytree node.")
    SUPPORTED_NODES[cls] = NodeDef(cls, flatten_fn, unflatten_fn, flatten_with_keys_fn)


_register_pytree_node = register_pytree_node


def is_namedtuple_class(cls) -> bool:
    return isinstance(cls, type) and issubclass(cls, tuple) and hasattr(cls, "_fields")


def is_namedtuple_instance(obj) -> bool:
    return is_namedtuple_class(type(obj))


def is_namedtuple(obj) -> bool:
    """A namedtuple class or instance."""
    return is_namedtuple_class(obj if isinstance(obj, type) else type(obj))


def _sequence_keys(children, context):
    return [(SequenceKey(i), c) for i, c in enumerate(children)], context


def _with_keys(flatten, keys):
    def flatten_with_keys(obj):
        children, context = flatten(obj)
        return [(k, c) for k, c in zip(keys(obj, context), children)], context

    return flatten_with_keys


def _register_builtin(cls, flatten, unflatten, keys=None):
    keys = keys or (lambda obj, context: [SequenceKey(i) for i in range(len(obj))])
    register_pytree_node(cls, flatten, unflatten, flatten_with_keys_fn=_with_keys(flatten, keys))


_register_builtin(tuple, lambda t: (list(t), None), lambda ch, ctx: tuple(ch))
_register_builtin(list, lambda v: (list(v), None), lambda ch, ctx: list(ch))
_register_builtin(
    dict,
    lambda d: (list(d.values()), list(d)),
    lambda ch, ctx: dict(zip(ctx, ch)),
    lambda d, ctx: [MappingKey(k) for k in ctx],
)
# A namedtuple's node type is ``collections.namedtuple`` itself, its context the class.
_register_builtin(
    namedtuple,
    lambda t: (list(t), type(t)),
    lambda ch, ctx: ctx(*ch),
    lambda t, ctx: [GetAttrKey(f) for f in ctx._fields],
)
_register_builtin(
    OrderedDict,
    lambda d: (list(d.values()), list(d)),
    lambda ch, ctx: OrderedDict(zip(ctx, ch)),
    lambda d, ctx: [MappingKey(k) for k in ctx],
)
_register_builtin(
    defaultdict,
    lambda d: (list(d.values()), [d.default_factory, list(d)]),
    lambda ch, ctx: defaultdict(ctx[0], zip(ctx[1], ch)),
    lambda d, ctx: [MappingKey(k) for k in ctx[1]],
)
_register_builtin(deque, lambda d: (list(d), d.maxlen), lambda ch, ctx: deque(ch, maxlen=ctx))
_register_builtin(Size, lambda s: (list(s), None), lambda ch, ctx: Size(ch))


def _node_type(value):
    """The registered node type of ``value``, or None for a leaf."""
    cls = type(value)
    if cls in SUPPORTED_NODES:
        return cls
    if is_namedtuple_class(cls):
        return namedtuple
    return None


def tree_is_leaf(tree, is_leaf: Callable | None = None) -> bool:
    """Whether ``tree`` is a leaf: not a registered node, or one ``is_leaf`` picks."""
    if is_leaf is not None and is_leaf(tree):
        return True
    return _node_type(tree) is None


class TreeSpec:
    """The structure of a pytree: a node type, its context (dict keys, namedtuple class) and
    the specs of its children; a leaf has type None and prints as ``*``."""

    __slots__ = ("type", "context", "children_specs", "num_leaves", "num_nodes")

    def __init__(self, type: Any, context: Any, children_specs: list[TreeSpec]):
        self.type = type
        self.context = context
        self.children_specs = list(children_specs)
        if type is None:
            self.num_leaves, self.num_nodes = 1, 1
        else:
            self.num_leaves = sum(c.num_leaves for c in self.children_specs)
            self.num_nodes = 1 + sum(c.num_nodes for c in self.children_specs)

    @property
    def num_children(self) -> int:
        return len(self.children_specs)

    def children(self) -> list[TreeSpec]:
        return list(self.children_specs)

    def child(self, index: int) -> TreeSpec:
        return self.children_specs[index]

    def is_leaf(self) -> bool:
        return self.type is None

    def unflatten(self, leaves: Iterable) -> Any:
        return tree_unflatten(leaves, self)

    def flatten_up_to(self, tree) -> list:
        """The subtrees of ``tree`` at this spec's leaves (``tree`` must have this structure
        down to them)."""
        result: list = []
        self._flatten_up_to(tree, result)
        return result

    def _flatten_up_to(self, tree, result: list) -> None:
        if self.type is None:
            result.append(tree)
            return
        node_type = _node_type(tree)
        if node_type is not self.type:
            got = type(tree) if node_type is None or node_type is not namedtuple else node_type
            raise ValueError(f"Node type mismatch; expected {self.type!r}, but got {got!r}.")
        children, context = SUPPORTED_NODES[node_type].flatten_fn(tree)
        if len(children) != self.num_children:
            raise ValueError(
                f"Node arity mismatch; expected {self.num_children}, but got {len(children)}."
            )
        if self.type in (dict, OrderedDict, defaultdict):
            keys = context[1] if self.type is defaultdict else context
            ours = self.context[1] if self.type is defaultdict else self.context
            if set(keys) != set(ours):
                missing, extra = set(ours) - set(keys), set(keys) - set(ours)
                raise ValueError(
                    f"Node keys mismatch; missing key(s): {missing}; extra key(s): {extra}."
                )
            # Matched by key, in this spec's order.
            by_key = dict(zip(keys, children))
            children = [by_key[k] for k in ours]
        elif context != self.context:
            raise ValueError(
                f"Node context mismatch for custom node type {self.type!r}; expected "
                f"{self.context!r}, but got {context!r}."
            )
        for spec, child in zip(self.children_specs, children):
            spec._flatten_up_to(child, result)

    def __eq__(self, other) -> bool:
        if not isinstance(other, TreeSpec):
            return NotImplemented
        return (
            self.type == other.type
            and self.context == other.context
            and self.children_specs == other.children_specs
        )

    def __hash__(self):
        return hash((self.type, self.num_nodes, self.num_leaves))

    def __repr__(self, indent: int = 0) -> str:
        if self.type is None:
            return "*"
        indent += 2
        children = [c.__repr__(indent) for c in self.children_specs]
        inner = (",\n" + " " * indent).join(children)
        return f"TreeSpec({self.type.__name__}, {self.context}, [{inner}])"


class LeafSpec(TreeSpec):
    """The spec of a leaf (equal to every leaf's spec)."""

    def __init__(self):
        super().__init__(None, None, [])


LEAF = LeafSpec()


def tree_flatten(tree, is_leaf: Callable | None = None) -> tuple[list, TreeSpec]:
    """The leaves of ``tree`` in order, and its structure.

    >>> tree_flatten({"a": (1, 2), "b": [3]})[0]
    [1, 2, 3]
    """
    leaves: list = []
    return leaves, _flatten_into(tree, leaves, is_leaf)


def _flatten_into(tree, leaves: list, is_leaf) -> TreeSpec:
    if tree_is_leaf(tree, is_leaf):
        leaves.append(tree)
        return LEAF
    node_type = _node_type(tree)
    children, context = SUPPORTED_NODES[node_type].flatten_fn(tree)
    return TreeSpec(node_type, context, [_flatten_into(c, leaves, is_leaf) for c in children])


def tree_unflatten(leaves: Iterable, treespec: TreeSpec):
    """Rebuild a tree of ``treespec``'s structure from its leaves."""
    if not isinstance(treespec, TreeSpec):
        raise TypeError(
            f"tree_unflatten(leaves, treespec): Expected `treespec` to be instance of "
            f"TreeSpec but got item of type {type(treespec)}."
        )
    leaves = list(leaves)
    if len(leaves) != treespec.num_leaves:
        raise ValueError(
            f"treespec.unflatten(leaves): `leaves` has length {len(leaves)} but the spec "
            f"refers to a pytree that holds {treespec.num_leaves} items ({treespec})."
        )
    return _build(iter(leaves), treespec)


def _build(leaves, spec: TreeSpec):
    if spec.type is None:
        return next(leaves)
    children = [_build(leaves, c) for c in spec.children_specs]
    return SUPPORTED_NODES[spec.type].unflatten_fn(children, spec.context)


def tree_iter(tree, is_leaf: Callable | None = None):
    """The leaves of ``tree``, one at a time."""
    if tree_is_leaf(tree, is_leaf):
        yield tree
        return
    children, _ = SUPPORTED_NODES[_node_type(tree)].flatten_fn(tree)
    for child in children:
        yield from tree_iter(child, is_leaf)


def tree_leaves(tree, is_leaf: Callable | None = None) -> list:
    return tree_flatten(tree, is_leaf)[0]


def tree_structure(tree, is_leaf: Callable | None = None) -> TreeSpec:
    return tree_flatten(tree, is_leaf)[1]


def tree_map(func: Callable, tree, *rests, is_leaf: Callable | None = None):
    """``tree`` with ``func`` applied to every leaf; with ``rests``, ``func`` takes the leaf
    and the matching subtree of each of them (they must have ``tree``'s structure).

    >>> tree_map(lambda x: x * 10, {"a": (1, 2), "b": [3]})
    {'a': (10, 20), 'b': [30]}
    """
    leaves, spec = tree_flatten(tree, is_leaf)
    columns = [leaves] + [spec.flatten_up_to(r) for r in rests]
    return tree_unflatten(map(func, *columns), spec)


def tree_map_(func: Callable, tree, *rests, is_leaf: Callable | None = None):
    """Call ``func`` on every leaf for its effect (in-place updates); returns ``tree``."""
    leaves, spec = tree_flatten(tree, is_leaf)
    columns = [leaves] + [spec.flatten_up_to(r) for r in rests]
    for args in zip(*columns):
        func(*args)
    return tree


def _only(type_or_types_or_pred, func: Callable) -> Callable:
    """``func`` on the leaves a type (or tuple of types, or predicate) selects; others pass."""
    if isinstance(type_or_types_or_pred, (type, tuple)) or hasattr(
        type_or_types_or_pred, "__args__"
    ):
        types = type_or_types_or_pred

        def pred(x):
            return isinstance(x, types)

    elif callable(type_or_types_or_pred):
        pred = type_or_types_or_pred
    else:
        raise TypeError("Argument must be a type, a tuple of types, or a callable.")
    return lambda x: func(x) if pred(x) else x


def tree_map_only(type_or_types_or_pred, /, func: Callable, tree, is_leaf=None):
    """``tree_map`` on the leaves of the given type(s) (or that a predicate picks)."""
    return tree_map(_only(type_or_types_or_pred, func), tree, is_leaf=is_leaf)


def tree_map_only_(type_or_types_or_pred, /, func: Callable, tree, is_leaf=None):
    return tree_map_(_only(type_or_types_or_pred, func), tree, is_leaf=is_leaf)


def tree_all(pred: Callable, tree, is_leaf: Callable | None = None) -> bool:
    return all(map(pred, tree_iter(tree, is_leaf)))


def tree_any(pred: Callable, tree, is_leaf: Callable | None = None) -> bool:
    return any(map(pred, tree_iter(tree, is_leaf)))


def tree_all_only(type_or_types, /, pred: Callable, tree, is_leaf=None) -> bool:
    """``tree_all`` over the leaves of the given type(s); others count as true."""
    leaves = (x for x in tree_iter(tree, is_leaf) if isinstance(x, type_or_types))
    return all(map(pred, leaves))


def tree_any_only(type_or_types, /, pred: Callable, tree, is_leaf=None) -> bool:
    """``tree_any`` over the leaves of the given type(s)."""
    leaves = (x for x in tree_iter(tree, is_leaf) if isinstance(x, type_or_types))
    return any(map(pred, leaves))


def tree_flatten_with_path(tree, is_leaf: Callable | None = None) -> tuple[list, TreeSpec]:
    """``((key, ...), leaf)`` pairs in leaf order, and the structure."""
    pairs: list = []
    _paths_into(tree, (), pairs, is_leaf)
    return pairs, tree_structure(tree, is_leaf)


def _paths_into(tree, path: tuple, pairs: list, is_leaf) -> None:
    if tree_is_leaf(tree, is_leaf):
        pairs.append((path, tree))
        return
    node = SUPPORTED_NODES[_node_type(tree)]
    if node.flatten_with_keys_fn is None:
        raise ValueError(
            f"Did not find a flatten_with_keys_fn for type: {node.type}. Please pass a "
            "flatten_with_keys_fn argument to register_pytree_node."
        )
    keyed, _ = node.flatten_with_keys_fn(tree)
    for key, child in keyed:
        _paths_into(child, (*path, key), pairs, is_leaf)


def tree_leaves_with_path(tree, is_leaf: Callable | None = None) -> list:
    return tree_flatten_with_path(tree, is_leaf)[0]


def tree_map_with_path(func: Callable, tree, *rests, is_leaf: Callable | None = None):
    """``tree_map`` whose ``func`` takes the leaf's path first."""
    pairs, spec = tree_flatten_with_path(tree, is_leaf)
    columns = [spec.flatten_up_to(r) for r in rests]
    return tree_unflatten(
        (func(path, leaf, *more) for (path, leaf), *more in zip(pairs, *columns)), spec
    )


def keystr(kp: tuple) -> str:
    """A path as the indexing that reaches it: ``['a'][0].u``."""
    return "".join(str(k) for k in kp)


def key_get(obj, kp: tuple):
    """The subtree of ``obj`` at path ``kp``."""
    for k in kp:
        obj = k.get(obj)
    return obj


def treespec_pprint(treespec: TreeSpec) -> str:
    """A short picture of a structure: ``(*, [*, {'k': *}])``."""
    return repr(_pprint_build(treespec))


def _pprint_build(spec: TreeSpec):
    if spec.type is None:
        return _Star()
    children = [_pprint_build(c) for c in spec.children_specs]
    if spec.type is Size:
        return tuple(children)  # a Size holds ints only: torch prints a tuple of stars
    return SUPPORTED_NODES[spec.type].unflatten_fn(children, spec.context)


class _Star:
    def __repr__(self) -> str:
        return "*"


def broadcast_prefix(prefix, spec: TreeSpec) -> list | None:
    """One value per leaf of ``spec``: a leaf of ``prefix`` covers the whole subtree at its
    position (vmap's ``in_dims``/``out_dims``); None when ``prefix`` is not a prefix of it."""
    result: list = []
    return result if _broadcast(prefix, spec, result) else None


def _broadcast(prefix, spec: TreeSpec, result: list) -> bool:
    if tree_is_leaf(prefix):
        result.extend([prefix] * spec.num_leaves)
        return True
    node_type = _node_type(prefix)
    children, context = SUPPORTED_NODES[node_type].flatten_fn(prefix)
    if node_type is not spec.type or len(children) != spec.num_children:
        return False
    if node_type in (dict, OrderedDict):
        if set(context) != set(spec.context):
            return False
        # Matched by key, in the order of the tree's own keys.
        by_key = dict(zip(context, children))
        children = [by_key[k] for k in spec.context]
    elif context != spec.context:
        return False
    return all(_broadcast(p, s, result) for p, s in zip(children, spec.children_specs))
