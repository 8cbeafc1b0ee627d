"""``torch.func.grad``, ``grad_and_value`` and ``vjp`` (see Note [Transform levels on one tape]
in level.py for how they nest)."""

from __future__ import annotations

from collections.abc import Callable

from .._core import grad_mode
from .._core.tensor import Tensor
from ..autograd.function import func_transform
from ..utils._pytree import tree_flatten, tree_unflatten, treespec_pprint
from .args import (
    check_argnums,
    check_tensor_outputs,
    grads_or_zeros,
    replace_args,
    slice_argnums,
    split_aux,
    wraps,
)
from .level import Level

__all__ = ["grad", "grad_and_value", "vjp"]


def grad_and_value(func: Callable, argnums=0, has_aux: bool = False) -> Callable:
    """Like ``grad``, but the new function returns ``(gradient, value)`` (``(gradient,
    (value, aux))`` with ``has_aux``).

    Example:
        >>> import numtorch as torch
        >>> from numtorch.func import grad_and_value
        >>> grad_and_value(lambda x: (x ** 2).sum())(torch.tensor([1.0, 2.0]))
        (tensor([2., 4.]), tensor(5.))
    """

    @wraps(func)
    def wrapper(*args, **kwargs):
        return _grad_and_value(func, argnums, has_aux, args, kwargs)

    return wrapper


def grad(func: Callable, argnums=0, has_aux: bool = False) -> Callable:
    """The gradient of the scalar function ``func`` with respect to the argument(s) at
    ``argnums``, as a new function of the same arguments.

    Args:
        argnums: an int, or a tuple of ints (the gradients are then a tuple). An argument may
            be a pytree (tuple, list, dict) of tensors; its gradient has the same structure.
        has_aux: ``func`` returns ``(output, aux)``; the new function returns
            ``(gradient, aux)``.

    Example:
        >>> import numtorch as torch
        >>> from numtorch.func import grad
        >>> x = torch.tensor(2.0)
        >>> grad(lambda x: x ** 3)(x), grad(grad(lambda x: x ** 3))(x)
        (tensor(12.), tensor(12.))
    """

    @wraps(func)
    def wrapper(*args, **kwargs):
        gradient, value = _grad_and_value(func, argnums, has_aux, args, kwargs)
        return (gradient, value[1]) if has_aux else gradient

    return wrapper


def _grad_and_value(func, argnums, has_aux: bool, args: tuple, kwargs: dict):
    api = "grad_and_value(f)(*args)"
    level = Level()
    with grad_mode.enable_grad(), func_transform():
        argnums = check_argnums(argnums, len(args))
        diff_args = level.inputs(slice_argnums(args, argnums))
        output = func(*replace_args(args, diff_args, argnums), **kwargs)
        aux = None
        if has_aux:
            output, aux = split_aux(output, api)
        if not isinstance(output, Tensor):
            raise RuntimeError(f"{api}: Expected f(*args) to return a Tensor, got {type(output)}")
        if output.dim() != 0:
            raise RuntimeError(
                f"{api}: Expected f(*args) to return a scalar Tensor, got tensor with "
                f"{output.dim()} dims. Maybe you wanted to use the vjp or jacrev APIs instead?"
            )
        flat_args, spec = tree_flatten(diff_args)
        create_graph = level.records((output,))
        grads = grads_or_zeros((output,), flat_args, create_graph=create_graph)
        if create_graph:
            grads = [level.result(g) for g in grads]
        gradient = tree_unflatten(grads, spec)
        # The walk in records() already told whether the output reaches outside.
        value = output if create_graph else output.detach()
        if has_aux:
            return gradient, (value, level.results(aux))
    return gradient, value


def vjp(func: Callable, *primals, has_aux: bool = False):
    """``(func(*primals), vjp_fn)``: ``vjp_fn(cotangents)`` returns the vector-Jacobian
    product with respect to each primal, as a tuple. ``cotangents`` has the structure of the
    output; ``vjp_fn`` may be called many times. With ``has_aux``, returns
    ``(output, vjp_fn, aux)``.

    Example:
        >>> import numtorch as torch
        >>> from numtorch.func import vjp
        >>> out, vjp_fn = vjp(torch.sin, torch.tensor([0.0, 1.0]))
        >>> vjp_fn(torch.ones(2))
        (tensor([1.0000, 0.5403]),)
    """
    return vjp_with_argnums(func, primals, None, has_aux)


def vjp_with_argnums(func, primals: tuple, argnums, has_aux: bool, api="vjp(f, *primals)"):
    """``vjp`` over the primals at ``argnums`` (all when None); the rest pass through."""
    level = Level()
    with grad_mode.enable_grad(), func_transform():
        if argnums is None:
            diff = level.inputs(primals)
            primals = diff
        else:
            argnums = check_argnums(argnums, len(primals))
            diff = level.inputs(slice_argnums(primals, argnums))
            primals = replace_args(primals, diff, argnums)
        output = func(*primals)
        aux = None
        if has_aux:
            output, aux = split_aux(output, api)
            aux = level.results(aux)
        flat_outputs, output_spec = tree_flatten(output)
        check_tensor_outputs(flat_outputs, api)
        flat_diff, diff_spec = tree_flatten(diff)
        for out in flat_outputs:
            if not (out.is_floating_point() or out.dtype.is_complex):
                raise RuntimeError(
                    "vjp(f, ...): All outputs of f must be floating-point or complex Tensors, "
                    f"got Tensor with dtype {out.dtype}"
                )
        results = tree_unflatten([level.result(o) for o in flat_outputs], output_spec)

    def vjp_fn(cotangents, retain_graph: bool = True, create_graph: bool | None = None):
        if create_graph is None:
            create_graph = grad_mode.is_grad_enabled()
        if not isinstance(retain_graph, bool):
            raise TypeError(
                f"vjp_fn(): argument 'retain_graph' must be bool, not {type(retain_graph).__name__}"
            )
        flat_cotangents, cotangents_spec = tree_flatten(cotangents)
        if cotangents_spec != output_spec:
            raise RuntimeError(
                "Expected pytree structure of cotangents to be the same as pytree structure "
                f"of outputs to the function. cotangents: {treespec_pprint(cotangents_spec)}, "
                f"primal output: {treespec_pprint(output_spec)}"
            )
        create_graph = create_graph and (
            level.reaches_outside(flat_outputs)
            or any(isinstance(c, Tensor) and c._requires_grad for c in flat_cotangents)
        )
        grads = grads_or_zeros(
            flat_outputs, flat_diff, flat_cotangents, retain_graph, create_graph=create_graph
        )
        if create_graph:
            grads = [level.result(g, outer=True) for g in grads]
        return tree_unflatten(grads, diff_spec)

    if has_aux:
        return results, vjp_fn, aux
    return results, vjp_fn
