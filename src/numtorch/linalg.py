"""``torch.linalg``: norms, inverses and determinants, solves and matrix decompositions."""

from .ops.householder import householder_product  # noqa: F401
from .ops.linalg import matmul  # noqa: F401
from .ops.linalg_cholesky import cholesky_ex  # noqa: F401
from .ops.linalg_decomp import eigh, eigvalsh, pinv, qr, svd, svdvals  # noqa: F401
from .ops.linalg_functions import (  # noqa: F401
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
from .ops.linalg_lstsq import lstsq  # noqa: F401
from .ops.linalg_lu import lu_ as lu  # noqa: F401
from .ops.linalg_lu import lu_factor, lu_factor_ex  # noqa: F401
from .ops.linalg_lu import lu_solve_ as lu_solve  # noqa: F401
from .ops.linalg_solve import (  # noqa: F401
    LinAlgError,
    cholesky,
    det,
    inv,
    slogdet,
    solve,
    solve_triangular,
)
from .ops.matrix_exp import matrix_exp  # noqa: F401
from .ops.products import linalg_cross as cross  # noqa: F401
from .ops.reduction import vector_norm  # noqa: F401
from .ops.triangular import diagonal as _diagonal


def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    """The diagonals of the matrices in the last two dims (a view)."""
    return _diagonal(A, offset, dim1, dim2)
