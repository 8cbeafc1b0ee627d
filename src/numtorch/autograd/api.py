"""``torch.autograd.backward`` and ``torch.autograd.grad``: argument checks around the engine."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._core.backward import _as_tuple, _make_grads, _warned_create_graph, backward  # noqa: F401
from .._core.engine import run_backward
from .._core.observers import dispatch
from .graph import GradientEdge

if TYPE_CHECKING:
    from .._core.tensor import Tensor


def grad(
    outputs,
    inputs,
    grad_outputs=None,
    retain_graph=None,
    create_graph=False,
    only_inputs=True,
    allow_unused=None,
    is_grads_batched=False,
    materialize_grads=False,
) -> tuple[Tensor, ...]:
    """The gradients of ``outputs`` w.r.t. ``inputs``, returned as a tuple (``.grad`` is not
    touched); only the part of the graph leading to ``inputs`` runs.

    Example:
        >>> import numtorch as torch
        >>> x = torch.tensor(3.0, requires_grad=True)
        >>> torch.autograd.grad(x ** 2, x)
        (tensor(6.),)
    """
    from .._creation import zeros_like

    if materialize_grads and allow_unused is False:
        raise ValueError(
            "Expected allow_unused to be True or not passed when materialize_grads="
            "True, but got: allow_unused=False."
        )
    if allow_unused is None:
        allow_unused = materialize_grads
    outputs = _as_tuple(outputs)
    inputs = (inputs,) if isinstance(inputs, GradientEdge) else _as_tuple(inputs)
    if not inputs:
        raise RuntimeError("grad requires non-empty inputs.")
    grad_outputs = _as_tuple(grad_outputs) or (None,) * len(outputs)
    if retain_graph is None:
        retain_graph = create_graph
    if is_grads_batched:
        return _batched_grad(
            outputs,
            inputs,
            grad_outputs,
            retain_graph,
            create_graph,
            allow_unused,
            materialize_grads,
        )
    if dispatch.batching is not None and (  # inside vmap: on the physical tensors
        any(t._batched for t in outputs) or any(t._batched for t in inputs)
    ):
        from ..func.batching import batched_grad  # vmap sits above autograd

        return batched_grad(
            grad,
            outputs,
            inputs,
            grad_outputs,
            retain_graph=retain_graph,
            create_graph=create_graph,
            allow_unused=allow_unused,
            materialize_grads=materialize_grads,
        )
    grads = _make_grads(outputs, grad_outputs)
    captured = run_backward(outputs, grads, retain_graph, create_graph, inputs, accumulate=False)
    result = []
    for i, (t, g) in enumerate(zip(inputs, captured)):
        if g is None:
            if materialize_grads:
                g = zeros_like(t)
            elif not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used in "
                    "the graph. Set allow_unused=True if this is the desired behavior."
                )
        result.append(g)
    return tuple(result)


def _batched_grad(
    outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused, materialize_grads
):
    """One vector-Jacobian product per row of the batched ``grad_outputs``: as torch, a
    ``vmap`` over the rows of one ordinary backward (its formulas run on batched gradients
    through the ops' batching rules)."""
    from .._creation import zeros
    from ..func.batching import map_rows  # vmap sits above autograd

    grad_outputs = _make_grads(outputs, grad_outputs, batched=True)
    count = grad_outputs[0].shape[0]
    for i, t in enumerate(outputs):
        if not t._requires_grad:
            raise RuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn"
            )
    unused = set()

    def one_row(*rows):
        grads = grad(
            outputs,
            inputs,
            rows,
            retain_graph=retain_graph,
            create_graph=create_graph,
            allow_unused=True,
        )
        unused.update(i for i, g in enumerate(grads) if g is None)
        return tuple(
            zeros(t.shape, dtype=t.dtype) if g is None else g for t, g in zip(inputs, grads)
        )

    captured = list(map_rows(one_row, grad_outputs))
    for i in unused:
        captured[i] = None
    result = []
    for i, (t, g) in enumerate(zip(inputs, captured)):
        if g is None:
            if materialize_grads:
                g = zeros((count, *t._data.shape), dtype=t.dtype)
            elif not allow_unused:
                raise RuntimeError(
                    "One of the differentiated Tensors appears to not have been used in the "
                    f"graph (input {i}, shape {list(t._data.shape)}). Set allow_unused=True if "
                    "this is the desired behavior."
                )
        result.append(g)
    return tuple(result)
