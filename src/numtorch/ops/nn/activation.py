"""Activation primitives: erf/erfc, GELU, SiLU, LeakyReLU, hardtanh, softplus, log-sigmoid,
Mish and GLU (ReLU, sigmoid and tanh live in activations.py; piecewise ones in piecewise.py).

Each backward that torch fuses into one kernel is an op of its own here as well
(``gelu_backward``, ``leaky_relu_backward``), so a first-order backward costs one op and
double backward still works: the fused op has derivative formulas too.
"""

from __future__ import annotations

import math

from ..._core import batch_rules
from ..._core.docs import summarize
from ..._core.dtypes import bfloat16, from_numpy_dtype
from ..._core.kernel_dtypes import COMPLEX, FLOATS, REAL, kernel, own_message
from ..._core.op import defop, export
from ..._creation import zeros_like
from ...autograd.forward_grad import add_terms, batch_shift, batched
from ...backend import layout, xp
from ..activations import _sigmoid_forward, kernel_exp
from ..concatenation import cat, stack
from ..pointwise import _add_scalar, _mul_scalar
from .erf import TWO_OVER_SQRT_PI, erf_array, erfc_array
from .simd_lanes import vector_lanes


def float_only(input, kernel: str, complex: bool = False) -> None:
    """torch's refusal of integer (and, unless ``complex``, complex) inputs for its
    floating-point kernels (Note [Kernel dtypes])."""
    if input.dtype.kind not in ("fcV" if complex else "fV"):
        name = from_numpy_dtype(input.dtype).scalar_name
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{name}'")


def zero_gradient(grad):
    """The derivative of a backward op with respect to an input it reads only for its mask
    or shape: zero, yet that input is an edge (torch's ``self: zeros_like(self)``), so the
    first-order gradient requires grad under ``create_graph=True``."""
    return zeros_like(grad)


def rowwise(op, tangent, primal, *args):
    """The forward derivative ``op(tangent, *args)`` of an op linear in its first argument
    (None without a tangent: the other inputs give shapes or masks only); a tangent with a
    leading batch dimension (jacfwd) goes row by row."""
    if tangent is None:
        return None
    if tangent.ndim == primal.ndim:
        return op(tangent, *args)
    return stack([op(row, *args) for row in tangent])


# -- erf, erfc -------------------------------------------------------------------------------


def _erf_slope(input, scale):
    # d/dx erf(x) = 2/sqrt(pi) exp(-x^2), x^2 taken by pow as torch's formula does: its own
    # derivative 2 * x overflows to inf at huge x (0 * inf = NaN in the second order); the
    # number scales as a Scalar (MulBackward1), then the gradient multiplies, as in torch
    return _mul_scalar(input.pow(2).neg().exp(), scale)


def _erf_grad(grad, input):
    return _erf_slope(input, TWO_OVER_SQRT_PI) * grad


erf = export(
    defop(
        batch=batch_rules.pointwise,
        name="erf",
        dtypes=kernel("erf_vml_cpu", FLOATS),
        promote="float",
        input=_erf_grad,
        jvp="elementwise",
    )(lambda input: erf_array(input)),
    inplace=True,
)
erfc = export(
    defop(
        batch=batch_rules.pointwise,
        name="erfc",
        dtypes=kernel("erfc_vml_cpu", FLOATS),
        promote="float",
        input=lambda grad, input: _erf_slope(input, -TWO_OVER_SQRT_PI) * grad,
        jvp="elementwise",
    )(lambda input: erfc_array(input)),
    inplace=True,
)
summarize(erf, "The error function ``2/sqrt(pi) * integral_0^x exp(-t^2) dt``.")
summarize(erfc, "``1 - erf(x)``, computed without cancellation for large ``x``.")


# -- GELU ------------------------------------------------------------------------------------
_SQRT_HALF = math.sqrt(0.5)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_TANH_BETA = math.sqrt(2.0 / math.pi)
_TANH_KAPPA = 0.044715


def check_approximate(approximate: str) -> None:
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")


def _gelu_forward(input, approximate):
    if approximate == "tanh":
        inner = _TANH_BETA * (input + _TANH_KAPPA * input * input * input)
        return 0.5 * input * (1.0 + xp.tanh(inner))
    # x * Phi(x), written as torch does: x * 0.5 * (1 + erf(x / sqrt(2)))
    return input * 0.5 * (1.0 + erf_array(input * _SQRT_HALF))


def _gelu_derivative(input, approximate):
    """d gelu / dx on arrays."""
    if approximate == "tanh":
        x_sq = input * input
        tanh_inner = xp.tanh(_TANH_BETA * (input + _TANH_KAPPA * x_sq * input))
        left = 0.5 * (1.0 + tanh_inner)
        right = 0.5 * input * (1.0 - tanh_inner * tanh_inner)
        return left + right * (_TANH_BETA * (1.0 + 3.0 * _TANH_KAPPA * x_sq))
    cdf = 0.5 * (1.0 + erf_array(input * _SQRT_HALF))
    pdf = xp.exp(-0.5 * input * input) * _INV_SQRT_2PI
    return cdf + input * pdf


def _gelu_second_derivative(input, approximate):
    """d^2 gelu / dx^2 as a tensor expression (used by double backward only)."""
    if approximate == "tanh":
        x_sq = input * input
        u1 = _TANH_BETA * (1.0 + 3.0 * _TANH_KAPPA * x_sq)
        u2 = _TANH_BETA * 6.0 * _TANH_KAPPA * input
        t = (_TANH_BETA * (input + _TANH_KAPPA * x_sq * input)).tanh()
        # (1 - t^2) (u' + x/2 (u'' - 2 t u'^2))
        return (1 - t * t) * (u1 + 0.5 * input * (u2 - 2 * t * u1 * u1))
    # phi(x) (2 - x^2)
    return (-0.5 * input * input).exp() * _INV_SQRT_2PI * (2 - input * input)


@defop(
    batch=batch_rules.pointwise,
    name="gelu_backward",
    node="GeluBackwardBackward0",
    grad_output=lambda grad, self, approximate: gelu_backward(grad, self, approximate),
    self=lambda grad, grad_output, self, approximate: (
        grad * grad_output * _gelu_second_derivative(self, approximate)
    ),
    jvp="elementwise",
)
def gelu_backward(grad_output, self, approximate="none"):
    return grad_output * _gelu_derivative(self, approximate)


@defop(
    batch=batch_rules.pointwise,
    name="gelu",
    dtypes=kernel("GeluKernelImpl", FLOATS),
    input=lambda grad, input, approximate: gelu_backward(grad, input, approximate),
    jvp="elementwise",
)
def gelu_op(input, approximate="none"):
    float_only(input, "GeluKernelImpl")
    out = _gelu_forward(input, approximate)
    # torch's vectorized float erf-gelu (bfloat16 runs it in float) gives NaN at +inf; its
    # scalar loop, which takes a lone element and strided inputs, gives inf
    vector = input.size > 1 and input.flags.c_contiguous
    if vector and approximate == "none" and input.dtype in _VECTOR_ERF_NAN:
        out[input == xp.inf] = xp.nan
    return out


_VECTOR_ERF_NAN = {xp.dtype(xp.float32), xp.dtype(bfloat16.np)}


# -- SiLU ------------------------------------------------------------------------------------
def one_minus(t):
    """``1 - t`` as torch's C++ formulas record it: SubBackward0 from a wrapped number."""
    return t.new_full((), 1.0) - t


def _silu_grad(grad, input):
    # d/dx x s(x) = s (1 + x (1 - s)), in the order of torch's formula (its graph's names)
    s = input.sigmoid()
    return grad * s * _add_scalar(input * one_minus(s), 1.0)


@defop(
    batch=batch_rules.pointwise,
    name="silu",
    dtypes=kernel("silu_cpu", FLOATS | COMPLEX),
    input=_silu_grad,
    jvp="elementwise",
)
def silu_op(input):
    float_only(input, "silu_cpu", complex=True)
    if input.dtype == xp.float32:  # Note [Exp in torch's vector kernels]
        return input / (xp.float32(1) + kernel_exp(-input, input))
    return input / (1.0 + xp.exp(-input))


# -- LeakyReLU -------------------------------------------------------------------------------
@defop(
    batch=batch_rules.pointwise,
    name="leaky_relu_backward",
    node="LeakyReluBackwardBackward0",
    grad_output=lambda grad, self, negative_slope: leaky_relu_backward(grad, self, negative_slope),
    self=zero_gradient,
    jvp="elementwise",
)
def leaky_relu_backward(grad_output, self, negative_slope):
    return xp.where(self > 0, grad_output, grad_output * negative_slope)


@defop(
    batch=batch_rules.pointwise,
    name="leaky_relu",
    dtypes=kernel("leaky_relu_cpu", FLOATS),
    input=lambda grad, input, negative_slope: leaky_relu_backward(grad, input, negative_slope),
    jvp="elementwise",
)
def leaky_relu_op(input, negative_slope=0.01):
    float_only(input, "leaky_relu_cpu")
    return xp.where(input > 0, input, input * negative_slope)


def leaky_relu_result_grad(grad, result, negative_slope):
    check_result_slope(negative_slope)
    return leaky_relu_backward(grad, result, negative_slope)


def check_result_slope(negative_slope):
    """A slope read back from the output cannot be negative (the sign of x is lost)."""
    if negative_slope < 0:
        raise RuntimeError(
            "In-place leakyReLu backward calculation is triggered with a negative slope which "
            "is not supported. This is caused by calling in-place forward function with a "
            "negative slope, please call out-of-place version instead. File an issue at "
            "https://github.com/pytorch/pytorch if you do require supporting in-place leakRelu "
            "backward calculation with negative slope"
        )


# leaky_relu_ differentiates from its output (LeakyReluBackward1), as torch
leaky_relu_result_op = defop(
    batch=batch_rules.pointwise,
    name="leaky_relu_result",
    dtypes=kernel("leaky_relu_cpu", FLOATS),
    node="LeakyReluBackward1",
    input=leaky_relu_result_grad,
    jvp="elementwise",
)(leaky_relu_op.spec.forward)


def sigmoid_array(z):
    """``1 / (1 + exp(-z))`` on arrays, computed as numtorch.sigmoid computes it."""
    return _sigmoid_forward(z)


# -- hardtanh, softplus -----------------------------------------------------------------------
def masked(grad_output, mask):
    """``grad_output`` where ``mask`` holds, else 0 (the backward of a piecewise-linear op)."""
    return xp.where(mask, grad_output, 0).astype(grad_output.dtype, copy=False)


@defop(
    batch=batch_rules.pointwise,
    name="hardtanh_backward",
    node="HardtanhBackwardBackward0",
    grad_output=lambda grad, self, min_val, max_val: hardtanh_backward(
        grad, self, min_val, max_val
    ),
    self=zero_gradient,
    jvp="elementwise",
)
def hardtanh_backward(grad_output, self, min_val, max_val):
    # torch's hardtanh_backward zeroes the gradient at and beyond the bounds; at NaN its
    # scalar tail passes it through (NaN compares false to both), its vector mask zeroes it:
    # Note [SIMD lanes and NaN]
    keep = ~((self <= min_val) | (self >= max_val))
    if self.dtype.kind == "f" and xp.isnan(self).any():
        keep &= ~(xp.isnan(self) & vector_lanes(self))
    return masked(grad_output, keep)


@defop(
    batch=batch_rules.pointwise,
    name="hardtanh",
    dtypes=own_message(REAL, "clamp is not supported for complex types", NotImplementedError),
    input=lambda grad, input, min_val, max_val: hardtanh_backward(grad, input, min_val, max_val),
    jvp="elementwise",
)
def hardtanh(input, min_val=-1.0, max_val=1.0):
    """Clamp to ``[min_val, max_val]``; the gradient is 0 at and beyond the bounds."""
    if input.dtype == xp.bool_:
        raise RuntimeError("Bool inputs not supported for hardtanh")
    if input.dtype.kind == "u" and (min_val < 0 or max_val < 0):
        raise RuntimeError("cannot do hardtanh on an unsigned type with negative limits")
    return xp.clip(input, min_val, max_val).astype(input.dtype, copy=False)


def _softplus_double_backward(grad, grad_output, self, beta, threshold):
    # d/dx sigmoid(beta x) = beta s (1 - s), zero on the linear side: multiplied by a 0/1
    # mask as torch's softplus_double_backward, so an infinite gradient there gives NaN
    s = (self * beta).sigmoid()
    mask = (self * beta < threshold).type_as(grad)
    return (grad * grad_output) * (1 - s) * s * mask * beta


@defop(
    batch=batch_rules.pointwise,
    name="softplus_backward",
    node="SoftplusBackwardBackward0",
    grad_output=lambda grad, self, beta, threshold: softplus_backward(grad, self, beta, threshold),
    self=_softplus_double_backward,
    jvp="elementwise",
)
def softplus_backward(grad_output, self, beta, threshold):
    scaled = self * beta
    slope = xp.where(scaled > threshold, 1.0, sigmoid_array(scaled))
    return (grad_output * slope).astype(grad_output.dtype, copy=False)


@defop(
    batch=batch_rules.pointwise,
    name="softplus",
    dtypes=kernel("softplus_cpu", FLOATS),
    input=lambda grad, input, beta, threshold: softplus_backward(grad, input, beta, threshold),
    jvp="elementwise",
)
def softplus(input, beta=1.0, threshold=20.0):
    """``log(1 + exp(beta x)) / beta``, linear where ``beta x > threshold``."""
    float_only(input, "softplus_cpu")
    scaled = input * beta
    soft = xp.log1p(xp.exp(xp.minimum(scaled, threshold))) / beta
    return xp.where(scaled > threshold, input, soft).astype(input.dtype, copy=False)


# -- log-sigmoid, mish, GLU ------------------------------------------------------------------
@defop(
    batch=batch_rules.pointwise,
    name="log_sigmoid_backward",
    node="LogSigmoidBackwardBackward0",
    grad_output=lambda grad, self: log_sigmoid_backward(grad, self),
    # d/dx sigmoid(-x) = -s (1 - s), s = sigmoid(x)
    self=lambda grad, grad_output, self: grad * grad_output * (self.sigmoid() - 1) * self.sigmoid(),
    jvp="elementwise",
)
def log_sigmoid_backward(grad_output, self):
    return (grad_output * sigmoid_array(-self)).astype(grad_output.dtype, copy=False)


@defop(
    batch=batch_rules.pointwise,
    name="log_sigmoid",
    node="LogSigmoidBackward0",
    input=lambda grad, input: log_sigmoid_backward(grad, input),
    jvp="elementwise",
)
def log_sigmoid(input):
    """``log(1 / (1 + exp(-x)))``, computed stably as ``min(x, 0) - log1p(exp(-|x|))``."""
    float_only(input, "log_sigmoid_cpu")
    # torch's forward allocates its result contiguous, whatever the input's strides
    return layout.row_major(xp.minimum(input, 0) - xp.log1p(xp.exp(-xp.abs(input))))


def _mish_grad(grad, input):
    # d/dx x tanh(sp(x)) = tanh(sp) + x sigmoid(x) (1 - tanh(sp)^2), sp(x) = log(1 + e^x),
    # with sp composed as torch's formula does
    t = input.exp().log1p().tanh()
    return grad * (t + input * input.sigmoid() * one_minus(t * t))


@defop(
    batch=batch_rules.pointwise,
    name="mish",
    dtypes=kernel("mish_cpu", FLOATS),
    input=_mish_grad,
    jvp="elementwise",
)
def mish(input):
    """``x * tanh(softplus(x))``."""
    float_only(input, "mish_cpu")
    return input * xp.tanh(xp.logaddexp(0, input))


@batched
def _glu_jvp(input_t, input, dim, result):
    # d(a s(b)) = a_t s(b) + a s(b) (1 - s(b)) b_t, and a s(b) is the result
    gate = input.chunk(2, dim)[1].sigmoid()
    a_t, b_t = input_t.chunk(2, dim + batch_shift(input_t, input) if dim >= 0 else dim)
    return a_t * gate + result * (1 - gate) * b_t


def _glu_double_grad_output(grad, self, dim):
    # glu_backward is linear in grad_output: its adjoint pairs the halves of grad back
    grad_a, grad_b = grad.chunk(2, dim)
    a, b = self.chunk(2, dim)
    gate = b.sigmoid()
    return grad_a * gate + grad_b * a * gate * (1 - gate)


def _glu_double_self(grad, grad_output, self, dim):
    grad_a, grad_b = grad.chunk(2, dim)
    a, b = self.chunk(2, dim)
    gate = b.sigmoid()
    slope = gate * (1 - gate)  # d sigmoid(b) / db
    to_a = grad_b * grad_output * slope
    to_b = grad_output * slope * (grad_a + grad_b * a * (1 - 2 * gate))
    return cat([to_a, to_b], dim)


def _glu_backward_jvp(grad_output_t, self_t, grad_output, self, dim):
    # linear in grad_output; the self-derivative is symmetric (a Hessian), so its backward
    # formula applied to the tangent is the forward derivative
    return add_terms(
        None if grad_output_t is None else glu_backward(grad_output_t, self, dim),
        None if self_t is None else _glu_double_self(self_t, grad_output, self, dim),
    )


@defop(
    batch=batch_rules.along("dim"),
    name="glu_backward",
    node="GluBackwardBackward0",
    grad_output=_glu_double_grad_output,
    self=_glu_double_self,
    jvp=_glu_backward_jvp,
)
def glu_backward(grad_output, self, dim):
    a, b = xp.split(self, 2, axis=dim)
    gate = sigmoid_array(b)
    return xp.concatenate([grad_output * gate, grad_output * a * gate * (1 - gate)], axis=dim)


@defop(
    batch=batch_rules.along("dim"),
    name="glu",
    dtypes=kernel("glu_cpu", FLOATS),
    input=lambda grad, input, dim: glu_backward(grad, input, dim),
    jvp=_glu_jvp,
)
def glu(input, dim):
    """``a * sigmoid(b)`` for the halves ``a, b`` of ``input`` along ``dim``."""
    float_only(input, "glu_cpu")
    a, b = xp.split(input, 2, axis=dim)
    return a / (1 + xp.exp(-b))
