"""``Tensor.sparse_mask``: a dense tensor's entries at a sparse COO mask's indices, as a
sparse tensor with the mask's pattern (uncoalesced where the mask is) and the dense
tensor's dtype. The gradient scatters back into the dense tensor."""

from __future__ import annotations

from .._core.op import defop, not_implemented
from .._core.tensor import Tensor
from ..autograd.forward_grad import no_forward_derivative
from ..backend import xp
from .sparse import SparseTensor, _index_tensor
from .sparse_primitives import _scatter


# torch's gradient is a projection op with no derivative of its own: a second order through
# sparse_mask raises its error
@defop(
    name="_sparse_mask_projection",
    schema_args=3,  # (self, mask, accumulate_matches)
    node="NotImplemented",
    values=not_implemented("_sparse_mask_projection"),
    jvp=no_forward_derivative("_sparse_mask_projection"),
)
def _projection(values, indices, size):
    return _scatter(values, indices, size)


@defop(
    name="sparse_mask",
    aten="sparse_mask",
    node="SparseMaskBackward0",
    input=lambda grad, input_shape, indices: _projection(grad, indices, input_shape),
    jvp="linear",
)
def _masked_values(input, indices):
    return input[tuple(indices)]


def sparse_mask(self, mask) -> SparseTensor:
    """The entries of ``self`` where the sparse COO ``mask`` has entries.

    Example:
        >>> import numtorch as torch
        >>> mask = torch.tensor([[0.0, 1.0], [1.0, 0.0]]).to_sparse()
        >>> torch.tensor([[1.0, 2.0], [3.0, 4.0]]).sparse_mask(mask).values()
        tensor([2., 3.])
    """
    if not isinstance(mask, SparseTensor) or getattr(mask, "is_sparse_csr", False):
        raise NotImplementedError(
            "Could not run 'aten::sparse_mask' with arguments from the 'CPU' backend: "
            "sparse_mask takes a sparse COO mask (convert it with to_sparse())"
        )
    if isinstance(self, SparseTensor):
        raise NotImplementedError("numtorch's sparse_mask takes a dense tensor to mask")
    if tuple(self.shape) != tuple(mask.shape):
        raise RuntimeError(
            f"sparse_mask(): operands have incompatible sizes; self has size {list(self.shape)} "
            f"but mask has size {list(mask.shape)}"
        )
    indices = mask._index_array
    values = _masked_values(self, _index_tensor(indices))
    return SparseTensor._build(xp.array(indices), values, mask.shape, mask._coalesced)


Tensor.sparse_mask = sparse_mask
