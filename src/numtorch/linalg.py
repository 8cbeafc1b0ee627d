"""``torch.linalg``: vector norms (matrix decompositions are not provided)."""

from .ops.reduction import norm as _norm
from .ops.reduction import vector_norm  # noqa: F401


def norm(input, ord=None, dim=None, keepdim=False, *, dtype=None):
    """Vector 2-norm by default; ``ord`` a number for other vector norms."""
    return _norm(input, 2 if ord is None else ord, dim, keepdim, dtype)
