"""``torch.func.jvp`` and ``linearize``, in forward mode.

The primals become dual tensors at a new forward AD level (Note [Forward grads] in
autograd/forward_grad.py); the function runs once, and each output's tangent is ``J v``.
Levels nest, so ``jvp`` composes with itself, with ``jacfwd`` and with the reverse-mode
transforms (``grad(lambda x: jvp(f, (x,), (v,))[1])``, ``jacfwd(jacrev(f))``).
"""

from __future__ import annotations

from collections.abc import Callable

from .._core.tensor import Tensor
from .._creation import zeros_like
from ..autograd.forward_grad import enter_level, exit_level, get_tangent, hidden_levels, set_tangent
from ..autograd.forward_tape import Tape
from ..autograd.function import func_transform
from ..utils._pytree import tree_flatten, tree_unflatten
from .args import check_aux_tensors, check_floating_primals, check_tensor_outputs, split_aux
from .batched_tensor import is_batched
from .batching import batch_everywhere, current_levels

__all__ = ["jvp", "linearize"]

_JVP = "jvp(f, primals, tangents)"


def jvp(func: Callable, primals: tuple, tangents, *, strict: bool = False, has_aux: bool = False):
    """``(func(*primals), J v)``: the output and the Jacobian-vector product with the
    ``tangents`` (same structure as ``primals``). With ``has_aux``, ``func`` returns
    ``(output, aux)`` and so does ``jvp``, with the product in between.

    Example:
        >>> import numtorch as torch
        >>> from numtorch.func import jvp
        >>> jvp(lambda x: x ** 2, (torch.tensor([1.0, 2.0]),), (torch.ones(2),))
        (tensor([1., 4.]), tensor([2., 4.]))
    """
    if not isinstance(primals, tuple):
        raise RuntimeError(
            f"{_JVP}: Expected primals to be a tuple. E.g. it should be valid to call f(*primals)."
        )
    flat_primals, primals_spec = tree_flatten(primals)
    flat_tangents, tangents_spec = tree_flatten(tangents)
    if primals_spec != tangents_spec:
        raise RuntimeError(
            f"{_JVP}: Expected primals and tangents to have the same python structure. For "
            "example, if primals is a tuple of 3 tensors, tangents also must be. Got primals "
            f"with structure {primals_spec} and tangents with structure {tangents_spec}"
        )
    _check_tensors(flat_primals, "primals")
    _check_tensors(flat_tangents, "tangents")
    check_floating_primals(flat_primals)
    for p, t in zip(flat_primals, flat_tangents):
        if p.shape != t.shape:
            raise RuntimeError(
                "Trying to set a forward gradient that has a different size than that of the "
                f"original Tensor, this is not supported. Tensor is of size {list(p.shape)} "
                f"while the given forward gradient is of size {list(t.shape)}."
            )
    level = enter_level()
    try:
        duals = [_dual(p, t, level) for p, t in zip(flat_primals, flat_tangents)]
        with func_transform():
            output = func(*tree_unflatten(duals, primals_spec))
        aux = None
        if has_aux:
            output, aux = split_aux(output, _JVP)
            check_aux_tensors(aux)
        flat_outputs, output_spec = tree_flatten(output)
        check_tensor_outputs(flat_outputs, _JVP)
        tangents_out = []
        for out in flat_outputs:
            t = get_tangent(out, level)
            if t is None:
                if strict:
                    raise RuntimeError(
                        f"{_JVP}: The output of f is independent of the inputs. This is not "
                        "allowed with strict=True."
                    )
                t = zeros_like(out)
            tangents_out.append(t)
    finally:
        exit_level(level)  # the outputs lose this level's tangents
    result = tree_unflatten(flat_outputs, output_spec), tree_unflatten(tangents_out, output_spec)
    return (*result, aux) if has_aux else result


def _dual(primal: Tensor, tangent: Tensor, level: int) -> Tensor:
    with hidden_levels(level):
        if _levels(tangent) - _levels(primal):
            # a tangent mapped by vmap where its primal is not: the dual is mapped too (each
            # sample's primal is the same)
            primal = batch_everywhere(primal)
        dual = primal.view_as(primal)
    set_tangent(dual, level, tangent)
    return dual


def _levels(t) -> set:
    levels = set()
    while is_batched(t):
        levels.add(t._level)
        t = t._value
    return levels


def linearize(func: Callable, *primals):
    """``(func(*primals), jvp_fn)``: ``jvp_fn(*tangents)`` returns the Jacobian-vector
    product at ``primals``. ``func`` runs once, in forward mode, recording its ops; each
    call of ``jvp_fn`` replays only their forward derivatives (Note [Forward tapes]).

    Example:
        >>> import numtorch as torch
        >>> from numtorch.func import linearize
        >>> out, jvp_fn = linearize(torch.sin, torch.zeros(3))
        >>> jvp_fn(torch.ones(3))
        tensor([1., 1., 1.])
    """
    flat_primals, primals_spec = tree_flatten(primals)
    replay = None
    if current_levels():  # inside vmap: the function runs again for each call
        result = func(*primals)
    else:
        _check_tensors(flat_primals, "primals")
        check_floating_primals(flat_primals)
        level = enter_level()
        try:
            duals = [_dual(p, zeros_like(p), level) for p in flat_primals]
            with Tape(level) as tape, func_transform():
                result = func(*tree_unflatten(duals, primals_spec))
        finally:
            exit_level(level)
        flat_outputs, output_spec = tree_flatten(result)
        check_tensor_outputs(flat_outputs, _JVP)
        if not tape.broken:

            def replay(flat_tangents):
                found = tape.replay(list(zip(duals, flat_tangents)), flat_outputs)
                found = [zeros_like(o) if t is None else t for t, o in zip(found, flat_outputs)]
                return tree_unflatten(found, output_spec)

    def jvp_fn(*tangents):
        flat_tangents, tangents_spec = tree_flatten(tangents)
        if tangents_spec != primals_spec:
            raise RuntimeError(
                f"Expected the tangents {tangents_spec} to have the same argspec as the "
                f"primals {primals_spec}"
            )
        for i, (t, p) in enumerate(zip(flat_tangents, flat_primals)):
            for what, have, want in (("shape", t.shape, p.shape), ("dtype", t.dtype, p.dtype)):
                if have != want:
                    raise RuntimeError(
                        f"tangent:{i} with {what} {have} in flattened pytree doesn't match "
                        f"the {what} {want} of the corresponding primal."
                    )
        if replay is not None:
            return replay(flat_tangents)
        return jvp(func, primals, tangents)[1]

    return result, jvp_fn


def _check_tensors(flat: list, name: str) -> None:
    if not flat:
        raise RuntimeError(f"{_JVP}: Expected {name} to contain at least one Tensor.")
    for t in flat:
        if not isinstance(t, Tensor):
            raise RuntimeError(f"{_JVP}: Expected {name} to only contain Tensors, got {type(t)}")
