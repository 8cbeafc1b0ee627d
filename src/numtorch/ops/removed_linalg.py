"""Functions torch removed in 1.9 in favour of ``torch.linalg`` (``torch.solve``,
``torch.eig``...): they keep their names and raise torch's RuntimeError, whose message shows
the ``torch.linalg`` call that replaces them."""

from __future__ import annotations

from .._core.tensor import Tensor

_REMOVED = "This function was deprecated since version 1.9 and is now removed."
_ADVICE = {
    "solve": (
        " `torch.solve` is deprecated in favor of `torch.linalg.solve`. "
        "`torch.linalg.solve` has its arguments reversed and does not return the LU "
        "factorization.\n"
        "\n"
        "To get the LU factorization see `torch.lu`, which can be used with "
        "`torch.lu_solve` or `torch.lu_unpack`.\n"
        "X = torch.solve(B, A).solution should be replaced with:\n"
        "X = torch.linalg.solve(A, B)"
    ),
    "lstsq": (
        " `torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`.\n"
        "`torch.linalg.lstsq` has reversed arguments and does not return the QR "
        "decomposition in the returned tuple (although it returns other information "
        "about the problem).\n"
        "\n"
        "To get the QR decomposition consider using `torch.linalg.qr`.\n"
        "\n"
        "The returned solution in `torch.lstsq` stored the residuals of the solution in "
        "the last m - n columns of the returned value whenever m > n. In "
        "torch.linalg.lstsq, the residuals are in the field 'residuals' of the returned "
        "named tuple.\n"
        "\n"
        "The unpacking of the solution, as in\n"
        "X, _ = torch.lstsq(B, A).solution[:A.size(1)]\n"
        "should be replaced with:\n"
        "X = torch.linalg.lstsq(A, B).solution"
    ),
    "eig": (
        " `torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` "
        "rather than real tensors mimicking complex tensors.\n"
        "\n"
        "L, _ = torch.eig(A) should be replaced with:\n"
        "L_complex = torch.linalg.eigvals(A)\n"
        "\n"
        "and\n"
        "\n"
        "L, V = torch.eig(A, eigenvectors=True) should be replaced with:\n"
        "L_complex, V_complex = torch.linalg.eig(A)"
    ),
    "symeig": (
        " The default behavior has changed from using the upper triangular portion of "
        "the matrix by default to using the lower triangular portion.\n"
        "\n"
        "L, _ = torch.symeig(A, upper=upper) should be replaced with:\n"
        "L = torch.linalg.eigvalsh(A, UPLO='U' if upper else 'L')\n"
        "\n"
        "and\n"
        "\n"
        "L, V = torch.symeig(A, eigenvectors=True) should be replaced with:\n"
        "L, V = torch.linalg.eigh(A, UPLO='U' if upper else 'L')"
    ),
    "matrix_rank": (
        "\n"
        "Please use the `torch.linalg.matrix_rank` function instead. The parameter "
        "'symmetric' was renamed in `torch.linalg.matrix_rank()` to 'hermitian'."
    ),
}


def _removed(name: str):
    return RuntimeError(_REMOVED + _ADVICE[name])


def solve(input, A, *, out=None):
    raise _removed("solve")


def lstsq(input, A, *, out=None):
    raise _removed("lstsq")


def eig(input, eigenvectors=False, *, out=None):
    raise _removed("eig")


def symeig(input, eigenvectors=False, upper=True, *, out=None):
    raise _removed("symeig")


def matrix_rank(input, tol=None, symmetric=False, *, out=None):
    raise _removed("matrix_rank")


# not in FUNCTIONS (they are not ops): ``numtorch`` imports them by name
for _fn in (solve, lstsq, eig, symeig):
    setattr(Tensor, _fn.__name__, _fn)
