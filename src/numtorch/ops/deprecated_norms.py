"""``torch.frobenius_norm`` and ``torch.nuclear_norm``: norms torch keeps for TorchScript
programs, deprecated in favour of ``linalg.vector_norm`` and ``linalg.matrix_norm``."""

from __future__ import annotations

from .._core.op import export
from .._core.tensor import Tensor
from .._core.warn_once import warn_once
from . import linalg_functions
from .nn.distance import norm_dim_op
from .reduction import reduce_dims


def _deprecated(name: str, instead: str) -> None:
    warn_once(  # torch warns once per process
        f"at::{name} is deprecated and it is just left for JIT compatibility. It will be "
        f"removed in a future PyTorch release. Please use `{instead}` instead",
        stacklevel=3,
    )


@export(method=False)
def frobenius_norm(input, dim=None, keepdim=False) -> Tensor:
    """The 2-norm over ``dim`` (at most two dims), recorded as ``NormBackward1``."""
    if dim is None:
        raise TypeError('frobenius_norm() missing 1 required positional arguments: "dim"')
    _deprecated("frobenius_norm", "linalg.vector_norm(A, 2., dim, keepdim)")
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    if len(dims) > 2:
        raise RuntimeError(
            f"Expected at most 2 dimensions, but got {len(dims)} dimensions instead."
        )
    if not (input.is_floating_point() or input.is_complex()):
        raise RuntimeError(
            "norm(): input dtype should be either floating point or complex. "
            f"Got {input.dtype.scalar_name} instead."
        )
    return norm_dim_op(input, 2.0, reduce_dims(dims, input.ndim), keepdim)


@export(method=False)
def nuclear_norm(input, dim=(-2, -1), keepdim=False) -> Tensor:
    """The sum of singular values of the matrices over ``dim``."""
    if isinstance(dim, bool):  # nuclear_norm(input, keepdim): torch's first overload
        dim, keepdim = (-2, -1), dim
    _deprecated("nuclear_norm", "linalg.matrix_norm(A, 'nuc', dim, keepdim)")
    return linalg_functions.matrix_norm(input, "nuc", dim, keepdim)
