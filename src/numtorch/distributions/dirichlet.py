"""The Dirichlet distribution on the simplex and its two-category case, Beta.

``rsample`` normalises independent Gamma draws, ``x = g / sum(g)``: a reparametrised
sample whose gradient comes from ``torch._standard_gamma``. (Torch instead differentiates
the Dirichlet draw itself, recording ``_DirichletBackward``; both are unbiased pathwise
gradients, and the draws differ anyway since the random streams do.)
"""

from __future__ import annotations

import numbers

import numtorch as torch
import numtorch.nn.functional as F

from . import constraints
from .distribution import Distribution
from .utils import broadcast_all

__all__ = ["Beta", "Dirichlet"]


class Dirichlet(Distribution):
    """Dirichlet distribution with ``concentration`` along the last dimension."""

    arg_constraints = {"concentration": constraints.independent(constraints.positive, 1)}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, concentration, validate_args=None):
        if concentration.dim() < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        super().__init__(
            concentration.shape[:-1], concentration.shape[-1:], validate_args=validate_args
        )

    def expand(self, batch_shape, _instance=None):
        batch_shape = torch.Size(batch_shape)
        shape = tuple(batch_shape) + tuple(self.event_shape)
        return self._expanded(
            Dirichlet, batch_shape, _instance, concentration=self.concentration.expand(shape)
        )

    def rsample(self, sample_shape=()):
        shape = tuple(self._extended_shape(sample_shape))
        draws = torch._standard_gamma(self.concentration.expand(shape))
        x = draws / draws.sum(-1, True)
        x.detach().clamp_(min=torch.finfo(x.dtype).tiny)
        return x

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return (
            torch.xlogy(self.concentration - 1.0, value).sum(-1)
            + torch.lgamma(self.concentration.sum(-1))
            - torch.lgamma(self.concentration).sum(-1)
        )

    @property
    def mean(self):
        return self.concentration / self.concentration.sum(-1, True)

    @property
    def mode(self):
        shifted = (self.concentration - 1).clamp(min=0.0)
        mode = shifted / shifted.sum(-1, True)
        # all concentrations below one: the density peaks at a vertex
        corner = (self.concentration < 1).all(dim=-1)
        mode[corner] = F.one_hot(mode[corner].argmax(dim=-1), shifted.shape[-1]).to(mode)
        return mode

    @property
    def variance(self):
        total = self.concentration.sum(-1, True)
        return self.concentration * (total - self.concentration) / (total.pow(2) * (total + 1))

    def entropy(self):
        k = self.concentration.size(-1)
        a0 = self.concentration.sum(-1)
        return (
            torch.lgamma(self.concentration).sum(-1)
            - torch.lgamma(a0)
            - (k - a0) * torch.digamma(a0)
            - ((self.concentration - 1.0) * torch.digamma(self.concentration)).sum(-1)
        )


class Beta(Distribution):
    """Beta distribution: the first coordinate of ``Dirichlet([concentration1,
    concentration0])``."""

    arg_constraints = {
        "concentration1": constraints.positive,
        "concentration0": constraints.positive,
    }
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, concentration1, concentration0, validate_args=None):
        if isinstance(concentration1, numbers.Number) and isinstance(
            concentration0, numbers.Number
        ):
            both = torch.tensor([float(concentration1), float(concentration0)])
        else:
            concentration1, concentration0 = broadcast_all(concentration1, concentration0)
            both = torch.stack([concentration1, concentration0], -1)
        self._dirichlet = Dirichlet(both, validate_args=validate_args)
        super().__init__(self._dirichlet._batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        batch_shape = torch.Size(batch_shape)
        dirichlet = self._dirichlet.expand(batch_shape)
        return self._expanded(Beta, batch_shape, _instance, _dirichlet=dirichlet)

    @property
    def mean(self):
        return self.concentration1 / (self.concentration1 + self.concentration0)

    @property
    def mode(self):
        return self._dirichlet.mode[..., 0]

    @property
    def variance(self):
        total = self.concentration1 + self.concentration0
        return self.concentration1 * self.concentration0 / (total.pow(2) * (total + 1))

    def rsample(self, sample_shape=()):
        return self._dirichlet.rsample(sample_shape).select(-1, 0)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return self._dirichlet.log_prob(torch.stack([value, 1.0 - value], -1))

    def entropy(self):
        return self._dirichlet.entropy()

    @property
    def concentration1(self):
        return self._dirichlet.concentration[..., 0]

    @property
    def concentration0(self):
        return self._dirichlet.concentration[..., 1]
