"""numtorch's ops; importing this package registers every op on Tensor and in FUNCTIONS."""

from . import (  # noqa: F401
    bessel,
    construction,
    cumulative,
    factory,
    gamma,
    incomplete_gamma,
    indexed,
    indexing,
    linalg,
    linalg_decomp,
    linalg_functions,
    linalg_solve,
    matrix_exp,
    nn,
    normal,
    operators,
    pointwise,
    products,
    reduction,
    selection,
    sets,
    shape,
    special,
    triangular,
)
from .registry import FUNCTIONS, REGISTRY, defop, export  # noqa: F401
