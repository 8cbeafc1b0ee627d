"""Folding an eval-mode batch norm into the convolution or linear layer before it
(``torch.nn.utils.fusion``): with ``s = gamma / sqrt(running_var + eps)`` per channel, the
fused weight is ``W * s`` (along the output channels) and the fused bias
``(b - running_mean) * s + beta``."""

from __future__ import annotations

import copy

from ..._core.grad_mode import no_grad
from ..._creation import ones_like, zeros_like
from ..parameter import Parameter


def _scale(running_var, eps, weight):
    return weight * (running_var + eps).rsqrt()


def _check_eval(layer, bn) -> None:
    if layer.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError("bn.running_mean and bn.running_var must not be None")


def fuse_conv_bn_weights(conv_w, conv_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b, transpose=False):
    """The fused ``(weight, bias)`` Parameters of a convolution followed by a batch norm;
    ``transpose`` for transposed convolutions (output channels in dim 1)."""
    bias_dtype = conv_w.dtype if conv_b is None else conv_b.dtype
    conv_b = zeros_like(bn_rm) if conv_b is None else conv_b
    bn_w = ones_like(bn_rm) if bn_w is None else bn_w
    bn_b = zeros_like(bn_rm) if bn_b is None else bn_b
    inv_std = (bn_rv + bn_eps).rsqrt()
    shape = [1] * conv_w.ndim
    shape[1 if transpose else 0] = -1
    weight = (conv_w * (bn_w * inv_std).reshape(shape)).to(conv_w.dtype)
    bias = ((conv_b - bn_rm) * inv_std * bn_w + bn_b).to(bias_dtype)
    return Parameter(weight, conv_w.requires_grad), Parameter(bias, conv_b.requires_grad)


def fuse_conv_bn_eval(conv, bn, transpose=False):
    """A copy of ``conv`` computing ``bn(conv(x))`` of the eval-mode pair.

    Example:
        >>> import numtorch as torch
        >>> conv, bn = torch.nn.Conv2d(1, 2, 1).eval(), torch.nn.BatchNorm2d(2).eval()
        >>> fused = torch.nn.utils.fusion.fuse_conv_bn_eval(conv, bn)
        >>> x = torch.ones(1, 1, 2, 2)
        >>> torch.allclose(fused(x), bn(conv(x)))
        True
    """
    _check_eval(conv, bn)
    fused = copy.deepcopy(conv)
    with no_grad():
        fused.weight, fused.bias = fuse_conv_bn_weights(
            fused.weight, fused.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight,
            bn.bias, transpose,
        )  # fmt: skip
    return fused


def fuse_linear_bn_weights(linear_w, linear_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b):
    """The fused ``(weight, bias)`` Parameters of a linear layer followed by a batch norm."""
    bias_dtype = linear_w.dtype if linear_b is None else linear_b.dtype
    linear_b = zeros_like(bn_rm) if linear_b is None else linear_b
    scale = _scale(bn_rv, bn_eps, bn_w)
    weight = linear_w * scale.unsqueeze(-1).to(linear_w.dtype)
    bias = ((linear_b - bn_rm) * scale + bn_b).to(bias_dtype)
    return Parameter(weight, linear_w.requires_grad), Parameter(bias, linear_b.requires_grad)


def fuse_linear_bn_eval(linear, bn):
    """A copy of ``linear`` computing ``bn(linear(x))`` of the eval-mode pair."""
    _check_eval(linear, bn)
    if linear.out_features != bn.num_features and bn.num_features != 1:
        raise AssertionError(
            "To fuse, linear.out_features == bn.num_features or bn.num_features == 1, got "
            f"linear.out_features={linear.out_features} and bn.num_features={bn.num_features}"
        )
    fused = copy.deepcopy(linear)
    with no_grad():
        fused.weight, fused.bias = fuse_linear_bn_weights(
            fused.weight, fused.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias
        )
    return fused
