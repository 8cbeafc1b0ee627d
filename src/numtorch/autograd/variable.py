"""``torch.autograd.Variable``: deprecated, returns a Tensor as torch does."""

from __future__ import annotations

import warnings


class _VariableMeta(type):
    def __instancecheck__(cls, other):
        from .._core.tensor import Tensor

        return isinstance(other, Tensor)


class Variable(metaclass=_VariableMeta):
    """``Variable(tensor, requires_grad=False)`` returns a new leaf Tensor sharing ``tensor``'s
    storage and version counter (``tensor.detach()`` with the flag set), as torch does.

    Example:
        >>> import numtorch as torch
        >>> v = torch.autograd.Variable(torch.ones(2), requires_grad=True)
        >>> type(v).__name__, v.requires_grad, v.is_leaf
        ('Tensor', True, True)
    """

    def __new__(cls, data=None, requires_grad=False, volatile=False):
        from .._core.tensor import Tensor
        from .._creation import tensor

        if volatile:
            warnings.warn(
                "volatile was removed and now has no effect. Use `with torch.no_grad():` instead.",
                UserWarning,
                stacklevel=2,
            )
        if data is None:
            return tensor([], requires_grad=requires_grad)
        if not isinstance(data, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        out = data.detach()
        if requires_grad:
            out.requires_grad_(True)
        return out
