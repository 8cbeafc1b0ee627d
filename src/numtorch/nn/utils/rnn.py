"""Variable-length sequences for the recurrent layers: ``PackedSequence`` and the functions
that pack, pad and unpad (``numtorch.nn.utils.rnn``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from ... import _creation
from ..._core import dtypes as _dtypes
from ..._core.tensor import Tensor
from ...ops.nn.rnn import pack_padded_sequence as _pack_padded

__all__ = [
    "PackedSequence",
    "invert_permutation",
    "pack_padded_sequence",
    "pad_packed_sequence",
    "pad_sequence",
    "unpad_sequence",
    "pack_sequence",
    "unpack_sequence",
]


class PackedSequence_(NamedTuple):
    data: Tensor
    batch_sizes: Tensor
    sorted_indices: Tensor | None
    unsorted_indices: Tensor | None


class PackedSequence(PackedSequence_):
    """The time steps of a batch of sequences, longest first, stacked into ``data``;
    ``batch_sizes[t]`` sequences are still running at step ``t``. ``sorted_indices``
    (and its inverse ``unsorted_indices``) record how the batch was reordered by length.
    Build one with ``pack_padded_sequence`` or ``pack_sequence``.
    """

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is None:
            if not (isinstance(data, (list, tuple)) and len(data) == 2):
                raise AssertionError("Expected data to be a list or tuple of length 2")
            data, batch_sizes = data
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs):
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        return type(self)(data, self.batch_sizes, self.sorted_indices, self.unsorted_indices)

    def cpu(self, *args, **kwargs):
        return self

    def double(self):
        return self.to(dtype=_dtypes.float64)

    def float(self):
        return self.to(dtype=_dtypes.float32)

    def half(self):
        return self.to(dtype=_dtypes.float16)

    @property
    def is_cuda(self) -> bool:
        return False

    def is_pinned(self) -> bool:
        return False


def invert_permutation(permutation):
    if permutation is None:
        return None
    output = _creation.empty_like(permutation)
    output.scatter_(0, permutation, _creation.arange(0, permutation.numel()))
    return output


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """Pack a padded (T, B, *) batch (``(B, T, *)`` when ``batch_first``) of sequences of
    the given lengths; with ``enforce_sorted=False`` they need not be sorted longest first.

    Example:
        >>> import numtorch as torch
        >>> x = torch.tensor([[1.0, 4.0], [2.0, 0.0], [3.0, 0.0]])
        >>> torch.nn.utils.rnn.pack_padded_sequence(x, [3, 1]).data
        tensor([1., 4., 2., 3.])
    """
    if not isinstance(lengths, Tensor):
        lengths = _creation.as_tensor(lengths, dtype=_dtypes.int64)
    else:
        lengths = lengths.to(dtype=_dtypes.int64)
    sorted_indices = None
    if not enforce_sorted:
        lengths, sorted_indices = lengths.sort(descending=True)
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    data, batch_sizes = _pack_padded(input, lengths, batch_first)
    return PackedSequence(data, batch_sizes, sorted_indices, None)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """Undo ``pack_padded_sequence``: ``(padded, lengths)``, padded to ``total_length``
    steps when given."""
    batch_sizes = [int(b) for b in sequence.batch_sizes.tolist()]
    max_length = len(batch_sizes)
    if total_length is not None:
        if total_length < max_length:
            raise ValueError(
                "Expected total_length to be at least the length of the longest sequence in "
                f"input, but got total_length={total_length} and max sequence length being "
                f"{max_length}"
            )
        max_length = total_length
    data = sequence.data
    rest = tuple(data.shape[1:])
    batch = batch_sizes[0]
    output = _creation.full((max_length, batch, *rest), padding_value, dtype=data.dtype)
    offset = start = 0
    while start < len(batch_sizes):  # one copy per run of steps with the same batch size
        size = batch_sizes[start]
        end = start
        while end < len(batch_sizes) and batch_sizes[end] == size:
            end += 1
        rows = size * (end - start)
        # torch's narrow and slice always view (indexing skips a full slice): CopySlices
        # and SliceBackward0 even where one run covers the whole output
        steps = data.narrow(0, offset, rows).view(end - start, size, *rest)
        output.narrow(0, start, end - start).narrow(1, 0, size).copy_(steps)
        offset += rows
        start = end
    if batch_first:
        output = output.transpose(0, 1)
    lengths = [sum(1 for size in batch_sizes if size > b) for b in range(batch)]
    lengths = _creation.tensor(lengths, dtype=_dtypes.int64)
    unsorted = sequence.unsorted_indices
    if unsorted is not None:
        return output.index_select(0 if batch_first else 1, unsorted), lengths[unsorted]
    return output, lengths


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Stack tensors of shape (L_i, *) into (max L, B, *) (``(B, max L, *)`` when
    ``batch_first``), filling with ``padding_value`` on ``padding_side``.

    Example:
        >>> import numtorch as torch
        >>> a, b = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0])
        >>> torch.nn.utils.rnn.pad_sequence([a, b], batch_first=True)
        tensor([[1., 2., 3.],
                [4., 0., 0.]])
    """
    if not isinstance(sequences, Iterable):
        raise RuntimeError(
            "pad_sequence: Expected iterable for input sequences, but got arg of type: "
            f"{type(sequences)}"
        )
    sequences = tuple(sequences)
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    if padding_side not in ("left", "right"):
        raise RuntimeError(
            f"Expected padding_side to be one of left or right, but got {padding_side}."
        )
    max_length = max(s.shape[0] for s in sequences)
    trailing = tuple(sequences[0].shape[1:])
    shape = (len(sequences), max_length) if batch_first else (max_length, len(sequences))
    out = _creation.full(shape + trailing, padding_value, dtype=sequences[0].dtype)
    for i, sequence in enumerate(sequences):
        _check_trailing(trailing, tuple(sequence.shape))
        length = sequence.shape[0]
        start = max_length - length if padding_side == "left" else 0
        if batch_first:
            out.select(0, i).narrow(0, start, length).copy_(sequence)
        else:
            out.narrow(0, start, length).select(1, i).copy_(sequence)
    return out


def _check_trailing(trailing, shape):
    # torch's copy_ message; slot (L, *trailing) receives a sequence of shape (L, *rest)
    slot = shape[:1] + trailing
    for k in range(1, min(len(slot), len(shape)) + 1):
        if slot[-k] != shape[-k] and shape[-k] != 1:
            raise RuntimeError(
                f"The size of tensor a ({slot[-k]}) must match the size of tensor b "
                f"({shape[-k]}) at non-singleton dimension {len(slot) - k}"
            )


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """The list of unpadded sequences of a padded batch."""
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    index = _creation.arange(padded_sequences.shape[1])
    return [seq[index < length] for seq, length in zip(padded_sequences, lengths)]


def pack_sequence(sequences, enforce_sorted=True):
    """Pack a list of (L_i, *) tensors (longest first unless ``enforce_sorted=False``)."""
    lengths = _creation.as_tensor([v.shape[0] for v in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    """The list of sequences in a ``PackedSequence``."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
