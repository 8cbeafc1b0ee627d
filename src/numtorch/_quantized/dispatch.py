"""Ops given quantized tensors (Note [Quantized tensors] in tensor.py).

torch's QuantizedCPU backend has kernels for views and copies, which keep the integers and
the scale, and for a few quantized computations (``_quantized/functional.py``); any other
op raises its NotImplementedError. Here the views and copies run on the integer arrays and
their results become quantized tensors with the operand's scale and zero point.
"""

from __future__ import annotations

from .._core.observers import dispatch, refresh_slow
from .._core.tensor import Tensor
from ..backend import xp
from . import tensor as _tensor
from .quantize import quantize_array
from .tensor import QuantizedTensor, adopt, make_quantized

# ops that move or copy values without changing them: torch runs them on quantized tensors
# of one scale (per-channel tensors only where the channel axis cannot move)
_SAME_VALUES = frozenset(
    {
        "view",
        "reshape",
        "_reshape_alias",
        "flatten",
        "squeeze_all",
        "squeeze_dim",
        "squeeze_dims",
        "unsqueeze",
        "transpose",
        "t",
        "permute",
        "select",
        "index",
        "narrow",
        "slice",
        "expand",
        "split",
        "split_with_sizes",
        "chunk",
        "unbind",
        "movedim",
        "unflatten",
        "view_as",
        "reshape_as",
        "expand_as",
        "flip",
        "roll",
        "repeat",
        "cat",
        "stack",
    }
)
_COPIES = frozenset({"clone", "contiguous", "detach", "alias", "_to_copy_same"})
# ops that pick values by their order, which the integers keep for a positive scale
_BY_ORDER = frozenset({"max_all", "min_all", "max_dim", "min_dim", "sort", "topk", "amax", "amin"})


def _quantized_operand(args):
    for a in args:
        if a.__class__ is QuantizedTensor:
            return a
        if isinstance(a, (list, tuple)):
            for t in a:
                if t.__class__ is QuantizedTensor:
                    return t
    return None


def _plain(a):
    if a.__class__ is QuantizedTensor:
        return Tensor._make(a._data)
    if isinstance(a, list) and any(t.__class__ is QuantizedTensor for t in a):
        return [_plain(t) for t in a]
    return a


def _requantized(out, params):
    if isinstance(out, Tensor):
        if out.__class__ is Tensor and out._data.dtype == params.dtype.np:
            out.__class__ = QuantizedTensor
            out._q = params
            adopt(out)
        return out
    if isinstance(out, (tuple, list)):
        items = [_requantized(o, params) for o in out]
        if isinstance(out, list):
            return items
        return out.__class__(items) if out.__class__ is tuple else out.__class__(*items)
    return out


def refuse(name: str):
    raise NotImplementedError(
        f"Could not run 'aten::{name}' with arguments from the 'QuantizedCPU' backend. "
        "numtorch's quantized tensors support views, copies and the quantized kernels "
        "(torch.ao.nn.quantized); call .dequantize() to compute on their float values."
    )


def run_op(spec, args):
    """The dispatch hook: NotImplemented unless an operand is quantized."""
    q = _quantized_operand(args)
    if q is None:
        return NotImplemented
    name = spec.name
    params = q._q
    if name == "_to_copy":  # torch makes the float result with a kernel quantized ones lack
        raise RuntimeError(
            "empty_strided not supported on quantized tensors yet see "
            "https://github.com/pytorch/pytorch/issues/74540"
        )
    same_scale = all(
        t._q is params or _same(t._q, params)
        for t in _operands(args)
        if t.__class__ is QuantizedTensor
    )
    kernel = _KERNELS.get(name)
    if kernel is not None and not params.per_channel:
        return kernel(params, *args)
    if name in _BY_ORDER and same_scale and not params.per_channel and params.scale > 0:
        return _requantized(spec.run(tuple(_plain(a) for a in args)), params)
    copies = name in _COPIES or spec.aten in _COPIES
    same_values = name in _SAME_VALUES or spec.aten in _SAME_VALUES
    if same_scale and (copies or (same_values and not params.per_channel)):
        return _requantized(spec.run(tuple(_plain(a) for a in args)), params)
    refuse(spec.aten)


def _relu(params, input, *rest):
    # relu of a quantized tensor clamps its integers at the zero point (real value 0)
    data = xp.maximum(input._data, xp.asarray(params.zero_point, dtype=input._data.dtype))
    return make_quantized(data, params)


def _fill(params, input, value, *rest):
    if isinstance(value, Tensor):
        value = value.item()
    single = xp.asarray(float(value), dtype=xp.float32)
    data = quantize_array(single, params.scale, params.zero_point, params.dtype)
    return make_quantized(xp.full(input._data.shape, data, dtype=data.dtype), params)


def _copy(params, input, src, *rest):
    """``copy_`` into a quantized tensor: a float source is quantized with its scale."""
    if src.__class__ is QuantizedTensor:
        if src._q.dtype is not params.dtype:
            raise RuntimeError(
                "Expected self.scalar_type() == src.scalar_type() to be true, but got false.  "
                "(Could this error message be improved?  If so, please report an enhancement "
                "request to PyTorch.)"
            )
        data = xp.broadcast_to(src._data, input._data.shape).copy()
        return make_quantized(data, src._q)
    values = xp.broadcast_to(src._data.astype(xp.float32), input._data.shape)
    data = quantize_array(values, params.scale, params.zero_point, params.dtype)
    return make_quantized(data, params)


_KERNELS = {"relu": _relu, "copy": _copy}
_KERNELS.update(dict.fromkeys(("fill", "fill_tensor", "fill_", "fill__tensor"), _fill))


def _operands(args):
    for a in args:
        if isinstance(a, list):
            yield from a
        else:
            yield a


def _same(a, b) -> bool:
    return (
        not a.per_channel
        and not b.per_channel
        and a.dtype is b.dtype
        and a.scale == b.scale
        and a.zero_point == b.zero_point
    )


def _on() -> None:
    if dispatch.quantized is None:
        dispatch.quantized = run_op
        refresh_slow()


def _off() -> None:
    dispatch.quantized = None
    refresh_slow()


_tensor._switch["on"] = _on
_tensor._switch["off"] = _off
