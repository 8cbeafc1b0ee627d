"""Piecewise activation primitives: the ELU family (ELU, SELU, CELU), threshold, hard and soft
shrinkage, hardsigmoid, hardswish, PReLU and RReLU.

Derivative formulas are written with ``where`` over the kinks, so double backward comes from
differentiating them again. Where torch's in-place variant records a node of its own
(``EluBackward1``, ``ThresholdBackward1``, ``RreluWithNoiseBackward1``), a second entry with
that name is registered here and ``numtorch.nn.functional`` writes its result in place.
"""

from __future__ import annotations

from ..._core import batch_rules
from ..._core.dispatch import fill_scalar
from ..._core.kernel_dtypes import FLOATS, REAL, kernel
from ..._core.op import defop, not_implemented
from ..._creation import zeros_like
from ...autograd.forward_grad import add_terms, align, batched, no_forward_derivative
from ...backend import xp
from ..activations import threshold_backward
from ..pointwise import where
from .activation import check_result_slope, float_only, masked, zero_gradient
from .simd_lanes import vector_lanes

# -- ELU, SELU, CELU ---------------------------------------------------------------------------
# elu(x) = scale * x for x > 0, else scale * alpha * (exp(input_scale * x) - 1); SELU and CELU
# are ELU with fixed constants (SELU) or input_scale = 1 / alpha (CELU), as in torch.
SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


def _elu_forward(input, alpha, scale, input_scale):
    float_only(input, "elu_cpu")
    # the negative side keeps -0 (expm1(-0) = -0, as torch's kernel): minimum(-0, 0) is +0
    negative = xp.expm1(xp.where(input > 0, 0, input) * input_scale) * (alpha * scale)
    return xp.where(input > 0, input * scale, negative).astype(input.dtype, copy=False)


def _check_result_alpha(alpha):
    if alpha < 0:
        raise RuntimeError(
            "In-place elu backward calculation is triggered with a negative slope which is not "
            "supported. This is caused by calling in-place forward function with a negative "
            "slope, please call out-of-place version instead."
        )


def _elu_double_backward(grad, grad_output, alpha, scale, input_scale, is_result, self_or_result):
    # torch's elu_double_backward: the second derivative lives on the negative side only
    if is_result:
        return grad * grad_output * input_scale * (self_or_result < 0)
    g = elu_backward(
        grad * grad_output * input_scale, alpha, scale, input_scale, False, self_or_result
    )
    return g * (self_or_result < 0)


@defop(
    batch=batch_rules.pointwise,
    name="elu_backward",
    node="EluBackwardBackward0",
    grad_output=lambda grad, alpha, scale, input_scale, is_result, self_or_result: elu_backward(
        grad, alpha, scale, input_scale, is_result, self_or_result
    ),
    self_or_result=_elu_double_backward,
    jvp="elementwise",
)
def elu_backward(grad_output, alpha, scale, input_scale, is_result, self_or_result):
    """The ELU derivative times ``grad_output``, from the input or (in place) the output."""
    if is_result:
        # exp(input_scale * x) * alpha * scale = result + alpha * scale
        slope = (xp.minimum(self_or_result, 0) + alpha * scale) * input_scale
    else:
        slope = xp.exp(xp.minimum(self_or_result, 0) * input_scale) * (input_scale * alpha * scale)
    # torch takes the negative side where x <= 0 only: a NaN gets the positive slope
    out = grad_output * xp.where(self_or_result <= 0, slope, scale)
    return out.astype(grad_output.dtype, copy=False)


def _register_elu(name: str, node: str):
    forward = defop(
        batch=batch_rules.pointwise,
        name=name,
        node=node + "Backward0",
        dtypes=kernel("elu_cpu", FLOATS),
        input=lambda grad, input, alpha, scale, input_scale: elu_backward(
            grad, alpha, scale, input_scale, False, input
        ),
        jvp="elementwise",
    )(_elu_forward)

    def result_grad(grad, result, alpha, scale, input_scale):
        _check_result_alpha(alpha)
        return elu_backward(grad, alpha, scale, input_scale, True, result)

    inplace = defop(
        batch=batch_rules.pointwise,
        name=name + "_result",
        dtypes=kernel("elu_cpu", FLOATS),
        node=node + "Backward1",
        input=result_grad,
        jvp="elementwise",
    )(_elu_forward)
    return forward, inplace


elu_op, elu_result_op = _register_elu("elu", "Elu")
celu_op, celu_result_op = _register_elu("celu", "Celu")


# -- threshold, hardshrink, softshrink ---------------------------------------------------------
def _threshold_forward(input, threshold, value):
    if input.dtype == xp.bool_:
        raise NotImplementedError("\"threshold_cpu\" not implemented for 'Bool'")
    if input.dtype.kind in "iu":  # both numbers convert into the integer type, as fills
        threshold, value = fill_scalar(threshold, input.dtype), fill_scalar(value, input.dtype)
    # NaN is not <= threshold, so it passes through (torch's kernel tests x <= threshold)
    return xp.where(input <= threshold, value, input).astype(input.dtype, copy=False)


def _threshold_grad(grad, input, threshold):
    return threshold_backward(grad, input, threshold)


threshold_op = defop(
    batch=batch_rules.pointwise,
    name="threshold",
    dtypes=kernel("threshold_cpu", REAL),
    input=_threshold_grad,
    jvp="elementwise",
)(_threshold_forward)
# threshold_ keeps the input for its backward (so its gradient is the out-of-place one)
threshold_inplace_op = defop(
    batch=batch_rules.pointwise,
    name="threshold_inplace",
    dtypes=kernel("threshold_cpu", REAL),
    node="ThresholdBackward1",
    input=_threshold_grad,
    jvp="elementwise",
)(_threshold_forward)


def _shrunk(input, lambd):
    return (input >= -lambd) & (input <= lambd)


def _register_shrink_backward(name: str, node: str):
    @defop(
        batch=batch_rules.pointwise,
        name=name,
        node=node,
        grad_out=lambda grad, self, lambd: backward(grad, self, lambd),
        self=zero_gradient,
        jvp="elementwise",
    )
    def backward(grad_out, self, lambd):
        # NaN is outside [-lambd, lambd] for the kernel's scalar tail, inside for its
        # vectors: Note [SIMD lanes and NaN]
        outside = ~_shrunk(self, lambd)
        if self.dtype.kind == "f" and xp.isnan(self).any():
            outside &= ~(xp.isnan(self) & vector_lanes(self))
        return masked(grad_out, outside)

    return backward


hardshrink_backward = _register_shrink_backward(
    "hardshrink_backward", "HardshrinkBackwardBackward0"
)
softshrink_backward = _register_shrink_backward(
    "softshrink_backward", "SoftshrinkBackwardBackward0"
)


@defop(
    batch=batch_rules.pointwise,
    name="hardshrink",
    dtypes=kernel("hardshrink_cpu", FLOATS),
    input=lambda grad, input, lambd: hardshrink_backward(grad, input, lambd),
    jvp="elementwise",
)
def hardshrink_op(input, lambd=0.5):
    float_only(input, "hardshrink_cpu")
    return xp.where(_shrunk(input, lambd), 0, input).astype(input.dtype, copy=False)


@defop(
    batch=batch_rules.pointwise,
    name="softshrink",
    dtypes=kernel("softshrink_check", FLOATS),
    input=lambda grad, input, lambd: softshrink_backward(grad, input, lambd),
    jvp="elementwise",
)
def softshrink_op(input, lambd=0.5):
    float_only(input, "softshrink_check")
    shifted = input - xp.clip(input, -lambd, lambd)
    # torch's scalar loop gives input * 0 inside the band, a zero of the input's sign; its
    # vector loop selects a +0.0 there (Note [SIMD lanes and NaN] says which elements each
    # meets). Only a band's zeros are zero: outside it, input -+ lambd is not
    result = xp.copysign(shifted, input)
    negative_zeros = (result == 0) & xp.signbit(result)
    if negative_zeros.any():
        result = xp.where(negative_zeros & vector_lanes(input), 0.0, result)
    return result.astype(input.dtype, copy=False)


# -- hardsigmoid, hardswish --------------------------------------------------------------------
_ONE_SIXTH = float(xp.float32(1.0) / xp.float32(6.0))  # torch's backward rounds 1/6 to float


def _opmath(array):
    # a half's kernel computes in float and rounds once: x * (x + 3) would overflow a half
    return array.astype(xp.float32) if array.dtype == xp.float16 else array


# torch has no derivative for hardsigmoid_backward: its node is NotImplemented, which raises
@defop(
    batch=batch_rules.pointwise,
    name="hardsigmoid_backward",
    node="NotImplemented",
    grad_output=not_implemented("hardsigmoid_backward"),
    self=not_implemented("hardsigmoid_backward"),
    jvp=no_forward_derivative("hardsigmoid_backward"),
)
def hardsigmoid_backward(grad_output, self):
    scaled = (_opmath(grad_output) * _ONE_SIXTH).astype(grad_output.dtype, copy=False)
    return masked(scaled, (self > -3) & (self < 3))


@defop(
    batch=batch_rules.pointwise,
    name="hardsigmoid",
    dtypes=kernel("hardsigmoid_cpu", FLOATS),
    input=lambda grad, input: hardsigmoid_backward(grad, input),
    jvp="elementwise",
)
def hardsigmoid_op(input):
    float_only(input, "hardsigmoid_cpu")
    return (xp.clip(_opmath(input) + 3, 0, 6) / 6).astype(input.dtype, copy=False)


@defop(
    batch=batch_rules.pointwise,
    name="hardswish_backward",
    node="HardswishBackwardBackward0",
    grad_output=lambda grad, self: hardswish_backward(grad, self),
    self=lambda grad, grad_output, self: where(
        (self > -3) & (self < 3), grad * grad_output / 3, 0.0
    ),
    jvp="elementwise",
)
def hardswish_backward(grad_output, self):
    # x (x + 3) / 6 inside (-3, 3): derivative x / 3 + 1/2 (0 at -3 and 1 at 3, as torch)
    dtype, grad_output, self = grad_output.dtype, _opmath(grad_output), _opmath(self)
    inside = xp.where(self < 3, grad_output * (self / 3 + 0.5), grad_output)
    return xp.where(self <= -3, 0, inside).astype(dtype, copy=False)


@defop(
    batch=batch_rules.pointwise,
    name="hardswish",
    dtypes=kernel("hardswish_cpu", FLOATS),
    input=lambda grad, input: hardswish_backward(grad, input),
    jvp="elementwise",
)
def hardswish_op(input):
    float_only(input, "hardswish_cpu")
    x = _opmath(input)
    return (x * xp.clip(x + 3, 0, 6) / 6).astype(input.dtype, copy=False)


# -- PReLU ------------------------------------------------------------------------------------
# Each gradient of the kernel is one op with torch's node (PreluKernelBackwardBackward0,
# edges grad_output, self, weight); ``which`` picks the input's or the weight's gradient
# (before the engine sums the weight's over its broadcast dims). The kernel's first
# derivative takes the weight's side at 0 (self > 0), torch's double backward formulas the
# linear side (self >= 0): second derivatives at 0 follow the latter.
def _prelu_double_grad_output(grad, self, weight, which):
    if which == "input":
        return where(self >= 0, grad, grad * weight)
    return where(self >= 0, 0.0, grad * self)


def _prelu_double_self(grad, grad_output, self, which):
    if which == "input":
        return zero_gradient(grad)  # piecewise linear in x: zero, as torch's
    return where(self >= 0, 0.0, grad_output * grad)


def _prelu_backward_jvp(grad_output_t, self_t, weight_t, grad_output, self, weight, which):
    # torch's forward derivative takes the linear side at 0
    positive = self >= 0
    if which == "input":
        g_t = zeros_like(grad_output) if grad_output_t is None else grad_output_t
        negative = add_terms(weight * g_t, None if weight_t is None else grad_output * weight_t)
        return where(positive, g_t, negative)
    negative = add_terms(
        None if self_t is None else grad_output * self_t,
        None if grad_output_t is None else grad_output_t * self,
    )
    return where(positive, 0.0, negative) if negative is not None else None


@defop(
    name="_prelu_kernel_backward",
    node="PreluKernelBackwardBackward0",
    grad_output=_prelu_double_grad_output,
    self=_prelu_double_self,
    # the weight's own gradient does not depend on it: torch's formula gives zeros there
    weight=lambda grad, grad_output, self, which: (
        where(self >= 0, 0.0, grad_output * grad) if which == "input" else zeros_like(self)
    ),
    jvp=_prelu_backward_jvp,
)
def prelu_kernel_backward(grad_output, self, weight, which):
    if which == "input":
        return xp.where(self > 0, grad_output, weight * grad_output)
    return xp.where(self > 0, 0, self * grad_output).astype(grad_output.dtype, copy=False)


@batched
def _prelu_jvp(input_t, weight_t, input, weight):
    # d(x if x >= 0 else w x) = dx or w dx + x dw (torch's side at 0)
    ndim = max(input.ndim, weight.ndim)
    input_t, weight_t = align(input_t, input, ndim), align(weight_t, weight, ndim)
    negative = add_terms(
        None if input_t is None else weight * input_t,
        None if weight_t is None else input * weight_t,
    )
    return where(input >= 0, 0.0 if input_t is None else input_t, negative)


@defop(
    batch=batch_rules.pointwise,
    name="_prelu_kernel",
    node="PreluKernelBackward0",
    input=lambda grad, input, weight: prelu_kernel_backward(grad, input, weight, "input"),
    weight=lambda grad, input, weight: prelu_kernel_backward(grad, input, weight, "weight"),
    jvp=_prelu_jvp,
)
def prelu_kernel_op(input, weight):
    float_only(input, "prelu_cpu")
    return xp.where(input > 0, input, weight * input).astype(input.dtype, copy=False)


# -- RReLU ------------------------------------------------------------------------------------
# The noise holds the slope drawn for each element (1 where x > 0) when training; otherwise
# the slope is (lower + upper) / 2, as leaky_relu.
def _rrelu_forward(input, noise, lower, upper, training):
    float_only(input, "leaky_relu_cpu")
    if training:
        return input * noise
    return xp.where(input > 0, input, input * ((lower + upper) / 2)).astype(input.dtype)


@defop(
    name="rrelu_with_noise_backward",
    node="RreluWithNoiseBackwardBackward0",
    grad_output=lambda grad, self, noise, lower, upper, training: rrelu_with_noise_backward(
        grad, self, noise, lower, upper, training
    ),
    self=zero_gradient,
    jvp="elementwise",
)
def rrelu_with_noise_backward(grad_output, self, noise, lower, upper, training):
    # training reads the drawn slopes even when lower == upper (a NaN input's slope is 1)
    if training:
        return grad_output * noise
    slope = (lower + upper) / 2
    return xp.where(self > 0, grad_output, grad_output * slope).astype(grad_output.dtype)


def _rrelu_grad(grad, input, noise, lower, upper, training):
    return rrelu_with_noise_backward(grad, input, noise, lower, upper, training)


def _rrelu_result_grad(grad, result, noise, lower, upper, training):
    if not training:
        check_result_slope((lower + upper) / 2)
    return rrelu_with_noise_backward(grad, result, noise, lower, upper, training)


rrelu_op = defop(name="rrelu_with_noise", input=_rrelu_grad, jvp="elementwise")(_rrelu_forward)
rrelu_result_op = defop(
    name="rrelu_with_noise_result",
    node="RreluWithNoiseBackward1",
    input=_rrelu_result_grad,
    jvp=no_forward_derivative("rrelu_with_noise_"),
)(_rrelu_forward)
