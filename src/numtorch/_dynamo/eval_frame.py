"""``OptimizedModule``: what ``torch.compile`` returns for a module."""

from __future__ import annotations

from ..nn.modules.module import Module


class OptimizedModule(Module):
    """A compiled module as torch builds it: the original module held as ``_orig_mod`` (so
    its parameters appear under ``_orig_mod.``) and attributes it lacks read from there.
    Its forward runs the original module eagerly."""

    def __init__(self, mod: Module, dynamo_ctx=None) -> None:
        super().__init__()
        self._orig_mod = mod
        self.dynamo_ctx = dynamo_ctx

    def forward(self, *args, **kwargs):
        return self._orig_mod(*args, **kwargs)

    def __getattr__(self, name: str):
        if name == "_orig_mod":
            return self._modules["_orig_mod"]
        return getattr(self._orig_mod, name)

    def __reduce__(self):
        return (self.__class__, (self._orig_mod, self.dynamo_ctx))
