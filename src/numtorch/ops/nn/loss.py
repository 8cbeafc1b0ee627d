"""Loss primitives with torch's grad_fns: ``nll_loss`` (NllLossBackward0 / NllLoss2DBackward0),
``binary_cross_entropy``, ``binary_cross_entropy_with_logits`` and ``multi_margin_loss``
(``mse_loss``, ``smooth_l1_loss``, ``huber_loss`` and ``soft_margin_loss``: pointwise_loss.py).

(``cross_entropy``, ``l1_loss`` and friends are compositions, as in torch: see
``numtorch.nn.functional``.) NLL loss is linear in its input: its backward is the adjoint
scatter, an op whose own derivative is the forward gather again.
"""

from __future__ import annotations

import functools
import math

from ..._core import batch_rules, grad_mode, loss_batch_rules
from ..._core.dispatch import broadcast_shape
from ..._core.kernel_dtypes import FLOATING, kernel
from ..._core.op import defop, not_implemented
from ..._core.tensor import Tensor
from ...autograd.forward_grad import add_terms, batched, no_forward_derivative
from ...backend import layout, xp
from ..pointwise import _div_scalar, where
from .activation import log_sigmoid, rowwise, zero_gradient
from .composite_backward import tensors_of

REDUCTIONS = ("none", "mean", "sum")


def reduce_array(losses, reduction):
    if reduction == "none":
        return losses
    return losses.sum() if reduction == "sum" else losses.mean()


def reduce_tensor(losses, reduction):
    if reduction == "none":
        return losses
    return losses.sum() if reduction == "sum" else losses.mean()


def reduce_tangent(losses_t, reduction, ndim: int):
    """The tangent of elementwise losses (of ``ndim`` dims) reduced as the loss is, keeping
    a leading batch dimension (jacfwd's) apart."""
    dims = tuple(range(losses_t.ndim - ndim, losses_t.ndim))
    if reduction == "none" or not dims:
        return losses_t
    return losses_t.sum(dims) if reduction == "sum" else losses_t.mean(dims)


# -- negative log likelihood -----------------------------------------------------------------
def _nll_layout(input, target, weight, ignore_index):
    """(input as (N, C, rest), safe targets (N, 1, rest), per-target weights (N, rest))."""
    if input.ndim == 1:
        x = input.reshape(1, -1, 1)
    else:  # sizes spelled out: a -1 is ambiguous for an empty batch
        x = input.reshape(*input.shape[:2], math.prod(input.shape[2:]))
    t = target.reshape(x.shape[0], x.shape[2])
    valid = t != ignore_index
    safe = xp.where(valid, t, 0)
    classes = x.shape[1]
    bad = (safe < 0) | (safe >= classes)
    if bad.any():
        raise IndexError(f"Target {int(t[bad][0])} is out of bounds.")
    if weight is None:
        w = valid.astype(x.dtype)
    else:
        w = weight[safe] * valid
    return x, safe[:, None, :], w


# nll_loss's target dtypes as the unsigned type of their size: a negative class index
# reads as one above every class there, so one maximum tests both bounds
_UNSIGNED = {xp.dtype(xp.int64): xp.dtype(xp.uint64), xp.dtype(xp.uint8): xp.dtype(xp.uint8)}


def _plain_targets(shape, target, weight, ignore_index):
    """The targets of an (N, C) input when no weight is given and every target is a class
    index other than ``ignore_index`` (the usual classifier batch), else None: then one
    gather or scatter by row does the work of the general layout's masks and weights."""
    if len(shape) != 2 or weight is not None or target.ndim != 1 or target.size == 0:
        return None
    unsigned = _UNSIGNED.get(target.dtype)
    if unsigned is not None and not 0 <= ignore_index < shape[1]:
        # no class index is ignore_index (the default -100): one reduction, not two
        return target if xp.maximum.reduce(target.view(unsigned)) < shape[1] else None
    lowest, highest = xp.minimum.reduce(target), xp.maximum.reduce(target)  # not via fromnumeric
    if lowest < 0 or highest >= shape[1] or lowest <= ignore_index <= highest:
        return None
    return target


@functools.lru_cache(maxsize=64)
def _rows(n: int):
    """``arange(n)``, made once per batch size (read-only: shared by every call)."""
    rows = xp.arange(n)
    rows.flags.writeable = False
    return rows


# Note [nll_loss's cascade]: torch's CPU nll_loss adds the picked -input values of a plain
# batch in levels: the first value goes straight to the top level, then level 0 adds values
# one by one and hands its sum up after every 16 of them, each level above likewise after
# 16 sums; the levels' sums are then added from level 0 up (16 matched torch's results for
# every batch size measured, 1 to 1.1 million). NumPy's pairwise sum gave another last bit
# in about half the printed mean losses.
_LEVELS = 8
_STEP = 16


def _sequential_sums(rows):
    # an accumulation adds strictly in order; the ufunc's own method, not cumsum, whose
    # Python wrapper cost more than the sums of a batch's 128 losses
    return xp.add.accumulate(rows, axis=-1)[..., -1] if rows.shape[-1] else rows.sum(axis=-1)


def _nll_cascade_sum(values):
    units, partial = values[1:], []
    while units.size and len(partial) < _LEVELS - 1:  # the empty levels above add nothing
        whole = units.size - units.size % _STEP
        partial.append(_sequential_sums(units[whole:]))
        units = _sequential_sums(units[:whole].reshape(-1, _STEP)) if whole else units[:0]
    top = values[0]
    if units.size:
        top = _sequential_sums(xp.concatenate([values[:1], units]))
    total = values.dtype.type(0)
    for level in (*partial, top):
        total = total + level
    return total


def _nll_forward(input, target, weight, reduction, ignore_index):
    plain = _plain_targets(input.shape, target, weight, ignore_index)
    if plain is not None and reduction != "none":
        total = _nll_cascade_sum(-input[_rows(input.shape[0]), plain])
        if reduction == "sum":
            return total
        return xp.asarray(total / input.dtype.type(input.shape[0]), dtype=input.dtype)
    x, safe, w = _nll_layout(input, target, weight, ignore_index)
    losses = -xp.take_along_axis(x, safe, axis=1)[:, 0, :] * w
    # torch's kernel skips an ignored target: its loss is 0 even where the input is NaN
    losses[target.reshape(w.shape) == ignore_index] = 0
    if reduction == "none":
        return losses.reshape(target.shape)
    total = losses.sum()
    if reduction == "sum":
        return total
    return xp.asarray(total / w.sum(), dtype=x.dtype)


def _nll_backward(grad_output, input_shape, target, weight, reduction, ignore_index):
    if len(input_shape) == 1:
        shape = (1, input_shape[0], 1)
    else:
        rest = 1
        for size in input_shape[2:]:
            rest *= size
        shape = (input_shape[0], input_shape[1], rest)
    plain = _plain_targets(input_shape, target, weight, ignore_index)
    if plain is not None and reduction != "none":
        scale = grad_output if reduction == "sum" else grad_output / input_shape[0]
        grad_input = xp.zeros(input_shape, grad_output.dtype)
        grad_input[_rows(input_shape[0]), plain] = -scale
        return grad_input
    grad_input = xp.zeros(shape, grad_output.dtype)
    _, safe, w = _nll_layout(grad_input, target, weight, ignore_index)
    if reduction == "none":
        scale = grad_output.reshape(w.shape)
    elif reduction == "sum":
        scale = grad_output
    else:
        total = w.sum()
        # every target ignored: torch's loss is nan (0/0), its gradient stays 0
        scale = grad_output / total if total != 0 else xp.zeros_like(grad_output)
    values = -w * scale
    values[xp.broadcast_to(target.reshape(w.shape) == ignore_index, values.shape)] = 0
    xp.put_along_axis(grad_input, safe, values[:, None, :], axis=1)
    return grad_input.reshape(input_shape)


def _check_contiguous_grad_input(self):
    # torch's 2-D kernel writes into zeros_like(self), which keeps a dense input's layout
    # (permuted, channels-last), and refuses it unless it is contiguous
    if not layout.empty_like(self).flags.c_contiguous:
        raise RuntimeError("grad_input must be contiguous")


def _register_nll(name: str, node: str):
    @batched
    def backward_jvp(grad_output_t, grad_output, self, target, weight, reduction, ignore_index):
        # linear in grad_output; ``self`` gives the shape only
        args = (self, target, weight, reduction, ignore_index)
        return rowwise(backward, grad_output_t, grad_output, *args)

    @defop(
        batch=loss_batch_rules.nll_loss_backward,
        name=name + "_backward",
        node=node + "BackwardBackward0",
        grad_output=lambda grad, target, weight, reduction, ignore_index: forward(
            grad, target, weight, reduction, ignore_index
        ),
        self=zero_gradient,
        jvp=backward_jvp,
    )
    def backward(grad_output, self, target, weight, reduction, ignore_index):
        if name == "nll_loss2d":
            _check_contiguous_grad_input(self)
        return _nll_backward(grad_output, self.shape, target, weight, reduction, ignore_index)

    @defop(
        batch=batch_rules.nll_loss,
        name=name,
        node=node + "Backward0",
        input=lambda grad, input, target, weight, reduction, ignore_index: backward(
            grad, input, target, weight, reduction, ignore_index
        ),
        jvp="linear",
    )
    def forward(input, target, weight, reduction, ignore_index):
        return _nll_forward(input, target, weight, reduction, ignore_index)

    return forward


nll_loss_op = _register_nll("nll_loss", "NllLoss")
nll_loss2d_op = _register_nll("nll_loss2d", "NllLoss2D")


# -- binary cross entropy --------------------------------------------------------------------
_EPSILON = float(xp.float32(1e-12))  # torch's EPSILON: a C++ float, 9.99999996e-13


def _bce_input_grad(grad, input, target, weight, reduction):
    # d/dx = (x - t) / (x (1 - x)), the denominator clamped as torch does
    g = grad * (input - target) / ((1 - input) * input).clamp(min=_EPSILON)
    if weight is not None:
        g = g * weight
    return g / input.numel() if reduction == "mean" else g


def _bce_target_grad(grad, input, target, weight, reduction):
    # torch's target gradient is -logit(x) * grad, unclamped: +-inf at x = 0 or 1 (target
    # unused: named as torch's formula names it, so that it is saved as torch saves it)
    g = input.logit().neg() * grad
    if weight is not None:
        g = g * weight
    return _div_scalar(g, input.numel()) if reduction == "mean" else g


# torch's double backward of binary cross entropy writes its own formulas for grad_output,
# input and target, with a double eps of 1e-12 (the first derivative clamps at the float
# 1e-12): at x = 0 or 1 the input's is (x^2 - 2xt + t) / (eps^2 (1 + eps)^2), not the
# derivative of a clamped denominator (0 there)
_DOUBLE_EPSILON = 1e-12


def _bce_double_input(grad, grad_output, self, target, weight, reduction):
    numerator = self * self - 2 * self * target + target
    denominator = (self + _DOUBLE_EPSILON).pow(2) * (1 - self + _DOUBLE_EPSILON).pow(2)
    g = numerator / denominator * (grad * grad_output)
    if weight is not None:
        g = g * weight
    return g / self.numel() if reduction == "mean" else g


def _bce_double_target(grad, grad_output, self, target, weight, reduction):
    g = -grad * grad_output
    if weight is not None:
        g = g * weight
    with grad_mode.no_grad():
        denominator = ((1 - self) * self).clamp(min=_DOUBLE_EPSILON)
    g = g / denominator
    return _div_scalar(g, self.numel()) if reduction == "mean" else g


def _bce_double_grad_output(grad, grad_output, self, target, weight, reduction):
    g = (self - target) / ((self + _DOUBLE_EPSILON) * (1 - self + _DOUBLE_EPSILON)) * grad
    if weight is not None:
        g = g * weight
    if reduction == "none":
        return g
    return (g / self.numel()).sum() if reduction == "mean" else g.sum()


def _bce_backward_jvp(
    grad_output_t, self_t, target_t, grad_output, self, target, weight, reduction
):
    # d[g (x - t) / D] with D = clamp(x (1 - x), eps), whose derivative is 0 where clamped
    product = (1 - self) * self
    denominator = product.clamp(min=_EPSILON)
    difference = self - target
    difference_t = add_terms(self_t, None if target_t is None else -target_t)
    denominator_t = None
    if self_t is not None:
        denominator_t = where(product > _EPSILON, (1 - 2 * self) * self_t, 0.0)
    out_t = add_terms(
        None if grad_output_t is None else grad_output_t * difference / denominator,
        None if difference_t is None else grad_output * difference_t / denominator,
        None
        if denominator_t is None
        else -grad_output * difference * denominator_t / (denominator * denominator),
    )
    if weight is not None:
        out_t = out_t * weight
    return out_t / self.numel() if reduction == "mean" else out_t


@defop(
    batch=loss_batch_rules.loss_backward,
    name="binary_cross_entropy_backward",
    node="BinaryCrossEntropyBackwardBackward0",
    grad_output=_bce_double_grad_output,
    self=_bce_double_input,
    target=_bce_double_target,
    jvp=_bce_backward_jvp,
)
def binary_cross_entropy_backward(grad_output, self, target, weight, reduction):
    with grad_mode.no_grad():
        return _bce_input_grad(*tensors_of(grad_output, self, target, weight), reduction)._data


@batched
def _bce_jvp(input_t, target_t, input, target, weight, reduction):
    losses_t = add_terms(
        None if input_t is None else _bce_input_grad(input_t, input, target, weight, "none"),
        None if target_t is None else _bce_target_grad(target_t, input, target, weight, "none"),
    )
    return reduce_tangent(losses_t, reduction, input.ndim)


@defop(
    batch=batch_rules.loss,
    name="binary_cross_entropy",
    node="BinaryCrossEntropyBackward0",
    input=lambda grad, input, target, weight, reduction: binary_cross_entropy_backward(
        grad, input, target, weight, reduction
    ),
    target=_bce_target_grad,
    jvp=_bce_jvp,
)
def binary_cross_entropy_op(input, target, weight, reduction):
    # written so that NaN fails too, as torch's check does
    if not ((input >= 0) & (input <= 1)).all():
        raise RuntimeError("all elements of input should be between 0 and 1")
    if not ((target >= 0) & (target <= 1)).all():
        raise RuntimeError("all elements of target should be between 0 and 1")
    # logs clamped at -100 so that a saturated input gives a finite loss (as torch)
    loss = (target - 1) * xp.maximum(xp.log1p(-input), -100) - target * xp.maximum(
        xp.log(input), -100
    )
    if weight is not None:
        loss = loss * weight
    return xp.asarray(reduce_array(loss, reduction), dtype=input.dtype)


# Note [In-place steps of binary_cross_entropy_with_logits]: torch's forward and backward
# write into their first operand in place (``(1 - target).mul_(input)``, without
# create_graph ``input.sigmoid().sub_(target)``, ``grad_input.mul_(grad)``...), so an operand
# that would broadcast that one bigger is refused with the in-place error, as here.
def _inplace(shape, *others):
    """The shape an in-place chain on ``shape`` keeps, or torch's error for an operand
    that would broadcast it."""
    shape = tuple(shape)
    for other in others:
        if other is None:
            continue
        wide = broadcast_shape(shape, tuple(other))
        if wide != shape:
            raise RuntimeError(
                f"output with shape {list(shape)} doesn't match the broadcast shape {list(wide)}"
            )
    return shape


def _shape(t):
    return None if t is None else tuple(t.shape)


def check_bcel_shapes(input, target, weight, pos_weight):
    """The forward's in-place steps (Note [In-place steps of ...]): the loss takes the
    target's shape (checked on the logical tensors, before a batching rule runs)."""
    if pos_weight is not None:
        _inplace(input.shape, broadcast_shape(tuple(pos_weight.shape), tuple(target.shape)))
    _inplace(target.shape, input.shape, _shape(weight))


def _bcel_input_formula(grad, input, target, weight, pos_weight, reduction):
    if not grad_mode.is_grad_enabled():  # in place (Note [In-place steps of ...])
        if pos_weight is None:
            start = _inplace(input.shape, target.shape)
        else:
            start = broadcast_shape(tuple(pos_weight.shape), tuple(target.shape))
            start = _inplace(start, input.shape)
        _inplace(start, grad.shape, _shape(weight))
    return _bcel_input_grad(grad, input, target, weight, pos_weight, reduction)


def _bcel_target_formula(grad, input, target, weight, pos_weight, reduction):
    # in place even with create_graph (Note [In-place steps of ...])
    if pos_weight is not None:
        _inplace(input.shape, pos_weight.shape, grad.shape, _shape(weight))
    else:
        _inplace(broadcast_shape(tuple(input.shape), tuple(grad.shape)), _shape(weight))
    return _bcel_target_grad(grad, input, target, weight, pos_weight, reduction)


def _bcel_input_grad(grad, input, target, weight, pos_weight, reduction):
    if pos_weight is not None:
        t = pos_weight * target
        g = (t + 1 - target) * input.sigmoid() - t
    else:
        g = input.sigmoid() - target
    g = g * grad
    if weight is not None:
        g = g * weight
    return _div_scalar(g, input.numel()) if reduction == "mean" else g


def _bcel_target_grad(grad, input, target, weight, pos_weight, reduction):
    # (target unused: named as torch's formula names it, so that it is saved as torch saves it)
    if pos_weight is not None:
        # torch differentiates at::log_sigmoid here (its own backward, exact at 0)
        g = log_sigmoid(-input) - log_sigmoid(input) * pos_weight
    else:
        g = -input
    g = g * grad
    if weight is not None:
        g = g * weight
    return _div_scalar(g, target.numel()) if reduction == "mean" else g


@batched
def _bcel_jvp(input_t, target_t, input, target, weight, pos_weight, reduction):
    losses_t = add_terms(
        None
        if input_t is None
        else _bcel_input_grad(input_t, input, target, weight, pos_weight, "none"),
        None
        if target_t is None
        else _bcel_target_grad(target_t, input, target, weight, pos_weight, "none"),
    )
    return reduce_tangent(losses_t, reduction, max(input.ndim, target.ndim))


@defop(
    batch=batch_rules.loss,
    name="binary_cross_entropy_with_logits",
    node="BinaryCrossEntropyWithLogitsBackward0",
    input=_bcel_input_formula,
    target=_bcel_target_formula,
    jvp=_bcel_jvp,
)
def binary_cross_entropy_with_logits_op(input, target, weight, pos_weight, reduction):
    # torch accumulates into a tensor made from the target: the result has its dtype; the
    # input is cast here, inside the op, so that backward saves the input as it was given
    input = input.astype(target.dtype, copy=False)
    log_sigmoid = xp.minimum(input, 0) - xp.log1p(xp.exp(-xp.abs(input)))
    if pos_weight is not None:
        log_sigmoid = log_sigmoid * ((pos_weight - 1) * target + 1)
    loss = (1 - target) * input - log_sigmoid
    if weight is not None:
        loss = loss * weight
    return xp.asarray(reduce_array(loss, reduction), dtype=input.dtype)


def check_not_differentiable(function: str, name: str, tensor) -> None:
    """torch refuses gradients for loss weights: say so instead of silently giving none."""
    from ..._core import grad_mode

    if tensor is not None and tensor._requires_grad and grad_mode.is_grad_enabled():
        raise RuntimeError(
            f"The function '{function}' is not differentiable with respect to argument "
            f"'{name}'. This input cannot have requires_grad True."
        )


# -- multi-class margin ----------------------------------------------------------------------
# loss_n = sum over i != y_n of w[y_n] max(0, margin - x[y_n] + x[i])^p / C
def _margins(input, target, margin):
    """(margins (N, C) with the target column masked out, the target one-hot (N, C))."""
    x = input.reshape(-1, input.shape[-1] if input.ndim else 1)
    t = target.reshape(-1, 1)
    classes = xp.arange(x.shape[1]) if not isinstance(x, Tensor) else _arange(x.shape[1])
    onehot = classes == t
    if isinstance(x, Tensor):
        z = margin - x.gather(1, t) + x
    else:
        z = margin - xp.take_along_axis(x, t, 1) + x
    return z, onehot


def _arange(n):
    return Tensor._make(xp.arange(n))


# torch's kernels add a class's hinge only where its margin z > 0 (a NaN margin adds
# nothing) and skip the target class; the weight multiplies only the hinges added.


def _multi_margin_forward(input, target, p, margin, weight, reduction):
    z, onehot = _margins(input, target, margin)
    active = (z > 0) & ~onehot
    hinge = z * z if p == 2 else z
    if weight is not None:
        hinge = hinge * weight[target.reshape(-1, 1)]
    losses = xp.where(active, hinge, 0).sum(axis=1) / z.shape[1]
    if reduction == "none":
        return losses.reshape(target.shape).astype(input.dtype, copy=False)
    return xp.asarray(reduce_array(losses, reduction), dtype=input.dtype)


def _multi_margin_grad(grad, input, target, p, margin, weight, reduction):
    z, onehot = _margins(input, target, margin)
    active = (z > 0) & ~onehot
    scale = 1 / (z.shape[0] * z.shape[1]) if reduction == "mean" else 1 / z.shape[1]
    g = 2 * scale * z if p == 2 else where(active, 1.0, 0.0).to(input.dtype) * scale
    if weight is not None:
        g = g * weight[target.reshape(-1, 1)]
    g = where(active, g, 0.0)
    g = where(onehot, 0.0 - g.sum(1, keepdim=True), g)  # torch: 0 - sum, never -0
    g = g * (grad.reshape(-1, 1) if reduction == "none" else grad)
    return g.reshape(input.shape)


def _tensor(array):
    return None if array is None else Tensor._make(array)


# torch has no derivative for multi_margin_loss_backward: its node is NotImplemented
@defop(
    name="multi_margin_loss_backward",
    node="NotImplemented",
    grad_output=not_implemented("multi_margin_loss_backward"),
    self=not_implemented("multi_margin_loss_backward"),
    jvp=no_forward_derivative("multi_margin_loss_backward"),
)
def multi_margin_loss_backward(grad_output, self, target, p, margin, weight, reduction):
    with grad_mode.no_grad():
        args = (_tensor(grad_output), _tensor(self), _tensor(target), p, margin, _tensor(weight))
        return _multi_margin_grad(*args, reduction)._data


@defop(
    name="multi_margin_loss",
    dtypes=kernel("multi_margin_loss_cpu_kernel", FLOATING),
    input=lambda grad, input, target, p, margin, weight, reduction: multi_margin_loss_backward(
        grad, input, target, p, margin, weight, reduction
    ),
    jvp=no_forward_derivative("multi_margin_loss"),
)
def multi_margin_loss_op(input, target, p, margin, weight, reduction):
    return _multi_margin_forward(input, target, p, margin, weight, reduction)
