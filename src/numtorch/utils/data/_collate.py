"""``default_collate`` and ``default_convert``: turn a list of samples into a batch."""

from __future__ import annotations

import collections.abc
import copy
import re

import numpy as np

from ..._core.dtypes import float64
from ..._core.grad_mode import is_grad_enabled
from ..._core.tensor import Tensor
from ..._creation import as_tensor, tensor
from ...ops.concatenation import stack

_STRING_OR_OBJECT = re.compile(r"[SaUO]")  # NumPy dtype codes default_collate refuses
ERROR_FORMAT = (
    "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"
)


def _collate_tensors(batch: list) -> Tensor:
    if is_grad_enabled() and any(t._requires_grad for t in batch):
        return stack(batch, 0)  # a recorded op, so gradients flow to the samples
    shape = batch[0]._data.shape
    for i, t in enumerate(batch):
        if t._data.shape != shape:
            raise RuntimeError(
                "stack expects each tensor to be equal size, but got "
                f"{list(shape)} at entry 0 and {list(t._data.shape)} at entry {i}"
            )
    if len({t._data.dtype for t in batch}) > 1:
        return stack(batch, 0)  # type promotion as torch.stack does it
    return Tensor._make(np.stack([t._data for t in batch]))


def _collate_sequence(elem, transposed: list):
    # as torch's, each position's samples stay the tuple zip made: strings come back as one
    if isinstance(elem, tuple):
        return [default_collate(samples) for samples in transposed]
    try:
        if isinstance(elem, collections.abc.MutableSequence):
            clone = copy.copy(elem)
            for i, samples in enumerate(transposed):
                clone[i] = default_collate(samples)
            return clone
        return type(elem)([default_collate(samples) for samples in transposed])
    except TypeError:  # a sequence type that cannot be built from a list
        return [default_collate(samples) for samples in transposed]


def default_collate(batch):
    """Stack a list of samples into a batch, keeping their structure.

    Tensors are stacked on a new first dim; NumPy arrays and NumPy scalars become tensors
    first; Python floats become a float64 tensor and ints (and bools) an int64 (bool)
    tensor; strings and bytes come back as given (a tuple of them inside a sequence). Dicts
    are collated key by key, namedtuples field by field; other sequences position by
    position, with tuples giving lists, as in torch.

    Example:
        >>> import numtorch as torch
        >>> from numtorch.utils.data import default_collate
        >>> batch = default_collate([(torch.tensor([1.0, 2.0]), 0), (torch.tensor([3.0, 4.0]), 1)])
        >>> batch
        [tensor([[1., 2.],
                [3., 4.]]), tensor([0, 1])]
        >>> default_collate([{"x": 1.5, "name": "a"}, {"x": 2.5, "name": "b"}])
        {'x': tensor([1.5000, 2.5000], dtype=torch.float64), 'name': ['a', 'b']}
    """
    elem = batch[0]
    if isinstance(elem, Tensor):
        return _collate_tensors(batch)
    if isinstance(elem, np.ndarray):
        if _STRING_OR_OBJECT.search(elem.dtype.str) is not None:
            raise TypeError(ERROR_FORMAT.format(elem.dtype))
        return _collate_tensors([as_tensor(b) for b in batch])
    if isinstance(elem, (np.bool_, np.number, np.object_)):
        return as_tensor(np.array(batch))
    if isinstance(elem, float):
        return tensor(batch, dtype=float64)
    if isinstance(elem, int):
        return tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        collated = {key: default_collate([d[key] for d in batch]) for key in elem}
        try:
            if isinstance(elem, collections.abc.MutableMapping):
                clone = copy.copy(elem)
                clone.update(collated)
                return clone
            return type(elem)(collated)
        except TypeError:
            return collated
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # namedtuple
        return type(elem)(*(default_collate(samples) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        size = len(elem)
        if any(len(sample) != size for sample in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        return _collate_sequence(elem, list(zip(*batch)))
    raise TypeError(ERROR_FORMAT.format(type(elem)))


def default_convert(data):
    """Turn NumPy arrays and scalars inside ``data`` into tensors, keeping the structure
    (the DataLoader's conversion when ``batch_size=None``).

    Example:
        >>> import numpy as np
        >>> from numtorch.utils.data import default_convert
        >>> default_convert({"x": np.array([1, 2])})
        {'x': tensor([1, 2])}
    """
    if isinstance(data, Tensor):
        return data
    if isinstance(data, np.ndarray):
        if _STRING_OR_OBJECT.search(data.dtype.str) is not None:
            return data
        return as_tensor(data)
    if isinstance(data, (np.bool_, np.number)):
        return as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        converted = {key: default_convert(data[key]) for key in data}
        try:
            if isinstance(data, collections.abc.MutableMapping):
                clone = copy.copy(data)
                clone.update(converted)
                return clone
            return type(data)(converted)
        except TypeError:
            return converted
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        try:
            if isinstance(data, collections.abc.MutableSequence):
                clone = copy.copy(data)
                for i, d in enumerate(data):
                    clone[i] = default_convert(d)
                return clone
            return type(data)([default_convert(d) for d in data])
        except TypeError:
            return [default_convert(d) for d in data]
    return data
