"""One transform level: the inputs a transform differentiates, and what its results keep.

Note [Transform levels on one tape]
torch.func wraps tensors per transform level; numtorch has one autograd tape, so each
transform (``grad``, ``vjp``, ``jvp``, ``jacrev``...) instead runs the function on fresh
inputs and calls ``autograd.grad`` with respect to them:

- an input that does not require grad becomes a new leaf (``detach().requires_grad_()``),
  owned by this level;
- an input that requires grad (from the caller, or from an enclosing transform) becomes a
  view of itself, so the recorded graph still leads back to where it came from.

The backward pass records a graph (``create_graph=True``) only when the function's output
reaches a leaf the level does not own: an input from outside, or a tensor the function
captured. Each result is then detached unless it still reaches such a leaf, so a transformed
function returns tensors that require grad exactly when something outside it does, as in
torch.func, and nested transforms (``grad(grad(f))``, ``jacrev(jacrev(f))``, ``vmap(grad(f))``)
compose: the inner level sees the outer level's leaves as "outside". Leaves and detached
results keep their forward-mode tangents, so ``jacfwd(jacrev(f))`` runs forward-over-reverse.
"""

from __future__ import annotations

from .._core import grad_mode
from .._core.tensor import Tensor
from ..autograd.forward_grad import keep_tangents
from ..utils._pytree import tree_map
from .batching import batch_everywhere, current_levels, grad_leaf


class Level:
    """The leaves one transform owns; ``outer`` is whether an enclosing graph is recorded."""

    def __init__(self):
        self.outer = grad_mode.is_grad_enabled()
        self.leaves: list[Tensor] = []  # kept alive so their ids stay theirs

    def leaf(self, t: Tensor) -> Tensor:
        """A new leaf with ``t``'s value that this level owns (batched at every active vmap
        level: Note [Per-sample gradients] in batching.py; tangents kept for forward-over-
        reverse: Note [Forward grads])."""
        if current_levels():
            leaf, plain = grad_leaf(t)
            self.leaves.append(plain)
            return keep_tangents(leaf, t)
        leaf = keep_tangents(t.detach().requires_grad_(), t)
        self.leaves.append(leaf)
        return leaf

    def input(self, t: Tensor) -> Tensor:
        """``t`` as an input to differentiate (see Note [Transform levels on one tape])."""
        if self.outer and t._requires_grad:
            # inside vmap: batched at every level, so each sample gets its own gradient
            return batch_everywhere(t.view_as(t)) if current_levels() else t.view_as(t)
        return self.leaf(t)

    def inputs(self, tree):
        def make(t):
            if not isinstance(t, Tensor):
                raise ValueError(f"Thing passed to transform API must be Tensor, got {type(t)}")
            return self.input(t)

        return tree_map(make, tree)

    def records(self, tensors) -> bool:
        """Whether a backward from ``tensors`` must record a graph: the enclosing graph is
        recorded and ``tensors`` reach a leaf from outside."""
        return self.outer and self.reaches_outside(tensors)

    def reaches_outside(self, tensors) -> bool:
        """Whether the graph behind ``tensors`` reaches a leaf this level does not own."""
        own = {id(t) for t in self.leaves}
        stack = [t._edge()[0] for t in tensors if isinstance(t, Tensor) and t._requires_grad]
        seen = set()
        while stack:
            node = stack.pop()
            if node is None or node in seen:
                continue
            seen.add(node)
            if node._is_accumulator:
                if id(node.variable) not in own:
                    return True
                continue
            stack.extend(n for n, _ in node.next_functions)
        return False

    def result(self, t, outer: bool | None = None):
        """``t`` as the caller sees it: detached unless the enclosing graph is recorded
        (``outer``, by default as when the level began) and ``t`` reaches a leaf from outside."""
        if not (isinstance(t, Tensor) and t._requires_grad):
            return t
        if outer is None:
            outer = self.outer
        return t if outer and self.reaches_outside((t,)) else keep_tangents(t.detach(), t)

    def results(self, tree):
        """``result`` over a pytree whose leaves must be tensors (torch's check for aux)."""

        def unwrap(t):
            if not isinstance(t, Tensor):
                raise RuntimeError(f"Expected tensors, got unsupported type {type(t)}")
            return self.result(t)

        return tree_map(unwrap, tree)
