"""``torch.func.jvp`` and ``linearize``, by the double-backward trick.

numtorch has no forward-mode AD. The vector-Jacobian product ``u -> J^T u`` is linear in the
cotangent ``u``, so differentiating it with respect to ``u`` in the direction of the tangents
``v`` gives ``J v``: one backward with ``create_graph=True`` from the outputs (``u`` a dummy
of zeros: its value never matters), then one backward of that graph into ``u``.
"""

from __future__ import annotations

from collections.abc import Callable

from .._core import grad_mode
from .._core.tensor import Tensor
from .._creation import zeros_like
from ..autograd.api import grad as autograd_grad
from ..utils._pytree import tree_flatten, tree_unflatten
from .args import check_floating_primals, check_tensor_outputs, split_aux
from .level import Level

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
    level = Level()
    with grad_mode.enable_grad():
        diff = [level.input(p) for p in flat_primals]
        output = func(*tree_unflatten(diff, primals_spec))
        aux = None
        if has_aux:
            output, aux = split_aux(output, _JVP)
            aux = level.results(aux)
        flat_outputs, output_spec = tree_flatten(output)
        check_tensor_outputs(flat_outputs, _JVP)
        push = _Pushforward(level, flat_outputs, diff)
        tangents_out = push(flat_tangents, level.outer, retain_graph=False, strict=strict)
        outputs = [level.result(o) for o in flat_outputs]
    result = tree_unflatten(outputs, output_spec), tree_unflatten(tangents_out, output_spec)
    return (*result, aux) if has_aux else result


def linearize(func: Callable, *primals):
    """``(func(*primals), jvp_fn)``: ``jvp_fn(*tangents)`` returns the Jacobian-vector
    product at ``primals``, reusing one recorded graph for every call.

    Example:
        >>> import numtorch as torch
        >>> from numtorch.func import linearize
        >>> out, jvp_fn = linearize(torch.sin, torch.zeros(3))
        >>> jvp_fn(torch.ones(3))
        tensor([1., 1., 1.])
    """
    flat_primals, primals_spec = tree_flatten(primals)
    level = Level()
    with grad_mode.enable_grad():
        diff = level.inputs(flat_primals)
        output = func(*tree_unflatten(diff, primals_spec))
        flat_outputs, output_spec = tree_flatten(output)
        push = _Pushforward(level, flat_outputs, diff)
        result = tree_unflatten([level.result(o) for o in flat_outputs], output_spec)

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
        outer = grad_mode.is_grad_enabled()
        return tree_unflatten(push(flat_tangents, outer, retain_graph=True), output_spec)

    return result, jvp_fn


def _check_tensors(flat: list, name: str) -> None:
    if not flat:
        raise RuntimeError(f"{_JVP}: Expected {name} to contain at least one Tensor.")
    for t in flat:
        if not isinstance(t, Tensor):
            raise RuntimeError(f"{_JVP}: Expected {name} to only contain Tensors, got {type(t)}")


class _Pushforward:
    """``J v`` for the outputs of a function run on ``inputs`` (the double-backward trick)."""

    def __init__(self, level: Level, outputs: list, inputs: list):
        self.level, self.outputs = level, outputs
        self.live = [k for k, o in enumerate(outputs) if o._requires_grad and o.is_floating_point()]
        # Dummy cotangents, owned by the level (zeros: their value never enters J v).
        self.dummies = [level.leaf(zeros_like(outputs[k])) for k in self.live]
        self.vjps = []
        if self.live:
            self.vjps = autograd_grad(
                tuple(outputs[k] for k in self.live),
                tuple(inputs),
                tuple(self.dummies),
                create_graph=True,
                allow_unused=True,
            )

    def __call__(self, tangents: list, outer: bool, retain_graph: bool, strict=False) -> list:
        """The products with ``tangents``; ``outer``: whether the caller records a graph."""
        level = self.level
        pairs = [(v, t) for v, t in zip(self.vjps, tangents) if v is not None and v._requires_grad]
        create_graph = outer and (
            level.reaches_outside(self.outputs) or any(t._requires_grad for t in tangents)
        )
        found = [None] * len(self.live)
        if pairs:
            found = autograd_grad(
                tuple(v for v, _ in pairs),
                tuple(self.dummies),
                tuple(t for _, t in pairs),
                retain_graph=retain_graph or create_graph,
                create_graph=create_graph,
                allow_unused=True,
            )
        result = [None] * len(self.outputs)
        for k, g in zip(self.live, found):
            result[k] = g
        for k, (g, out) in enumerate(zip(result, self.outputs)):
            if g is None:
                if strict:
                    raise RuntimeError(
                        "jvp(f, primals, tangents, strict=True): The output of f is "
                        "independent of the inputs. This is not allowed with strict=True."
                    )
                g = zeros_like(out)
            result[k] = level.result(g, outer=True) if create_graph else g
        return result
