"""Solves from triangular and Cholesky factors: the deprecated ``triangular_solve`` (which
also returns a copy of ``A``), ``cholesky_solve``, ``cholesky_inverse`` and
``linalg.cholesky_ex``.

With ``A = L L^H``: ``X = A^-1 B`` has ``gB = A^-1 gX`` and ``gL = -(C + C^H) L`` for
``C = gB X^H``; ``A^-1`` has ``gL = -(R (G + G^H) R) L`` for ``R = A^-1``. Forward: ``dX =
A^-1 (dB - dA X)`` with ``dA = dL L^H + L dL^H``, from the triangles the ops read (torch's
forward derivatives take the whole tangent); matrix products that take batched tangents.
"""

from __future__ import annotations

from .._core import batch_rules
from .._core.kernel_dtypes import COMPLEX, FLOATING, kernel
from .._core.op import defop, export
from .._core.tensor import Tensor
from ..autograd.forward_grad import add_terms, align, batched
from ..backend import xp
from .lapack_layout import column_major
from .linalg_functions import _deprecated
from .linalg_solve import (
    LinAlgError,
    _cholesky_ex,
    _triangle,
    check_matrices,
    triangular_kernel,
)
from .pointwise import _conj
from .return_types import structseq

triangular_solve_type = structseq("triangular_solve", ("solution", "cloned_coefficient"))
cholesky_ex_type = structseq("linalg_cholesky_ex", ("L", "info"))


def _batched(a, b):
    """``a`` and ``b`` with their batch dims broadcast against each other."""
    batch = xp.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    return xp.broadcast_to(a, batch + a.shape[-2:]), xp.broadcast_to(b, batch + b.shape[-2:])


def _check_same_dtype(b, A, b_name="b"):
    if b.dtype is not A.dtype:
        raise RuntimeError(
            f"Expected {b_name} and A to have the same dtype, but found {b_name} of type "
            f"{b.dtype.scalar_name} and A of type {A.dtype.scalar_name} instead."
        )


# -- triangular_solve ------------------------------------------------------------------------
def _triangular_solve_grads(grads, b, A, result, upper, transpose, unitriangular, which):
    g_solution, g_coefficient = grads
    g_b = g_a = None
    if g_solution is not None:
        # the conjugates for complex matrices (Note [Complex autograd]): transpose=True
        # transposes without conjugating
        g_b = _triangular_solve(g_solution, _conj(A), upper, not transpose, unitriangular)[0]
        if which == "b":
            return g_b
        g_a = -(_conj(result) @ g_b.mT) if transpose else -(g_b @ result.mH)
        shift = int(unitriangular)
        g_a = g_a.triu(shift) if upper else g_a.tril(-shift)
    if which == "b":
        return b.new_zeros(()).expand(b.shape)  # torch's zeros for a solution not used
    if g_coefficient is not None:
        g_a = g_coefficient if g_a is None else g_a + g_coefficient
    return g_a


@batched
def _triangular_solve_jvp(
    input_t, A_t, input, A, result0, result1, upper, transpose, unitriangular
):
    change = None
    if A_t is not None:
        shift = int(unitriangular)
        dT = align(A_t.triu(shift) if upper else A_t.tril(-shift), A, result0.ndim)
        change = -((dT.mT if transpose else dT) @ result0)
    rhs = add_terms(align(input_t, input, result0.ndim), change)
    solution = _triangular_solve(rhs, A, upper, transpose, unitriangular)[0]
    return solution, None if A_t is None else align(A_t, A, result1.ndim)


@defop(
    batch=batch_rules.same_rank,
    name="triangular_solve",
    dtypes=kernel("triangular_solve_cpu", FLOATING | COMPLEX),
    outputs=2,
    returns=triangular_solve_type,
    # both formulas name the input, as torch's joint formula does: b is saved, so changing it
    # in place after the solve fails the backward
    input=lambda grads, input, A, result, upper, transpose, unitriangular: _triangular_solve_grads(
        grads, input, A, result, upper, transpose, unitriangular, "b"
    ),
    A=lambda grads, input, A, result, upper, transpose, unitriangular: _triangular_solve_grads(
        grads, input, A, result, upper, transpose, unitriangular, "A"
    ),
    jvp=_triangular_solve_jvp,
)
def _triangular_solve(input, A, upper, transpose, unitriangular):
    b, A = _batched(input, A)
    T = _triangle(A, upper, unitriangular)
    if transpose:
        T = xp.swapaxes(T, -1, -2)
    # Note [LAPACK layout]
    return column_major(triangular_kernel(T, b, upper != transpose)), column_major(A)


@export
def triangular_solve(input, A, upper=True, transpose=False, unitriangular=False):
    """Deprecated ``linalg.solve_triangular``: ``(solution, cloned_coefficient)`` with ``A X =
    input`` (``A^T X = input`` when ``transpose``) for triangular ``A``, and a copy of ``A``.

    Example:
        >>> import numtorch as torch
        >>> A = torch.tensor([[2.0, 1.0], [0.0, 1.0]])
        >>> torch.triangular_solve(torch.tensor([[3.0], [1.0]]), A).solution
        tensor([[1.],
                [1.]])
    """
    _deprecated(
        "triangular_solve",
        "torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangularand will "
        "be removed in a future PyTorch release.\ntorch.linalg.solve_triangular has its arguments "
        "reversed and does not return a copy of one of the inputs.\nX = torch.triangular_solve(B, "
        "A).solution\nshould be replaced with\nX = torch.linalg.solve_triangular(A, B).",
    )
    for name, t in (("b", input), ("A", A)):
        if t.ndim < 2:
            raise RuntimeError(
                f"torch.triangular_solve: Expected {name} to have at least 2 dimensions, but it "
                f"has {t.ndim} dimensions instead"
            )
    _check_same_dtype(input, A)
    check_matrices(A, "torch.triangular_solve", dtypes=_triangular_solve.spec.dtypes)
    if input.shape[-2] != A.shape[-1]:
        raise RuntimeError(
            f"Incompatible matrix sizes for triangular_solve: each A matrix is {A.shape[-2]} by "
            f"{A.shape[-1]} but each b matrix is {input.shape[-2]} by {input.shape[-1]}"
        )
    return _triangular_solve(input, A, bool(upper), bool(transpose), bool(unitriangular))


# -- cholesky_solve and cholesky_inverse -----------------------------------------------------
def _factor_solve(L, b, upper):
    """``(L L^H)^-1 b`` (``(U^H U)^-1 b``) as two triangular solves, like LAPACK's potrs: a
    zero on the factor's diagonal gives inf/NaN, as in torch."""
    T = xp.triu(L) if upper else xp.tril(L)
    Th = xp.conj(xp.swapaxes(T, -1, -2))
    first, second = (Th, T) if upper else (T, Th)  # lower, then upper
    return triangular_kernel(second, triangular_kernel(first, b, False), True)


def _factor_product(L, upper):
    """``A`` from its Cholesky factor: ``L L^H`` (``U^H U`` when ``upper``)."""
    T = xp.triu(L) if upper else xp.tril(L)
    Th = xp.conj(xp.swapaxes(T, -1, -2))
    return Th @ T if upper else T @ Th


def _cholesky_solve_grads(grad, input2, result, upper, which):
    g_self = cholesky_solve(grad, input2, upper)
    if which == "self":
        return g_self
    common = g_self @ result.mH
    common = common + common.mH
    return -(input2 @ common) if upper else -(common @ input2)


def _factor_product_jvp(factor_t, factor, upper):
    """d (L L^H) = dL L^H + L dL^H (d (U^H U) = dU^H U + U^H dU) on the triangle read."""
    L, dL = (factor.triu(), factor_t.triu()) if upper else (factor.tril(), factor_t.tril())
    term = dL.mH @ L if upper else dL @ L.mH
    return term + term.mH


@batched
def _cholesky_solve_jvp(input_t, input2_t, input, result, input2, upper):
    change = None
    if input2_t is not None:
        dA = align(_factor_product_jvp(input2_t, input2, upper), input2, result.ndim)
        change = -(dA @ result)
    rhs = add_terms(align(input_t, input, result.ndim), change)
    return _cholesky_solve(rhs, input2, upper)


@defop(
    batch=batch_rules.same_rank,
    name="cholesky_solve",
    dtypes=kernel("cholesky_solve_cpu", FLOATING | COMPLEX),
    # input is kept (unused) as torch keeps it: an in-place change afterwards is refused
    input=lambda grad, input, input2, result, upper: _cholesky_solve_grads(
        grad, input2, result, upper, "self"
    ),
    input2=lambda grad, input, input2, result, upper: _cholesky_solve_grads(
        grad, input2, result, upper, "input2"
    ),
    jvp=_cholesky_solve_jvp,
)
def _cholesky_solve(input, input2, upper):
    b, L = _batched(input, input2)
    # a zero on the factor's diagonal: potrs divides by it (the product L L^H may still
    # be singular only up to rounding, which a solve of it would not notice)
    if (xp.diagonal(L, axis1=-2, axis2=-1) == 0).any():
        return column_major(_factor_solve(L, b, upper))  # Note [LAPACK layout]
    try:
        X = xp.linalg.solve(_factor_product(L, upper), b)
    except xp.linalg.LinAlgError:
        X = _factor_solve(L, b, upper)
    return column_major(X)  # Note [LAPACK layout]


@export
def cholesky_solve(input, input2, upper=False) -> Tensor:
    """``X`` with ``A X = input`` for ``A = L L^H`` given its Cholesky factor ``input2``
    (``U^H U`` when ``upper``).

    Example:
        >>> import numtorch as torch
        >>> L = torch.tensor([[2.0, 0.0], [1.0, 1.0]])
        >>> torch.cholesky_solve(torch.tensor([[6.0], [3.0]]), L)
        tensor([[1.5000],
                [0.0000]])
    """
    for name, t in (("b", input), ("u", input2)):
        if t.ndim < 2:
            raise RuntimeError(
                f"{name} should have at least 2 dimensions, but has {t.ndim} dimensions instead"
            )
    _check_same_dtype(input, input2)
    check_matrices(input2, "torch.cholesky_solve", dtypes=_cholesky_solve.spec.dtypes)
    if input.shape[-2] != input2.shape[-1]:
        raise RuntimeError(
            f"Incompatible matrix sizes for cholesky_solve: each A matrix is {input2.shape[-2]} "
            f"by {input2.shape[-1]} but each b matrix is {input.shape[-2]} by {input.shape[-1]}"
        )
    return _cholesky_solve(input, input2, bool(upper))


def _cholesky_inverse_grad(grad, input, result, upper):
    common = result @ (grad + grad.mH) @ result
    return -(input @ common) if upper else -(common @ input)


@defop(
    batch=batch_rules.first_only,
    name="cholesky_inverse",
    dtypes=kernel("cholesky_inverse_out_cpu", FLOATING | COMPLEX),
    input=_cholesky_inverse_grad,
    # d A^-1 = -A^-1 dA A^-1
    jvp=batched(
        lambda input_t, input, result, upper: (
            -(result @ _factor_product_jvp(input_t, input, upper) @ result)
        )
    ),
)
def _cholesky_inverse(input, upper):
    diagonal = xp.diagonal(input, axis1=-2, axis2=-1)
    if not xp.all(diagonal != 0):  # LAPACK's potri refuses a zero pivot
        zero = int(xp.argmax((diagonal == 0).reshape(-1, diagonal.shape[-1]).any(0)))
        raise LinAlgError(
            f"cholesky_inverse: The diagonal element {zero + 1} is zero, the inversion could "
            "not be completed because the input matrix is singular."
        )
    return column_major(xp.linalg.inv(_factor_product(input, upper)))  # Note [LAPACK layout]


@export
def cholesky_inverse(input, upper=False) -> Tensor:
    """``A^-1`` for ``A = L L^H`` given its Cholesky factor (``U^H U`` when ``upper``).

    Example:
        >>> import numtorch as torch
        >>> torch.cholesky_inverse(torch.tensor([[2.0, 0.0], [0.0, 0.5]]))
        tensor([[0.2500, 0.0000],
                [0.0000, 4.0000]])
    """
    check_matrices(input, "cholesky_inverse", dtypes=_cholesky_inverse.spec.dtypes)
    return _cholesky_inverse(input, bool(upper))


# -- linalg.cholesky_ex ----------------------------------------------------------------------
def cholesky_ex(A, *, upper=False, check_errors=False):
    """``(L, info)``: ``linalg.cholesky`` that reports failure in ``info`` (the order of the
    first leading minor that is not positive-definite) instead of raising.

    Example:
        >>> import numtorch as torch
        >>> torch.linalg.cholesky_ex(torch.tensor([[4.0, 2.0], [2.0, 2.0]])).info
        tensor(0, dtype=torch.int32)
    """
    check_matrices(A, "linalg.cholesky_ex")
    return cholesky_ex_type(*_cholesky_ex(A, bool(upper), check_errors and "linalg.cholesky_ex"))
