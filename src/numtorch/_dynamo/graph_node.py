"""The single autograd node torch's compiled code leaves behind.

torch.compile's default backends trace a call into a graph and run it as one autograd
function (AOTAutograd): every output that needs a gradient has ``grad_fn`` a
``CompiledFunctionBackward``, whose edges lead to the parameters and then the tensor
arguments. numtorch runs the call eagerly and then puts that node over its outputs
(autograd/one_node.py). Outputs that merely alias an input keep their own view node, as
torch regenerates those outside the graph; the ``eager`` backend runs the graph's ops as
they are, so it keeps their nodes too.
"""

from __future__ import annotations

from .._core.grad_mode import is_grad_enabled
from .._core.tensor import Tensor
from ..autograd.one_node import as_one_node
from ..compiler import run_compiled
from ..utils._pytree import tree_flatten, tree_unflatten

# backends that do not differentiate through AOTAutograd: the ops keep their own nodes
_EAGER_BACKENDS = ("eager",)


def differentiates_as_one_node(backend) -> bool:
    return not (isinstance(backend, str) and backend in _EAGER_BACKENDS)


def run_as_graph(fn, parameters, args, kwargs):
    """``fn(*args, **kwargs)``, its outputs that need a gradient behind one
    ``CompiledFunctionBackward`` node with edges to ``parameters`` and the tensor arguments."""
    result = fn(*args, **kwargs)
    if not is_grad_enabled():
        return result
    flat, spec = tree_flatten(result)
    inputs = [*parameters, *(a for a in tree_flatten((args, kwargs))[0] if isinstance(a, Tensor))]
    ids = {id(t) for t in inputs}
    picked = [
        i
        for i, o in enumerate(flat)
        if isinstance(o, Tensor)
        and o.grad_fn is not None
        and id(o) not in ids
        and (o._base is None or id(o._base) not in ids)
    ]
    if not picked:
        return result
    made = as_one_node("CompiledFunction", [flat[i] for i in picked], inputs)
    for i, o in zip(picked, made):
        flat[i] = o
    return tree_unflatten(flat, spec)


class CompiledForward:
    """The ``forward`` of a module compiled in place (``Module.compile``): the class's
    forward run as one graph (a class, not a closure, so the module still pickles)."""

    def __init__(self, module) -> None:
        self.module = module

    def __call__(self, *args, **kwargs):
        module = self.module
        forward = type(module).forward.__get__(module)
        return run_compiled(run_as_graph, forward, list(module.parameters()), args, kwargs)
