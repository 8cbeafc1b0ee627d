"""QConfig: which observers quantize a module's activations and weights."""

from __future__ import annotations

from collections import namedtuple

from .observer import default_dynamic_quant_observer, default_weight_observer


class QConfig(namedtuple("QConfig", ["activation", "weight"])):
    """The observer factories for a module's activations and its weight."""

    __slots__ = ()


default_dynamic_qconfig = QConfig(
    activation=default_dynamic_quant_observer, weight=default_weight_observer
)
