"""Tensor methods about the tensor object rather than its values: ``as_subclass``, the
accelerator moves a CPU-only build refuses (``xpu()``, ``ipu()``, ``mtia()``),
``is_set_to``, the sparse-layout queries of a dense tensor, and the deprecated ``resize``."""

from __future__ import annotations

import warnings

from .._core.tensor import Tensor
from ..backend import xp
from .indexing import _alias
from .inplace_views import resize_


def as_subclass(self, cls) -> Tensor:
    """``self``'s data as an instance of ``cls`` (a Tensor subclass), still in the graph:
    torch records it as an alias (``AliasBackward0``).

    Example:
        >>> import numtorch as torch
        >>> class Tagged(torch.Tensor):
        ...     pass
        >>> y = (torch.ones(2, requires_grad=True) * 2).as_subclass(Tagged)
        >>> type(y).__name__, y.grad_fn.name()
        ('Tagged', 'AliasBackward0')
    """
    if not (isinstance(cls, type) and issubclass(cls, Tensor)):
        raise TypeError(
            "Creating a Tensor subclass from a class that does not inherit from Tensor is not "
            "possible. Make sure your class inherits from Tensor."
        )
    result = _alias(self)
    result.__class__ = cls
    return result


def _not_compiled(device: str):
    def move(self, device=None, non_blocking=False, memory_format=None):
        raise AssertionError(
            f"Torch not compiled with {device} enabled (numtorch runs on the CPU only)"
        )

    return move


def ipu(self, device=None, non_blocking=False, memory_format=None):
    raise RuntimeError("PyTorch is not linked with support for ipu devices")


def is_set_to(self, tensor) -> bool:
    """Whether both tensors view the same memory with the same sizes and strides."""
    a, b = self._data, tensor._data
    return (
        a.shape == b.shape
        and a.strides == b.strides
        and a.dtype == b.dtype
        and a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
        and xp.shares_memory(a, b)
    )


def sparse_dim(self) -> int:
    """0: a dense tensor has no sparse dims (sparse tensors answer for themselves)."""
    return 0


def dense_dim(self) -> int:
    return self.ndim


def _sparse_only(name: str, layout: str = "sparse coordinate tensor"):
    def query(self, *args, **kwargs):
        raise RuntimeError(f"{name} expected {layout} layout but got Strided")

    query.__name__ = name
    return query


def _resized_copy(self, name, sizes):
    warnings.warn(f"non-inplace {name} is deprecated", stacklevel=3)
    if self.requires_grad:  # torch records its Python Function ResizeBackward here
        raise NotImplementedError(
            f"Tensor.{name} of a tensor that requires grad (torch's ResizeBackward) is not "
            f"supported by numtorch; use reshape, or {name} on a detached tensor"
        )
    return resize_(self.clone(), *sizes)


def resize(self, *sizes):
    """Deprecated: ``resize_`` on a copy (torch warns and returns a resized clone)."""
    return _resized_copy(self, "resize", sizes)


def resize_as(self, tensor):
    return _resized_copy(self, "resize_as", (tensor.shape,))


Tensor.as_subclass = as_subclass
Tensor.xpu = _not_compiled("XPU")
Tensor.mtia = _not_compiled("MTIA")
Tensor.ipu = ipu
Tensor.is_set_to = is_set_to
Tensor.resize = resize
Tensor.resize_as = resize_as
Tensor.sparse_dim = sparse_dim
Tensor.dense_dim = dense_dim
Tensor.indices = _sparse_only("indices")
Tensor.values = _sparse_only("values", "sparse tensor")
Tensor.coalesce = _sparse_only("coalesce")
Tensor.is_coalesced = _sparse_only("is_coalesced")
