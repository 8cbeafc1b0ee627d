"""``torch.linalg.lstsq``: the least-squares solution of ``A X = B`` (minimum norm when ``A``
is rank deficient), with torch's four outputs per driver and its gradient, written through
the pseudo-inverse as torch's ``linalg_lstsq_backward`` is:
``dA = pinv_backward(dX B^H)``, ``dB = pinv(A)^H dX``.

NumPy's ``lstsq`` (LAPACK ``gelsd``) computes every driver's solution; the drivers differ in
what else they report, as in torch: ``gelsy`` (the CPU default) the rank, ``gels`` the
residuals, ``gelsd``/``gelss`` the rank, the singular values and the residuals. Residuals
are the squared column norms of ``A X - B``, given only for tall full-rank ``A``; at the
solution ``A^H (A X - B) = 0``, so their derivative needs no derivative of ``X``:
``d r_j = 2 Re <A x_j - b_j, dA x_j - db_j>``.

Forward: ``dX = d pinv(A) B + pinv(A) dB``, with pinv's forward derivative.
"""

from __future__ import annotations

from .._core.dispatch import broadcast_shape, require_tensor
from .._core.kernel_dtypes import COMPLEX, FLOATING, own_message
from .._core.op import defop
from ..autograd.forward_grad import add_terms, batched
from ..backend import xp
from .lapack_layout import column_major_within
from .linalg_decomp import _pinv_backward, _pinv_jvp, pinv
from .return_types import structseq

lstsq_type = structseq("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"))
_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def _columns(t, vector):
    return t.unsqueeze(-1) if vector else t


def _weighted_residual(grads, input, b, result, vector):
    """2 (A X - B) diag(g_residuals), or None where the residuals get no gradient (or are
    not computed: then their gradient is empty)."""
    g = grads[1]
    if g is None or g.numel() == 0:
        return None
    r = input @ _columns(result, vector) - _columns(b, vector)
    return 2 * r * g.unsqueeze(-2)


def _input_grad(grads, input, b, result, vector):
    solution = None
    if grads[0] is not None:
        g = _columns(grads[0], vector)
        solution = _pinv_backward(g @ _columns(b, vector).mH, input, pinv(input))
    weighted = _weighted_residual(grads, input, b, result, vector)
    return add_terms(solution, None if weighted is None else weighted @ _columns(result, vector).mH)


def _b_grad(grads, input, b, result, vector):
    g = None
    if grads[0] is not None:
        g = pinv(input).mH @ _columns(grads[0], vector)
    weighted = _weighted_residual(grads, input, b, result, vector)
    g = add_terms(g, None if weighted is None else -weighted)
    return g.squeeze(-1) if vector and g is not None else g


@batched
def _lstsq_jvp(input_t, b_t, input, b, result, result1, vector):
    pinvA = pinv(input)
    B, X = _columns(b, vector), _columns(result, vector)
    dX = add_terms(
        None if input_t is None else _pinv_jvp(input_t, input, pinvA) @ B,
        None if b_t is None else pinvA @ _columns(b_t, vector),
    )
    residuals_t = None
    if result1.numel():
        # d |A x_j - b_j|^2 = 2 Re <A x_j - b_j, dA x_j + A dx_j - db_j>
        r = input @ X - B
        dr = add_terms(
            None if input_t is None else input_t @ X,
            input @ dX,
            None if b_t is None else -_columns(b_t, vector),
        )
        products = r.conj() * dr
        residuals_t = 2 * (products.real if products.is_complex() else products).sum(-2)
    return (dX.squeeze(-1) if vector else dX), residuals_t, None, None


@defop(
    name="linalg_lstsq",
    # torch checks the dtype last, in its kernel: halves and integers are refused there
    dtypes=own_message(
        FLOATING | COMPLEX, "This function doesn't handle types other than float and double"
    ),
    schema_args=4,
    outputs=4,
    returns=lstsq_type,
    input=_input_grad,
    b=_b_grad,
    jvp=_lstsq_jvp,
)
def _lstsq(input, b, rcond, driver, vector):
    # a vector right-hand side (..., m) is solved as one column and given back as a vector
    b = b[..., None] if vector else b
    m, n = input.shape[-2:]
    batch = input.shape[:-2]
    k = b.shape[-1]
    solution = xp.empty(batch + (n, k), input.dtype)
    ranks = xp.empty(batch, xp.int64)
    values = xp.empty(batch + (min(m, n),), input.real.dtype)
    residuals = xp.zeros(batch + (k,), input.real.dtype)
    full_rank = True
    for index in xp.ndindex(*batch):
        x, res, rank, sv = xp.linalg.lstsq(input[index], b[index], rcond=rcond)
        solution[index], ranks[index], values[index] = x, rank, sv
        full_rank &= bool(rank == n)
        if m > n and rank == n:
            residuals[index] = (xp.abs(input[index] @ x - b[index]) ** 2).sum(-2)
    empty = xp.zeros((0,), input.real.dtype)
    if not (m > n and full_rank) or driver == "gelsy":
        residuals = empty
    if driver == "gels":
        ranks = xp.zeros((0,), xp.int64)
    if driver in ("gels", "gelsy"):
        values = empty
    # Note [LAPACK layout]: the solution is the top of the right-hand side's buffer
    solution = column_major_within(solution.astype(input.dtype), max(m, n))
    solution = solution[..., 0] if vector else solution
    return solution, residuals.astype(input.real.dtype), ranks, values


def lstsq(A, B, rcond=None, *, driver=None):
    """The least-squares solution of ``A X = B``: ``(solution, residuals, rank,
    singular_values)``.

    Example:
        >>> import numtorch as torch
        >>> A = torch.tensor([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]])
        >>> torch.linalg.lstsq(A, torch.tensor([[1.0], [2.0], [4.0]])).solution
        tensor([[0.8333],
                [1.5000]])
    """
    require_tensor("linalg_lstsq", "self", 1, A)
    require_tensor("linalg_lstsq", "b", 2, B)
    if A.ndim < 2:
        raise RuntimeError("torch.linalg.lstsq: input must have at least 2 dimensions.")
    if B.dtype is not A.dtype:
        raise RuntimeError(
            f"torch.linalg.lstsq: Expected input and other to have the same dtype, but got "
            f"input's dtype {A.dtype.scalar_name} and other's dtype {B.dtype.scalar_name}"
        )
    driver = "gelsy" if driver is None else driver
    if driver not in _DRIVERS:
        raise RuntimeError(
            f"torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, "
            f"gelss), but got {driver}"
        )
    if B.ndim < 1:
        raise RuntimeError("torch.linalg.lstsq: other must have at least 1 dimension.")
    if not 0 <= A.ndim - B.ndim <= 1:
        raise RuntimeError(
            "torch.linalg.lstsq: input.dim() must be greater or equal to other.dim() and "
            "(input.dim() - other.dim()) <= 1"
        )
    vector = B.ndim == A.ndim - 1
    b = B.unsqueeze(-1) if vector else B
    if b.shape[-2] != A.shape[-2]:
        raise RuntimeError(
            f"torch.linalg.lstsq: input.size(-2) should match other.size({-1 if vector else -2})"
        )
    a_batch = tuple(A.shape[:-2])
    batch = broadcast_shape(a_batch, tuple(b.shape[:-2]))
    if a_batch != batch:
        A = A.expand(*batch, *A.shape[-2:])
    if tuple(b.shape[:-2]) != batch:
        b = b.expand(*batch, *b.shape[-2:])
    if rcond is None and A._data.dtype.kind in "fc":  # (the kernel refuses other dtypes)
        rcond = xp.finfo(A._data.real.dtype).eps * max(A.shape[-2], A.shape[-1])
    result = _lstsq(A, b.squeeze(-1) if vector else b, rcond, driver, vector)
    if a_batch == batch:
        return result
    solution, residuals, rank, values = result
    return lstsq_type(
        solution, residuals, _of_a_alone(rank, a_batch, batch), _of_a_alone(values, a_batch, batch)
    )


def _of_a_alone(t, a_batch, batch):
    """rank and singular values depend on A alone: torch gives them A's batch shape."""
    if tuple(t.shape[: len(batch)]) != batch or t.numel() == 0:
        return t  # not computed by this driver (an empty tensor)
    t = t[(0,) * (len(batch) - len(a_batch))]
    for dim, size in enumerate(a_batch):
        if size == 1 and t.shape[dim] != 1:
            t = t.narrow(dim, 0, 1)
    return t
