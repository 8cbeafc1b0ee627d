"""``torch.autograd.Variable``: deprecated, returns a Tensor as torch does."""

from __future__ import annotations


class _VariableMeta(type):
    def __instancecheck__(cls, other):
        from .._tensor import Tensor

        return isinstance(other, Tensor)


class Variable(metaclass=_VariableMeta):
    """``Variable(tensor, requires_grad=False)`` returns ``tensor`` (with the flag set)."""

    def __new__(cls, data=None, requires_grad=False, volatile=False):
        from .._creation import tensor
        from .._tensor import Tensor

        if data is None:
            data = tensor([])
        if not isinstance(data, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        if requires_grad:
            data.requires_grad_(True)
        return data
