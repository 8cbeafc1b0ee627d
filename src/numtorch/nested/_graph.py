"""Nested tensor ops recorded as one autograd node named as torch names it.

Note [Nested tensor nodes]: an op on a nested tensor runs on its constituents (a softmax per
constituent, a matmul per pair). Recorded op by op, the graph would show numtorch's pieces
(``SplitBackward0``, ``CatBackward0``) where torch shows one node (``SoftmaxBackward0``,
``ToPaddedTensorBackward0``). ``record(name, fn, *inputs)`` runs ``fn`` without recording
and gives its outputs one node of that name; its backward runs ``fn`` again on the saved
inputs with recording on and differentiates that, so the gradient is ``fn``'s own
(double backward included: the recomputation is recorded when ``create_graph`` is set).
"""

from __future__ import annotations

from .. import autograd
from .._core.grad_mode import enable_grad, is_grad_enabled
from .._core.tensor import Tensor


class _Recorded(autograd.Function):
    @staticmethod
    def forward(ctx, fn, *inputs):
        ctx.fn = fn
        ctx.save_for_backward(*inputs)
        outputs = fn(*inputs)
        # outputs that alias an input would make the node a view op: hand out copies
        if isinstance(outputs, tuple):
            return tuple(o.clone() for o in outputs)
        return outputs.clone()

    @staticmethod
    def backward(ctx, *grads):
        inputs = ctx.saved_tensors
        wanted = [i for i, x in enumerate(inputs) if ctx.needs_input_grad[i + 1]]
        create_graph = is_grad_enabled()
        if not create_graph:  # fresh leaves: the differentiation stops at them
            inputs = [
                x.detach().requires_grad_(ctx.needs_input_grad[i + 1]) for i, x in enumerate(inputs)
            ]
        with enable_grad():
            outputs = ctx.fn(*inputs)
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        pairs = [(o, g) for o, g in zip(outputs, grads) if o.requires_grad and g is not None]
        found = autograd.grad(
            [o for o, _ in pairs],
            [inputs[i] for i in wanted],
            [g for _, g in pairs],
            allow_unused=True,
            # the recomputation reaches into the caller's graph: leave that graph's saved
            # values for its own backward
            retain_graph=True,
            create_graph=create_graph,
        )
        result = [None] * (len(inputs) + 1)
        for i, g in zip(wanted, found):
            result[i + 1] = g
        return tuple(result)


_NODES: dict[str, type] = {}


def record(name: str, fn, *inputs: Tensor, aten: str | None = None):
    """``fn(*inputs)`` recorded as one node of class name ``name`` (``SoftmaxBackward0``).
    Nested tensors have no forward derivatives in torch: an input with a tangent is refused
    naming torch's op (``aten``, else the node's name)."""
    if any(x._fw_grads is not None for x in inputs):
        raise NotImplementedError(
            f"Trying to use forward AD with {aten or name} that does not support it because "
            "it has not been implemented yet (nested tensors have no forward derivatives)."
        )
    function = _NODES.get(name)
    if function is None:
        function = type(name, (_Recorded,), {"__module__": __name__})
        function._backward_cls.__name__ = function._backward_cls.__qualname__ = name
        _NODES[name] = function
    return function.apply(fn, *inputs)
