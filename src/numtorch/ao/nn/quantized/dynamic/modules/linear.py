"""torch.ao.nn.quantized.dynamic.Linear: int8 weights, activations quantized per call.

Note [Dynamic quantized linear]
torch's x86 engine (FBGEMM) computes, for input x (float32):
1. the activation's scale and zero point from x's range, for quint8 with reduce_range
   (0..127): ``choose_qparams`` in ``_quantized/quantize.py``;
2. x quantized with them (``quantize_array``);
3. the int8 product with int32 accumulation: acc = (xq - x_zero) @ (wq - w_zero).T;
4. the float output as one fused multiply-add per value: acc * (x_scale * w_scale, a
   float32 product) + bias, rounded once to float32.
The integer product is exact in float64 (|acc| stays far below 2**53), so NumPy's float64
matrix product stands in for the int32 GEMM, and step 4 in float64 rounds once, as the
multiply-add does. The output matches torch's bit for bit.
"""

from __future__ import annotations

from ......_core import dtypes as _dtypes
from ......_core.tensor import Tensor
from ......_quantized.quantize import (
    choose_qparams,
    dynamic_range,
    quantize_array,
    quantize_per_tensor,
)
from ......backend import xp
from ......nn.modules.linear import Linear as FloatLinear
from ......nn.modules.module import Module
from ......nn.parameter import Parameter
from ...modules.linear import LinearPackedParams


def linear_dynamic(x: Tensor, weight, bias, reduce_range: bool = True) -> Tensor:
    """FBGEMM's dynamic quantized linear (Note [Dynamic quantized linear])."""
    if x.dtype is not _dtypes.float32:
        raise RuntimeError(f"expected scalar type Float but found {x.dtype.scalar_name}")
    in_features = weight.shape[1]
    if x.ndim < 2:
        raise RuntimeError("The dimension of input tensor should be larger than or equal to 2")
    if x.shape[-1] != in_features:
        size = x.shape[-1]
        raise RuntimeError(f"The number of rows in the packB should be equal to K: {size}")
    data = x._data.reshape(-1, in_features)
    qmin, qmax = dynamic_range(_dtypes.quint8, reduce_range)
    low = float(data.min()) if data.size else 0.0
    high = float(data.max()) if data.size else 0.0
    scale, zero = choose_qparams(low, high, qmin, qmax)
    xq = quantize_array(data, scale, zero, _dtypes.quint8).astype(xp.float64) - zero
    wq = weight._data.astype(xp.float64) - weight._q.zero_point
    acc = xq @ wq.T
    multiplier = float(xp.float32(scale) * xp.float32(weight._q.scale))  # a float32 product
    out = acc * multiplier
    if bias is not None:
        out += bias._data.astype(xp.float64)
    out = out.astype(xp.float32).reshape(*x.shape[:-1], weight.shape[0])
    return Tensor._make(out)


class Linear(Module):
    """A Linear layer with a qint8 weight and a float bias; each call quantizes its input
    to quint8 on the input's own range (torch.ao.nn.quantized.dynamic.Linear)."""

    _version = 4
    _FLOAT_MODULE = None  # nn.Linear, set below

    def __init__(self, in_features: int, out_features: int, bias_: bool = True, dtype=None):
        super().__init__()
        dtype = _dtypes.qint8 if dtype is None else dtype
        if dtype is not _dtypes.qint8:
            raise NotImplementedError(
                f"dynamic quantized Linear with dtype {dtype} is not implemented in numtorch; "
                "use torch.qint8"
            )
        self.in_features = in_features
        self.out_features = out_features
        self.version = 4
        self.scale = 1.0
        self.zero_point = 0
        weight = quantize_per_tensor(
            Tensor._make(xp.zeros((out_features, in_features), dtype=xp.float32)),
            1.0,
            0,
            _dtypes.qint8,
        )
        bias = Parameter(Tensor._make(xp.zeros(out_features, xp.float32))) if bias_ else None
        self._packed_params = LinearPackedParams(dtype)
        self._packed_params.set_weight_bias(weight, bias)

    def _get_name(self) -> str:
        return "DynamicQuantizedLinear"

    def extra_repr(self) -> str:
        weight = self.weight()
        return (
            f"in_features={self.in_features}, out_features={self.out_features}, "
            f"dtype={self._packed_params.dtype}, qscheme={weight.qscheme()}"
        )

    def __repr__(self) -> str:
        # as torch: the packed parameters are not shown as a child module
        return f"{self._get_name()}({self.extra_repr()})"

    def weight(self):
        return self._packed_params._weight_bias()[0]

    def bias(self):
        return self._packed_params._weight_bias()[1]

    def set_weight_bias(self, weight, bias) -> None:
        self._packed_params.set_weight_bias(weight, bias)

    def forward(self, x):
        weight, bias = self._packed_params._weight_bias()
        return linear_dynamic(x, weight, bias, reduce_range=True)

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        super()._save_to_state_dict(destination, prefix, keep_vars)
        destination[prefix + "scale"] = Tensor._make(xp.asarray(self.scale, dtype=xp.float32))
        destination[prefix + "zero_point"] = Tensor._make(xp.asarray(self.zero_point))

    def _load_from_state_dict(
        self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, errors
    ):
        for name in ("scale", "zero_point"):
            if prefix + name in state_dict:
                value = state_dict.pop(prefix + name)
                setattr(self, name, float(value) if name == "scale" else int(value))
            elif strict:
                missing_keys.append(prefix + name)
        super()._load_from_state_dict(
            state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, errors
        )

    @classmethod
    def from_float(cls, mod, use_precomputed_fake_quant: bool = False):
        """The dynamic quantized Linear of float ``mod``: its weight quantized per tensor
        with the range its qconfig's weight observer records."""
        if type(mod) is not FloatLinear:
            raise AssertionError(
                "nn.quantized.dynamic.Linear.from_float only works for one of['Linear'], "
                f"got {type(mod)}"
            )
        qconfig = getattr(mod, "qconfig", None)
        if qconfig is None:
            # imported here as torch does: the quantization package imports this module
            from .....quantization.qconfig import default_dynamic_qconfig

            qconfig = default_dynamic_qconfig
        observer = qconfig.weight()
        if observer.dtype is not _dtypes.qint8:
            raise NotImplementedError(
                f"dynamic quantization to {observer.dtype} is not implemented in numtorch; "
                "use torch.qint8"
            )
        observer(mod.weight)
        scale, zero_point = observer.calculate_qparams()
        weight = quantize_per_tensor(
            Tensor._make(mod.weight._data.astype(xp.float32)),
            float(scale),
            int(zero_point),
            _dtypes.qint8,
        )
        qlinear = cls(mod.in_features, mod.out_features, dtype=observer.dtype)
        qlinear.set_weight_bias(weight, mod.bias)
        return qlinear
