"""``torch.linalg``: norms, inverses and determinants, solves and matrix decompositions."""

from .ops.boundary import publish_all as _publish_all
from .ops.householder import householder_product
from .ops.linalg import matmul
from .ops.linalg_cholesky import cholesky_ex
from .ops.linalg_decomp import eigh, eigvalsh, pinv, qr, svd, svdvals
from .ops.linalg_eig import eig, eigvals
from .ops.linalg_ex import inv_ex, solve_ex
from .ops.linalg_functions import (
    cond,
    matrix_norm,
    matrix_power,
    matrix_rank,
    multi_dot,
    norm,
    tensorinv,
    tensorsolve,
    vander,
    vecdot,
)
from .ops.linalg_ldl import ldl_factor, ldl_factor_ex, ldl_solve
from .ops.linalg_lstsq import lstsq
from .ops.linalg_lu import lu_ as lu
from .ops.linalg_lu import lu_factor, lu_factor_ex
from .ops.linalg_lu import lu_solve_ as lu_solve
from .ops.linalg_solve import (
    LinAlgError,
    cholesky,
    det,
    inv,
    slogdet,
    solve,
    solve_triangular,
)
from .ops.matrix_exp import matrix_exp
from .ops.norms import vector_norm
from .ops.products import linalg_cross as cross
from .ops.triangular import diagonal as _diagonal


def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    """The diagonals of the matrices in the last two dims (a view)."""
    return _diagonal(A, offset, dim1, dim2)


# what `from ... import *` gives, and the names type checkers treat as this module's API
__all__ = [
    "LinAlgError",
    "cholesky",
    "cholesky_ex",
    "cond",
    "cross",
    "det",
    "diagonal",
    "eig",
    "eigh",
    "eigvals",
    "eigvalsh",
    "householder_product",
    "inv",
    "inv_ex",
    "ldl_factor",
    "ldl_factor_ex",
    "ldl_solve",
    "lstsq",
    "lu",
    "lu_factor",
    "lu_factor_ex",
    "lu_solve",
    "matmul",
    "matrix_exp",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "multi_dot",
    "norm",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "solve_ex",
    "solve_triangular",
    "svd",
    "svdvals",
    "tensorinv",
    "tensorsolve",
    "vander",
    "vecdot",
    "vector_norm",
]

# torch's out= and its errors at the boundary, as the numtorch.<name> functions have them
_publish_all(globals(), __all__, "linalg_")
