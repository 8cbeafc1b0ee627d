"""``Tensor.grad_dtype``: the dtype a leaf's accumulated gradient takes.

Note [grad_dtype]
A leaf's gradient has the leaf's dtype unless ``grad_dtype`` says otherwise: a dtype makes
accumulation into ``.grad`` cast to it (AccumulateGrad, ``_core/graph.py``), and assigning
``.grad`` of another dtype fails (``Tensor.grad``'s setter); None lets ``.grad`` take any
dtype. The setting lives in the tensor's ``__dict__`` as ``_grad_dtype`` (absent: the
tensor's dtype), so tensors that never set it pay one dict lookup per accumulation.
Gradients that ``autograd.grad`` returns for the leaf keep the leaf's dtype here (torch
casts them too).
"""

from __future__ import annotations

from ._core.dtypes import c_type_name, dtype
from ._core.tensor import Tensor


def _check_leaf(tensor: Tensor, what: str) -> None:
    if tensor._grad_fn is not None:
        raise RuntimeError(f"grad_dtype can only be {what} on leaf tensors.")


def _get(self):
    _check_leaf(self, "accessed")
    return self.__dict__.get("_grad_dtype", self.dtype)


def _set(self, value) -> None:
    _check_leaf(self, "set")
    if value is not None and not isinstance(value, dtype):
        raise RuntimeError(
            f"grad_dtype must be a torch.dtype or None, but got {type(value).__name__}"
        )
    grad = self._grad
    if value is not None and grad is not None and grad.dtype is not value:
        raise RuntimeError(
            f"Cannot set grad_dtype to '{value.scalar_name}' because there is already a "
            f"gradient with dtype '{c_type_name(grad.dtype)}'. Please clear the gradient "
            "(.grad = None) before changing grad_dtype, or ensure the new grad_dtype matches "
            "the existing gradient's dtype."
        )
    self.__dict__["_grad_dtype"] = value


Tensor.grad_dtype = property(
    _get, _set, doc="The dtype of this leaf's gradient (None: any); see Note [grad_dtype]."
)
