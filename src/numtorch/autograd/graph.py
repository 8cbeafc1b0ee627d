"""``torch.autograd.graph``: the graph's nodes, saved-tensor hooks, ``increment_version``,
gradient edges, and (beyond torch) ``dump``/``to_dot`` to read a graph. Most of the code
lives in ``numtorch._core``."""

from typing import Any, NamedTuple

from .._core.graph import Node
from .._core.graph_dump import dump, to_dot  # noqa: F401
from .._core.saved import (  # noqa: F401
    disable_saved_tensors_hooks,
    increment_version,
    save_on_cpu,
    saved_tensors_hooks,
)


class GradientEdge(NamedTuple):
    """Where gradient flows into a tensor: its node and which of the node's outputs.
    ``autograd.grad`` takes edges among its ``inputs`` as it takes tensors."""

    node: Node
    output_nr: int
    ownership_token: Any = None

    _batched = False  # what the engine reads of an input besides its edge

    def _edge(self):
        return (self.node, self.output_nr)


def get_gradient_edge(tensor) -> GradientEdge:
    """The gradient edge of ``tensor``: its ``grad_fn`` (a leaf's ``AccumulateGrad``) and
    output number.

    Example:
        >>> import numtorch as torch
        >>> x = torch.ones(2, requires_grad=True)
        >>> y = x * 2
        >>> edge = torch.autograd.graph.get_gradient_edge(y)
        >>> edge.node.name(), torch.autograd.grad(y.sum() * 3, edge)
        ('MulBackward0', (tensor([3., 3.]),))
    """
    if not tensor.requires_grad:
        raise RuntimeError(
            "It is not possible to get the gradient edge for a Tensor that does not require "
            "gradients"
        )
    node, output_nr = tensor._edge()
    return GradientEdge(node, output_nr)
