"""torch.ao.quantization: dynamic quantization (quantize_dynamic), observers and qconfigs."""

from .observer import (
    MinMaxObserver,
    ObserverBase,
    PlaceholderObserver,
    default_dynamic_quant_observer,
    default_weight_observer,
)
from .qconfig import QConfig, default_dynamic_qconfig
from .quantize import DEFAULT_DYNAMIC_QUANT_MODULE_MAPPINGS, quantize_dynamic

__all__ = [
    "DEFAULT_DYNAMIC_QUANT_MODULE_MAPPINGS",
    "MinMaxObserver",
    "ObserverBase",
    "PlaceholderObserver",
    "QConfig",
    "default_dynamic_qconfig",
    "default_dynamic_quant_observer",
    "default_weight_observer",
    "quantize_dynamic",
]
