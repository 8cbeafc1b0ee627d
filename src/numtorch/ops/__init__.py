"""numtorch's ops; importing this package registers every op on Tensor and in FUNCTIONS."""

from . import factory, indexing, linalg, nn, operators, pointwise, reduction, shape  # noqa: F401
from .registry import FUNCTIONS, REGISTRY, defop, export  # noqa: F401
