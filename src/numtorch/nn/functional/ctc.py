"""``ctc_loss`` of ``numtorch.nn.functional``: argument handling around the CTC primitive."""

from __future__ import annotations

from ..._core.tensor import Tensor
from ...backend import xp
from ...ops.nn.ctc import ctc_loss_op
from ...ops.pointwise import where


def _lengths(value, name: str):
    data = value._data if isinstance(value, Tensor) else xp.asarray(value)
    return xp.asarray(data, dtype=xp.int64).reshape(-1)


def _padded_targets(targets, target_lengths, batch: int):
    data = targets._data.astype(xp.int64)
    if data.ndim == 2:
        if target_lengths.size and data.shape[1] < target_lengths.max():
            raise RuntimeError(
                f"Expected tensor to have size at least {int(target_lengths.max())} at "
                f"dimension 1, but got size {data.shape[1]} for argument #2 'targets' (while "
                "checking arguments for ctc_loss_allocate_outputs)"
            )
        return data
    # 1-D: the targets of the batch one after another
    padded = xp.zeros((batch, int(target_lengths.max(initial=0))), xp.int64)
    starts = xp.concatenate([[0], xp.cumsum(target_lengths)[:-1]])
    for row, (start, length) in enumerate(zip(starts, target_lengths)):
        padded[row, :length] = data[start : start + length]
    return padded


def ctc_loss(
    log_probs: Tensor,
    targets: Tensor,
    input_lengths,
    target_lengths,
    blank: int = 0,
    reduction: str = "mean",
    zero_infinity: bool = False,
) -> Tensor:
    """Connectionist temporal classification loss of ``log_probs`` (T, N, C), log-softmaxed
    over C, against unaligned ``targets`` ((N, S) padded, or 1-D concatenated).

    ``reduction="mean"`` divides each loss by its target length, then averages.

    Example:
        >>> import numtorch as torch
        >>> log_probs = torch.full((3, 1, 2), 0.5).log()
        >>> torch.nn.functional.ctc_loss(log_probs, torch.tensor([[1]]), [3], [1], reduction="sum")
        tensor(0.2877)
    """
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    unbatched = log_probs.dim() == 2
    if unbatched:
        log_probs = log_probs.unsqueeze(1)
        targets = targets.unsqueeze(0)
    frames, batch, classes = log_probs.shape
    input_lengths = _lengths(input_lengths, "input_lengths")
    target_lengths = _lengths(target_lengths, "target_lengths")
    if blank < 0 or blank >= classes:
        raise RuntimeError("blank must be in label range")
    if input_lengths.size != batch:
        raise RuntimeError("input_lengths must be of size batch_size")
    if target_lengths.size != batch:
        raise RuntimeError("target_lengths must be of size batch_size")
    if input_lengths.size and input_lengths.max() > frames:
        raise RuntimeError(
            f"Expected input_lengths to have value at most {frames}, but got value "
            f"{int(input_lengths.max())} (while checking arguments for "
            "ctc_loss_allocate_outputs)"
        )
    padded = _padded_targets(targets, target_lengths, batch)
    loss = ctc_loss_op(
        log_probs,
        Tensor._make(padded),
        Tensor._make(input_lengths),
        Tensor._make(target_lengths),
        blank,
        zero_infinity,
    )
    if zero_infinity:
        loss = where(loss == float("inf"), loss.new_zeros(()), loss)
    if reduction == "mean":
        divisor = Tensor._make(xp.maximum(target_lengths, 1).astype(loss._data.dtype))
        loss = (loss / divisor).mean()
    elif reduction == "sum":
        loss = loss.sum()
    if unbatched and reduction == "none":
        loss = loss.squeeze(0)
    return loss
