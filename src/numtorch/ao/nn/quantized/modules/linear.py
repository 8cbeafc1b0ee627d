"""LinearPackedParams: the quantized weight and float bias of a quantized Linear.

torch packs them into an FBGEMM matrix; numtorch keeps the quantized weight tensor and the
bias as they are. The state dict holds what torch's does: ``dtype`` and ``_packed_params``,
the tuple (quantized weight, bias).
"""

from __future__ import annotations

from ....._core import dtypes as _dtypes
from .....nn.modules.module import Module


class LinearPackedParams(Module):
    _version = 3

    def __init__(self, dtype=_dtypes.qint8):
        super().__init__()
        self.dtype = dtype
        self._packed_params = (None, None)

    def set_weight_bias(self, weight, bias) -> None:
        self._packed_params = (weight, bias)

    def _weight_bias(self):
        return self._packed_params

    def forward(self, x):
        return x

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        super()._save_to_state_dict(destination, prefix, keep_vars)
        destination[prefix + "dtype"] = self.dtype
        destination[prefix + "_packed_params"] = self._weight_bias()

    def _load_from_state_dict(
        self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, errors
    ):
        # taken out before the generic load, which would call them unexpected
        for name in ("dtype", "_packed_params"):
            if prefix + name not in state_dict:
                missing_keys.append(prefix + name)
        self.dtype = state_dict.pop(prefix + "dtype", self.dtype)
        weight, bias = state_dict.pop(prefix + "_packed_params", self._packed_params)
        self.set_weight_bias(weight, bias)
        super()._load_from_state_dict(
            state_dict, prefix, local_metadata, False, missing_keys, unexpected_keys, errors
        )

    def __repr__(self) -> str:
        return repr(self._weight_bias())
