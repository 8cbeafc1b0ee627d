"""torch.utils._pytree: flattening, specs, maps and registration, checked against torch."""

from __future__ import annotations

import collections
import warnings

import pytest

import numtorch
from numtorch.utils import _pytree as ours

torch = pytest.importorskip("torch")
theirs = pytest.importorskip("torch.utils._pytree")

Point = collections.namedtuple("Point", "x y")


def trees(lib):
    return [
        1,
        None,
        [],
        (1,),
        {"a": (1, [2, None]), "b": collections.OrderedDict(x=3)},
        [Point(1, 2), collections.defaultdict(list, {"k": 3}), collections.deque([4, 5])],
        {"w": lib.ones(2), "n": [lib.zeros(1), 3.0]},
        lib.Size([2, 3]),
    ]


def same(a, b) -> bool:
    if isinstance(a, numtorch.Tensor):
        return a.tolist() == b.tolist()
    return a == b


@pytest.mark.parametrize("index", range(len(trees(numtorch))))
def test_flatten_leaves_spec_repr_and_round_trip_as_torch(index):
    mine, reference = trees(numtorch)[index], trees(torch)[index]
    leaves, spec = ours.tree_flatten(mine)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        their_leaves, their_spec = theirs.tree_flatten(reference)
        assert repr(spec) == repr(their_spec)
        assert ours.treespec_pprint(spec) == theirs.treespec_pprint(their_spec)
        assert (spec.num_leaves, spec.num_nodes) == (their_spec.num_leaves, their_spec.num_nodes)
        assert spec.num_children == their_spec.num_children
    assert len(leaves) == len(their_leaves)
    assert all(same(a, b) for a, b in zip(leaves, their_leaves))
    rebuilt = ours.tree_unflatten(leaves, spec)
    assert type(rebuilt) is type(mine)
    assert ours.tree_structure(rebuilt) == spec
    assert spec.unflatten(leaves) is not None or mine is None


def test_specs_compare_by_type_keys_and_children():
    assert ours.tree_structure({"a": 1, "b": 2}) != ours.tree_structure({"b": 1, "a": 2})
    assert ours.tree_structure([1, 2]) != ours.tree_structure((1, 2))
    assert ours.tree_structure([1, [2]]) == ours.tree_structure([5, [6]])
    assert ours.LeafSpec() == ours.tree_structure(3)
    assert ours.tree_structure(3).is_leaf() and not ours.tree_structure([3]).is_leaf()
    assert isinstance(ours.LeafSpec(), ours.TreeSpec)


def test_map_over_several_trees_and_only_over_types():
    tree = {"a": (1, 2.0, "s"), "b": [3]}
    assert ours.tree_map_only(int, lambda x: x * 10, tree) == theirs.tree_map_only(
        int, lambda x: x * 10, tree
    )
    assert ours.tree_map_only((int, float), str, [1, 2.0]) == ["1", "2.0"]
    assert ours.tree_map(lambda a, b: (a, b), [1, 2], [[1, 2], 3]) == [(1, [1, 2]), (2, 3)]
    # dict keys match by name, not position
    assert ours.tree_map(lambda a, b: a + b, {"a": 1, "b": 2}, {"b": 5, "a": 6}) == {
        "a": 7,
        "b": 7,
    }
    assert ours.tree_all(lambda x: x > 0, [1, (2,)]) and not ours.tree_any(lambda x: x > 1, [1])
    assert ours.tree_any_only(int, lambda x: x > 2, [1, "a", 3])
    assert ours.tree_all_only(int, lambda x: x > 0, [1, "a", 3])
    seen = []
    tree = [1, [2]]
    assert ours.tree_map_(seen.append, tree) is tree and seen == [1, 2]
    assert ours.tree_leaves([1, [2]], is_leaf=lambda v: isinstance(v, list) and len(v) == 1) == [
        1,
        [2],
    ]
    assert list(ours.tree_iter({"a": [1, 2]})) == [1, 2]


def test_map_over_tensors_keeps_the_rest():
    batch = {"x": numtorch.ones(2), "y": [numtorch.zeros(1)], "n": 3}
    doubled = ours.tree_map_only(numtorch.Tensor, lambda t: t * 2, batch)
    assert doubled["x"].tolist() == [2.0, 2.0] and doubled["n"] == 3


@pytest.mark.parametrize(
    "tree, rest",
    [
        ([1, 2], (1, 2)),
        ({"a": 1}, {"b": 1}),
        ({"a": 1}, {"a": 1, "b": 2}),
        ([1, [2]], [1, 2]),
        ([1, 2], [3, 4, 5]),
    ],
)
def test_mismatched_trees_raise_torchs_value_error(tree, rest):
    with pytest.raises(ValueError) as expected:
        theirs.tree_map(lambda a, b: a, tree, rest)
    with pytest.raises(ValueError) as got:
        ours.tree_map(lambda a, b: a, tree, rest)
    assert str(got.value) == str(expected.value)


def test_unflatten_checks_the_leaf_count_and_the_spec():
    spec = ours.tree_structure({"a": (1, [2, None])})
    with pytest.raises(ValueError, match="`leaves` has length 2 but the spec"):
        ours.tree_unflatten([1, 2], spec)
    with pytest.raises(TypeError, match="Expected `treespec` to be instance of TreeSpec"):
        ours.tree_unflatten([1], [1])


def test_paths_and_keys_as_torch():
    tree = [{"a": 1}, Point(5, 6)]
    pairs, _ = ours.tree_flatten_with_path(tree)
    their_pairs, _ = theirs.tree_flatten_with_path(tree)
    assert [ours.keystr(p) for p, _ in pairs] == [theirs.keystr(p) for p, _ in their_pairs]
    assert [leaf for _, leaf in pairs] == [1, 5, 6]
    assert ours.key_get(tree, pairs[2][0]) == 6
    assert ours.tree_map_with_path(lambda p, v: ours.keystr(p), {"a": [1]}) == {"a": ["['a'][0]"]}


class Box:
    def __init__(self, a, b):
        self.a, self.b = a, b


def test_a_registered_class_is_a_node_once():
    cls = type("Pair", (Box,), {})
    ours.register_pytree_node(cls, lambda b: ([b.a, b.b], None), lambda ch, ctx: cls(*ch))
    mapped = ours.tree_map(lambda x: x + 1, cls(1, [2]))
    assert type(mapped) is cls and (mapped.a, mapped.b) == (2, [3])
    assert repr(ours.tree_structure(cls(1, 2))) == "TreeSpec(Pair, None, [*,\n  *])"
    with pytest.raises(ValueError, match="is already registered as pytree node"):
        ours.register_pytree_node(cls, lambda b: ([], None), lambda ch, ctx: cls(0, 0))
    # a class without keys cannot be walked with paths
    with pytest.raises(ValueError, match="flatten_with_keys_fn"):
        ours.tree_flatten_with_path(cls(1, 2))


def test_reachable_as_torch_names_it():
    assert numtorch.utils._pytree is ours
    assert numtorch.utils.checkpoint.tree_map is ours.tree_map
