"""Elementwise regression losses: ``mse_loss``, ``smooth_l1_loss``, ``huber_loss`` and
``soft_margin_loss``.

As in torch, each gradient is an op of its own (``mse_loss_backward``...) whose node under
``create_graph=True`` has torch's name (``MseLossBackwardBackward0``) and edges
(grad_output, self, target). The target's gradient is the same op with self and target
swapped (each derivative is odd in ``self - target``).
"""

from __future__ import annotations

from ..._core import batch_rules, loss_batch_rules
from ..._core.dtypes import from_numpy_dtype
from ..._core.op import defop
from ..._creation import zeros_like
from ...autograd.forward_grad import add_terms, align, batched
from ...backend import xp
from .activation import float_only
from .loss import reduce_array, reduce_tangent


def _scale(grad_output, reduction, numel):
    """grad_output divided by the element count for a mean (array or tensor)."""
    return grad_output / numel if reduction == "mean" else grad_output


def _symmetric_jvp(backward, input_t, target_t, input, target, reduction, *extra):
    """The forward derivative of a loss ``l(x - t)`` whose gradient op is ``backward``
    (torch's: the elementwise derivatives times the tangents, reduced as the loss)."""
    ndim = max(input.ndim, target.ndim)
    input_t, target_t = align(input_t, input, ndim), align(target_t, target, ndim)
    losses_t = add_terms(
        None if input_t is None else backward(input_t, input, target, "none", *extra),
        None if target_t is None else backward(target_t, target, input, "none", *extra),
    )
    return reduce_tangent(losses_t, reduction, ndim)


def _difference_t(self_t, target_t, self, target):
    """The tangent of ``self - target``, in their broadcast shape (None when neither has one)."""
    if self_t is None and target_t is None:
        return None
    self_t = zeros_like(self) if self_t is None else self_t
    return self_t - (zeros_like(target) if target_t is None else target_t)


# -- mean squared error ----------------------------------------------------------------------
def _mse_difference_jvp(difference_t, grad_output, reduction):
    if difference_t is None:
        return None
    return 2 * difference_t * _scale(grad_output, reduction, difference_t.numel())


def _mse_double(grad, grad_output, reduction):
    # d^2/dx^2 (x - t)^2 = 2
    return 2 * _scale(grad * grad_output, reduction, grad.numel())


@defop(
    batch=loss_batch_rules.loss_backward,
    name="mse_loss_backward",
    node="MseLossBackwardBackward0",
    grad_output=lambda grad, self, target, reduction: mse_loss_backward(
        grad, self, target, reduction
    ),
    self=lambda grad, grad_output, reduction: _mse_double(grad, grad_output, reduction),
    target=lambda grad, grad_output, reduction: -_mse_double(grad, grad_output, reduction),
    jvp=lambda grad_output_t, self_t, target_t, grad_output, self, target, reduction: add_terms(
        None
        if grad_output_t is None
        else mse_loss_backward(grad_output_t, self, target, reduction),
        _mse_difference_jvp(_difference_t(self_t, target_t, self, target), grad_output, reduction),
    ),
)
def mse_loss_backward(grad_output, self, target, reduction):
    difference = self - target
    return 2 * difference * _scale(grad_output, reduction, difference.size)


@defop(
    batch=batch_rules.loss,
    name="mse_loss",
    node="MseLossBackward0",
    promote="same",
    input=lambda grad, input, target, reduction: mse_loss_backward(grad, input, target, reduction),
    target=lambda grad, input, target, reduction: mse_loss_backward(grad, target, input, reduction),
    jvp=batched(
        lambda input_t, target_t, input, target, reduction: _symmetric_jvp(
            mse_loss_backward, input_t, target_t, input, target, reduction
        )
    ),
)
def mse_loss_op(input, target, reduction):
    difference = input - target
    return reduce_array(difference * difference, reduction)


# -- smooth L1 and Huber ---------------------------------------------------------------------
# Both are quadratic inside |x - t| < beta (delta) and linear outside: the second derivative
# is 1 / beta (1) inside and 0 outside.
def _inside_jvp(
    backward, grad_output_t, self_t, target_t, grad_output, self, target, reduction, width, slope
):
    """The forward derivative of the smooth L1 / Huber gradient op ``backward``: quadratic
    inside ``|x - t| < width`` (second derivative ``slope``), linear outside."""
    difference_t = _difference_t(self_t, target_t, self, target)
    return add_terms(
        None if grad_output_t is None else backward(grad_output_t, self, target, reduction, width),
        None
        if difference_t is None
        else _inside(difference_t, grad_output, self, target, reduction, width, slope),
    )


def _inside(grad, grad_output, self, target, reduction, width, slope):
    if width == 0:  # torch's smooth L1 with beta = 0 has no quadratic part: zeros
        return zeros_like(grad)
    # torch multiplies by the mask (a NaN gradient stays NaN outside), not a where
    mask = ((self - target).abs() < width).to(grad.dtype)
    return _scale(grad * grad_output, reduction, grad.numel()) * slope * mask


@defop(
    batch=loss_batch_rules.loss_backward,
    name="smooth_l1_loss_backward",
    node="SmoothL1LossBackwardBackward0",
    grad_output=lambda grad, self, target, reduction, beta: smooth_l1_loss_backward(
        grad, self, target, reduction, beta
    ),
    self=lambda grad, grad_output, self, target, reduction, beta: _inside(
        grad, grad_output, self, target, reduction, beta, 1 / beta
    ),
    target=lambda grad, grad_output, self, target, reduction, beta: (
        -_inside(grad, grad_output, self, target, reduction, beta, 1 / beta)
    ),
    jvp=lambda grad_output_t, self_t, target_t, grad_output, self, target, reduction, beta: (
        _inside_jvp(
            smooth_l1_loss_backward,
            *(grad_output_t, self_t, target_t, grad_output, self, target, reduction),
            beta,
            1 / beta,
        )
    ),
)
def smooth_l1_loss_backward(grad_output, self, target, reduction, beta):
    # d/dx: (x - t) / beta inside |x - t| < beta, its sign outside
    difference = self - target
    slope = xp.where(xp.abs(difference) < beta, difference / beta, xp.sign(difference))
    return (slope * _scale(grad_output, reduction, difference.size)).astype(grad_output.dtype)


@defop(
    batch=batch_rules.loss,
    name="smooth_l1_loss",
    node="SmoothL1LossBackward0",
    promote="same",
    input=lambda grad, input, target, reduction, beta: smooth_l1_loss_backward(
        grad, input, target, reduction, beta
    ),
    target=lambda grad, input, target, reduction, beta: smooth_l1_loss_backward(
        grad, target, input, reduction, beta
    ),
    jvp=batched(
        lambda input_t, target_t, input, target, reduction, beta: _symmetric_jvp(
            smooth_l1_loss_backward, input_t, target_t, input, target, reduction, beta
        )
    ),
)
def smooth_l1_loss_op(input, target, reduction, beta):
    float_only(input, "smooth_l1_cpu")
    z = xp.abs(input - target)
    return reduce_array(xp.where(z < beta, 0.5 * z * z / beta, z - 0.5 * beta), reduction)


@defop(
    batch=loss_batch_rules.loss_backward,
    name="huber_loss_backward",
    node="HuberLossBackwardBackward0",
    grad_output=lambda grad, self, target, reduction, delta: huber_loss_backward(
        grad, self, target, reduction, delta
    ),
    self=lambda grad, grad_output, self, target, reduction, delta: _inside(
        grad, grad_output, self, target, reduction, delta, 1
    ),
    target=lambda grad, grad_output, self, target, reduction, delta: (
        -_inside(grad, grad_output, self, target, reduction, delta, 1)
    ),
    jvp=lambda grad_output_t, self_t, target_t, grad_output, self, target, reduction, delta: (
        _inside_jvp(
            huber_loss_backward,
            *(grad_output_t, self_t, target_t, grad_output, self, target, reduction),
            delta,
            1,
        )
    ),
)
def huber_loss_backward(grad_output, self, target, reduction, delta):
    if self.dtype != target.dtype:  # torch's backward kernel takes no mixed dtypes
        found, expected = (from_numpy_dtype(a.dtype).scalar_name for a in (target, self))
        raise RuntimeError(f"Found dtype {found} but expected {expected}")
    difference = self - target
    slope = xp.where(xp.abs(difference) < delta, difference, xp.sign(difference) * delta)
    return (slope * _scale(grad_output, reduction, difference.size)).astype(grad_output.dtype)


@defop(
    batch=batch_rules.loss,
    name="huber_loss",
    input=lambda grad, input, target, reduction, delta: huber_loss_backward(
        grad, input, target, reduction, delta
    ),
    target=lambda grad, input, target, reduction, delta: huber_loss_backward(
        grad, target, input, reduction, delta
    ),
    jvp=batched(
        lambda input_t, target_t, input, target, reduction, delta: _symmetric_jvp(
            huber_loss_backward, input_t, target_t, input, target, reduction, delta
        )
    ),
)
def huber_loss_op(input, target, reduction, delta):
    # the result has the input's dtype, whatever the target's (as torch)
    float_only(input, "huber_cpu")
    z = xp.abs(input - target)
    losses = xp.where(z < delta, 0.5 * z * z, delta * (z - 0.5 * delta))
    return xp.asarray(reduce_array(losses, reduction), dtype=input.dtype)


# -- soft margin -----------------------------------------------------------------------------
# torch evaluates soft margin through z = exp(-y x) unguarded, in forward and both backwards:
# where z overflows the loss is inf and the gradients are inf / inf = NaN, and numtorch keeps
# those values rather than the stable softplus/sigmoid forms
def _soft_margin_double(grad, grad_output, self, target, reduction):
    # d/dx -y z / (1 + z) = y^2 z / (1 + z)^2
    z = (-(self * target)).exp()
    scaled = _scale(grad * grad_output, reduction, grad.numel())
    return scaled * (target * target * z / ((z + 1) * (z + 1)))


@defop(
    batch=loss_batch_rules.loss_backward,
    name="soft_margin_loss_backward",
    node="SoftMarginLossBackwardBackward0",
    grad_output=lambda grad, self, target, reduction: soft_margin_loss_backward(
        grad, self, target, reduction
    ),
    self=_soft_margin_double,
    jvp=lambda grad_output_t, self_t, grad_output, self, target, reduction: add_terms(
        None
        if grad_output_t is None
        else soft_margin_loss_backward(grad_output_t, self, target, reduction),
        None
        if self_t is None
        else _soft_margin_double(self_t, grad_output, self, target, reduction),
    ),
)
def soft_margin_loss_backward(grad_output, self, target, reduction):
    # d/dx log(1 + z) = -y z / (1 + z), z = exp(-y x)
    with xp.errstate(over="ignore", invalid="ignore"):
        z = xp.exp(-self * target)
        out = -target * z / (1 + z) * _scale(grad_output, reduction, self.size)
    return out.astype(grad_output.dtype, copy=False)


@defop(
    batch=batch_rules.loss,
    name="soft_margin_loss",
    promote="same",
    input=lambda grad, input, target, reduction: soft_margin_loss_backward(
        grad, input, target, reduction
    ),
    jvp=batched(
        lambda input_t, input, target, reduction: reduce_tangent(
            soft_margin_loss_backward(input_t, input, target, "none"),
            reduction,
            max(input.ndim, target.ndim),
        )
    ),
)
def soft_margin_loss_op(input, target, reduction):
    with xp.errstate(over="ignore"):
        losses = xp.log1p(xp.exp(-input * target))
    if reduction == "none":
        return losses
    # torch writes the losses into its output, then resizes it to 0-d over the same storage
    # and copies the reduction into element 0: the rest of the storage keeps the losses
    # (what as_strided on the result reads)
    storage = xp.zeros(max(losses.size, 1), losses.dtype)
    storage[: losses.size] = losses.reshape(-1)
    storage[0] = reduce_array(losses, reduction)
    return storage[:1].reshape(())
