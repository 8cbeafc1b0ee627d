"""Quantized tensors: integers with a scale and a zero point, as torch's QuantizedCPU tensors.

Note [Quantized tensors]
A quantized tensor is a ``QuantizedTensor`` (a ``Tensor`` subclass) whose array holds the
integer values (int8 for qint8, uint8 for quint8, int32 for qint32) and whose ``QParams``
give the dtype, the scheme and the scale and zero point (one pair, or one per channel along
``axis``). Real value = (q - zero_point) * scale.

Ops reach a quantized tensor through the slow dispatch path: while one exists,
``dispatch.quantized`` (set in ``_quantized/dispatch.py``) sees every op first and runs the
few ops torch's QuantizedCPU backend has (views and copies that keep the scale), or raises
torch's NotImplementedError for the others, so integers never leak into float arithmetic.
Programs that never quantize pay nothing. Quantized tensors never require grad: their dtype
is not a floating one, and no op records a node for them.
"""

from __future__ import annotations

import weakref

from .._core import dtypes as _dtypes
from .._core.tensor import Tensor
from .._core.tensor_str import _add_suffixes, array_body, tensor_repr
from ..backend import xp


class qscheme:
    """A quantization scheme, printed as torch prints it (``torch.per_tensor_affine``)."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self):  # a scheme is a singleton: copies and pickles give it back
        return (_SCHEMES.__getitem__, (self.name,))


per_tensor_affine = qscheme("per_tensor_affine")
per_channel_affine = qscheme("per_channel_affine")
per_tensor_symmetric = qscheme("per_tensor_symmetric")
per_channel_symmetric = qscheme("per_channel_symmetric")
per_channel_affine_float_qparams = qscheme("per_channel_affine_float_qparams")
_SCHEMES = {
    s.name: s
    for s in (
        per_tensor_affine,
        per_channel_affine,
        per_tensor_symmetric,
        per_channel_symmetric,
        per_channel_affine_float_qparams,
    )
}

# the integer range of each quantized dtype
QUANT_RANGE = {
    _dtypes.qint8: (-128, 127),
    _dtypes.quint8: (0, 255),
    _dtypes.qint32: (-(2**31), 2**31 - 1),
    _dtypes.quint4x2: (0, 15),
    _dtypes.quint2x4: (0, 3),
}
_SUPPORTED = (_dtypes.qint8, _dtypes.quint8, _dtypes.qint32)


class QParams:
    """What turns a quantized tensor's integers into reals (shared by its views)."""

    __slots__ = ("dtype", "qscheme", "scale", "zero_point", "axis")

    def __init__(self, dtype, scheme, scale, zero_point, axis=None):
        self.dtype = dtype
        self.qscheme = scheme
        self.scale = scale  # a float, or a float64 array per channel
        self.zero_point = zero_point  # an int, or an int64 array per channel
        self.axis = axis

    @property
    def per_channel(self) -> bool:
        return self.axis is not None


# Note [Quantized tensors]: the dispatch hook stays on while any quantized tensor lives
_live = [0]
_switch = {"on": None, "off": None}  # set by _quantized/dispatch.py


def _released() -> None:
    _live[0] -= 1
    if not _live[0] and _switch["off"] is not None:
        _switch["off"]()


def make_quantized(data, params: QParams, base: Tensor | None = None) -> QuantizedTensor:
    """A quantized tensor around the integer array ``data``."""
    t = Tensor._make(data, QuantizedTensor)
    t._q = params
    if base is not None:
        t._base = base
    adopt(t)
    return t


def adopt(t: Tensor) -> None:
    """Count ``t`` (already a QuantizedTensor) among the live ones."""
    _live[0] += 1
    weakref.finalize(t, _released)
    if _switch["on"] is not None:
        _switch["on"]()


def _dequantized(data, params: QParams):
    """The float32 values of integers ``data``: (q - zero_point) * scale, in float32."""
    if not params.per_channel:
        shifted = data.astype(xp.float32) - xp.float32(params.zero_point)
        return shifted * xp.float32(params.scale)
    shape = [1] * data.ndim
    shape[params.axis] = -1
    # per channel torch computes in double (its scales are float64) and rounds once
    zero = params.zero_point.reshape(shape)
    return ((data - zero) * params.scale.reshape(shape)).astype(xp.float32)


class QuantizedTensor(Tensor):
    """A tensor of quantized integers (Note [Quantized tensors])."""

    __slots__ = ()
    is_quantized = True

    @property
    def dtype(self):
        return self._q.dtype

    @property
    def itemsize(self) -> int:
        return self._q.dtype.itemsize

    def dequantize(self) -> Tensor:
        return Tensor._make(_dequantized(self._data, self._q))

    def int_repr(self) -> Tensor:
        return Tensor._make(self._data.copy())

    def qscheme(self):
        return self._q.qscheme

    def q_scale(self) -> float:
        if self._q.per_channel:
            _expected("kPerTensorAffine")
        return float(self._q.scale)

    def q_zero_point(self) -> int:
        if self._q.per_channel:
            _expected("kPerTensorAffine")
        return int(self._q.zero_point)

    def q_per_channel_scales(self) -> Tensor:
        if not self._q.per_channel:
            _expected("kPerChannelAffine || quantizer->qscheme() == kPerChannelAffineFloatQParams")
        return Tensor._make(self._q.scale.copy())

    def q_per_channel_zero_points(self) -> Tensor:
        if not self._q.per_channel:
            _expected("kPerChannelAffine || quantizer->qscheme() == kPerChannelAffineFloatQParams")
        return Tensor._make(self._q.zero_point.copy())

    def q_per_channel_axis(self) -> int:
        if not self._q.per_channel:
            _expected("kPerChannelAffine || quantizer->qscheme() == kPerChannelAffineFloatQParams")
        return self._q.axis

    def detach(self) -> QuantizedTensor:
        return make_quantized(self._data, self._q)

    def numpy(self, *, force: bool = False):
        raise TypeError(f"Got unsupported ScalarType {self._q.dtype.scalar_name}")

    def tolist(self):
        raise RuntimeError("load_scalar: invalid type")

    def item(self):
        if self._data.size != 1:
            raise RuntimeError(
                f"a Tensor with {self._data.size} elements cannot be converted to Scalar"
            )
        return float(_dequantized(self._data, self._q).reshape(()))

    def __repr__(self, *, tensor_contents=None) -> str:
        return quantized_repr(self)

    def __reduce_ex__(self, protocol):
        raise NotImplementedError(
            "pickling a quantized tensor is not implemented in numtorch; save "
            "t.int_repr() with t.q_scale() and t.q_zero_point() instead"
        )


def _expected(condition: str):
    raise RuntimeError(
        f"Expected quantizer->qscheme() == {condition} to be true, but got false.  "
        "(Could this error message be improved?  If so, please report an enhancement "
        "request to PyTorch.)"
    )


def quantized_repr(t: QuantizedTensor) -> str:
    prefix = "tensor("
    indent = len(prefix)
    params = t._q
    values = _dequantized(t._data, params)
    body = array_body(values, indent) if values.size else "[]"
    suffixes = ["size=" + str(tuple(values.shape)), f"dtype={params.dtype}"]
    suffixes.append(f"quantization_scheme={params.qscheme}")
    if params.per_channel:
        suffixes.append("scale=" + tensor_repr(Tensor._make(params.scale)))
        suffixes.append("zero_point=" + tensor_repr(Tensor._make(params.zero_point)))
        suffixes.append(f"axis={params.axis}")
    else:
        suffixes.append(f"scale={float(params.scale)!r}")
        suffixes.append(f"zero_point={int(params.zero_point)}")
    return _add_suffixes(prefix + body, suffixes, indent)


def _cpu_only(name: str):
    def method(self, *args, **kwargs):
        raise NotImplementedError(
            f"Could not run 'aten::{name}' with arguments from the 'CPU' backend: "
            f"Tensor.{name}() needs a quantized tensor (torch.quantize_per_tensor makes one)"
        )

    method.__name__ = name
    return method


def _dequantize_float(self) -> Tensor:
    """A tensor that is not quantized dequantizes to itself."""
    return self


# bound here: Tensor sits below the quantized kinds (as Tensor.backward is bound from above)
Tensor.dequantize = _dequantize_float
for _name in (
    "int_repr",
    "q_scale",
    "q_zero_point",
    "q_per_channel_scales",
    "q_per_channel_zero_points",
    "q_per_channel_axis",
    "qscheme",
):
    setattr(Tensor, _name, _cpu_only(_name))
