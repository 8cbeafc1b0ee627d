"""KL divergences involving ``LowRankMultivariateNormal``: with itself and with the
full-covariance ``MultivariateNormal``, each term computed through the capacitance
matrix so that no ``n x n`` covariance is inverted."""

from __future__ import annotations

import numtorch as torch

from .kl import register_kl
from .lowrank_multivariate_normal import (
    LowRankMultivariateNormal,
    _batch_lowrank_logdet,
    _batch_lowrank_mahalanobis,
    _batch_trace_XXT,
)
from .multivariate_normal import MultivariateNormal, _batch_mahalanobis

__all__: list[str] = []

# torch's message, spaces included (a line continuation inside its string literal)
_SHAPES = (
    "KL-divergence between two {} Multivariate Normals with"
    + " " * 26
    + "different event shapes cannot be computed"
)


def _logdet(d):
    return _batch_lowrank_logdet(
        d._unbroadcasted_cov_factor, d._unbroadcasted_cov_diag, d._capacitance_tril
    )


def _mahalanobis(d, x):
    return _batch_lowrank_mahalanobis(
        d._unbroadcasted_cov_factor, d._unbroadcasted_cov_diag, x, d._capacitance_tril
    )


def _woodbury_factor(q):
    # inv(q.cov) = inv(D) - A^T A
    qWt_qDinv = q._unbroadcasted_cov_factor.mT / q._unbroadcasted_cov_diag.unsqueeze(-2)
    return torch.linalg.solve_triangular(q._capacitance_tril, qWt_qDinv, upper=False)


@register_kl(LowRankMultivariateNormal, LowRankMultivariateNormal)
def _kl_lowrankmultivariatenormal_lowrankmultivariatenormal(p, q):
    if p.event_shape != q.event_shape:
        raise ValueError(_SHAPES.format("Low Rank"))
    term1 = _logdet(q) - _logdet(p)
    term3 = _mahalanobis(q, q.loc - p.loc)
    # trace(inv(q.cov) p.cov) with p.cov = pW pW^T + pD
    A = _woodbury_factor(q)
    pW, pD, qD = p._unbroadcasted_cov_factor, p._unbroadcasted_cov_diag, q._unbroadcasted_cov_diag
    term21 = (pD / qD).sum(-1)
    term22 = _batch_trace_XXT(pW * qD.rsqrt().unsqueeze(-1))
    term23 = _batch_trace_XXT(A * pD.sqrt().unsqueeze(-2))
    term24 = _batch_trace_XXT(A.matmul(pW))
    term2 = term21 + term22 - term23 - term24
    return 0.5 * (term1 + term2 + term3 - p.event_shape[0])


@register_kl(MultivariateNormal, LowRankMultivariateNormal)
def _kl_multivariatenormal_lowrankmultivariatenormal(p, q):
    if p.event_shape != q.event_shape:
        raise ValueError(_SHAPES.format("(Low Rank)"))
    p_tril = p._unbroadcasted_scale_tril
    term1 = _logdet(q) - 2 * p_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
    term3 = _mahalanobis(q, q.loc - p.loc)
    A = _woodbury_factor(q)
    term21 = _batch_trace_XXT(p_tril * q._unbroadcasted_cov_diag.rsqrt().unsqueeze(-1))
    term22 = _batch_trace_XXT(A.matmul(p_tril))
    return 0.5 * (term1 + (term21 - term22) + term3 - p.event_shape[0])


@register_kl(LowRankMultivariateNormal, MultivariateNormal)
def _kl_lowrankmultivariatenormal_multivariatenormal(p, q):
    if p.event_shape != q.event_shape:
        raise ValueError(_SHAPES.format("(Low Rank)"))
    q_tril = q._unbroadcasted_scale_tril
    term1 = 2 * q_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1) - _logdet(p)
    term3 = _batch_mahalanobis(q_tril, q.loc - p.loc)
    n = p.event_shape[0]
    batch = tuple(
        torch.broadcast_shapes(
            tuple(q_tril.shape[:-2]), tuple(p._unbroadcasted_cov_factor.shape[:-2])
        )
    )
    q_tril = q_tril.expand(batch + (n, n))
    p_cov_factor = p._unbroadcasted_cov_factor.expand(batch + (n, p.cov_factor.size(-1)))
    p_cov_diag = torch.diag_embed(p._unbroadcasted_cov_diag.sqrt()).expand(batch + (n, n))
    term21 = _batch_trace_XXT(torch.linalg.solve_triangular(q_tril, p_cov_factor, upper=False))
    term22 = _batch_trace_XXT(torch.linalg.solve_triangular(q_tril, p_cov_diag, upper=False))
    return 0.5 * (term1 + term21 + term22 + term3 - n)
