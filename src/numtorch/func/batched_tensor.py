"""The tensor a vmapped function sees: one sample's shape, the whole batch underneath.

Note [Batched tensors]
Inside ``vmap`` each mapped input is a ``BatchedTensor``: a ``Tensor`` whose ``shape``,
``dim()``, ``dtype`` are those of one sample (the logical tensor), holding the physical
tensor (``_value``, every sample) and where its batch dimension is (``_bdim``) for one
``vmap`` level (``_level``; nested ``vmap`` calls have increasing levels, and a level's
physical tensor may itself be batched at an outer level). Ops see it through the
dispatch switch (``dispatch.batching``, see func/batching.py): the op entry's batching rule
runs the op once on the physical tensors. Autograd records on the physical tensors, so
every graph is an ordinary graph of plain tensors and backward formulas (array ones
included) never meet a batched tensor; per-sample gradients come from the batch dimension
of the leaves (Note [Per-sample gradients] in func/batching.py).

A batched tensor has no data of its own: anything that reads ``_data`` directly (rather
than through an op) raises, naming vmap, as do ``.item()`` and data-dependent control flow,
as in torch.
"""

from __future__ import annotations

from collections.abc import MutableMapping

from .._core.tensor import Size, Tensor
from ..backend import xp

_ITEM = (
    "vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over calling "
    ".item() on a Tensor, please try to rewrite what you're doing with other operations. If "
    "error is occurring somewhere inside PyTorch internals, please file a bug report."
)
_CONTROL_FLOW = (
    "vmap: It looks like you're attempting to use a Tensor in some data-dependent control "
    "flow. We don't support that yet, please file an issue at "
    "https://github.com/pytorch/pytorch/issues ."
)
_new = object.__new__
_READ = (
    "vmap: this function reads a batched tensor's values directly instead of through "
    "numtorch ops, which vmap cannot batch; call it outside vmap or write it with numtorch ops"
)


class LogicalArray(xp.ndarray):
    """A batched tensor's stand-in array: one sample's shape and dtype, no readable values."""

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        raise RuntimeError(_READ)

    def __array_function__(self, func, types, args, kwargs):
        raise RuntimeError(_READ)

    def _refuse(self, *args, **kwargs):
        raise RuntimeError(_READ)

    item = tolist = tobytes = astype = copy = __bool__ = __float__ = __int__ = _refuse
    __index__ = __iter__ = __array__ = _refuse


def logical_array(physical, bdim: int) -> LogicalArray:
    shape = physical.shape[:bdim] + physical.shape[bdim + 1 :]
    single = xp.zeros((), physical.dtype)
    strided = xp.lib.stride_tricks.as_strided(
        single, shape=shape, strides=(0,) * len(shape), writeable=False
    )
    # read-only: in-place fast paths that write arrays directly step aside
    return strided.view(LogicalArray)


class BatchedTensor(Tensor):
    """A logical tensor inside ``vmap`` (Note [Batched tensors])."""

    __slots__ = ("_value", "_bdim", "_level", "_stand_in")
    _batched = True

    @property
    def _data(self):
        # Functions that read shapes from ``_data`` see the logical shape; values cannot be
        # read (Note [Batched tensors]).
        stand_in = self._stand_in
        if stand_in is None:
            stand_in = self._stand_in = logical_array(self._value._data, self._bdim)
        return stand_in

    @_data.setter
    def _data(self, value):
        raise RuntimeError("vmap: a batched tensor's data cannot be replaced")

    # -- autograd lives on the physical tensor ---------------------------------------------
    @property
    def _requires_grad(self) -> bool:
        return self._value._requires_grad

    @_requires_grad.setter
    def _requires_grad(self, value) -> None:
        self._value._requires_grad = value

    @property
    def _grad_fn(self):
        return self._value._grad_fn

    @_grad_fn.setter
    def _grad_fn(self, value) -> None:
        self._value._grad_fn = value

    # Forward-mode tangents live on the physical tensor too, with the same layout as it (ops
    # run on physical tensors and push physical tangents); the logical tensor reads and
    # writes them through a view that batches and unbatches them at this level.
    @property
    def _fw_grads(self):
        return None if self._value._fw_grads is None else _LogicalTangents(self)

    @_fw_grads.setter
    def _fw_grads(self, value) -> None:
        physical = self._value
        if value is None:
            if not physical._fw_grads:
                physical._fw_grads = None
        elif physical._fw_grads is None:
            physical._fw_grads = {}
        for level, tangent in dict(value or {}).items():
            _LogicalTangents(self)[level] = tangent

    @property
    def _base(self):
        return None

    @_base.setter
    def _base(self, value) -> None:
        pass

    @property
    def grad_fn(self):
        return self._value.grad_fn

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        self._value.requires_grad_(requires_grad)
        return self

    def _set_requires_grad(self, value: bool, how: str) -> None:
        self._value._set_requires_grad(value, how)

    def detach(self) -> Tensor:
        return BatchedTensor._wrap(self._value.detach(), self._bdim, self._level)

    def _edge(self):
        return self._value._edge()

    @property
    def _version(self) -> int:
        return self._value._version

    # -- the logical tensor ----------------------------------------------------------------
    @staticmethod
    def _wrap(value: Tensor, bdim: int, level: int) -> BatchedTensor:
        t = _new(BatchedTensor)
        t._value = value
        t._bdim = bdim
        t._level = level
        t._stand_in = None
        return t

    @property
    def shape(self) -> Size:
        shape = list(self._value.shape)
        del shape[self._bdim]
        return Size(shape)

    def size(self, dim: int | None = None):
        shape = self.shape
        if dim is None:
            return shape
        if not -len(shape) <= dim < max(len(shape), 1):
            raise IndexError(
                f"Dimension out of range (expected to be in range of [{-len(shape)}, "
                f"{len(shape) - 1}], but got {dim})"
            )
        return shape[dim]

    @property
    def dtype(self):
        return self._value.dtype

    @property
    def device(self):
        return self._value.device

    @property
    def is_meta(self) -> bool:
        return self._value.is_meta

    @property
    def ndim(self) -> int:
        return self._value.ndim - 1

    def dim(self) -> int:
        return self._value.ndim - 1

    ndimension = dim

    def numel(self) -> int:
        n = 1
        for s in self.shape:
            n *= s
        return n

    nelement = numel

    @property
    def itemsize(self) -> int:
        return self._value.itemsize

    def element_size(self) -> int:
        return self._value.itemsize

    def is_floating_point(self) -> bool:
        return self._value.is_floating_point()

    def is_complex(self) -> bool:
        return self._value.is_complex()

    def is_contiguous(self, memory_format=None) -> bool:
        return self._bdim == 0 and self._value.is_contiguous()

    def __len__(self) -> int:
        if not self.dim():
            raise TypeError("len() of a 0-d tensor")
        return self.shape[0]

    # -- what vmap cannot batch ------------------------------------------------------------
    def item(self):
        raise RuntimeError(_ITEM)

    def tolist(self):
        raise RuntimeError(_ITEM)

    def numpy(self, *, force: bool = False):
        raise RuntimeError(_ITEM)

    def __bool__(self) -> bool:
        raise RuntimeError(_CONTROL_FLOW)

    def _python_scalar(self):
        raise RuntimeError(_CONTROL_FLOW)

    def __index__(self) -> int:
        raise RuntimeError(_CONTROL_FLOW)

    def __repr__(self) -> str:
        inner = repr(self._value).replace("\n", "\n    ")
        return f"BatchedTensor(lvl={self._level}, bdim={self._bdim}, value=\n    {inner}\n)"

    def __format__(self, spec: str) -> str:
        return object.__format__(self, spec)


class _LogicalTangents(MutableMapping):
    """A batched tensor's tangents (level -> logical tangent) over its physical tensor's."""

    __slots__ = ("_tensor",)

    def __init__(self, tensor: BatchedTensor):
        self._tensor = tensor

    def _physical(self) -> dict:
        grads = self._tensor._value._fw_grads
        return {} if grads is None else grads

    # A tangent may have leading dims before the primal's (jacfwd's basis rows), before
    # the physical primal's dims in its physical tensor too.
    def __getitem__(self, level):
        t = self._tensor
        value = self._physical()[level]
        extra = value.dim() - t._value.dim()
        return BatchedTensor._wrap(value, t._bdim + extra, t._level)

    def __setitem__(self, level, tangent) -> None:
        t = self._tensor
        physical = t._value
        extra = tangent.dim() - t.dim()
        if tangent.__class__ is BatchedTensor and tangent._level == t._level:
            value = tangent._value.movedim(tangent._bdim, t._bdim + extra)
        else:  # the same tangent for every sample
            value = tangent.unsqueeze(t._bdim + extra)
            value = value.expand((*tangent.shape[:extra], *physical.shape))
        if physical._fw_grads is None:
            physical._fw_grads = {}
        physical._fw_grads[level] = value

    def __delitem__(self, level) -> None:
        del self._physical()[level]

    def __iter__(self):
        return iter(self._physical())

    def __len__(self) -> int:
        return len(self._physical())


def is_batched(t) -> bool:
    return t.__class__ is BatchedTensor


def unwrap_all(t):
    """``(plain tensor, [(level, bdim), ...] outermost wrapper first)``."""
    chain = []
    while t.__class__ is BatchedTensor:
        chain.append((t._level, t._bdim))
        t = t._value
    return t, chain


def rewrap_all(plain: Tensor, chain) -> Tensor:
    """The inverse of ``unwrap_all``: ``plain`` wrapped as described by ``chain``."""
    for level, bdim in reversed(chain):
        plain = BatchedTensor._wrap(plain, bdim, level)
    return plain
