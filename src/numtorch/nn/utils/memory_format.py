"""Converting the weights of a model's convolutions to a memory format (channels-last
strides, Note [Channels last])."""

from __future__ import annotations

from ..modules.conv import Conv2d, Conv3d, ConvTranspose2d, ConvTranspose3d

__all__ = ["convert_conv2d_weight_memory_format", "convert_conv3d_weight_memory_format"]


def _convert(module, memory_format, kinds):
    if isinstance(module, kinds):
        module.weight.data = module.weight.detach().clone(memory_format=memory_format)
    for child in module.children():
        _convert(child, memory_format, kinds)
    return module


def convert_conv2d_weight_memory_format(module, memory_format):
    """Lay out the weight of every ``Conv2d``/``ConvTranspose2d`` in ``module`` in
    ``memory_format``; returns ``module``."""
    return _convert(module, memory_format, (Conv2d, ConvTranspose2d))


def convert_conv3d_weight_memory_format(module, memory_format):
    """Lay out the weight of every ``Conv3d``/``ConvTranspose3d`` in ``module`` in
    ``memory_format``; returns ``module``."""
    return _convert(module, memory_format, (Conv3d, ConvTranspose3d))
