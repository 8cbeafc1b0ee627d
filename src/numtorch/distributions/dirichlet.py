"""The Dirichlet distribution on the simplex and its two-category case, Beta.

``rsample`` differentiates the draw itself, as torch does: ``_Dirichlet`` (a custom
Function, recorded as ``_DirichletBackward``) draws with ``torch._sample_dirichlet`` and
takes the implicit reparametrisation gradient ``torch._dirichlet_grad`` of each coordinate,
projected onto the simplex.
"""

from __future__ import annotations

import numtorch as torch
import numtorch.nn.functional as F
from numtorch.autograd import Function
from numtorch.autograd.function import once_differentiable

from . import constraints
from .exp_family import ExponentialFamily

__all__ = ["Dirichlet"]


def _Dirichlet_backward(x, concentration, grad_output):
    total = concentration.sum(-1, True).expand_as(concentration)
    grad = torch._dirichlet_grad(x, concentration, total)
    return grad * (grad_output - (x * grad_output).sum(-1, True))


class _Dirichlet(Function):
    @staticmethod
    def forward(ctx, concentration):
        x = torch._sample_dirichlet(concentration)
        ctx.save_for_backward(x, concentration)
        return x

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_output):
        x, concentration = ctx.saved_tensors
        return _Dirichlet_backward(x, concentration, grad_output)


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
        return _Dirichlet.apply(self.concentration.expand(shape))

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
