"""``embedding``, ``embedding_bag`` and ``one_hot`` of ``numtorch.nn.functional``."""

from __future__ import annotations

from ..._core import grad_mode
from ..._core.dispatch import require_tensor
from ..._core.tensor import Tensor, _read_dim
from ...backend import xp
from ...ops.nn.embedding import check_weight_2d
from ...ops.nn.embedding import embedding as _embedding
from ...ops.nn.embedding_bag import MODES, embedding_bag_op


def _renorm_(weight, indices, max_norm, norm_type):
    # rows used by this lookup whose norm exceeds max_norm are scaled down in place, in
    # torch's order (sorted, unique): a row out of range stops it there, those before it
    # already renormed, with torch's error for selecting that row
    rows = xp.unique(indices._data.reshape(-1))
    data = weight._data
    outside = xp.flatnonzero((rows < -data.shape[0]) | (rows >= data.shape[0]))
    if outside.size:
        bad = int(rows[outside[0]])
        _renorm_(weight, Tensor._make(rows[: outside[0]]), max_norm, norm_type)
        raise IndexError(
            f"select(): index {bad} out of range for tensor of size {list(data.shape)} at "
            "dimension 0"
        )
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
    if padding_idx is not None:  # torch reads weight.size(0) before the table's 2-D check
        if padding_idx > 0:
            rows = weight.shape[_read_dim(weight.ndim, 0)]
            assert padding_idx < rows, "Padding_idx must be within num_embeddings"
        elif padding_idx < 0:
            rows = weight.shape[_read_dim(weight.ndim, 0)]
            assert padding_idx >= -rows, "Padding_idx must be within num_embeddings"
            padding_idx = rows + padding_idx
    else:
        padding_idx = -1
    check_weight_2d(weight)
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
    require_tensor("one_hot", "input", 1, tensor)
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


def _check_indices(indices, name="embedding_bag"):
    if not isinstance(indices, Tensor) or indices._data.dtype.kind not in "iu":
        tag = indices.dtype._tag if isinstance(indices, Tensor) else type(indices).__name__
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar "
            f"types: Long, Int; but got torch.{tag} instead (while checking arguments for "
            f"{name})"
        )


def _check_bags(input, offsets, num_weights, include_last_offset):
    data, starts = input._data, offsets._data
    if starts.size and starts[0] != 0:
        raise RuntimeError(
            "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start "
            f"from position 0. However, got {int(starts[0])}"
        )
    if starts.size and starts[-1] > data.size:
        raise RuntimeError(
            f"offsets[-1] can not be greater than input's length {data.size} but got "
            f"offsets[-1] of {int(starts[-1])}"
        )
    if include_last_offset and starts.size == 0:
        raise RuntimeError("include_last_offset: number of offset should be at least 1")
    bad = xp.nonzero((data < 0) | (data >= num_weights))[0]
    if bad.size:
        raise RuntimeError(
            f"Index {int(bad[0])} of input takes value {int(data[bad[0]])} which is not in the "
            f"valid range [0, {num_weights})"
        )


def embedding_bag(
    input: Tensor,
    weight: Tensor,
    offsets=None,
    max_norm=None,
    norm_type: float = 2,
    scale_grad_by_freq: bool = False,
    mode: str = "mean",
    sparse: bool = False,
    per_sample_weights=None,
    include_last_offset: bool = False,
    padding_idx=None,
) -> Tensor:
    """Sum, mean or max of bags of embedding rows, without the per-index intermediate.

    A 2-D ``input`` (B, N) is B bags of N indices; a 1-D ``input`` is split into bags
    starting at ``offsets``.

    Example:
        >>> import numtorch as torch
        >>> weight = torch.tensor([[1.0, 0.0], [0.0, 2.0], [3.0, 3.0]])
        >>> F = torch.nn.functional
        >>> F.embedding_bag(torch.tensor([0, 1, 2]), weight, torch.tensor([0, 2]), mode="sum")
        tensor([[1., 2.],
                [3., 3.]])
    """
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError(
            f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is not None, "
            f"then it must have the same shape as the input ({input.shape})"
        )
    if weight.dim() != 2:
        raise ValueError(
            f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}"
        )
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError(
                "if input is 2D, then offsets has to be None, as input is treated is a "
                "mini-batch of fixed length sequences. However, found offsets of type "
                f"<class 'torch.{type(offsets).__name__}'>"
            )
        offsets = Tensor._make(xp.arange(0, input.numel(), input.size(1), dtype=xp.int64))
        include_last_offset = False
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(
            f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}"
        )
    if mode not in MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max" and scale_grad_by_freq:
        raise ValueError("max mode does not support scaling the gradient by the frequency")
    if mode == "max" and sparse:
        raise ValueError("max mode does not support sparse weights")
    _check_indices(input)
    _check_indices(offsets)
    if per_sample_weights is not None and per_sample_weights.dtype != weight.dtype:
        raise RuntimeError(
            "Expected tensor for argument #1 'weight' to have the same type as tensor for "
            f"argument #1 'per_sample_weights'; but type torch.{weight.dtype._tag} does not "
            f"equal torch.{per_sample_weights.dtype._tag} (while checking arguments for "
            "embedding_bag)"
        )
    _check_bags(input, offsets, weight.shape[0], include_last_offset)
    if max_norm is not None:
        with grad_mode.no_grad():
            _renorm_(weight, input, max_norm, norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(
            "embedding_bag: per_sample_weights was not None. per_sample_weights is only "
            f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
            "GitHub."
        )
    if sparse:
        raise NotImplementedError(
            "numtorch's embedding_bag has no sparse gradients yet: use sparse=False"
        )
    end = int(offsets._data[-1]) if include_last_offset and offsets.numel() else None
    if end is not None and end < input.numel():
        # indices past the last offset belong to no bag (torch's float64 kernel disagrees:
        # it extends the last bag to the end; its default float32 kernel does this)
        input = input[:end]
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights[:end]
    if padding_idx is None:
        padding_idx = -1
    elif padding_idx < 0:
        padding_idx += weight.shape[0]
    return embedding_bag_op(
        weight,
        input,
        offsets,
        MODES[mode],
        per_sample_weights,
        padding_idx,
        include_last_offset,
        scale_grad_by_freq,
    )[0]
