"""Matrix functions composed from the linalg primitives, as torch composes them (so their
grad_fns are torch's too): matrix and vector norms, cond, matrix_rank, matrix_power, vecdot,
logdet; and torch's top-level aliases (``torch.inverse``, ``torch.det``, ``torch.svd``...)."""

from __future__ import annotations

import math

from .._core import batch_rules
from .._core.kernel_dtypes import HALVES
from .._core.op import defop, export
from .._core.tensor import Tensor, _wrap_dim, int_argument
from .._core.warn_once import warn_once
from .._creation import eye
from .._tensor_queries import contiguous_format
from ..backend import xp
from . import linalg_decomp as decomp
from . import linalg_solve as solves
from .concatenation import cat
from .linalg import matmul, vdot
from .norms import check_norm_dtype, vector_norm
from .pointwise import where
from .return_types import structseq


# -- norms -----------------------------------------------------------------------------------
def _matrix_norm_dims(A, dim, name="linalg.matrix_norm", low_precision=True):
    if A.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    dim = list(dim)
    if len(dim) != 2:
        raise RuntimeError(f"{name}: dim must be a 2-tuple. Got {' '.join(map(str, dim))}")
    dims = [_wrap_dim(d, A.ndim) for d in dim]
    if dims[0] == dims[1]:
        raise RuntimeError(f"{name}: dims must be different. Got ({dim[0]}, {dim[1]})")
    if A._data.dtype.kind not in "fcV":
        raise RuntimeError(
            f"{name}: Expected a floating point or complex tensor as input. Got "
            f"{A.dtype.scalar_name}"
        )
    return dims


def _to_the_end(A, dims):
    order = [d for d in range(A.ndim) if d not in dims] + dims
    inverse = [0] * len(order)
    for i, d in enumerate(order):
        inverse[d] = i
    return A.permute(order), inverse


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None) -> Tensor:
    """A matrix norm over the two ``dim``: 'fro', 'nuc' (sum of singular values), 2 / -2
    (largest / smallest singular value), 1 / -1 (max / min column sum of ``|A|``), inf /
    -inf (max / min row sum).

    Example:
        >>> import numtorch as torch
        >>> torch.linalg.matrix_norm(torch.tensor([[1.0, -2.0], [3.0, 4.0]]), 1)
        tensor(6.)
    """
    if isinstance(ord, str):
        if ord not in ("fro", "nuc"):
            raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    elif abs(ord) not in (1, 2, math.inf):
        raise RuntimeError(f"linalg.matrix_norm: Order {ord:g} not supported.")
    dims = _matrix_norm_dims(A, dim)
    check_norm_dtype("linalg.matrix_norm", A, dtype)
    if ord == "fro":
        return vector_norm(A, 2, dims, keepdim, dtype=dtype)
    if dtype is not None:
        A = A.to(dtype)
    if ord == "nuc" or abs(ord) == 2:
        if A._data.dtype in HALVES:  # torch's check before the singular values
            raise RuntimeError(
                f"linalg.matrix_norm: Low precision dtypes not supported. Got {A.dtype.scalar_name}"
            )
        moved, inverse = _to_the_end(A, dims)
        values = decomp.svdvals(moved)
        if ord == 2 and values.shape[-1] == 0:
            return _no_largest(A, dims, keepdim)
        if ord == "nuc":
            result = values.sum(-1, keepdim=keepdim)
        else:
            result = values.amax(-1, keepdim) if ord > 0 else values.amin(-1, keepdim)
        return result.unsqueeze(-1).permute(inverse) if keepdim else result
    if math.isinf(ord):
        dims = dims[::-1]  # the inf-norm is the 1-norm of the transpose
    summed_dim, reduced_dim = dims
    if not keepdim and summed_dim < reduced_dim:
        reduced_dim -= 1
    sums = vector_norm(A, 1.0, summed_dim, keepdim)
    if ord > 0 and sums.shape[reduced_dim] == 0:
        return _no_largest(A, dims, keepdim)
    return sums.amax(reduced_dim, keepdim) if ord > 0 else sums.amin(reduced_dim, keepdim)


def _no_largest(A, dims, keepdim):
    """torch's largest of no column sums or singular values: a new zero tensor, outside the
    graph (the smallest of none is refused by amin)."""
    dims = [d % A.ndim for d in dims]
    shape = [1 if i in dims else n for i, n in enumerate(A.shape) if keepdim or i not in dims]
    return Tensor._make(xp.zeros(shape, dtype=A._data.real.dtype))


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None) -> Tensor:
    """A vector norm, or a matrix norm when ``ord`` is given and ``dim`` names two dims (or
    ``A`` is 2-D); with neither, the 2-norm of all elements.

    Example:
        >>> import numtorch as torch
        >>> torch.linalg.norm(torch.tensor([[3.0, 0.0], [0.0, 4.0]]))
        tensor(5.)
    """
    if isinstance(dim, int):
        dim = (dim,)
    if dim is not None:
        if len(dim) not in (1, 2):
            raise RuntimeError(
                f"linalg.norm: If dim is specified, it mut be of length 1 or 2. Got {list(dim)}"
            )
    elif ord is not None and A.ndim not in (1, 2):
        raise RuntimeError(
            "linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. "
            f"Got {A.ndim}D."
        )
    if isinstance(ord, str):
        return matrix_norm(A, ord, dim if dim is not None else (0, 1), keepdim, dtype=dtype)
    if ord is not None and ((dim is not None and len(dim) == 2) or (dim is None and A.ndim == 2)):
        return matrix_norm(A, ord, dim if dim is not None else (0, 1), keepdim, dtype=dtype)
    return vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype)


def _empty_cond(A) -> Tensor:
    """torch's condition number of empty matrices (or of no matrices): 0 for each, a new
    tensor outside the graph."""
    return Tensor._make(xp.zeros(A.shape[:-2], dtype=A._data.real.dtype))


def cond(A, p=None) -> Tensor:
    """The condition number of ``A`` in the norm ``p`` (default 2: the ratio of the largest
    to the smallest singular value). For other norms ``A`` must be invertible.

    Example:
        >>> import numtorch as torch
        >>> torch.linalg.cond(torch.tensor([[2.0, 0.0], [0.0, 0.5]]))
        tensor(4.)
    """
    if not isinstance(p, str):
        solves.check_matrices(A, "linalg.cond", square=False)
        if A._data.size == 0:  # torch asks no square matrices of a numeric p here
            return _empty_cond(A)
    if p is None or (not isinstance(p, str) and abs(p) == 2):
        values = decomp.svdvals(A)
        largest, smallest = values.narrow(-1, 0, 1), values.narrow(-1, values.shape[-1] - 1, 1)
        ratio = smallest / largest if p == -2 else largest / smallest
        return ratio.squeeze(-1)
    solves.check_matrices(A, f"linalg.cond(ord={p})" if isinstance(p, str) else "linalg.cond")
    if A._data.size == 0:
        return _empty_cond(A)
    product = matrix_norm(A, p) * matrix_norm(solves.inv(A), p)
    return product.nan_to_num(math.inf, math.inf, -math.inf)


_NO_TOL = object()


def matrix_rank(A, tol=_NO_TOL, hermitian=False, *, atol=None, rtol=None) -> Tensor:
    """How many singular values exceed ``max(atol, rtol * largest)`` (default ``rtol``:
    eps * max(m, n)). ``atol`` and ``rtol`` may be tensors broadcast against the batch;
    torch's older form ``matrix_rank(A, tol, hermitian)`` is ``atol=tol, rtol=0``. Not
    differentiable.

    Example:
        >>> import numtorch as torch
        >>> torch.linalg.matrix_rank(torch.tensor([[1.0, 2.0], [2.0, 4.0]]))
        tensor(1)
    """
    if tol is not _NO_TOL:
        if tol is None or atol is not None or rtol is not None:
            raise TypeError(
                "linalg_matrix_rank() received an invalid combination of arguments: give "
                "either a tolerance `tol` (float or Tensor) or the keywords `atol` and `rtol`"
            )
        atol, rtol = tol, 0.0
    solves.check_matrices(A, "linalg.matrix_rank", square=False)
    data = A._data
    if atol is None and rtol is None:
        rtol = float(xp.finfo(data.dtype).eps) * max(data.shape[-2], data.shape[-1])
    atol, rtol = decomp.tolerance(atol), decomp.tolerance(rtol)
    if hermitian:
        values = xp.abs(decomp.eigh_kernel(data, values_only=True))
    else:
        values = decomp.svd_kernel(data, compute_uv=False)
    largest = xp.max(values, axis=-1, keepdims=True, initial=0)
    rank = xp.sum(values > xp.maximum(atol, rtol * largest), axis=-1)
    return Tensor._make(xp.asarray(rank, dtype=xp.int64))


# -- products and powers ---------------------------------------------------------------------
def vecdot(x, y, *, dim=-1) -> Tensor:
    """The dot product of ``x`` and ``y`` along ``dim`` (broadcasting elsewhere), ``x``
    conjugated.

    Example:
        >>> import numtorch as torch
        >>> torch.linalg.vecdot(torch.tensor([[1.0, 2.0]]), torch.tensor([3.0, 4.0]))
        tensor([11.])
    """
    if x._data.dtype.kind not in "fcV":
        raise RuntimeError(
            "linalg.vecdot: Expected a floating point or complex tensor as input. Got "
            f"{x.dtype.scalar_name}"
        )
    if x._data.dtype != y._data.dtype:
        raise RuntimeError(
            "linalg.vecdot: Expected x and y to have the same dtype, but found x of type "
            f"{x.dtype.scalar_name} and y of type {y.dtype.scalar_name} instead"
        )
    if x.ndim == 1 and y.ndim == 1:  # torch's vdot (VdotBackward0), whatever dim says
        return vdot(x, y)
    return (x.conj() * y).sum(dim)  # x^H y: the first vector conjugated


@export
def matrix_power(input, n) -> Tensor:
    """``input`` (a batch of square matrices) to the integer power ``n`` (negative: of the
    inverse), by repeated squaring.

    Example:
        >>> import numtorch as torch
        >>> torch.linalg.matrix_power(torch.tensor([[1, 1], [0, 1]]), 3)
        tensor([[1, 3],
                [0, 1]])
    """
    if n.__class__ is not int:
        n = int_argument(n, "n", "linalg_matrix_power")
    if input.ndim < 2:
        raise RuntimeError(
            "linalg.matrix_power: The input tensor A must have at least 2 dimensions."
        )
    if input.shape[-1] != input.shape[-2]:
        raise RuntimeError(
            "linalg.matrix_power: A must be batches of square matrices, but they are "
            f"{input.shape[-2]} by {input.shape[-1]} matrices"
        )
    n = int(n)
    if n == 0:
        # clone first so the result stays in the graph (its gradient is zero), as torch
        return input.clone(memory_format=contiguous_format).copy_(
            eye(input.shape[-1], dtype=input.dtype)
        )
    if n == 1:  # torch's clone here is row-major whatever the input's layout
        return input.clone(memory_format=contiguous_format)
    if n == -1:
        return solves.inv(input)
    a = solves.inv(input) if n < 0 else input
    n = abs(n)
    if n == 2:
        return matmul(a, a)
    if n == 3:
        return matmul(matmul(a, a), a)
    result = square = None
    while n > 0:
        bit, n = n % 2, n // 2
        square = a if square is None else matmul(square, square)
        if bit:
            result = square if result is None else matmul(result, square)
    return result


# -- determinants, inverses and decompositions at torch's top level --------------------------
@export
def logdet(input) -> Tensor:
    """log(det(input)): NaN where the determinant is negative, -inf where it is zero.

    Example:
        >>> import numtorch as torch
        >>> torch.logdet(torch.tensor([[2.0, 0.0], [0.0, 3.0]]))
        tensor(1.7918)
    """
    solves.check_matrices(input, "logdet", low_precision=False)
    sign, logabsdet = solves.slogdet(input)
    if input.is_complex():  # log(det): the sign's phase is the imaginary part
        return sign.log() + logabsdet
    return where(sign == -1, math.nan, logabsdet)


inverse = export(solves.inv, name="inverse")
det = export(solves.det, name="det")


@export
def pinverse(input, rcond=1e-15) -> Tensor:
    """The pseudo-inverse, treating singular values below ``rcond`` times the largest as
    zero (``torch.linalg.pinv`` with ``rtol=rcond``)."""
    return decomp.pinv(input, rtol=rcond)


_slogdet_type = structseq("slogdet", ("sign", "logabsdet"))
_svd_type = structseq("svd", ("U", "S", "V"))
_qr_type = structseq("qr", ("Q", "R"))


@export
def slogdet(input):
    """The sign and log-absolute-value of the determinant (``torch.linalg.slogdet``)."""
    return _slogdet_type(*solves.slogdet(input))


@export
def svd(input, some=True, compute_uv=True):
    """The SVD as (U, S, V) with ``V`` (not ``Vh``); ``some=False`` gives full U and V.

    Example:
        >>> import numtorch as torch
        >>> torch.svd(torch.tensor([[0.0, 2.0], [1.0, 0.0]])).S
        tensor([2., 1.])
    """
    if compute_uv:
        U, S, Vh = decomp.svd(input, full_matrices=not some)
        return _svd_type(U, S, Vh.mT)
    S = decomp.svdvals(input)
    m, n = input.shape[-2], input.shape[-1]
    U = Tensor._make(xp.zeros(input.shape[:-1] + (m,), input._data.dtype))
    V = Tensor._make(xp.zeros(input.shape[:-2] + (n, n), input._data.dtype))
    return _svd_type(U, S, V)


def _deprecated(name, message):
    warn_once(message, stacklevel=3)  # once per process, as torch


@export
def qr(input, some=True):
    """The QR decomposition (``torch.linalg.qr`` with mode 'reduced', or 'complete' when
    ``some=False``); deprecated in torch."""
    _deprecated(
        "qr",
        "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future "
        "PyTorch release.\nThe boolean parameter 'some' has been replaced with a string "
        "parameter 'mode'.\nQ, R = torch.qr(A, some)\nshould be replaced with\nQ, R = "
        "torch.linalg.qr(A, 'reduced' if some else 'complete')",
    )
    return _qr_type(*decomp.qr(input, "reduced" if some else "complete"))


@defop(
    batch=batch_rules.first_only,
    name="cholesky_legacy",
    node="CholeskyBackward0",
    dtypes=solves._cholesky_ex.spec.dtypes,
    input=lambda grad, result, upper: solves._cholesky_backward(grad, result, upper),
    jvp=solves._cholesky_jvp,
)
def _cholesky_legacy(input, upper):
    return solves._cholesky_ex.spec.forward(input, upper, "cholesky")[0]


@export
def cholesky(input, upper=False) -> Tensor:
    """Deprecated in torch in favour of ``torch.linalg.cholesky`` (which this matches)."""
    _deprecated(
        "cholesky",
        "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed "
        "in a future PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\n"
        "L = torch.linalg.cholesky(A)\nand\nU = torch.cholesky(A, upper=True)\nshould be "
        "replaced with\nU = torch.linalg.cholesky(A).mH\nThis transform will produce "
        "equivalent results for all valid (symmetric positive definite) inputs.",
    )
    solves.check_matrices(input, "cholesky", dtypes=_cholesky_legacy.spec.dtypes)
    return _cholesky_legacy(input, bool(upper))


# -- chains, Vandermonde matrices, tensor inverses and solves (composite, as torch) ----------
def _chain_order(shapes):
    # the classic dynamic programme over split points (ties keep the first split, as torch)
    n = len(shapes)
    dims = [shapes[0][0]] + [s[1] for s in shapes]
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = math.inf
            for k in range(i, j):
                q = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if q < cost[i][j]:
                    cost[i][j], split[i][j] = q, k
    return split


def _chain(tensors, split, i, j):
    if i == j:
        return tensors[i]
    k = split[i][j]
    return _chain(tensors, split, i, k).mm(_chain(tensors, split, k + 1, j))


def multi_dot(tensors) -> Tensor:
    """The product of a chain of matrices (the first and last may be vectors), multiplied
    in the cheapest order.

    Example:
        >>> import numtorch as torch
        >>> torch.linalg.multi_dot([torch.ones(2), torch.ones(2, 3), torch.ones(3)])
        tensor(6.)
    """
    n = len(tensors)
    if n < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {n}")
    first, last = tensors[0], tensors[-1]
    out_shape = []
    if first.ndim == 1:
        first = first.unsqueeze(0)
    elif first.ndim == 2:
        out_shape.append(first.shape[0])
    else:
        raise RuntimeError(f"multi_dot(): the first tensor must be 1D or 2D but got {first.ndim}D")
    if last.ndim == 1:
        last = last.unsqueeze(-1)
    elif last.ndim == 2:
        out_shape.append(last.shape[1])
    else:
        raise RuntimeError(f"multi_dot(): the last tensor must be 1D or 2D but got {last.ndim}D")
    mats = [first, *tensors[1:-1], last]
    for i in range(1, n - 1):
        if mats[i].ndim != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {mats[i].ndim}D")
    for i in range(1, n):
        if mats[i].dtype != mats[0].dtype:
            raise RuntimeError(
                f"multi_dot(): all tensors must have be the same dtype but tensor 0 is "
                f"{mats[0].dtype} and tensor {i} {mats[i].dtype}"
            )
        if mats[i - 1].shape[-1] != mats[i].shape[0]:
            raise RuntimeError(
                f"multi_dot(): tensors {i - 1} and {i} with shapes {list(tensors[i - 1].shape)} "
                f"and {list(tensors[i].shape)} cannot be multiplied"
            )
    if n == 2:
        result = mats[0].mm(mats[1])
    elif n == 3:
        a, b, c, d = mats[0].shape[0], mats[1].shape[0], mats[2].shape[0], mats[2].shape[1]
        if (a * c) * (b + d) > (b * d) * (a + c):
            result = mats[0].mm(mats[1].mm(mats[2]))
        else:
            result = mats[0].mm(mats[1]).mm(mats[2])
    else:
        result = _chain(mats, _chain_order([m.shape for m in mats]), 0, n - 1)
    return result.view(out_shape)


def vander(x, *, N=None) -> Tensor:
    """The Vandermonde matrix of ``x``: columns ``x**0, x**1, ..., x**(N-1)``.

    Example:
        >>> import numtorch as torch
        >>> torch.linalg.vander(torch.tensor([1, 2, 3]))
        tensor([[1, 1, 1],
                [1, 2, 4],
                [1, 3, 9]])
    """
    if x._data.dtype.kind not in "fciu":
        raise RuntimeError(
            "linalg.vander supports floating point, complex, and integer tensors, but got "
            f"{x.dtype.scalar_name}"
        )
    x = x.unsqueeze(-1) if x.ndim == 0 else x
    n = x.shape[-1] if N is None else N
    if n <= 1:
        raise RuntimeError("N must be greater than 1.")
    powers = x.unsqueeze(-1).expand(*x.shape, n - 1).cumprod(-1)
    ones = Tensor._make(xp.ones((*x.shape, 1), dtype=powers._data.dtype))
    return cat([ones, powers], -1)


def tensorinv(A, ind=2) -> Tensor:
    """The inverse of ``A`` seen as a matrix from its first ``ind`` dims to the rest, shaped
    ``A.shape[ind:] + A.shape[:ind]`` (so ``tensordot(tensorinv(A), A, ind)`` is an identity).

    Example:
        >>> import numtorch as torch
        >>> torch.linalg.tensorinv(torch.eye(4).view(4, 2, 2), ind=1).shape
        torch.Size([2, 2, 4])
    """
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    if ind > A.ndim:  # torch slices the sizes at ind and refuses a slice past their end
        raise RuntimeError(f"ArrayRef: invalid slice, N = {ind}; size = {A.ndim}")
    end, start = list(A.shape[ind:]), list(A.shape[:ind])
    rows, cols = math.prod(end), math.prod(start)
    if rows != cols:
        raise RuntimeError(
            "Expected self to satisfy the requirement prod(self.shape[ind:]) == "
            f"prod(self.shape[:ind]), but got {rows} != {cols}"
        )
    return solves.inv(A.reshape(rows, rows)).reshape(end + start)


def tensorsolve(A, B, dims=None) -> Tensor:
    """``X`` with ``tensordot(A, X, X.ndim) == B`` (``dims``: dims of ``A`` moved to the end
    first).

    Example:
        >>> import numtorch as torch
        >>> A = torch.eye(6).view(2, 3, 6)
        >>> torch.linalg.tensorsolve(A, torch.ones(2, 3)).shape
        torch.Size([6])
    """
    ndim = A.ndim
    if dims is not None:
        dims = list(dims)
        A = A.movedim(dims, list(range(ndim - len(dims), ndim)))
    result_shape = list(A.shape[B.ndim :])
    size, other = math.prod(result_shape), math.prod(B.shape)
    if size != other:
        raise RuntimeError(
            "Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
            f"prod(self.shape[:other.ndim]), but got {size} != {other}"
        )
    return solves.solve(A.reshape(size, size), B.flatten()).reshape(result_shape)
