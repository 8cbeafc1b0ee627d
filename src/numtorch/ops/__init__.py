"""numtorch's ops; importing this package registers every op on Tensor and in FUNCTIONS."""

from . import (  # noqa: F401
    cumulative,
    factory,
    indexing,
    linalg,
    operators,
    pointwise,
    reduction,
    selection,
    sets,
    shape,
    special,
    triangular,
)
from .registry import FUNCTIONS, REGISTRY, defop, export  # noqa: F401
