"""``torch.func.functional_call``, ``stack_module_state`` and
``replace_all_batch_norm_modules_``."""

from __future__ import annotations

from collections.abc import Sequence

from ..nn.modules.batchnorm import _BatchNorm
from ..nn.utils.stateless import _functional_call
from ..ops.concatenation import stack

__all__ = ["functional_call", "replace_all_batch_norm_modules_", "stack_module_state"]


def functional_call(
    module,
    parameter_and_buffer_dicts,
    args=None,
    kwargs: dict | None = None,
    *,
    tie_weights: bool = True,
    strict: bool = False,
):
    """Call ``module`` with the given tensors in place of its parameters and buffers (by
    dotted name, as in ``named_parameters``); the module itself is left unchanged.

    Args:
        parameter_and_buffer_dicts: a dict, or a tuple of dicts with distinct keys.
        args: the positional arguments (a single non-tuple value is one argument).
        tie_weights: names that share one tensor in the module share the given value too.
        strict: the names must be exactly the module's parameters and buffers.

    Example:
        >>> import numtorch as torch
        >>> from numtorch.func import functional_call
        >>> layer = torch.nn.Linear(2, 1)
        >>> params = {"weight": torch.ones(1, 2), "bias": torch.zeros(1)}
        >>> functional_call(layer, params, torch.tensor([[1.0, 2.0]]))
        tensor([[3.]])
    """
    if isinstance(parameter_and_buffer_dicts, dict):
        merged = parameter_and_buffer_dicts
    elif isinstance(parameter_and_buffer_dicts, Sequence):
        if not all(isinstance(d, dict) for d in parameter_and_buffer_dicts):
            raise ValueError(
                "Expected all elements of parameter_and_buffer_dicts to be dictionaries"
            )
        counts: dict = {}
        for d in parameter_and_buffer_dicts:
            for k in d:
                counts[k] = counts.get(k, 0) + 1
        repeated = [k for k, n in counts.items() if n > 1]
        if repeated:
            raise ValueError(
                f"{repeated} appeared in multiple dictionaries; behavior of functional call is "
                "ambiguous"
            )
        merged = {k: v for d in parameter_and_buffer_dicts for k, v in d.items()}
    else:
        raise ValueError(
            "Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of dicts, but "
            f"got {type(parameter_and_buffer_dicts)}"
        )
    return _functional_call(module, merged, args, kwargs, tie_weights=tie_weights, strict=strict)


def stack_module_state(models) -> tuple[dict, dict]:
    """``(params, buffers)``: each parameter and buffer of ``models`` (same class, same
    train/eval mode) stacked along a new first dimension, for ``vmap`` over an ensemble. The
    stacked parameters are new leaves.

    Example:
        >>> import numtorch as torch
        >>> from numtorch.func import stack_module_state
        >>> params, buffers = stack_module_state([torch.nn.Linear(3, 2) for _ in range(4)])
        >>> params["weight"].shape, params["weight"].is_leaf
        (torch.Size([4, 2, 3]), True)
    """
    if len(models) == 0:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or not any(m.training for m in models)):
        raise RuntimeError(
            "stack_module_state: Expected all models to have the same training/eval mode."
        )
    if not all(type(m) is type(models[0]) for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")
    all_params = [dict(m.named_parameters()) for m in models]
    all_buffers = [dict(m.named_buffers()) for m in models]
    params = {k: _stacked_leaf([p[k] for p in all_params], k) for k in all_params[0]}
    buffers = {k: _stacked_leaf([b[k] for b in all_buffers], k) for k in all_buffers[0]}
    return params, buffers


def _stacked_leaf(tensors: list, name: str):
    requires_grad = [t.requires_grad for t in tensors]
    if any(requires_grad) and not all(requires_grad):
        raise RuntimeError(f"Expected {name} from each model to have the same .requires_grad")
    result = stack(tensors)
    return result.detach().requires_grad_() if all(requires_grad) else result


def replace_all_batch_norm_modules_(root):
    """Make every BatchNorm module in ``root`` stop tracking running statistics, in place,
    so it normalizes with the batch's own statistics and writes no buffer: under ``vmap`` a
    running-statistics update would write a batched value into an unbatched buffer.
    Returns ``root``."""
    for module in root.modules():
        if isinstance(module, _BatchNorm):
            module.running_mean = None
            module.running_var = None
            module.num_batches_tracked = None
            module.track_running_stats = False
    return root
