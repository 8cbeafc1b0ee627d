"""One autograd node over a computation that ran as ordinary ops.

torch runs some computations as a single autograd function: the graph torch.compile
captures (``CompiledFunctionBackward``), FlexAttention's eager path
(``FlexAttentionAutogradOpBackward``). numtorch runs their ops one by one and then puts one
node of torch's name over the outputs: its forward hands out detached outputs, its backward
differentiates the ops' graph with respect to the node's inputs.
"""

from __future__ import annotations

import functools

from .api import grad as _grad
from .function import Function


class _OneNode(Function):
    @staticmethod
    def forward(ctx, outputs, *inputs):
        ctx.graph_outputs = outputs
        ctx.graph_inputs = inputs
        return tuple(o.detach() for o in outputs)

    @staticmethod
    def backward(ctx, *grads):
        pairs = [(o, g) for o, g in zip(ctx.graph_outputs, grads) if g is not None]
        wanted = [i for i, t in enumerate(ctx.graph_inputs) if t.requires_grad]
        result = [None] * len(ctx.graph_inputs)
        if pairs and wanted:
            found = _grad(
                [o for o, _ in pairs],
                [ctx.graph_inputs[i] for i in wanted],
                [g for _, g in pairs],
                allow_unused=True,
                retain_graph=True,
            )
            for i, g in zip(wanted, found):
                result[i] = g
        return (None, *result)


@functools.cache
def node_class(name: str) -> type[Function]:
    """A Function whose nodes are named ``<name>Backward``."""
    return type(name, (_OneNode,), {"__module__": __name__})


def as_one_node(name: str, outputs: list, inputs: list) -> tuple:
    """``outputs`` detached behind one ``<name>Backward`` node with edges to ``inputs``."""
    return node_class(name).apply(outputs, *inputs)


def leaves_of(outputs) -> list:
    """The leaf tensors that require grad which ``outputs``' graph reaches, in the order
    a walk from the outputs first meets them."""
    found, seen, stack = [], set(), [o.grad_fn for o in outputs if o.grad_fn is not None]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        variable = getattr(node, "variable", None)
        if variable is not None:
            found.append(variable)
        stack.extend(fn for fn, _ in reversed(node.next_functions))
    return found
