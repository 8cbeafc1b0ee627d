"""``torch.backends.quantized``: the engine of quantized kernels. numtorch computes as
torch's x86 engine does (FBGEMM's arithmetic), so ``"x86"`` and ``"fbgemm"`` can be chosen;
the ARM and oneDNN engines round differently and are refused rather than imitated."""

from __future__ import annotations

import sys
import types

supported_engines = ["qnnpack", "onednn", "x86", "fbgemm"]
_COMPUTED = ("x86", "fbgemm")


class _QuantizedModule(types.ModuleType):
    _engine = "x86"

    @property
    def engine(self) -> str:
        return self._engine

    @engine.setter
    def engine(self, value: str) -> None:
        if value not in supported_engines:
            raise RuntimeError(f"{value} is not a valid value for quantized engine")
        if value not in _COMPUTED:
            raise NotImplementedError(
                f"the {value!r} quantized engine is not implemented in numtorch, which "
                "computes with torch's x86 engine's arithmetic (FBGEMM): use 'x86' or 'fbgemm'"
            )
        type(self)._engine = value


sys.modules[__name__].__class__ = _QuantizedModule
