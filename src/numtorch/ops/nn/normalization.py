"""Normalization primitives: batch, layer and group norm (grad_fns ``NativeBatchNormBackward0``,
``NativeLayerNormBackward0``, ``NativeGroupNormBackward0``).

Each returns ``(output, mean, invstd)`` like torch's ``native_*`` ops. The forward is two
passes over the input (mean, then the centred values, which are reused for the variance and
become the output in place); batch norm updates the running statistics in place, as torch's
kernel does (the caller bumps their version counters).

Derivatives, with xhat = (x - mean) * invstd and the means taken over the normalized elements:
``dx = invstd * (g' - mean(g') - xhat * mean(g' * xhat))`` where ``g' = grad * weight``.
First-order backward reads the saved mean and invstd; under ``create_graph`` they are
recomputed from the input with tensor ops, so that second derivatives see how they depend on
the input (the saved ones are constants to the engine).
"""

from __future__ import annotations

import math

from ..._core import grad_mode, norm_batch_rules, weight_batch_rules
from ..._core.dispatch import FREED
from ..._core.dtypes import BFLOAT16_NP
from ..._core.kernel_dtypes import FLOATS, kernel
from ..._core.observers import dispatch
from ..._core.op import defop
from ..._core.tensor import Tensor
from ...autograd.forward_grad import add_terms, align, batched
from ...backend import xp
from ...backend.fused import fma
from .batch_norm_double_backward import batch_norm_double
from .composite_backward import tensors_of
from .group_norm_backward import group_norm_backward
from .layer_norm_double_backward import layer_norm_double


def _widened(input):
    """(the output dtype, the input to compute with): a bfloat16 input meets float32
    parameters only here (bfloat16 parameters run the whole op in float32, Note [bfloat16]),
    and NumPy has no bfloat16 loops, so it is computed in float32 and rounded at the end."""
    if input.dtype == BFLOAT16_NP:
        return input.dtype, input.astype(xp.float32)
    return input.dtype, input


def _moments(x, axes, n, welford=False):
    """(mean, centred) with the mean kept as broadcastable dims. ``welford``: torch's kernel
    takes the row moments by Welford's recurrence (layer and group norm's RowwiseMoments),
    whose running mean stays exactly the value of a row of equal finite values, so that
    row's mean is that value (sum / n may round off it, and x - mean leaves noise where
    torch has 0). A row of zeros has mean +0.0 whatever their signs (the recurrence adds
    each (x - mean) / k to a mean that starts at +0.0, and 0.0 + -0.0 is 0.0)."""
    mean = x.sum(axis=axes, keepdims=True) / n
    if welford and x.size and x.dtype.kind == "f":
        low = xp.min(x, axis=axes, keepdims=True)
        constant = (low == xp.max(x, axis=axes, keepdims=True)) & xp.isfinite(low)
        if constant.any():
            mean = xp.where(constant, low + 0.0, mean)  # (-0.0 + 0.0 is 0.0)
    return mean, x - mean


def _stats(input, dims, eps, mean=None, invstd=None):
    """mean and invstd as tensors over ``dims`` (recomputed when differentiating twice)."""
    if mean is not None and not grad_mode.is_grad_enabled():
        return mean.detach(), invstd.detach()
    mean = input.mean(dims, keepdim=True)
    var = ((input - mean) * (input - mean)).mean(dims, keepdim=True)
    return mean, (var + eps).rsqrt()


def _normalized_grad(g, xhat, invstd, dims):
    return invstd * (g - g.mean(dims, keepdim=True) - xhat * (g * xhat).mean(dims, keepdim=True))


# Forward derivatives (torch's closed forms): with c = x - mean and s = invstd over ``dims``,
# d xhat = s (dx - mean(dx)) - c s^3 mean(c (dx - mean(dx))), and d out = d xhat * weight +
# xhat * d weight + d bias. The statistics are recomputed with tensor ops (not read from the
# saved outputs, which carry no tangents) so that nested levels differentiate them too. The
# dims are counted from the end: a tangent may have a leading batch dimension (jacfwd).
def _moments_of(input, dims, eps):
    mean = input.mean(dims, keepdim=True)
    centred = input - mean
    return centred, ((centred * centred).mean(dims, keepdim=True) + eps).rsqrt()


def _moments_jvp(input_t, centred, invstd, dims):
    """The tangents of the centred input and of invstd."""
    centred_t = input_t - input_t.mean(dims, keepdim=True)
    invstd_t = -(invstd * invstd * invstd) * (centred * centred_t).mean(dims, keepdim=True)
    return centred_t, invstd_t


def _normalized_jvp(input_t, centred, invstd, dims):
    centred_t, invstd_t = _moments_jvp(input_t, centred, invstd, dims)
    return centred_t * invstd + centred * invstd_t


def _normalized_grad_jvp(g, g_t, input_t, centred, invstd, dims):
    """The tangent of ``_normalized_grad(g, xhat, invstd, dims)`` for tangents of ``g`` (the
    gradient times the weight) and of the input (either None)."""
    xhat = centred * invstd
    terms = []
    if g_t is not None:
        terms.append(_normalized_grad(g_t, xhat, invstd, dims))
    if input_t is not None:
        centred_t, invstd_t = _moments_jvp(input_t, centred, invstd, dims)
        xhat_t = centred_t * invstd + centred * invstd_t
        projection = (g * xhat).mean(dims, keepdim=True)
        terms.append(invstd_t * (g - g.mean(dims, keepdim=True) - xhat * projection))
        projection_t = (g * xhat_t).mean(dims, keepdim=True)
        terms.append(-invstd * (xhat_t * projection + xhat * projection_t))
    return add_terms(*terms)


def _weighted_t(grad_out_t, grad_out, weight, weight_t):
    """The tangent of ``grad_out * weight`` (of ``grad_out`` without a weight)."""
    return add_terms(
        grad_out_t if grad_out_t is None or weight is None else grad_out_t * weight,
        None if weight_t is None else grad_out * weight_t,
    )


def _backward_jvp(grad_out_t, input_t, grad_out, centred, invstd, weight, weight_t, dims, which):
    """The tangent of a normalization's gradient for the input, the weight (unsummed) or the
    bias (unsummed); ``weight`` and ``weight_t`` broadcast against the input."""
    if which == "input":
        g = grad_out if weight is None else grad_out * weight
        g_t = _weighted_t(grad_out_t, grad_out, weight, weight_t)
        return _normalized_grad_jvp(g, g_t, input_t, centred, invstd, dims)
    if which == "weight":
        xhat_t = None if input_t is None else _normalized_jvp(input_t, centred, invstd, dims)
        return add_terms(
            None if grad_out_t is None else grad_out_t * (centred * invstd),
            None if xhat_t is None else grad_out * xhat_t,
        )
    return grad_out_t


def _affine_jvp(xhat_t, xhat, weight, weight_t, bias_t, shape):
    """d (xhat * weight + bias), the weight and bias viewed in ``shape`` (batched or not)."""

    def view(t):
        return t.reshape(tuple(t.shape[: t.ndim - 1]) + shape)

    return add_terms(
        xhat_t if xhat_t is None or weight is None else xhat_t * view(weight),
        None if weight_t is None else xhat * view(weight_t),
        None if bias_t is None else view(bias_t),
    )


@batched
def _bn_jvp(input_t, weight_t, bias_t, input, weight, running_mean, running_var, training, eps):
    shape = _channel_shape(input)
    dims = [d - input.ndim for d in _reduce_dims(input)]
    if training:
        centred, invstd = _moments_of(input, dims, eps)
        xhat_t = None if input_t is None else _normalized_jvp(input_t, centred, invstd, dims)
    else:
        centred = input - running_mean.reshape(shape).to(input.dtype)
        invstd = (running_var.reshape(shape).to(input.dtype) + eps).rsqrt()
        xhat_t = None if input_t is None else input_t * invstd
    return _affine_jvp(xhat_t, centred * invstd, weight, weight_t, bias_t, shape), None, None


# -- batch norm ------------------------------------------------------------------------------
def _channel_shape(input):
    return (1, input.shape[1]) + (1,) * (input.ndim - 2)


def _reduce_dims(input):
    return [0, *range(2, input.ndim)]


def _bn_state(input, result1, result2, training, eps):
    shape = _channel_shape(input)
    # the saved statistics are constants to the engine (Note at the top of this file)
    mean, invstd = result1.detach().reshape(shape), result2.detach().reshape(shape)
    if training:
        mean, invstd = _stats(input, _reduce_dims(input), eps, mean, invstd)
    return mean, invstd


def _bn_input_grad(grad, input, weight, result1, result2, training, eps):
    mean, invstd = _bn_state(input, result1, result2, training, eps)
    if not training:
        g = grad if weight is None else grad * weight.reshape(_channel_shape(input))
        return g * invstd
    # the weight scales the centred gradient, as in torch's kernel (taken into the gradient
    # first, an infinite weight would make inf - inf = NaN of the centring)
    dx = _normalized_grad(grad, (input - mean) * invstd, invstd, _reduce_dims(input))
    return dx if weight is None else dx * weight.reshape(_channel_shape(input))


def _bn_weight_grad(grad, input, result1, result2, training, eps):
    mean, invstd = _bn_state(input, result1, result2, training, eps)
    return (grad * ((input - mean) * invstd)).sum(_reduce_dims(input))


# Each gradient of a normalization is one op with torch's node (NativeBatchNormBackward-
# Backward0...) and edges; ``which`` picks the input's, weight's or bias's gradient. Its
# derivatives are vector-Jacobian products of the same composite (composite_backward.py).
def _bn_backward_composite(grad_out, input, weight, save_mean, save_invstd, training, eps, which):
    if which == "input":
        return _bn_input_grad(grad_out, input, weight, save_mean, save_invstd, training, eps)
    if which == "weight":
        return _bn_weight_grad(grad_out, input, save_mean, save_invstd, training, eps)
    return grad_out.sum(_reduce_dims(grad_out))


def _bn_double(k):
    def formula(grad, grad_out, input, weight, save_mean, save_invstd, training, eps, which):
        args = (grad_out, input, weight, save_mean, save_invstd, training, which)
        return batch_norm_double(k, grad, *args)

    return formula


def _bn_backward_jvp(
    grad_out_t,
    input_t,
    weight_t,
    grad_out,
    input,
    weight,
    save_mean,
    save_invstd,
    training,
    eps,
    which,
):
    # the saved statistics are caches: the gradient is a function of grad_out, input, weight
    shape, dims = _channel_shape(input), _reduce_dims(input)
    weight = None if weight is None else weight.reshape(shape)
    weight_t = None if weight_t is None else weight_t.reshape(shape)
    if not training:  # the running statistics are constants: xhat_t = input_t invstd
        invstd = save_invstd.detach().reshape(shape)
        if which == "input":
            g_t = _weighted_t(grad_out_t, grad_out, weight, weight_t)
            return None if g_t is None else g_t * invstd
        out_t = grad_out_t
        if which == "weight":
            xhat = (input - save_mean.detach().reshape(shape)) * invstd
            out_t = add_terms(
                None if grad_out_t is None else grad_out_t * xhat,
                None if input_t is None else grad_out * input_t * invstd,
            )
        return None if out_t is None else out_t.sum(dims)
    centred, invstd = _moments_of(input, dims, eps)
    out_t = _backward_jvp(
        grad_out_t, input_t, grad_out, centred, invstd, weight, weight_t, dims, which
    )
    return out_t if out_t is None or which == "input" else out_t.sum(dims)


@defop(
    name="native_batch_norm_backward",
    node="NativeBatchNormBackwardBackward0",
    grad_out=_bn_double(0),
    input=_bn_double(1),
    weight=_bn_double(2),
    save_mean=_bn_double(3),
    save_invstd=_bn_double(4),
    jvp=_bn_backward_jvp,
)
def native_batch_norm_backward(
    grad_out, input, weight, save_mean, save_invstd, training, eps, which
):
    if training and grad_out.dtype.kind == "f" and input.size:
        # the values of the gradients without create_graph (_bn_apply): one arithmetic for
        # both, torch's kernel's (where an infinity or an overflow meets invstd, its order
        # decides NaN against a number)
        grads = _bn_training_grads(grad_out, input, weight, save_mean, save_invstd)
        return grads[("input", "weight", "bias").index(which)]
    tensors = tensors_of(grad_out, input, weight, save_mean, save_invstd)
    with grad_mode.no_grad():
        return _bn_backward_composite(*tensors, training, eps, which)._data


def _bn_grad(which):
    def formula(grad, input, weight, result1, result2, training, eps):
        # the statistics are non-differentiable outputs (unpacked, they name this node)
        stats = result1.detach(), result2.detach()
        return native_batch_norm_backward(grad, input, weight, *stats, training, eps, which)

    return formula


@defop(
    batch=norm_batch_rules.native_batch_norm,
    name="native_batch_norm",
    node="NativeBatchNormBackward0",
    outputs=3,
    differentiable_outputs=1,
    input=_bn_grad("input"),
    weight=_bn_grad("weight"),
    bias=_bn_grad("bias"),
    jvp=_bn_jvp,
)
def native_batch_norm_op(input, weight, bias, running_mean, running_var, training, momentum, eps):
    _check_batch_norm(input, weight, bias, running_mean, running_var)
    weight, bias = (None if a is not None and a.size == 0 else a for a in (weight, bias))
    dtype, input = _widened(input)
    n, c = input.shape[0], input.shape[1]
    x = input.reshape(n, c, math.prod(input.shape[2:]))  # no -1: the batch may be empty
    count = x.shape[0] * x.shape[2]
    if training:
        mean = _channel_sums(x) / count
        out = x - mean.reshape(1, c, 1)
        var = xp.einsum("ncl,ncl->c", out, out) / count
        if x.dtype == xp.float32 and dtype == xp.float32:
            # torch's float32 kernel accumulates in double: invstd, and over a dense layout
            # the mean's sum, rounded to float32 once. That decides only a channel whose
            # spread is within float32's rounding of its mean (equal values: the exact mean,
            # x - mean 0), taken again so; elsewhere it moves the mean by that rounding.
            with xp.errstate(all="ignore"):
                noisy = var <= (mean * (16 * xp.finfo(x.dtype).eps)) ** 2
            if noisy.any() and dense_layout(input):
                at = xp.nonzero(noisy)[0]
                exact = x[:, at].sum(axis=(0, 2), dtype=xp.float64) / count
                mean[at] = exact
                out[:, at] = x[:, at] - mean[at].reshape(1, -1, 1)
                var[at] = xp.einsum("ncl,ncl->c", out[:, at], out[:, at]) / count
            invstd = (1.0 / xp.sqrt(var.astype(xp.float64) + eps)).astype(x.dtype)
        else:
            invstd = 1.0 / xp.sqrt(var + eps)
    if training:
        if running_mean is not None:
            running_mean *= 1 - momentum
            running_mean += momentum * mean
        if running_var is not None:
            running_var *= 1 - momentum
            running_var += momentum * var * (count / max(count - 1, 1))
    else:
        mean = running_mean.astype(input.dtype)  # a snapshot: the buffer changes later
        invstd = (1.0 / xp.sqrt(running_var + eps)).astype(input.dtype, copy=False)
        out = None if dense_layout(input) else x - mean.reshape(1, c, 1)
    scale = invstd if weight is None else invstd * weight
    if dense_layout(input):
        # torch's kernel for dense layouts folds the affine map into x alpha + beta, with
        # alpha = invstd weight, beta = bias - mean alpha (inf * 0 and inf - inf give NaN
        # there), one fused multiply-add per element (a constant channel keeps the rounding
        # of mean alpha, not 0); other layouts compute ((x - mean) invstd) weight + bias
        alpha = scale.astype(x.dtype, copy=False).reshape(1, c, 1)
        shift = ((0 if bias is None else bias) - mean * alpha.reshape(c)).astype(x.dtype)
        shift = shift.reshape(1, c, 1)
        # in training, into the centred values' array (the variance was their last use)
        out = xp.multiply(x, alpha, out=out)
        out += shift  # in place: no second temporary of the input's size
        # The fused op differs from this by the product's rounding, ~eps |mean alpha|, which
        # stands out only in a channel whose mean is far beyond its spread and bias (a
        # channel of equal values: torch's result there is that rounding): such channels
        # are recomputed fused.
        with xp.errstate(all="ignore"):
            spread = xp.abs(alpha.reshape(c)) / invstd + (0 if bias is None else xp.abs(bias))
            far = xp.abs(mean * alpha.reshape(c)) > 256 * spread
        if far.any():
            at = xp.nonzero(far)[0]
            out[:, at] = fma(x[:, at], alpha[:, at], shift[:, at])
    else:
        out *= scale.reshape(1, c, 1)
        if bias is not None:
            out += bias.reshape(1, c, 1)
    return (
        out.reshape(input.shape).astype(dtype, copy=False),
        mean.astype(dtype),
        invstd.astype(dtype),
    )


def _check_batch_norm(input, *per_channel):
    if input.ndim == 0:
        raise RuntimeError("native_batch_norm: expected an input with a batch and a channel dim")
    if input.ndim == 1:
        raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got 1)")
    # torch's kernel reads these per channel without checking (past the end where they are
    # short); numtorch refuses them as torch.batch_norm does. An empty weight or bias has no
    # data pointer: the kernel for dense layouts reads it as absent, the one for other
    # layouts broadcasts it against the channels.
    names = ("weight", "bias", "running_mean", "running_var")
    channels = input.shape[1]
    for name, a in zip(names, per_channel):
        if a is None or a.size == channels:
            continue
        if a.size == 0 and name in ("weight", "bias"):
            if dense_layout(input):
                continue
            raise RuntimeError(
                f"The size of tensor a ({channels}) must match the size of tensor b (0) at "
                "non-singleton dimension 1"
            )
        raise RuntimeError(f"{name} should contain {channels} elements not {a.size}")


def _channel_sums(x):
    """The sums of (N, C, L) ``x`` over all but the channel dim. For float32 and float64,
    einsum's vector loop: NumPy's reduction over (0, 2) sums each image's row of L in its
    pairwise loop, one call per row, which costs several times the pass on short rows
    (inside a ResNet-18 step the batch norm kernels' sums 0.85-0.92x their time). Neither
    order is torch's (float32 lanes in the backward, double in the forward's mean)."""
    if x.dtype == xp.float32 or x.dtype == xp.float64:
        return xp.einsum("ncl->c", x)
    return x.sum((0, 2))


def dense_layout(a) -> bool:
    # contiguous, or channels-last (N, *spatial, C in memory) for 4-D and 5-D inputs
    if a.flags.c_contiguous:
        return True
    return a.ndim in (4, 5) and xp.moveaxis(a, 1, -1).flags.c_contiguous


def _bn_training_grads(grad, input, weight, mean, invstd):
    """The input, weight and bias gradients of training batch norm in one sweep over the
    activations (first order, on arrays): with x^ = (x - mean) invstd per channel,
    d bias = sum g, d weight = sum g x^, d x = weight invstd (g - mean g - x^ mean(g x^)).
    In torch's order: the dot product with the centred input, dotp = sum g (x - mean), gives
    d weight = dotp invstd and d x = weight invstd (g - mean g - (x - mean) k) with
    k = dotp invstd^2 / count, so x^ itself is never formed (one pass fewer)."""
    n, c = input.shape[0], input.shape[1]
    x = input.reshape(n, c, -1)
    g = grad.reshape(n, c, -1)
    count = x.shape[0] * x.shape[2]
    channel = (1, c, 1)
    centred = x - mean.reshape(channel)
    sum_g = _channel_sums(g)
    dotp = xp.einsum("ncl,ncl->c", g, centred)
    scale = invstd if weight is None else invstd * weight
    centred *= (dotp * invstd * invstd / count).reshape(channel)
    d_input = g - (sum_g / count).reshape(channel)
    d_input -= centred
    d_input *= scale.reshape(channel)
    return d_input.reshape(input.shape), dotp * invstd, sum_g


_bn_formulas_apply = native_batch_norm_op.spec.node_class._apply


def _bn_apply(node, grad_outputs):
    # Without create_graph, training batch norm's three gradients come from one sweep
    # (_bn_training_grads) instead of three composites; otherwise the formulas run.
    grad = grad_outputs[0]
    if grad is None or grad_mode.is_grad_enabled() or dispatch.slow or node._saved is FREED:
        return _bn_formulas_apply(node, grad_outputs)
    _, _, argnames = native_batch_norm_op.spec.formulas[0]
    _, input, weight, mean, invstd, training, _ = node._arguments(argnames, grad_outputs)
    if not training or grad._data.dtype.kind != "f" or input._data.size == 0:
        return _bn_formulas_apply(node, grad_outputs)
    arrays = _bn_training_grads(
        grad._data,
        input._data,
        None if weight is None else weight._data,
        mean._data,
        invstd._data,
    )
    return [
        None if edge[0] is None else Tensor._make(a) for a, edge in zip(arrays, node.next_functions)
    ]


native_batch_norm_op.spec.node_class._apply = _bn_apply


# -- layer norm ------------------------------------------------------------------------------
def _ln_layout(input, normalized_shape):
    axis = input.ndim - len(normalized_shape)
    return list(range(axis, input.ndim)), list(range(axis))


def _ln_input_grad(grad, input, normalized_shape, weight, result1, result2, eps):
    dims, _ = _ln_layout(input, normalized_shape)
    mean, invstd = _stats(input, dims, eps, result1, result2)
    g = grad if weight is None else grad * weight
    return _normalized_grad(g, (input - mean) * invstd, invstd, dims)


def _ln_normalized(input, mean, invstd):
    """x^ as torch's weight-gradient kernel forms it, ``fma(rstd, x, -rstd * mean)``: one
    rounding, so a row of equal values leaves the rounding error of ``rstd * mean`` (5e-4
    at 120.558 in float32), not 0; on tensors (the composite) where it is differentiated."""
    x = input._data
    if grad_mode.is_grad_enabled() or x.dtype not in (xp.float32, xp.float64):
        return (input - mean) * invstd
    rstd = invstd._data.astype(x.dtype, copy=False)
    shift = -(rstd * mean._data.astype(x.dtype, copy=False))
    return Tensor._make(xp.asarray(fma(rstd, x, shift), dtype=x.dtype))


def _ln_weight_grad(grad, input, normalized_shape, result1, result2, eps):
    dims, lead = _ln_layout(input, normalized_shape)
    mean, invstd = _stats(input, dims, eps, result1, result2)
    product = grad * _ln_normalized(input, mean, invstd)
    # torch's kernel sums the rows into zeros: with no rows to sum a -0.0 still turns +0.0
    return product.sum(lead) if lead else product + 0.0


def _ln_backward_composite(grad_out, input, mean, rstd, weight, bias, normalized_shape, eps, which):
    if which == "input":
        return _ln_input_grad(grad_out, input, normalized_shape, weight, mean, rstd, eps)
    if which == "weight":
        return _ln_weight_grad(grad_out, input, normalized_shape, mean, rstd, eps)
    lead = grad_out.ndim - len(normalized_shape)
    return grad_out.sum(list(range(lead))) if lead else grad_out + 0.0  # (as the weight's)


def _ln_double(k):
    def formula(grad, grad_out, input, mean, rstd, weight, bias, normalized_shape, eps, which):
        return layer_norm_double(
            k, grad, grad_out, input, mean, rstd, weight, normalized_shape, which
        )

    return formula


def _ln_backward_jvp(
    grad_out_t, input_t, weight_t, grad_out, input, weight, normalized_shape, eps, which
):
    # the saved statistics are caches: the gradient is a function of grad_out, input, weight
    dims, lead = _ln_layout(input, normalized_shape)
    centred, invstd = _moments_of(input, dims, eps)
    out_t = _backward_jvp(
        grad_out_t, input_t, grad_out, centred, invstd, weight, weight_t, dims, which
    )
    return out_t if out_t is None or which == "input" or not lead else out_t.sum(lead)


@defop(
    name="native_layer_norm_backward",
    node="NativeLayerNormBackwardBackward0",
    grad_out=_ln_double(0),
    input=_ln_double(1),
    mean=_ln_double(2),
    rstd=_ln_double(3),
    weight=_ln_double(4),
    bias=_ln_double(5),
    jvp=_ln_backward_jvp,
)
def native_layer_norm_backward(
    grad_out, input, mean, rstd, weight, bias, normalized_shape, eps, which
):
    tensors = tensors_of(grad_out, input, mean, rstd, weight, bias)
    with grad_mode.no_grad():
        if which == "input":
            return _ln_input_grad_kernel(*tensors[:5], normalized_shape)._data
        return _ln_backward_composite(*tensors, normalized_shape, eps, which)._data


def _ln_input_grad_kernel(grad_out, input, mean, rstd, weight, normalized_shape):
    """torch's kernel, folded per row: with ds = sum dy x weight, db = sum dy weight and
    scale = 1 / n, dx = rstd dy weight + b x + c, b = (db mean - ds) rstd^3 scale,
    c = -b mean - db rstd scale (where a weight or incoming gradient is huge or infinite,
    which products overflow and which elements turn NaN follows from this form and order)."""
    dims, _ = _ln_layout(input, normalized_shape)
    scale = 1 / math.prod(normalized_shape) if math.prod(normalized_shape) else math.inf
    ds, db, dx = grad_out * input, grad_out, rstd * grad_out
    if weight is not None:
        ds, db, dx = ds * weight, db * weight, dx * weight
    ds = ds.sum(dims, keepdim=True)
    db = db.sum(dims, keepdim=True)
    b = (db * mean - ds) * rstd * rstd * rstd * scale
    c = -b * mean - db * rstd * scale
    return dx + b * input + c


def _ln_grad(which):
    def formula(grad, input, normalized_shape, weight, bias, result1, result2, eps):
        stats = result1.detach(), result2.detach()  # non-differentiable outputs
        return native_layer_norm_backward(
            grad, input, *stats, weight, bias, normalized_shape, eps, which
        )

    return formula


@batched
def _ln_jvp(input_t, weight_t, bias_t, input, normalized_shape, weight, bias, eps):
    dims = list(range(-len(normalized_shape), 0))
    centred, invstd = _moments_of(input, dims, eps)
    xhat_t = None if input_t is None else _normalized_jvp(input_t, centred, invstd, dims)
    weight_t, bias_t = align(weight_t, weight, input.ndim), align(bias_t, bias, input.ndim)
    out_t = add_terms(
        None if xhat_t is None else (xhat_t if weight is None else xhat_t * weight),
        None if weight_t is None else centred * invstd * weight_t,
        bias_t,
    )
    return out_t, None, None


@defop(
    batch=weight_batch_rules.native_layer_norm,
    name="native_layer_norm",
    node="NativeLayerNormBackward0",
    outputs=3,
    differentiable_outputs=1,
    input=_ln_grad("input"),
    weight=_ln_grad("weight"),
    bias=_ln_grad("bias"),
    jvp=_ln_jvp,
)
def native_layer_norm_op(input, normalized_shape, weight, bias, eps):
    dtype, input = _widened(input)
    axis = input.ndim - len(normalized_shape)
    size = math.prod(normalized_shape)
    x = input.reshape(math.prod(input.shape[:axis]), size)  # (not -1: size may be 0)
    mean, out = _moments(x, (1,), size, welford=True)
    var = xp.einsum("mn,mn->m", out, out) / size
    invstd = 1.0 / xp.sqrt(var + eps)
    out *= invstd[:, None]
    if weight is not None:
        out *= weight.reshape(-1)
    if bias is not None:
        out += bias.reshape(-1)
    else:  # torch's kernel adds a zero beta: a -0.0 result becomes +0.0
        out += 0.0
    stat_shape = input.shape[:axis] + (1,) * len(normalized_shape)
    return (
        out.reshape(input.shape).astype(dtype, copy=False),
        mean.reshape(stat_shape).astype(dtype),
        invstd.reshape(stat_shape).astype(dtype),
    )


# -- group norm ------------------------------------------------------------------------------
def _group_size(shape, group):
    # the elements per (sample, group), named: reshape cannot infer it from an empty batch
    return math.prod(shape[1:]) // group if group else 0


def _gn_grad(which):
    def formula(grads, input, weight, result1, result2, N, C, HxW, group):
        args = (input, weight, result1, result2, N, C, HxW, group, which)
        return group_norm_backward(grads, *args)

    return formula


@batched
def _gn_jvp(input_t, weight_t, bias_t, input, weight, N, group, eps):
    grouped = input.reshape(N, group, _group_size(input.shape, group))
    centred, invstd = _moments_of(grouped, [-1], eps)
    xhat = (centred * invstd).reshape(input.shape)
    xhat_t = mean_t = invstd_t = None
    if input_t is not None:
        lead = tuple(input_t.shape[: input_t.ndim - input.ndim])
        grouped_t = input_t.reshape(lead + (N, group, _group_size(input.shape, group)))
        xhat_t = _normalized_jvp(grouped_t, centred, invstd, [-1]).reshape(input_t.shape)
        # the statistics' tangents: the backward formulas read mean and rstd (these outputs)
        mean_t = grouped_t.mean(-1)
        invstd_t = _moments_jvp(grouped_t, centred, invstd, [-1])[1].squeeze(-1)
    out_t = _affine_jvp(xhat_t, xhat, weight, weight_t, bias_t, _channel_shape(input))
    return out_t, mean_t, invstd_t


@defop(
    batch=norm_batch_rules.native_group_norm,
    name="native_group_norm",
    node="NativeGroupNormBackward0",
    dtypes=kernel("GroupNormKernelImpl", FLOATS),
    outputs=3,
    input=_gn_grad("input"),
    weight=_gn_grad("weight"),
    bias=_gn_grad("bias"),
    jvp=_gn_jvp,
)
def native_group_norm_op(input, weight, bias, N, C, HxW, group, eps):
    dtype, input = _widened(input)
    x = input.reshape(N, group, _group_size(input.shape, group))
    size = x.shape[2]
    mean, out = _moments(x, (2,), size, welford=True)
    var = xp.einsum("ngl,ngl->ng", out, out) / size
    invstd = 1.0 / xp.sqrt(var + eps)
    # torch's kernel folds per channel: y = x * scale + shift, scale = invstd * weight,
    # shift = -scale * mean + bias (an infinite input meets inf - inf there)
    per_group = C // group if group else 0
    scale = xp.repeat(invstd, per_group, axis=1)[:, :, None]
    if weight is not None:
        scale = scale * weight.reshape(1, C, 1)
    shift = -scale * xp.repeat(mean.reshape(N, group), per_group, axis=1)[:, :, None]
    if bias is not None:
        shift = shift + bias.reshape(1, C, 1)
    out = (input.reshape(N, C, HxW) * scale + shift).astype(input.dtype, copy=False)
    return (
        out.reshape(input.shape).astype(dtype, copy=False),
        mean.reshape(N, group).astype(dtype),
        invstd.astype(dtype),
    )
