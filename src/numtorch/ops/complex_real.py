"""torch's complex-number API on real tensors: ``real``, ``conj`` and the ``resolve_*``
functions give the tensor itself, ``angle`` is 0 or pi, ``imag`` raises.

numtorch has no complex arithmetic; complex tensors get a clear NotImplementedError here
instead of a silently wrong result.
"""

from __future__ import annotations

import math

from .._creation import zeros_like
from .._tensor import Tensor
from ..backend import xp
from .registry import defop, export


def _real_only(input: Tensor, name: str) -> Tensor:
    if input._data.dtype.kind == "c":
        raise NotImplementedError(f"numtorch does not support complex tensors ({name})")
    return input


@export
def real(input) -> Tensor:
    """The real part: ``input`` itself for a real tensor."""
    return _real_only(input, "real")


@export
def imag(input) -> Tensor:
    _real_only(input, "imag")
    raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")


Tensor.real = property(real)
Tensor.imag = property(imag)


@export
def conj(input) -> Tensor:
    """The complex conjugate: ``input`` itself for a real tensor."""
    return _real_only(input, "conj")


@export
def conj_physical(input) -> Tensor:
    return _real_only(input, "conj_physical")


@export
def resolve_conj(input) -> Tensor:
    return _real_only(input, "resolve_conj")


@export
def resolve_neg(input) -> Tensor:
    return _real_only(input, "resolve_neg")


@export(name="conj_physical_")
def _conj_physical_(input) -> Tensor:
    return _real_only(input, "conj_physical_")


@export
def is_conj(input) -> bool:
    return False


@export
def is_neg(input) -> bool:
    return False


@export
def is_complex(input) -> bool:
    return input._data.dtype.kind == "c"


@export
def isreal(input) -> Tensor:
    """True where the imaginary part is 0: everywhere, for a real tensor."""
    _real_only(input, "isreal")
    return Tensor._make(xp.ones(input._data.shape, xp.bool_))


@export
def positive(input) -> Tensor:
    """``+input``: the tensor itself (refused for bool, as the ``+`` operator is)."""
    if input._data.dtype == xp.bool_:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


# the argument of a real number is flat almost everywhere: its derivative is 0
@export
@defop(promote="float", input=lambda grad: zeros_like(grad))
def angle(input):
    """0 for non-negative values, pi for negative ones (NaN stays NaN)."""
    if input.dtype.kind == "c":
        raise NotImplementedError("numtorch does not support complex tensors (angle)")
    return xp.where(input < 0, math.pi, xp.where(xp.isnan(input), input, 0)).astype(input.dtype)
