# torch.utils._pytree over a nested batch: move, cast and count leaves, rebuild the structure
import collections
import importlib

# by the running library's name: an import statement would bind real torch's module
pytree = importlib.import_module(torch.__name__ + ".utils._pytree")

Batch = collections.namedtuple("Batch", "inputs targets")
batch = {
    "image": torch.arange(6.0).reshape(2, 3),
    "meta": Batch(inputs=[torch.ones(2), torch.zeros(2, dtype=torch.int64)], targets=None),
    "ids": (1, 2),
}
leaves, spec = pytree.tree_flatten(batch)
print(spec)
print(pytree.treespec_pprint(spec), spec.num_leaves)
doubled = pytree.tree_map_only(torch.Tensor, lambda t: t * 2, batch)
out(doubled["image"], doubled["meta"].inputs, doubled["ids"])
halves = pytree.tree_map(lambda t: t.double() / 2 if torch.is_tensor(t) else t, batch)
out(pytree.tree_leaves(halves))
out(pytree.tree_all(lambda v: v is None or torch.is_tensor(v) or v > 0, batch))
out(pytree.tree_any_only(torch.Tensor, lambda t: t.dtype == torch.int64, batch))
rebuilt = pytree.tree_unflatten(leaves, spec)
out(type(rebuilt["meta"]).__name__, rebuilt["ids"])
paths = [pytree.keystr(p) for p, _ in pytree.tree_flatten_with_path(batch)[0]]
print(paths)
summed = pytree.tree_map(lambda a, b: a + b, [torch.ones(2), 3], [torch.ones(2), 4])
out(summed)
err(lambda: pytree.tree_map(lambda a, b: a, [1, 2], (1, 2)))
err(lambda: pytree.tree_unflatten([1], spec))


# ---
# pytree: a registered container class maps like a builtin one
import importlib

pytree = importlib.import_module(torch.__name__ + ".utils._pytree")


class Pair:
    def __init__(self, first, second):
        self.first, self.second = first, second


pytree.register_pytree_node(
    Pair, lambda p: ([p.first, p.second], None), lambda children, context: Pair(*children)
)
p = pytree.tree_map(lambda t: t + 1, Pair(torch.zeros(2), [torch.ones(1)]))
out(p.first, p.second)
print(pytree.tree_structure(Pair(1, 2)))
err(lambda: pytree.register_pytree_node(Pair, lambda p: ([], None), lambda c, x: Pair(0, 0)))
