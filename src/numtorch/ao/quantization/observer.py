"""Observers: record a tensor's range and turn it into a scale and zero point."""

from __future__ import annotations

import functools

from ..._core import dtypes as _dtypes
from ..._core.tensor import Tensor
from ..._quantized.tensor import QUANT_RANGE, per_tensor_affine, per_tensor_symmetric
from ...backend import xp
from ...nn.modules.module import Module


def _with_args(cls, **kwargs):
    return functools.partial(cls, **kwargs)


class ObserverBase(Module):
    with_args = classmethod(_with_args)

    def __init__(self, dtype=_dtypes.quint8, is_dynamic: bool = False):
        super().__init__()
        self.dtype = dtype
        self.is_dynamic = is_dynamic


class MinMaxObserver(ObserverBase):
    """Records the running minimum and maximum of what it sees; its qparams map that range
    (widened to hold 0) onto the dtype's integers, symmetric around 0 for
    ``per_tensor_symmetric``."""

    def __init__(
        self,
        dtype=_dtypes.quint8,
        qscheme=per_tensor_affine,
        reduce_range: bool = False,
        quant_min=None,
        quant_max=None,
        factory_kwargs=None,
        eps: float = float(xp.finfo(xp.float32).eps),
        is_dynamic: bool = False,
        **kwargs,
    ):
        super().__init__(dtype=dtype, is_dynamic=is_dynamic)
        if qscheme not in (per_tensor_affine, per_tensor_symmetric):
            raise NotImplementedError(
                f"MinMaxObserver with {qscheme} is not implemented in numtorch; use "
                "torch.per_tensor_affine or torch.per_tensor_symmetric"
            )
        self.qscheme = qscheme
        self.reduce_range = reduce_range
        low, high = QUANT_RANGE[dtype] if quant_min is None else (quant_min, quant_max)
        if reduce_range:
            low, high = low // 2, high // 2
        self.quant_min, self.quant_max = low, high
        self.eps = eps
        self.min_val = Tensor._make(xp.asarray(xp.inf, dtype=xp.float32))
        self.max_val = Tensor._make(xp.asarray(-xp.inf, dtype=xp.float32))

    def forward(self, x_orig):
        if x_orig.numel() == 0:
            return x_orig
        data = x_orig._data.astype(xp.float32)
        self.min_val = Tensor._make(xp.minimum(self.min_val._data, data.min()))
        self.max_val = Tensor._make(xp.maximum(self.max_val._data, data.max()))
        return x_orig

    def calculate_qparams(self):
        """(scale, zero_point) as one-element float32 and int64 tensors."""
        low = xp.minimum(self.min_val._data, xp.float32(0))
        high = xp.maximum(self.max_val._data, xp.float32(0))
        span = self.quant_max - self.quant_min
        eps = xp.float32(self.eps)
        if self.qscheme is per_tensor_symmetric:
            bound = xp.maximum(-low, high)
            scale = xp.maximum(xp.float32(bound / xp.float32(span / 2)), eps)
            zero = 128 if self.dtype is _dtypes.quint8 else 0
        else:
            scale = xp.maximum(xp.float32((high - low) / xp.float32(span)), eps)
            zero = self.quant_min - xp.rint(low / scale)
            zero = int(min(max(zero, self.quant_min), self.quant_max))
        scale_t = Tensor._make(xp.asarray([scale], dtype=xp.float32))
        return scale_t, Tensor._make(xp.asarray([zero], dtype=xp.int64))

    def extra_repr(self) -> str:
        return f"min_val={self.min_val}, max_val={self.max_val}"


class PlaceholderObserver(ObserverBase):
    """Observes nothing: it only carries the dtype (dynamic quantization's activations are
    quantized on each call)."""

    def __init__(
        self,
        dtype=_dtypes.float32,
        custom_op_name: str = "",
        compute_dtype=None,
        quant_min=None,
        quant_max=None,
        qscheme=None,
        eps=None,
        is_dynamic: bool = False,
    ):
        super().__init__(dtype=dtype, is_dynamic=is_dynamic)
        self.quant_min, self.quant_max = quant_min, quant_max
        self.qscheme = per_tensor_affine if qscheme is None else qscheme

    def forward(self, x):
        return x

    def calculate_qparams(self):
        raise Exception("calculate_qparams should not be called for PlaceholderObserver")


default_weight_observer = MinMaxObserver.with_args(
    dtype=_dtypes.qint8, qscheme=per_tensor_symmetric
)
default_dynamic_quant_observer = PlaceholderObserver.with_args(
    dtype=_dtypes.quint8, quant_min=0, quant_max=255, is_dynamic=True
)
