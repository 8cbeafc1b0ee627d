"""How the engine runs hooks, in torch's order and with torch's checks on their results.

Note [Hooks ordering]
For a node that runs: tensor hooks registered on its outputs, then retain_grad (which sees
the hooked gradient), then node pre-hooks, the node, node post-hooks. Leaves: tensor hooks,
then node pre-hooks of the AccumulateGrad, the accumulation, its post-hooks and the
post-accumulate-grad hooks, which see the final ``.grad``.
"""

from __future__ import annotations

from .graph import accumulate_into_grad, engine_owned


def commit_leaf_grad(node, grad):
    if grad is None:  # no gradient arrived: torch still runs the post-accumulate-grad hooks
        for hook in tuple((node.variable._post_accumulate_hooks or {}).values()):
            hook(node.variable)
        return
    accumulate_into_grad(node.variable, grad)
    if node._hooked and node._post_hooks:
        for hook in tuple(node._post_hooks.values()):
            hook((), (grad,))


def node_pre_hooks(node, grads):
    for hook in tuple(node._pre_hooks.values()):
        replaced = hook(tuple(grads))
        if replaced is not None:
            grads = _check_hook_values(hook, replaced, grads, f"pre-hook of {node.name()}")
    return grads


def _hook_name(hook) -> str:
    return getattr(hook, "__name__", repr(hook))


def _check_hook_value(hook, new, old, owner):
    """torch's checks on a gradient a hook returned in place of ``old``."""
    if getattr(new, "_data", None) is None:
        raise TypeError(f"expected Variable, but hook returned '{type(new).__name__}'")
    if new._data.shape != old._data.shape:
        raise RuntimeError(
            f"hook '{_hook_name(hook)}' has changed the size of value (on {owner}): expected "
            f"{list(old._data.shape)}, got {list(new._data.shape)}"
        )
    if new._data.dtype != old._data.dtype:
        raise RuntimeError(
            f"hook '{_hook_name(hook)}' has changed the type of value (was {old.type()} got "
            f"{new.type()})"
        )
    return new


def _check_hook_values(hook, new, old, owner):
    new = tuple(new)
    if len(new) != len(old):
        raise RuntimeError(
            f"hook '{_hook_name(hook)}' has returned an incorrect number of values (got "
            f"{len(new)}, but expected {len(old)})"
        )
    return [
        n if n is None or o is None else _check_hook_value(hook, n, o, f"{owner}, value {i}")
        for i, (n, o) in enumerate(zip(new, old))
    ]


def _run_tensor_hooks(hooks, grad, owner):
    # torch calls them with None where no gradient arrived (a backward returned None there)
    for hook in tuple(hooks.values()):
        new = hook(grad)
        if new is not None:
            if grad is None:
                raise RuntimeError("can't replace a None gradient with a non-None value")
            grad = engine_owned(_check_hook_value(hook, new, grad, owner))
    return grad


def tensor_hooks(node, grads):
    grads = list(grads)
    for nr, hooks in (node._tensor_pre_hooks or {}).items():
        if hooks:
            grads[nr] = _run_tensor_hooks(hooks, grads[nr], f"output {nr} of {node.name()}")
    for nr, ref in (node._retains_grad or {}).items():
        t = ref()
        g = grads[nr]
        if t is not None and g is not None and t._grad_fn is node:
            t._grad = g.clone() if t._grad is None else t._grad + g
    return grads


def leaf_hooks(leaf, grads):
    if leaf._hooks:
        grad = _run_tensor_hooks(leaf._hooks, grads[0], "a leaf tensor")
        # A hook may keep the gradient it saw or returned: as in torch, .grad then gets its
        # own memory, so later accumulation into .grad does not change the kept tensor.
        if grad is not None and not grad._requires_grad and not grad.is_sparse:
            grad = grad.clone()
        return [grad]
    return grads


def node_post_hooks(node, outputs, grads):
    for hook in tuple(node._post_hooks.values()):
        replaced = hook(tuple(outputs), tuple(grads))
        if replaced is not None:
            owner = f"hook of {node.name()}"
            outputs = tuple(_check_hook_values(hook, replaced, outputs, owner))
    return outputs
