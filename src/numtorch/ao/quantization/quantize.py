"""quantize_dynamic: swap a model's float layers for dynamically quantized ones."""

from __future__ import annotations

import copy

from ..._core import dtypes as _dtypes
from ...nn.modules.linear import Linear as FloatLinear
from ...nn.modules.rnn import GRU, LSTM, GRUCell, LSTMCell, RNNCell
from ..nn.quantized.dynamic import LSTM as DynamicLSTM
from ..nn.quantized.dynamic import Linear as DynamicLinear
from .qconfig import QConfig, default_dynamic_qconfig

# float module type -> its dynamic quantized counterpart
DEFAULT_DYNAMIC_QUANT_MODULE_MAPPINGS = {FloatLinear: DynamicLinear, LSTM: DynamicLSTM}
_RECURRENT = (LSTM, GRU, LSTMCell, GRUCell, RNNCell)


def _qconfig_spec(qconfig_spec, dtype) -> dict:
    if dtype is not _dtypes.qint8:
        raise NotImplementedError(
            f"quantize_dynamic with dtype {dtype} is not implemented in numtorch; use torch.qint8"
        )
    if qconfig_spec is None:
        return {t: default_dynamic_qconfig for t in (FloatLinear, *_RECURRENT)}
    if isinstance(qconfig_spec, set):
        return {t: default_dynamic_qconfig for t in qconfig_spec}
    return dict(qconfig_spec)


def _convert(module, spec: dict, mapping: dict, prefix: str = "") -> None:
    for name, child in list(module.named_children()):
        path = prefix + name
        qconfig = spec.get(path, spec.get(type(child)))
        if isinstance(qconfig, QConfig) and type(child) in mapping:
            child.qconfig = qconfig
            setattr(module, name, mapping[type(child)].from_float(child))
            continue
        if qconfig is not None and isinstance(child, _RECURRENT):
            raise NotImplementedError(
                f"quantize_dynamic of nn.{type(child).__name__} (the module at '{path}') is "
                "not implemented in numtorch; nn.Linear and nn.LSTM layers can be quantized "
                "dynamically: leave it out of qconfig_spec"
            )
        _convert(child, spec, mapping, path + ".")


def quantize_dynamic(model, qconfig_spec=None, dtype=_dtypes.qint8, mapping=None, inplace=False):
    """A copy of ``model`` (or ``model`` itself with ``inplace``) in eval mode, whose
    ``nn.Linear`` and ``nn.LSTM`` layers named by ``qconfig_spec`` (types or qualified names;
    all by default) are dynamically quantized: int8 weights, activations quantized on each
    call.

    Example:
        >>> import numtorch as torch
        >>> model = torch.nn.Sequential(torch.nn.Linear(4, 2))
        >>> qmodel = torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear})
        >>> qmodel[0]
        DynamicQuantizedLinear(in_features=4, out_features=2, dtype=torch.qint8, qscheme=...)
    """
    spec = _qconfig_spec(qconfig_spec, dtype)
    if not inplace:
        model = copy.deepcopy(model)
    model.eval()
    _convert(model, spec, DEFAULT_DYNAMIC_QUANT_MODULE_MAPPINGS if mapping is None else mapping)
    return model
