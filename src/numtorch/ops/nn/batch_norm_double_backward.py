"""The derivatives of batch norm's gradients, as torch's ``batchnorm_double_backward``.

The gradients of ``native_batch_norm`` are one op per input (``which``: the input's, the
weight's or the bias's gradient, node ``NativeBatchNormBackwardBackward0``); the incoming
gradient of each is torch's ``ggI``, ``ggG`` or ``ggB``. torch differentiates them with a
hand-written formula in the saved statistics (constants), term by term; the same terms in
the same order here give torch's values where an input or weight is infinite or NaN, which
the vector-Jacobian product of the composite gradient does not (an inf times a zero
derivative is NaN there, a lone inf in torch's).

With mu, s = (var + eps)^-1/2 per channel, M the count per channel, sum over all but dim 1:
  first(g, gamma) = gamma s / M (M g - sum g - (x - mu) s^2 sum(g (x - mu)))
  training: dI(ggI) = gamma ((x - mu) s^3 A / M + sum(ggI (x - mu)) s^3 / M (sum gO / M - gO)
                      + sum(gO (x - mu)) s^3 / M (sum ggI / M - ggI)),
            A = sum ggI sum gO / M - sum(gO ggI) + 3 / M s^2 sum(gO (x - mu)) sum(ggI (x - mu));
            dG(ggI) = sum(ggI first(gO, 1)); dO(ggI) = first(ggI, gamma);
            dI(ggG) = ggG (gO s - s sum gO / M - (x - mu) s^3 sum(gO (x - mu)) / M)
  eval:     dG(ggI) = sum(ggI gO s); dO(ggI) = ggI s gamma; dI(ggG) = ggG s gO
  both:     dO(ggG) = ggG (x - mu) s; dO(ggB) = ggB
A derivative the formula leaves undefined is None (torch's engine sees none either).
"""

from __future__ import annotations


def _dims(input):
    return [0, *range(2, input.ndim)]


def _per_channel(t, input):
    return t.reshape((1, input.shape[1]) + (1,) * (input.ndim - 2))


def batch_norm_double(k, grad, grad_out, input, weight, save_mean, save_invstd, training, which):
    """The derivative of the ``which`` gradient of batch norm for its argument ``k``
    (0 grad_out, 1 input, 2 weight; the statistics are constants: None)."""
    if k > 2:
        return None
    dims = _dims(input)

    def total(t, keepdim=True):
        return t.sum(dims, keepdim=keepdim)

    count = input.numel() // input.shape[1] if input.shape[1] else 0
    gamma = 1.0 if weight is None else _per_channel(weight, input)
    centred = input - _per_channel(save_mean.detach(), input)
    s = _per_channel(save_invstd.detach(), input)
    s1, s3 = s.pow(2), s.pow(3)
    gO = grad_out

    def first(g, gamma):
        h0 = (gamma * s) / count
        h1 = (count * g) - total(g) - (centred * s1) * total(g * centred)
        return h0 * h1

    if which == "bias":
        gg = grad.reshape(s.shape)
        if k == 0:
            return gg.expand(grad_out.shape)
        return None
    if which == "weight":
        gg = grad.reshape(s.shape)
        if k == 0:
            return gg * centred * s
        if k == 2:
            return None
        if not training:
            return gg * s * gO
        t0 = gO * s
        t1 = (s * total(gO)) / -count
        t2 = (centred * s3 * total(gO * centred)) / -count
        return gg * (t0 + t1 + t2)
    ggI = grad
    if k == 0:
        return first(ggI, gamma) if training else ggI * s * gamma
    if k == 2:
        if not training:
            return total(ggI * gO * s, keepdim=False)
        return total(ggI * first(gO, 1.0), keepdim=False)
    if not training:
        return None
    gO_sum, ggI_sum = total(gO), total(ggI)
    gOinmu_sum, ggIinmu_sum = total(gO * centred), total(ggI * centred)
    all_sub = (ggI_sum * gO_sum) / count - total(gO * ggI)
    all_sub = all_sub + (s1 * gOinmu_sum * ggIinmu_sum) * (3.0 / count)
    gI_0t = (centred * s3 * all_sub) / count
    gI_1t = (ggIinmu_sum * s3) / count * (gO_sum / count - gO)
    gI_2t = (gOinmu_sum * s3) / count * (ggI_sum / count - ggI)
    return gamma * (gI_0t + gI_1t + gI_2t)
