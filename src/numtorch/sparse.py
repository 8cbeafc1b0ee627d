"""``torch.sparse``: products and sums of sparse COO tensors (see ops/sparse.py)."""

from ._core import dtypes as _dtypes
from ._core.tensor import Size, Tensor
from ._creation import empty, shape_arg
from ._sparse_gradcheck import as_sparse_gradcheck
from .ops.sparse import (
    check_dense_matrix,
    sparse_addmm,
    sparse_coo_tensor,
    sparse_product,
    sparse_sum,
)
from .ops.sparse_mm_reduce import sparse_mm_reduce
from .ops.sparse_softmax import log_softmax, softmax
from .ops.sparse_spdiags import spdiags

__all__ = ["addmm", "as_sparse_gradcheck", "log_softmax", "mm", "softmax", "sum", "spdiags"]

addmm = sparse_addmm


def mm(mat1, mat2, reduce=None):
    """``mat1 @ mat2`` with a sparse COO operand; the gradient of a sparse ``mat1`` is sparse
    (``SparseAddmmBackward0``, as torch records it). With ``reduce`` ("sum", "mean", "amax",
    "amin") a sparse CSR ``mat1``'s rows reduce their entry products that way."""
    if reduce is not None:
        return sparse_mm_reduce(mat1, mat2, reduce)
    if mat1.is_sparse:
        check_dense_matrix(mat2)
    return sparse_product(mat1, mat2, "sparse.mm")


def sum(input, dim=None, dtype=None):
    """Sum of a sparse tensor: a dense scalar over all dims, else a sparse tensor."""
    return sparse_sum(input, dim, dtype)


class _SparseTensorType(type):
    """Metaclass of the legacy sparse constructors (``torch.sparse.FloatTensor(indices,
    values, size)``, as old graph-network code builds adjacency matrices): calling makes a
    sparse COO tensor, isinstance checks for a sparse tensor of the dtype."""

    def __call__(cls, *args, size=None):
        if args and isinstance(args[0], Tensor):
            indices, values, *rest = args
            size = rest[0] if rest else size
            # torch keeps the values' dtype here, whatever the constructor's name says
            return sparse_coo_tensor(indices, values, size)
        sizes = shape_arg(args, cls.__name__) if args else (0,)
        if len(args) == 1 and isinstance(args[0], Size):
            sizes = tuple(args[0])
        return sparse_coo_tensor(
            empty(len(sizes), 0, dtype=_dtypes.int64), empty(0, dtype=cls.dtype), sizes
        )

    def __instancecheck__(cls, obj) -> bool:
        return isinstance(obj, Tensor) and obj.is_sparse and obj.dtype is cls.dtype

    def __repr__(cls) -> str:
        return f"<class 'torch.sparse.{cls.__name__}'>"


for _dtype in (
    _dtypes.float32,
    _dtypes.float64,
    _dtypes.float16,
    _dtypes.bfloat16,
    _dtypes.int64,
    _dtypes.int32,
    _dtypes.int16,
    _dtypes.int8,
    _dtypes.uint8,
):
    globals()[_dtype._tag] = _SparseTensorType(
        _dtype._tag, (), {"dtype": _dtype, "__module__": __name__}
    )
