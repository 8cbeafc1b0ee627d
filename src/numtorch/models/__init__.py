"""``numtorch.models``: ResNets with torchvision's names, and an MLP builder."""

from .mlp import mlp
from .resnet import (
    BasicBlock,
    Bottleneck,
    ResNet,
    resnet18,
    resnet34,
    resnet50,
    resnet101,
    resnet152,
)

__all__ = [
    "BasicBlock",
    "Bottleneck",
    "ResNet",
    "mlp",
    "resnet18",
    "resnet34",
    "resnet50",
    "resnet101",
    "resnet152",
]
