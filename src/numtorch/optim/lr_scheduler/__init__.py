"""Learning-rate schedulers, as ``torch.optim.lr_scheduler``."""

from .base import EPOCH_DEPRECATION_WARNING, LRScheduler, _LRScheduler
from .composite import ChainedScheduler, SequentialLR
from .cosine import CosineAnnealingLR, CosineAnnealingWarmRestarts
from .cyclic import CyclicLR, OneCycleLR
from .multiplicative import (
    ConstantLR,
    ExponentialLR,
    LambdaLR,
    LinearLR,
    MultiplicativeLR,
    MultiStepLR,
    PolynomialLR,
    StepLR,
)
from .plateau import ReduceLROnPlateau

__all__ = [
    "EPOCH_DEPRECATION_WARNING",
    "ChainedScheduler",
    "ConstantLR",
    "CosineAnnealingLR",
    "CosineAnnealingWarmRestarts",
    "CyclicLR",
    "ExponentialLR",
    "LRScheduler",
    "LambdaLR",
    "LinearLR",
    "MultiStepLR",
    "MultiplicativeLR",
    "OneCycleLR",
    "PolynomialLR",
    "ReduceLROnPlateau",
    "SequentialLR",
    "StepLR",
    "_LRScheduler",
]
