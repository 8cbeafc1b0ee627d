"""``torch.autograd.backward`` and ``Tensor.backward``: argument checks around the engine
(``torch.autograd.grad``, which also takes batched gradients, is in autograd/api.py)."""

from __future__ import annotations

import warnings

from ..backend import xp
from .engine import run_backward
from .graph import engine_owned
from .meta import metafy
from .tensor import Tensor


def _as_tuple(value):
    if value is None:
        return None
    if isinstance(value, Tensor):
        return (value,)
    return tuple(value)


def _make_grads(outputs, grads, batched=False):
    # torch zips outputs with gradients: extra gradients are ignored, missing ones raise
    grads = grads[: len(outputs)]
    if len(grads) != len(outputs):
        raise RuntimeError(
            f"grad can be implicitly created only for scalar outputs; got "
            f"{len(grads)} gradients for {len(outputs)} tensors"
        )
    result = []
    for i, (out, grad) in enumerate(zip(outputs, grads)):
        if not isinstance(out, Tensor):
            raise TypeError(f"expected a Tensor as output {i}, got {type(out).__name__}")
        if grad is None:
            if batched:
                raise ValueError(
                    f"is_grads_batched=True needs a grad_output for output {i}, of shape "
                    f"[batch_size] + {list(out._data.shape)}"
                )
            if out._requires_grad:
                if out._data.size != 1:
                    raise RuntimeError(
                        "grad can be implicitly created only for scalar outputs (the output has "
                        f"shape {list(out._data.shape)}; pass a gradient of that shape, e.g. "
                        "y.backward(torch.ones_like(y)), or reduce y with .sum() first)"
                    )
                if out._data.dtype.kind not in "fV":
                    raise RuntimeError(
                        "grad can be implicitly created only for real scalar "
                        f"outputs but got {out.dtype}"
                    )
                grad = out._make(xp.ones(out._data.shape, out._data.dtype))
                if out.is_meta:
                    metafy(grad)
            result.append(grad)
            continue
        if not isinstance(grad, Tensor):
            raise TypeError(
                f"gradients can be either Tensors or None, but got {type(grad).__name__}"
            )
        expected = out._data.shape
        got = grad._data.shape[1:] if batched else grad._data.shape
        if got != expected and batched:
            raise RuntimeError(
                "If `is_grads_batched=True`, we interpret the first dimension of each "
                "grad_output as the batch dimension. The sizes of the remaining dimensions are "
                "expected to match the shape of corresponding output, but a mismatch was "
                f"detected: grad_output[{i}] has a shape of torch.Size({list(got)}) and "
                f"output[{i}] has a shape of torch.Size({list(expected)}). If you only want "
                "some tensors in `grad_output` to be considered batched, consider using vmap."
            )
        if got != expected:
            what = "grad_output"
            raise RuntimeError(
                f"Mismatch in shape: {what}[{i}] has a shape of torch.Size({list(got)}) and "
                f"output[{i}] has a shape of torch.Size({list(expected)})."
            )
        if grad._data.dtype != out._data.dtype:
            grad = grad.to(out.dtype)
        result.append(engine_owned(grad))  # Note [Gradient ownership]
    return result


_warned_create_graph = [False]


def backward(
    tensors,
    grad_tensors=None,
    retain_graph=None,
    create_graph=False,
    grad_variables=None,
    inputs=None,
) -> None:
    """Accumulate into ``.grad`` of graph leaves the gradient of ``tensors``.

    Args:
        grad_tensors: the gradient w.r.t. each tensor (implicit ones for one-element tensors).
        retain_graph: keep saved values for another backward (defaults to ``create_graph``).
        create_graph: record the backward pass, for higher-order derivatives.
        inputs: accumulate only into these tensors' ``.grad``.
    """
    if grad_variables is not None:
        grad_tensors = grad_variables
    tensors = _as_tuple(tensors)
    if inputs is not None:
        inputs = _as_tuple(inputs)
        if not inputs:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    grads = _as_tuple(grad_tensors) or (None,) * len(tensors)
    grads = _make_grads(tensors, grads)
    if create_graph and inputs is None and not _warned_create_graph[0]:
        _warned_create_graph[0] = True
        warnings.warn(
            "Using backward() with create_graph=True will create a reference cycle between the "
            "parameter and its gradient which can cause a memory leak. We recommend using "
            "autograd.grad when creating the graph to avoid this. If you have to use this "
            "function, make sure to reset the .grad fields of your parameters to None after use "
            "to break the cycle and avoid the leak.",
            UserWarning,
            stacklevel=3,
        )
    if retain_graph is None:
        retain_graph = create_graph
    run_backward(tensors, grads, retain_graph, create_graph, inputs, accumulate=True)


def _tensor_backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    """Compute the gradient of this tensor w.r.t. graph leaves (see autograd.backward)."""
    backward(self, gradient, retain_graph, create_graph, inputs=inputs)


_tensor_backward.__name__ = "backward"
_tensor_backward.__qualname__ = "Tensor.backward"
Tensor.backward = _tensor_backward  # bound here: Tensor sits below the engine
