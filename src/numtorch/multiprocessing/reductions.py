"""How tensors travel to other processes: a tensor in shared memory (``share_memory_``)
is sent as the path of its shared file, so the receiver maps the same memory; any other
tensor is pickled by value. Registered with multiprocessing's pickler on import."""

from __future__ import annotations

import pickle
from multiprocessing.reduction import ForkingPickler

from .. import _shared_memory
from .._core.tensor import Tensor
from ..nn.parameter import Parameter


def _rebuild_shared(cls, path: str, shape: tuple, dtype, requires_grad: bool) -> Tensor:
    tensor = Tensor._make(_shared_memory.attach(path, shape, dtype))
    tensor._shared_path = path  # the sender owns the file: no finalizer here
    if cls is Parameter:
        return Parameter(tensor, requires_grad)
    return tensor.requires_grad_(requires_grad) if requires_grad else tensor


def _reduce_tensor(tensor: Tensor):
    path = _shared_memory.shared_path(tensor)
    if path is None:
        return tensor.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
    data = tensor._data
    return _rebuild_shared, (type(tensor), path, data.shape, data.dtype, tensor.requires_grad)


def init_reductions() -> None:
    for cls in (Tensor, Parameter):
        ForkingPickler.register(cls, _reduce_tensor)
