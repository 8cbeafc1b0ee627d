"""The Dirichlet distribution on the simplex and its two-category case, Beta.

``rsample`` normalises independent Gamma draws, ``x = g / sum(g)``: a reparametrised
sample whose gradient comes from ``torch._standard_gamma``. (Torch instead differentiates
the Dirichlet draw itself, recording ``_DirichletBackward``; both are unbiased pathwise
gradients, and the draws differ anyway since the random streams do.)
"""

from __future__ import annotations

import numtorch as torch
import numtorch.nn.functional as F

from . import constraints
from .exp_family import ExponentialFamily

__all__ = ["Dirichlet"]


class Dirichlet(ExponentialFamily):
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

    @property
    def _natural_params(self):
        return (self.concentration,)

    def _log_normalizer(self, x):
        return x.lgamma().sum(-1) - torch.lgamma(x.sum(-1))
