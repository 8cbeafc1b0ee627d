"""``torch.nn.grad``: the gradients of a convolution with respect to its input and to its
weight, given the gradient of its output (what a hand-written convolution backward calls).

A convolution is linear in its input and in its weight, so each gradient is the
vector-Jacobian product at a zero point: ``autograd.grad`` of the convolution there, kept
differentiable when the weight, the input or ``grad_output`` require grad.
"""

from __future__ import annotations

from .. import _creation
from .._core import grad_mode
from ..autograd import grad as _autograd_grad
from . import functional as F

__all__ = [
    "conv1d_input",
    "conv1d_weight",
    "conv2d_input",
    "conv2d_weight",
    "conv3d_input",
    "conv3d_weight",
]

_CONVS = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}


def _check_grad_output(dims, output, grad_output) -> None:
    if grad_output.dim() != dims + 2 or tuple(grad_output.shape) != tuple(output.shape):
        shape = tuple(output.shape)
        raise RuntimeError(
            f"conv{dims}d gradient: expected grad_output of shape {shape} (the convolution's "
            f"output for these sizes and arguments), but got {tuple(grad_output.shape)}"
        )


def _vjp(dims, input, weight, grad_output, wrt, stride, padding, dilation, groups):
    """The gradient for ``input`` (wrt 0) or ``weight`` (wrt 1), one of them a size."""
    others = (weight, grad_output) if wrt == 0 else (input, grad_output)
    keep = grad_mode.is_grad_enabled() and any(t.requires_grad for t in others)
    size = input if wrt == 0 else weight
    point = _creation.zeros(tuple(size), dtype=grad_output.dtype, requires_grad=True)
    args = (point, weight) if wrt == 0 else (input, point)
    with grad_mode.enable_grad():
        output = _CONVS[dims](*args, None, stride, padding, dilation, groups)
        _check_grad_output(dims, output, grad_output)
        (result,) = _autograd_grad(output, point, grad_output, create_graph=keep)
    return result if keep else result.detach()


def _input_fn(dims):
    def conv_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
        return _vjp(dims, input_size, weight, grad_output, 0, stride, padding, dilation, groups)

    conv_input.__name__ = conv_input.__qualname__ = f"conv{dims}d_input"
    conv_input.__doc__ = (
        f"The gradient of ``conv{dims}d`` with respect to an input of size ``input_size``."
    )
    return conv_input


def _weight_fn(dims):
    def conv_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
        return _vjp(dims, input, weight_size, grad_output, 1, stride, padding, dilation, groups)

    conv_weight.__name__ = conv_weight.__qualname__ = f"conv{dims}d_weight"
    conv_weight.__doc__ = (
        f"The gradient of ``conv{dims}d`` with respect to a weight of size ``weight_size``."
    )
    return conv_weight


conv1d_input, conv2d_input, conv3d_input = (_input_fn(d) for d in (1, 2, 3))
conv1d_weight, conv2d_weight, conv3d_weight = (_weight_fn(d) for d in (1, 2, 3))
