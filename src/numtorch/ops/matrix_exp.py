"""The matrix exponential (``torch.linalg.matrix_exp``), with its derivative as torch takes it:
the top-right block of the exponential of ``[[A^T, G], [0, A^T]]`` (so higher derivatives
come from the same op); forward, the top-right block of that of ``[[A, dA], [0, A]]``."""

from __future__ import annotations

from .._core import batch_rules
from .._core.op import defop, export
from .._core.tensor import Tensor
from .._creation import zeros
from ..autograd.forward_grad import batched
from ..backend import xp
from .concatenation import cat
from .linalg_solve import check_matrices

# Pade(13) coefficients and the 1-norm bound up to which it needs no scaling (Higham 2005)
_PADE13 = (
    64764752532480000.0,
    32382376266240000.0,
    7771770303897600.0,
    1187353796428800.0,
    129060195264000.0,
    10559470521600.0,
    670442572800.0,
    33522128640.0,
    1323241920.0,
    40840800.0,
    960960.0,
    16380.0,
    182.0,
    1.0,
)
_THETA13 = 5.371920351148152


def _expm(a):
    """exp of each matrix in ``a`` by scaling and squaring with a Pade(13) approximant,
    computed in float64 (complex128 for complex matrices)."""
    dtype = a.dtype
    a = a.astype(xp.complex128 if dtype.kind == "c" else xp.float64)
    n = a.shape[-1]
    norm = xp.max(xp.sum(xp.abs(a), axis=-2), axis=-1, initial=0)
    squarings = xp.maximum(0, xp.ceil(xp.log2(xp.maximum(norm, 1e-300) / _THETA13))).astype(int)
    a = a / (2.0**squarings)[..., None, None]
    b = _PADE13
    eye = xp.eye(n)
    a2 = a @ a
    a4 = a2 @ a2
    a6 = a4 @ a2
    u = a @ (
        a6 @ (b[13] * a6 + b[11] * a4 + b[9] * a2) + b[7] * a6 + b[5] * a4 + b[3] * a2 + b[1] * eye
    )
    v = a6 @ (b[12] * a6 + b[10] * a4 + b[8] * a2) + b[6] * a6 + b[4] * a4 + b[2] * a2 + b[0] * eye
    result = xp.linalg.solve(v - u, v + u)
    for step in range(int(squarings.max(initial=0))):
        squared = result @ result
        result = xp.where((step < squarings)[..., None, None], squared, result)
    return result.astype(dtype)


def _matrix_exp_backward(grad, input):
    # the adjoint of d exp(A) is d exp(A^T)
    return _block_differential(input.mH, grad)


def _block_differential(a, direction):
    """The top-right block of exp([[a, direction], [0, a]]): d exp(a)[direction]."""
    n = a.shape[-1]
    top = cat([a, direction], -1)
    bottom = cat([zeros(*a.shape, dtype=a.dtype), a], -1)
    return _matrix_exp(cat([top, bottom], -2))[..., :n, n:]


@batched
def _matrix_exp_jvp(input_t, input):
    return _block_differential(input.expand(input_t.shape), input_t)


@defop(
    batch=batch_rules.first_only,
    name="linalg_matrix_exp",
    input=_matrix_exp_backward,
    jvp=_matrix_exp_jvp,
)
def _matrix_exp(input):
    return _expm(input)


@export
def matrix_exp(A) -> Tensor:
    """The matrix exponential ``sum_k A^k / k!`` of each square matrix in ``A``.

    Example:
        >>> import numtorch as torch
        >>> torch.linalg.matrix_exp(torch.tensor([[0.0, 1.0], [0.0, 0.0]]))
        tensor([[1., 1.],
                [0., 1.]])
    """
    check_matrices(A, "linalg.matrix_exp")
    return _matrix_exp(A)
