"""Convolution ops: one primitive (``convolution``, grad_fn ``ConvolutionBackward0``) behind
conv1d/2d/3d and conv_transpose1d/2d/3d, as in torch.

The derivative formulas are convolutions themselves (Note [Convolution layout] in
conv_kernels.py): the input gradient of a convolution is a transposed convolution and vice
versa, and the weight gradient is its own op whose derivatives are convolutions again, so
double backward works to any order.
"""

from __future__ import annotations

import math

from ..._core import grad_mode, layouts, weight_batch_rules
from ..._core.op import defop
from ...autograd.forward_grad import add_terms, batched
from ...backend import xp
from ..concatenation import stack
from .conv_kernels import (
    Geometry,
    conv_forward,
    conv_input_grad,
    conv_weight_grad,
    transposed_output_shape,
)
from .conv_transpose3d_kernel import conv_transpose3d_forward
from .padding import constant_pad_nd_op


def _input_padding_for(input_shape, grad_shape, weight_shape, stride, padding, dilation):
    """output_padding that makes a transposed conv of ``grad`` give back ``input_shape``."""
    return tuple(
        i - ((o - 1) * s - 2 * p + d * (k - 1) + 1)
        for i, o, k, s, p, d in zip(
            input_shape[2:], grad_shape[2:], weight_shape[2:], stride, padding, dilation
        )
    )


# Note [Wide output padding]
# A transposed convolution is computed as the input gradient of a convolution from its
# output back to its input. That holds while output_padding < stride; torch also allows
# output_padding < dilation, and then the padded output is longer than any convolution
# back to the input can read. Such calls go through the unpadded ("full") output instead:
# out = full[p : p + T] (zeros past its end), whose adjoint pads the gradient back to full.


def _extra_padding(input_shape, output_shape, weight_shape, stride, padding, dilation):
    """The output_padding a transposed conv from input_shape to output_shape used."""
    return _input_padding_for(output_shape, input_shape, weight_shape, stride, padding, dilation)


def _is_wide(output_padding, stride) -> bool:
    return any(op >= s for op, s in zip(output_padding, stride))


def _full_grad(grad, input_shape, weight_shape, stride, padding, dilation):
    """The gradient of a wide transposed conv's output, laid out on its full output."""
    extra = _extra_padding(input_shape, grad.shape, weight_shape, stride, padding, dilation)
    pad = []
    for p, op in zip(reversed(padding), reversed(extra)):
        pad += [p, p - op]
    return constant_pad_nd_op(grad, tuple(pad), 0)


def _full_grad_array(grad, extra, padding):
    """``_full_grad`` on arrays: pad by ``p`` before and ``p - extra`` after (a crop where
    that is negative)."""
    for axis, (p, op) in enumerate(zip(padding, extra), start=2):
        widths = [(0, 0)] * grad.ndim
        widths[axis] = (p, max(p - op, 0))
        grad = xp.pad(grad, widths)
        if p - op < 0:
            grad = xp.take(grad, xp.arange(grad.shape[axis] + p - op), axis=axis)
    return grad


def _conv_input_backward(grad, weight, input_shape, stride, padding, dilation, transposed, groups):
    if transposed:
        zero = (0,) * len(stride)
        extra = _extra_padding(input_shape, grad.shape, weight.shape, stride, padding, dilation)
        if _is_wide(extra, stride):  # Note [Wide output padding]
            grad = _full_grad(grad, input_shape, weight.shape, stride, padding, dilation)
            padding = zero
        return convolution_op(grad, weight, None, stride, padding, dilation, False, zero, groups)
    output_padding = _input_padding_for(
        input_shape, grad.shape, weight.shape, stride, padding, dilation
    )
    return convolution_op(
        grad, weight, None, stride, padding, dilation, True, output_padding, groups
    )


def _conv_weight_backward(grad, input, weight_shape, stride, padding, dilation, transposed, groups):
    if transposed:
        # a transposed conv is the input gradient of a conv from its output back to its input
        extra = _extra_padding(input.shape, grad.shape, weight_shape, stride, padding, dilation)
        if _is_wide(extra, stride):  # Note [Wide output padding]
            grad = _full_grad(grad, input.shape, weight_shape, stride, padding, dilation)
            padding = (0,) * len(stride)
        return conv_weight_op(grad, input, weight_shape, stride, padding, dilation, groups)
    return conv_weight_op(input, grad, weight_shape, stride, padding, dilation, groups)


# Note [Convolution double backward]
# Each first-order gradient of a convolution y = C(x, W) is one op with torch's node name
# (ConvolutionBackwardBackward0) and edges (grad_output, input, weight), as torch's
# convolution_backward, so it requires grad whenever x or W does. Both gradients are
# bilinear: <G, dx(gy, W)> = <gy, C(G, W)> and <G, dW(x, gy)> = <gy, C(x, G)>, so their
# derivatives are the convolution and its gradients again. The input gradient does not
# depend on x (its x-derivative is None, as torch's), nor the weight gradient on W. An
# empty input gives torch's double backward nothing to do: every derivative is None.
def _double_grad_output(
    grad, input, weight, stride, padding, dilation, transposed, output_padding, groups, which
):
    if input.numel() == 0:
        return None
    if which == "input":
        return convolution_op(
            grad, weight, None, stride, padding, dilation, transposed, output_padding, groups
        )
    return convolution_op(
        input, grad, None, stride, padding, dilation, transposed, output_padding, groups
    )


def _double_input(
    grad, grad_output, input_shape, stride, padding, dilation, transposed, groups, which
):
    if which == "input" or math.prod(input_shape) == 0:
        return None
    return _conv_input_backward(
        grad_output, grad, input_shape, stride, padding, dilation, transposed, groups
    )


def _double_weight(
    grad, grad_output, weight_shape, stride, padding, dilation, transposed, groups, which
):
    if which == "weight" or grad.numel() == 0:  # grad: the (empty) input's gradient's
        return None
    return _conv_weight_backward(
        grad_output, grad, weight_shape, stride, padding, dilation, transposed, groups
    )


def _backward_jvp(
    grad_output_t,
    input_t,
    weight_t,
    grad_output,
    input,
    weight,
    input_shape,
    weight_shape,
    stride,
    padding,
    dilation,
    transposed,
    output_padding,
    groups,
    which,
):
    # bilinear in grad_output and the one of input / weight it reads (Note [Convolution
    # double backward]): one term per tangent, the other operands at their values
    def term(g, x, w):
        return convolution_backward_op(
            g, x, w, input_shape, weight_shape, stride, padding, dilation, transposed,
            output_padding, groups, which,
        )  # fmt: skip

    return add_terms(
        None if grad_output_t is None else term(grad_output_t, input, weight),
        None if input_t is None or which == "input" else term(grad_output, input_t, weight),
        None if weight_t is None or which == "weight" else term(grad_output, input, weight_t),
    )


@defop(
    batch=weight_batch_rules.convolution_backward,
    name="convolution_backward",
    node="ConvolutionBackwardBackward0",
    grad_output=_double_grad_output,
    input=_double_input,
    weight=_double_weight,
    jvp=_backward_jvp,
)
def convolution_backward_op(
    grad_output,
    input,
    weight,
    input_shape,
    weight_shape,
    stride,
    padding,
    dilation,
    transposed,
    output_padding,
    groups,
    which,
):
    """The gradient of ``convolution`` for its ``input`` or its ``weight`` (``which``)."""
    if not transposed and input_shape[1] == 0:  # nothing was read: (empty) zeros
        return xp.zeros(input_shape if which == "input" else weight_shape, grad_output.dtype)
    g = grad_output
    if transposed:
        extra = _extra_padding(input_shape, g.shape, weight_shape, stride, padding, dilation)
        if _is_wide(extra, stride):  # Note [Wide output padding]
            g = _full_grad_array(g, extra, padding)
            padding = (0,) * len(stride)
    if which == "input":
        if transposed:
            return conv_forward(g, weight, None, stride, padding, dilation, groups)
        return conv_input_grad(g, weight, input_shape, stride, padding, dilation, groups)
    if transposed:
        return conv_weight_grad(g, input, weight_shape, stride, padding, dilation, groups)
    return conv_weight_grad(input, g, weight_shape, stride, padding, dilation, groups)


def _not_read(grad):
    return None


@batched
def _bias_backward_jvp(grad_output_t, grad_output):
    if grad_output_t is None:
        return None
    n = grad_output.ndim  # (a jacfwd tangent has a leading batch dim)
    return grad_output_t.sum((-n, *range(2 - n, 0)))


# The bias's gradient is an output of torch's convolution_backward too: the same node, with
# edges (grad_output, input, weight), so under create_graph=True it requires grad whenever
# the input or the weight does, though it reads neither. (Inside torch's one call it is a
# sum: shown as one.)
@defop(
    name="convolution_backward_bias",
    aten="sum",
    node="ConvolutionBackwardBackward0",
    grad_output=lambda grad, grad_output: grad.reshape(
        (1, -1) + (1,) * (grad_output.ndim - 2)
    ).expand(grad_output.shape),
    input=_not_read,
    weight=_not_read,
    jvp=_bias_backward_jvp,
)
def convolution_backward_bias_op(grad_output, input, weight):
    return grad_output.sum(axis=(0, *range(2, grad_output.ndim)))


def _first_order(which):
    def formula(
        grad,
        input,
        weight,
        input_shape,
        weight_shape,
        stride,
        padding,
        dilation,
        transposed,
        output_padding,
        groups,
    ):
        return convolution_backward_op(
            grad,
            input,
            weight,
            input_shape,
            weight_shape,
            stride,
            padding,
            dilation,
            transposed,
            output_padding,
            groups,
            which,
        )

    return formula


@batched
def _conv_jvp(
    input_t,
    weight_t,
    bias_t,
    input,
    weight,
    stride,
    padding,
    dilation,
    transposed,
    output_padding,
    groups,
):
    # conv(x_t, W) + conv(x, W_t) + b_t; tangents with a leading batch dimension (jacfwd)
    # fold it into the conv's batch (x_t) or output channels (W_t), or go row by row
    def term(x, w):
        return convolution_op(
            x, w, None, stride, padding, dilation, transposed, output_padding, groups
        )

    def input_term(x_t):
        if x_t.ndim == input.ndim:
            return term(x_t, weight)
        out = term(x_t.reshape((-1, *x_t.shape[2:])), weight)
        return out.reshape((*x_t.shape[:2], *out.shape[1:]))

    def weight_term(w_t):
        if w_t.ndim == weight.ndim:
            return term(input, w_t)
        if transposed or groups != 1:
            return stack([term(input, row) for row in w_t])
        out = term(input, w_t.reshape((-1, *w_t.shape[2:])))  # (N, B * C_out, ...)
        return out.reshape((out.shape[0], *w_t.shape[:2], *out.shape[2:])).transpose(0, 1)

    return add_terms(
        None if input_t is None else input_term(input_t),
        None if weight_t is None else weight_term(weight_t),
        None
        if bias_t is None
        else bias_t.reshape((*bias_t.shape[:-1], 1, -1) + (1,) * (input.ndim - 2)),
    )


@defop(
    batch=weight_batch_rules.convolution,
    name="convolution",
    node="ConvolutionBackward0",
    input=_first_order("input"),
    weight=_first_order("weight"),
    bias=lambda grad, input, weight: convolution_backward_bias_op(grad, input, weight),
    jvp=_conv_jvp,
)
def convolution_op(
    input, weight, bias, stride, padding, dilation, transposed, output_padding, groups
):
    if not transposed and input.shape[1] == 0:
        # torch's result for an input without channels has none either, whatever the weight
        geo = Geometry(input.shape, weight.shape, stride, padding, dilation, groups)
        return xp.zeros((input.shape[0], 0, *geo.out), input.dtype)
    if not transposed:
        # under grad mode the columns may serve the weight gradient (Note [Kept forward
        # columns] in conv_kept_columns.py)
        keep = grad_mode.is_grad_enabled()
        out = conv_forward(input, weight, bias, stride, padding, dilation, groups, keep)
        out = out.astype(input.dtype, copy=False)  # (an empty batch may mix dtypes)
        layout = layouts.suggested(input, weight)  # Note [Channels last]
        return out if layout is None else layouts.copy_as(out, layout)
    shape = transposed_output_shape(
        input.shape, weight.shape, stride, padding, dilation, output_padding, groups
    )
    if _is_wide(output_padding, stride):  # Note [Wide output padding]
        zero = (0,) * len(stride)
        full_shape = transposed_output_shape(
            input.shape, weight.shape, stride, zero, dilation, zero, groups
        )
        full = conv_input_grad(input, weight, full_shape, stride, zero, dilation, groups)
        out = xp.zeros(shape, full.dtype)
        kept = tuple(min(t, f - p) for t, f, p in zip(shape[2:], full_shape[2:], padding))
        source = tuple(slice(p, p + k) for p, k in zip(padding, kept))
        out[(..., *(slice(0, k) for k in kept))] = full[(..., *source)]
    elif input.ndim == 5 and groups == 1:  # the general path's columns take GiB in 3-D
        out = conv_transpose3d_forward(input, weight, shape, stride, padding, dilation)
    else:
        out = conv_input_grad(input, weight, shape, stride, padding, dilation, groups)
    if bias is not None:
        out += bias.reshape((1, -1) + (1,) * (out.ndim - 2))
    return out


def _weight_backward_jvp(
    input_t, grad_output_t, input, grad_output, weight_shape, stride, padding, dilation, groups
):
    # bilinear in input and grad_output
    def term(x, g):
        return conv_weight_op(x, g, weight_shape, stride, padding, dilation, groups)

    return add_terms(
        None if input_t is None else term(input_t, grad_output),
        None if grad_output_t is None else term(input, grad_output_t),
    )


@defop(
    name="convolution_backward_weight",
    node="ConvolutionBackwardBackward0",
    input=lambda grad, grad_output, input_shape, stride, padding, dilation, groups: (
        _conv_input_backward(
            grad_output, grad, input_shape, stride, padding, dilation, False, groups
        )
    ),
    grad_output=lambda grad, input, stride, padding, dilation, groups: convolution_op(
        input, grad, None, stride, padding, dilation, False, (0,) * len(stride), groups
    ),
    jvp=_weight_backward_jvp,
)
def conv_weight_op(input, grad_output, weight_shape, stride, padding, dilation, groups):
    return conv_weight_grad(input, grad_output, weight_shape, stride, padding, dilation, groups)
