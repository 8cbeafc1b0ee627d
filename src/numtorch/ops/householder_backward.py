"""torch's backward of Householder products (``householder_product``, ``ormqr``).

For ``Q = H_1 ... H_k`` with ``H_i = I - tau_i v_i v_i^H``, the sensitivity of ``H_i`` is read
off ``K = result grad^H`` moved past the reflectors one at a time: ``H_i^{-1}`` is a
reflector too, of scale ``sigma_i = tau_i / (tau_i |v_i|^2 - 1)``. Written with torch's
steps and their order, so its rounding and its NaN and infinities are torch's: a first-order
backward applies each reflector to the rows (columns) from its index on only, as torch's
in-place path does; under ``create_graph`` the whole vectors are used, as torch's
out-of-place path does, and the steps are differentiable ops (higher orders follow).
"""

from __future__ import annotations

from .._core import grad_mode
from .._core.tensor import Tensor
from ..backend import xp
from .concatenation import cat
from .pointwise import where


def _transform(k, v, t, K, narrow, left):
    """``(I - t v v^H) K`` (``left``) or ``K (I - t v v^H)``."""
    t = t.unsqueeze(-1)
    if left:
        if narrow:
            tail = K[..., k:, :]
            u = v[..., k:, :].mH @ tail
            return cat((K[..., :k, :], tail - (t * v[..., k:, :]) * u), dim=-2)
        return K - (t * v) * (v.mH @ K)
    if narrow:
        tail = K[..., :, k:]
        u = tail @ (t * v[..., k:, :])
        return cat((K[..., :, :k], tail - u * v[..., k:, :].mH), dim=-1)
    return K - (K @ (t * v)) * v.mH


def _reflector_grads(k, v, t, K):
    """The gradients of ``v_k`` (a column) and ``tau_k`` given ``K`` moved up to ``H_k``."""
    v = v[..., k:, :]
    vHK = v.mH @ K[..., k:, :]
    Kv = K[..., :, k:] @ v
    t = t.unsqueeze(-1)
    v_grad = (-t * vHK).conj().squeeze(-2) - (t * Kv).squeeze(-1)
    tau_grad = -(vHK[..., :, k:] @ v).conj()
    return v_grad.unsqueeze(-1), tau_grad.squeeze(-1)


def householder_product_backward(grad, result, input, tau, flip_order=False):
    """``(input_grad, tau_grad)``; ``flip_order`` runs the reflectors from the last (ormqr's
    products with Q on the other side)."""
    m, n = input.shape[-2:]
    k = tau.shape[-1]
    if input.numel() == 0 or tau.numel() == 0:
        return None, None
    # the forward reads the strict lower triangle, with ones on the diagonal
    diagonal = Tensor._make(xp.eye(m, n, dtype=bool))
    vectors = where(diagonal, 1.0, input.tril(-1))
    first = vectors[..., :k]
    sigma = tau / (tau * (first * first.conj()).sum(-2) - 1.0)
    K = result @ grad.mH
    narrow = not grad_mode.is_grad_enabled()
    order = list(range(k))[::-1] if flip_order else list(range(k))
    left = not flip_order
    i = order[0]
    K = _transform(i, vectors[..., i : i + 1], sigma[..., i : i + 1], K, narrow, left)
    input_grads, tau_grads = [None] * k, [None] * k
    for step, i in enumerate(order):
        v, t = vectors[..., i : i + 1], tau[..., i : i + 1]
        input_grads[i], tau_grads[i] = _reflector_grads(i, v, t, K)
        if step + 1 < k:  # K <- H_next^{-1} K H_i
            j = order[step + 1]
            K = _transform(j, vectors[..., j : j + 1], sigma[..., j : j + 1], K, narrow, left)
            K = _transform(i, v, t, K, narrow, not left)
    if k < n:  # the columns past k are not read
        input_grads.append(Tensor._make(xp.zeros(input.shape[:-1] + (n - k,), input._data.dtype)))
    return cat(input_grads, dim=-1).tril(-1), cat(tau_grads, dim=-1)


def ormqr_backward(grad, result, input, tau, left, transpose):
    """``(input_grad, tau_grad)`` of ``ormqr`` through ``householder_product_backward``:
    ``Q C`` and ``C Q^H`` read the reflectors in the forward order, the others reversed."""
    if left != transpose:
        if transpose:
            grad, result = grad.mH, result.mH
        return householder_product_backward(grad, result, input, tau)
    hpb_grad, hpb_result = (result, grad) if transpose else (result.mH, grad.mH)
    return householder_product_backward(hpb_grad, hpb_result, input, tau, flip_order=True)
