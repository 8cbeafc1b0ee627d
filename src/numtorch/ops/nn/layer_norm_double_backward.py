"""The derivatives of layer norm's gradients, as torch's ``layer_norm_double_backward``.

As for batch norm (batch_norm_double_backward.py), the gradients of ``native_layer_norm``
are one op per input (``which``) whose incoming gradient is torch's ``ggI``, ``ggG`` or
``ggB``; torch differentiates them by a hand-written formula in the saved statistics
(constants), term by term, and the same terms in the same order give its values where an
input or weight is infinite or NaN. Rows are the M leading positions, N the normalized
elements, mu and s = (var + eps)^-1/2 per row, sums over a row, gx = gO gamma:
  first(g, gamma) = gamma s / N (N g - sum g - (x - mu) s^2 sum(g (x - mu)))
  dI(ggI) = (x - mu) s^3 A / N + sum(ggI (x - mu)) s^3 / N (sum gx / N - gx)
            + sum(gx (x - mu)) s^3 / N (sum ggI / N - ggI),
  A = sum ggI sum gx / N - sum(ggI gx) + 3 / N s^2 sum(gx (x - mu)) sum(ggI (x - mu));
  dG(ggI) = sum over rows of gO first(ggI, 1); dO(ggI) = first(ggI, gamma);
  dI(ggG) = gO ggG s - s sum(gO ggG) / N - (x - mu) s^3 sum(gO ggG (x - mu)) / N;
  dO(ggG) = ggG (x - mu) s; dO(ggB) = ggB.
"""

from __future__ import annotations

import math


def layer_norm_double(k, grad, grad_out, input, mean, rstd, weight, normalized_shape, which):
    """The derivative of the ``which`` gradient of layer norm for its argument ``k``
    (0 grad_out, 1 input, 4 weight; the statistics are constants: None)."""
    if k not in (0, 1, 4) or (k == 4 and (weight is None or which != "input")):
        return None
    n = math.prod(normalized_shape)
    m = input.numel() // n if n else 0
    shape = input.shape
    x = input.reshape(m, n)
    gO = grad_out.reshape(m, n)
    centred = x - mean.detach().reshape(m, 1).to(input.dtype)
    s = rstd.detach().reshape(m, 1).to(input.dtype)
    s2, s3 = s.pow(2), s.pow(3)
    gamma = input.new_ones((1,)) if weight is None else weight.reshape(1, n)

    def total(t):
        return t.sum(1, keepdim=True)

    def first(g, gamma):
        h0 = (gamma * s) / n
        h1 = (n * g) - total(g) - (centred * s2) * total(g * centred)
        return h0 * h1

    if which == "bias":
        return grad.reshape(1, n).expand(m, n).reshape(shape) if k == 0 else None
    if which == "weight":
        ggG = grad.reshape(1, n)
        if k == 0:
            return (ggG * centred * s).expand(m, n).reshape(shape)
        if k == 4:
            return None
        t0 = gO * ggG * s
        t1 = (s * total(gO * ggG)) / -n
        t2 = (centred * s3 * total(gO * ggG * centred)) / -n
        return (t0 + t1 + t2).reshape(shape)
    ggI = grad.reshape(m, n)
    if k == 0:
        return first(ggI, gamma).expand(m, n).reshape(shape)
    if k == 4:
        return (gO * first(ggI, input.new_ones(()))).sum(0).reshape(weight.shape)
    gx = gO * gamma
    gx_centred_sum, gx_sum = total(gx * centred), total(gx)
    ggI_sum, ggI_centred_sum = total(ggI), total(ggI * centred)
    all_sub = (ggI_sum * gx_sum) / n - total(ggI * gx)
    all_sub = all_sub + (s2 * gx_centred_sum * ggI_centred_sum) * (3.0 / n)
    gI_0t = (centred * s3 * all_sub) / n
    gI_1t = (ggI_centred_sum * s3) / n * (gx_sum / n - gx)
    gI_2t = (gx_centred_sum * s3) / n * (ggI_sum / n - ggI)
    return (gI_0t + gI_1t + gI_2t).reshape(shape)
