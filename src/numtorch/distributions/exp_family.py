"""``ExponentialFamily``: distributions with density ``exp(<t(x), theta> - F(theta) + k(x))``.

A subclass gives its natural parameters ``theta`` (``_natural_params``), the log-normaliser
``F`` (``_log_normalizer``) and ``E[k(x)]`` (``_mean_carrier_measure``); the entropy and the
KL divergence between two members of one family (a Bregman divergence of ``F``) then follow
from ``grad F``, taken with autograd.
"""

from __future__ import annotations

import numtorch as torch

from .distribution import Distribution

__all__ = ["ExponentialFamily"]


class ExponentialFamily(Distribution):
    """Base class of exponential-family distributions."""

    @property
    def _natural_params(self):
        raise NotImplementedError

    def _log_normalizer(self, *natural_params):
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self):
        raise NotImplementedError

    def entropy(self):
        # H = F(theta) - <theta, grad F(theta)> - E[k(x)]
        result = -self._mean_carrier_measure
        natural = [p.detach().requires_grad_() for p in self._natural_params]
        log_normalizer = self._log_normalizer(*natural)
        gradients = torch.autograd.grad(log_normalizer.sum(), natural, create_graph=True)
        result = result + log_normalizer
        for theta, g in zip(natural, gradients):
            result = result - (theta * g).reshape(tuple(self._batch_shape) + (-1,)).sum(-1)
        return result
