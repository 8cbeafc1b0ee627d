"""KL divergences involving ``ContinuousBernoulli`` (support ``[0, 1]``): with itself,
with the other families it has closed forms for, and infinite where the supports do not
nest."""

from __future__ import annotations

import math

import numtorch as torch

from .beta import Beta
from .continuous_bernoulli import ContinuousBernoulli
from .exponential import Exponential
from .gamma import Gamma
from .gumbel import Gumbel
from .kl import register_kl
from .laplace import Laplace
from .normal import Normal
from .pareto import Pareto
from .uniform import Uniform

__all__: list[str] = []


def _infinite_like(tensor):
    return torch.full_like(tensor, math.inf)


@register_kl(ContinuousBernoulli, ContinuousBernoulli)
def _kl_continuous_bernoulli_continuous_bernoulli(p, q):
    t1 = p.mean * (p.logits - q.logits)
    t2 = p._cont_bern_log_norm() + torch.log1p(-p.probs)
    t3 = -q._cont_bern_log_norm() - torch.log1p(-q.probs)
    return t1 + t2 + t3


@register_kl(Beta, ContinuousBernoulli)
def _kl_beta_continuous_bernoulli(p, q):
    # -H(p) - E_p[log q], q's log density being x logit - log(1 - q) - log C(q)
    return -p.entropy() - p.mean * q.logits - torch.log1p(-q.probs) - q._cont_bern_log_norm()


@register_kl(ContinuousBernoulli, Pareto)
def _kl_continuous_bernoulli_infinity(p, q):
    return _infinite_like(p.probs)


@register_kl(ContinuousBernoulli, Exponential)
def _kl_continuous_bernoulli_exponential(p, q):
    return -p.entropy() - torch.log(q.rate) + q.rate * p.mean


@register_kl(ContinuousBernoulli, Normal)
def _kl_continuous_bernoulli_normal(p, q):
    t1 = -p.entropy()
    t2 = 0.5 * (math.log(2.0 * math.pi) + torch.square(q.loc / q.scale)) + torch.log(q.scale)
    t3 = (p.variance + torch.square(p.mean) - 2.0 * q.loc * p.mean) / (2.0 * torch.square(q.scale))
    return t1 + t2 + t3


@register_kl(ContinuousBernoulli, Uniform)
def _kl_continuous_bernoulli_uniform(p, q):
    result = -p.entropy() + (q.high - q.low).log()
    outside = torch.max(
        torch.ge(q.low, p.support.lower_bound), torch.le(q.high, p.support.upper_bound)
    )
    return torch.where(outside, torch.ones_like(result) * math.inf, result)


def _infinite_in(parameter):
    """KL(p || q) = inf where p has mass outside [0, 1], shaped like ``p.<parameter>``."""

    def kl(p, q):
        return _infinite_like(getattr(p, parameter))

    return kl


for _family, _parameter in (
    (Exponential, "rate"),
    (Gamma, "concentration"),
    (Gumbel, "loc"),
    (Laplace, "loc"),
    (Normal, "loc"),
    (Pareto, "scale"),
):
    register_kl(_family, ContinuousBernoulli)(_infinite_in(_parameter))


@register_kl(Uniform, ContinuousBernoulli)
def _kl_uniform_continuous_bernoulli(p, q):
    result = -p.entropy() - p.mean * q.logits - torch.log1p(-q.probs) - q._cont_bern_log_norm()
    outside = torch.max(
        torch.ge(p.high, q.support.upper_bound), torch.le(p.low, q.support.lower_bound)
    )
    return torch.where(outside, torch.ones_like(result) * math.inf, result)
