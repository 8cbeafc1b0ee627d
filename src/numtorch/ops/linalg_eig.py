"""The general eigendecomposition (``torch.linalg.eig``/``eigvals``) on LAPACK's ``geev``
through NumPy: complex eigenvalues and unit-norm eigenvectors, whatever the input's dtype.

Eigenvectors are defined up to a complex phase; a loss that depends on the phase has no
gradient, and backward refuses it with torch's message.
"""

from __future__ import annotations

from .._core import batch_rules
from .._core.kernel_dtypes import COMPLEX, FLOATING, kernel
from .._core.op import defop
from .._core.tensor import Tensor
from ..backend import xp
from .lapack_layout import column_major
from .linalg_solve import _batch_eye, check_matrices, solve
from .return_types import structseq

eig_type = structseq("linalg_eig", ("eigenvalues", "eigenvectors"))

_COMPLEX = {xp.dtype(xp.float32): xp.complex64, xp.dtype(xp.complex64): xp.complex64}


def _eig_backward(grads, input_dtype, result, result1):
    # gA = V^{-H} (diag(gL) + (V^H gV - V^H V diag(re(diag(V^H gV)))) / conj(E)) V^H
    # with E_ij = L_j - L_i (1 on the diagonal), as torch
    L, V = result, result1
    gL, gV = grads
    n = L.shape[-1]
    if gV is None:
        inner = gL.diag_embed()
    else:
        VhgV = V.mH @ gV
        diagonal = VhgV.diagonal(0, -2, -1)
        if not bool((diagonal.imag.abs() <= 1e-2).all()):
            raise RuntimeError(
                "linalg_eig_backward: The eigenvectors in the complex case are specified up "
                "to multiplication by e^{i phi}. The specified loss function depends on this "
                "quantity, so it is ill-defined."
            )
        inner = VhgV - V.mH @ (V * diagonal.real.unsqueeze(-2))
        Lc = L.conj()
        E = Lc.unsqueeze(-2) - Lc.unsqueeze(-1) + _batch_eye(n, L)
        inner = inner / E
        if gL is not None:
            inner = inner + gL.diag_embed()
    gA = solve(V.mH, inner @ V.mH)
    return gA if input_dtype.is_complex else gA.real


def _eig_jvp(input_t, result, result1):
    # dP = V^{-1} dA V; dL = diag(dP); dV = V (dP / E, zero diagonal), minus V re(diag(V^H .)),
    # as torch
    L, V = result, result1
    dP = solve(V, input_t.to(V.dtype) @ V)
    n = L.shape[-1]
    eye = _batch_eye(n, L)
    E = L.unsqueeze(-2) - L.unsqueeze(-1) + eye
    dV = V @ (dP / E * (1 - eye))
    dV = dV - V * (V.mH @ dV).diagonal(0, -2, -1).real.unsqueeze(-2)
    return dP.diagonal(0, -2, -1), dV


@defop(
    batch=batch_rules.first_only,
    name="linalg_eig",
    dtypes=kernel("linalg_eig_out_cpu", FLOATING | COMPLEX),
    outputs=2,
    returns=eig_type,
    # only input's dtype, as torch keeps: an in-place change of input afterwards is fine
    input=lambda grads, input_dtype, result, result1: _eig_backward(
        grads, input_dtype, result, result1
    ),
    jvp=_eig_jvp,
)
def _eig(input):
    if not xp.isfinite(input).all():
        raise RuntimeError("torch.linalg.eig: input tensor should not contain infs or NaNs.")
    values, vectors = xp.linalg.eig(input)
    dtype = _COMPLEX.get(input.dtype, xp.complex128)
    return values.astype(dtype), column_major(vectors.astype(dtype))  # Note [LAPACK layout]


def eig(A):
    """Eigenvalues and eigenvectors (columns, unit norm) of square ``A``, always complex.

    Example:
        >>> import numtorch as torch
        >>> torch.linalg.eig(torch.tensor([[2.0, 0.0], [0.0, 3.0]])).eigenvalues
        tensor([2.+0.j, 3.+0.j])
    """
    check_matrices(A, "linalg.eig")
    return _eig(A)


def eigvals(A) -> Tensor:
    """The eigenvalues of square ``A`` (complex); its gradient is ``linalg.eig``'s."""
    check_matrices(A, "linalg.eigvals")
    return _eig(A)[0]
