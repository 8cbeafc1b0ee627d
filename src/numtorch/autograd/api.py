"""``torch.autograd.backward`` and ``torch.autograd.grad``: argument checks around the engine."""

from __future__ import annotations

import warnings

from .._dispatch import dispatch
from .engine import run_backward
from .graph import engine_owned


def _as_tuple(value):
    from .._tensor import Tensor

    if value is None:
        return None
    if isinstance(value, Tensor):
        return (value,)
    return tuple(value)


def _make_grads(outputs, grads, batched=False):
    from .._creation import ones_like
    from .._tensor import Tensor

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
                grad = ones_like(out)
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
):
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
    inputs = _as_tuple(inputs)
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
