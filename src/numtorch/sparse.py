"""``torch.sparse``: products and sums of sparse COO tensors (see ops/sparse.py)."""

from .ops.sparse import check_dense_matrix, sparse_addmm, sparse_product, sparse_sum
from .ops.sparse_softmax import log_softmax, softmax

__all__ = ["addmm", "log_softmax", "mm", "softmax", "sum"]

addmm = sparse_addmm


def mm(mat1, mat2):
    """``mat1 @ mat2`` with a sparse COO operand; the gradient of a sparse ``mat1`` is sparse
    (``SparseAddmmBackward0``, as torch records it)."""
    if mat1.is_sparse:
        check_dense_matrix(mat2)
    return sparse_product(mat1, mat2, "sparse.mm")


def sum(input, dim=None, dtype=None):
    """Sum of a sparse tensor: a dense scalar over all dims, else a sparse tensor."""
    return sparse_sum(input, dim, dtype)
