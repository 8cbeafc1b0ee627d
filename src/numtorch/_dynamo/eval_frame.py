"""``OptimizedModule``: what ``torch.compile`` returns for a module."""

from __future__ import annotations

from ..compiler import run_compiled
from ..nn.modules.module import Module
from . import graph_node


class OptimizedModule(Module):
    """A compiled module as torch builds it: the original module held as ``_orig_mod`` (so
    its parameters appear under ``_orig_mod.``) and attributes it lacks read from there.
    Its forward runs the original module eagerly."""

    def __init__(self, mod: Module, dynamo_ctx=None, backend="inductor") -> None:
        super().__init__()
        self._orig_mod = mod
        self.dynamo_ctx = dynamo_ctx
        self._graph_node = graph_node.differentiates_as_one_node(backend)

    def forward(self, *args, **kwargs):
        if not self._graph_node:
            return run_compiled(self._orig_mod, *args, **kwargs)
        parameters = list(self._orig_mod.parameters())
        return run_compiled(graph_node.run_as_graph, self._orig_mod, parameters, args, kwargs)

    def __getattr__(self, name: str):
        if name == "_orig_mod":
            return self._modules["_orig_mod"]
        return getattr(self._orig_mod, name)

    def __reduce__(self):
        backend = "inductor" if self._graph_node else "eager"
        return (self.__class__, (self._orig_mod, self.dynamo_ctx, backend))
