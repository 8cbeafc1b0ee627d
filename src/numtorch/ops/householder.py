"""Householder reflectors: ``geqrf`` (LAPACK's compact QR, through NumPy's ``qr(mode='raw')``),
``linalg.householder_product`` (``orgqr``) and ``ormqr``.

A QR factorization in compact form keeps, below the diagonal of ``a``, the reflectors
``v_i = (0, ..., 0, 1, a[i+1:, i])`` and in ``tau`` their scales:
``Q = H_1 H_2 ... H_k`` with ``H_i = I - tau_i v_i v_i^H``. ``householder_product`` forms Q
step by step as LAPACK's orgqr (``_orgqr``: what it skips decides infinities and zero
signs); ``ormqr``'s products are composed from differentiable ops (one rank-one update per
reflector). Each runs as one op with torch's node (``LinalgHouseholderProductBackward0`` /
``OrmqrBackward0``) whose derivatives are vector-Jacobian products of the composite
(``nn/composite_backward.py``, ``householder_backward.py``), so they have gradients of
every order. ``geqrf`` has no derivative, as in torch.
"""

from __future__ import annotations

from .._core import batch_rules, grad_mode
from .._core.dispatch import require_tensor
from .._core.kernel_dtypes import COMPLEX, FLOATING, kernel
from .._core.op import defop, export, refusing
from .._core.tensor import Tensor
from ..autograd.forward_grad import no_forward_derivative
from ..backend import xp
from .concatenation import cat
from .householder_backward import householder_product_backward, ormqr_backward
from .lapack_layout import column_major
from .nn.composite_backward import tensors_of
from .overload_names import overload_names
from .pointwise import where
from .return_types import structseq

geqrf_type = structseq("geqrf", ("a", "tau"))


@refusing
def _no_derivative(grads, result, result1):
    raise NotImplementedError("the derivative for 'geqrf' is not implemented.")


@defop(
    name="geqrf",
    dtypes=kernel("geqrf_cpu", FLOATING | COMPLEX),
    node="GeqrfBackward0",
    outputs=2,
    returns=geqrf_type,
    input=_no_derivative,
    jvp=no_forward_derivative("geqrf"),
)
def _geqrf(input):
    m, n = input.shape[-2:]
    a = xp.empty(input.shape, input.dtype)
    tau = xp.empty(input.shape[:-2] + (min(m, n),), input.dtype)
    for index in xp.ndindex(*input.shape[:-2]):
        # h is the transposed LAPACK output; Note [Signed zeros in Householder QR]
        h, t = xp.linalg.qr(input[index] + 0.0, mode="raw")
        a[index], tau[index] = h.T, t
    return column_major(a), tau  # Note [LAPACK layout]


@export
def geqrf(input) -> tuple:
    """The QR factorization in LAPACK's compact form: ``(a, tau)``, R on and above the
    diagonal of ``a``, the Householder reflectors below it."""
    require_tensor("geqrf", "input", 1, input)
    if input.ndim < 2:
        raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    return _geqrf(input)  # whose kernel refuses other dtypes than floats and complex ones


def _check(name, input, tau):
    require_tensor(name, "input", 1, input)
    require_tensor(name, "tau", 2, tau)
    if input.ndim < 2:
        raise RuntimeError(f"{name}: input must have at least 2 dimensions.")
    if tau.ndim == 0:  # torch reads tau.shape[-1] first
        raise IndexError("Dimension specified as -1 but tensor has no dimensions")
    if tau.ndim != input.ndim - 1:
        raise RuntimeError(
            f"{name}: Expected tau to have one dimension less than input, but got tau.ndim "
            f"equal to {tau.ndim} and input.ndim is equal to {input.ndim}"
        )
    if tau.shape[:-1] != input.shape[:-2]:
        raise RuntimeError(
            f"{name}: Expected batch dimensions of tau to be equal to input.shape[:-2], but "
            f"got {list(tau.shape[:-1])}"
        )
    if tau.dtype is not input.dtype:
        raise RuntimeError(
            f"{name}: tau dtype {tau.dtype.scalar_name} does not match input dtype "
            f"{input.dtype.scalar_name}"
        )


def _reflector(input, i):
    """v_i as a column (..., m, 1): zeros above row i, one at row i, input below."""
    m = input.shape[-2]
    head = Tensor._make(xp.arange(m) == i).to(input.dtype).unsqueeze(-1)
    below = Tensor._make(xp.arange(m) > i).unsqueeze(-1)
    # selected, not multiplied by a 0/1 mask: the entries on and above row i are not read
    # (torch's gradient there is 0, where a NaN gradient times the mask was NaN)
    return head + where(below, input[..., :, i : i + 1], 0.0)


def _reflect(C, v, t, i, left):
    # H C = C - t v (v^H C) on the left; C H = C - (C v) t v^H on the right. As LAPACK's
    # larf, only the rows (columns) from i on are touched: v's zeros above row i multiply
    # nothing, so a NaN or infinity there stays where it is, forward and backward
    t, v = t[..., None, None], v[..., i:, :]
    if left:
        head, tail = C[..., :i, :], C[..., i:, :]
        return cat((head, tail - (t * v) @ (v.mH @ tail)), dim=-2)
    head, tail = C[..., :, :i], C[..., :, i:]
    return cat((head, tail - ((tail @ v) * t) @ v.mH), dim=-1)


@export(name="orgqr")
def householder_product(input, tau) -> Tensor:
    """The first n columns of ``H_1 ... H_k`` for the reflectors below the diagonal of
    ``input`` (m x n, m >= n) and their scales ``tau`` (k <= n).

    Example:
        >>> import numtorch as torch
        >>> A = torch.tensor([[2.0, 1.0], [1.0, 3.0], [0.0, 1.0]])
        >>> Q = torch.linalg.householder_product(*torch.geqrf(A))
        >>> torch.allclose(Q.mT @ Q, torch.eye(2), atol=1e-6)
        True
    """
    name = "torch.linalg.householder_product"
    _check(name, input, tau)
    m, n = input.shape[-2:]
    if m < n:
        raise RuntimeError(
            f"{name}: input.shape[-2] must be greater than or equal to input.shape[-1]"
        )
    if n < tau.shape[-1]:
        raise RuntimeError(
            f"{name}: input.shape[-1] must be greater than or equal to tau.shape[-1]"
        )
    return _householder_product(input, tau)


def _orgqr_grad(k):
    return lambda grad, input, tau, result: householder_product_backward(grad, result, input, tau)[
        k
    ]


@defop(
    batch=batch_rules.along(),
    name="linalg_householder_product",
    dtypes=kernel("orgqr_cpu", FLOATING | COMPLEX),
    aten="linalg_householder_product",
    node="LinalgHouseholderProductBackward0",
    input=_orgqr_grad(0),
    tau=_orgqr_grad(1),
)
def _householder_product(input, tau):
    return column_major(_orgqr(input, tau))  # Note [LAPACK layout]


def _orgqr(a, tau):
    """Q from the reflectors, step by step as LAPACK's unblocked orgqr (org2r/ung2r): the
    last reflector first, each applied to the columns right of its own, then its own column
    scaled by -tau. The rounding of its sums may differ; what it skips may not: a reflector
    with tau = 0, the rows past v's last nonzero, the columns past the last one that row
    range reaches, and in the rank-one update the columns whose coefficient is 0 (an
    infinity there stays, and so does the sign of a zero: -tau * 0 below the diagonal is
    -0.0, which a later reciprocal or rsqrt makes -inf)."""
    m, n = a.shape[-2:]
    k = tau.shape[-1]
    dtype = xp.result_type(a, tau)
    A = xp.array(a, dtype=dtype)
    A[..., :, k:] = 0
    diagonal = xp.arange(k, min(m, n))
    A[..., diagonal, diagonal] = 1
    conj = xp.conj if dtype.kind == "c" else (lambda x: x)
    with xp.errstate(all="ignore"):
        for i in reversed(range(k)):
            t = tau[..., i]
            if i < n - 1:
                A[..., i, i] = 1
                v, C = A[..., i:, i], A[..., i:, i + 1 :]
                # v up to its last nonzero entry (v[0] = 1), the columns that part reaches
                rows = xp.flip(xp.cumsum(xp.flip(v != 0, -1), -1), -1) > 0
                reached = (C != 0) & rows[..., :, None]
                cols = xp.flip(xp.cumsum(xp.flip(reached.any(-2), -1), -1), -1) > 0
                products = xp.where(rows[..., :, None], conj(C) * v[..., :, None], 0)
                w = products.sum(-2) + 0.0  # gemv: beta * y is +0.0, then the sum added
                coefficient = -t[..., None] * conj(w)
                update = (t[..., None, None] != 0) & rows[..., :, None]
                update = update & (cols & (coefficient != 0))[..., None, :]
                C[...] = xp.where(update, C + v[..., :, None] * coefficient[..., None, :], C)
            A[..., i + 1 :, i] *= -t[..., None]
            A[..., i, i] = 1 - t
            A[..., :i, i] = 0
    return A


@export
@overload_names(input2="tau", input3="other")  # torch's schema names
def ormqr(input, tau, other, left=True, transpose=False) -> Tensor:
    """``other`` multiplied by the Q of a compact QR factorization (``geqrf``'s ``(a, tau)``):
    ``Q @ other`` (``left``) or ``other @ Q``, with ``Q^H`` when ``transpose``."""
    name = "torch.ormqr"
    require_tensor(name, "input", 1, input)
    require_tensor(name, "other", 3, other)
    # torch's order: both matrices' ranks, other's size against input's, tau's size (read
    # as tau.shape[-1]: an IndexError for a 0-d tau), then tau's rank and batch, other's rank
    if input.ndim < 2:
        raise RuntimeError(f"{name}: input must have at least 2 dimensions.")
    if other.ndim < 2:
        raise RuntimeError(f"{name}: other must have at least 2 dimensions.")
    m = input.shape[-2]
    side = -2 if left else -1
    if other.shape[side] != m:
        raise RuntimeError(f"{name}: other.shape[{side}] must be equal to input.shape[-2]")
    if tau.ndim and tau.shape[-1] != min(other.shape[side], input.shape[-1]):
        raise RuntimeError(
            f"{name}: tau.shape[-1] must be equal to min(other.shape[{side}], input.shape[-1])"
        )
    _check(name, input, tau)
    if other.ndim != input.ndim:
        raise RuntimeError(
            f"{name}: Expected other to have the same number of dimensions as input, but got "
            f"other.ndim equal to {other.ndim} and input.ndim is equal to {input.ndim}"
        )
    if other.dtype is not input.dtype:
        raise RuntimeError(
            f"{name}: Expected input and other to have the same dtype, but input has dtype "
            f"{input.dtype.scalar_name} and other has dtype {other.dtype.scalar_name}"
        )
    return _ormqr(input, tau, other, left, transpose)


def _ormqr_composite(input, tau, other, left, transpose):
    k = tau.shape[-1]
    # Q = H_1 ... H_k: Q C applies H_k first; Q^H C applies H_1 first (and mirrored on the right)
    order = range(k) if left == transpose else reversed(range(k))
    result = other
    for i in order:
        t = tau[..., i].conj() if transpose else tau[..., i]
        result = _reflect(result, _reflector(input, i), t, i, left)
    return result


def _ormqr_grad(k):
    def formula(grad, input, tau, other, result, left, transpose):
        return ormqr_backward(grad, result, input, tau, left, transpose)[k]

    return formula


def _ormqr_other_grad(grad, input, tau, left, transpose):
    # Q^H undoes Q: ormqr with the other transpose
    return _ormqr(input, tau, grad, left, not transpose)


@defop(
    batch=batch_rules.along(),
    name="ormqr_op",
    aten="ormqr",
    dtypes=kernel("ormqr_cpu", FLOATING | COMPLEX),
    node="OrmqrBackward0",
    input=_ormqr_grad(0),
    tau=_ormqr_grad(1),
    other=_ormqr_other_grad,
    jvp=no_forward_derivative("ormqr"),
)
def _ormqr(input, tau, other, left, transpose):
    with grad_mode.no_grad():
        result = _ormqr_composite(*tensors_of(input, tau, other), left, transpose)._data
    return column_major(result)  # Note [LAPACK layout]
