"""``embedding`` and ``one_hot`` of ``numtorch.nn.functional``."""

from __future__ import annotations

from ..._tensor import Tensor
from ...autograd import grad_mode
from ...backend import xp
from ...ops.nn.embedding import embedding as _embedding


def _renorm_(weight, indices, max_norm, norm_type):
    # rows used by this lookup whose norm exceeds max_norm are scaled down in place
    rows = xp.unique(indices._data.reshape(-1))
    data = weight._data
    norms = xp.linalg.norm(data[rows], ord=norm_type, axis=1)
    scale = xp.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
    data[rows] *= scale[:, None].astype(data.dtype)
    weight._bump_version()


def embedding(
    input: Tensor,
    weight: Tensor,
    padding_idx=None,
    max_norm=None,
    norm_type: float = 2.0,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
):
    """Rows of ``weight`` selected by the integer tensor ``input``.

    Example:
        >>> import numtorch as torch
        >>> weight = torch.tensor([[0.0, 0.0], [1.0, 2.0]])
        >>> torch.nn.functional.embedding(torch.tensor([1, 1]), weight)
        tensor([[1., 2.],
                [1., 2.]])
    """
    if padding_idx is not None:
        if padding_idx > 0:
            assert padding_idx < weight.shape[0], "Padding_idx must be within num_embeddings"
        elif padding_idx < 0:
            assert padding_idx >= -weight.shape[0], "Padding_idx must be within num_embeddings"
            padding_idx = weight.shape[0] + padding_idx
    else:
        padding_idx = -1
    if max_norm is not None:
        with grad_mode.no_grad():
            _renorm_(weight, input, max_norm, norm_type)
    return _embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """int64 one-hot encoding with a trailing class dim.

    Example:
        >>> import numtorch as torch
        >>> torch.nn.functional.one_hot(torch.tensor([0, 2]))
        tensor([[1, 0, 0],
                [0, 0, 1]])
    """
    data = tensor._data
    if data.dtype != xp.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if num_classes == -1:
        if data.size == 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(data.max()) + 1
    if data.size:
        if data.min() < 0:
            raise RuntimeError("Class values must be non-negative.")
        if data.max() >= num_classes:
            raise RuntimeError("Class values must be smaller than num_classes.")
    out = (data[..., None] == xp.arange(num_classes)).astype(xp.int64)
    return Tensor._make(out)
