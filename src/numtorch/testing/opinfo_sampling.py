"""Op samples for the Gamma and Dirichlet samplers behind the distributions' ``rsample`` (part
of ``opinfo.OP_DB``): the ``_standard_gamma`` and ``_sample_dirichlet`` entries multiply the
draw by zero, like the other samplers; the implicit gradients ``_standard_gamma_grad`` and
``_dirichlet_grad`` are deterministic (torch's own approximations of them, evaluated as torch
does) and compared with torch directly, in each of ``_dirichlet_grad``'s regions. The
gradients' statistical correctness (``E[dx/dalpha] = 1``) is tested in
``tests/distributions/test_distributions.py``."""

from __future__ import annotations

import numpy as np

from .opinfo import OpInfo, Sample


def _concentration(rng, *shape):
    return rng.uniform(0.5, 2.0, shape)


def _small_draw(rng, *shape):
    return rng.uniform(0.05, 0.7, shape)


def _dirichlet_grad_regions(rng):
    # (x, alpha, total): near 0 and near 1 (the two series), both concentrations above 6
    # (the saddle point), and the rational correction between them
    def sample(x, alpha, beta):
        return Sample((np.asarray(x), np.asarray(alpha), np.asarray(alpha) + beta))

    return [
        sample(rng.uniform(0.02, 0.2, 4), rng.uniform(0.5, 2.0, 4), rng.uniform(0.5, 2.0, 4)),
        sample(rng.uniform(0.8, 0.98, 4), rng.uniform(0.5, 2.0, 4), rng.uniform(0.2, 0.6, 4)),
        sample(rng.uniform(0.4, 0.6, 3), rng.uniform(7.0, 12.0, 3), rng.uniform(7.0, 12.0, 3)),
        sample(rng.uniform(0.3, 0.7, 3), rng.uniform(2.0, 5.0, 3), rng.uniform(2.0, 5.0, 3)),
    ]


GAMMA_SAMPLING = [
    OpInfo(
        "_standard_gamma",
        lambda t, a: t._standard_gamma(a) * 0,
        lambda rng: [Sample((_concentration(rng, 2, 3),))],
        lambda a: np.zeros_like(a),
        grad=False,
    ),
    OpInfo(
        "_standard_gamma_grad",
        lambda t, a, x: t._standard_gamma_grad(a.detach(), x.detach()),
        lambda rng: [
            Sample((_concentration(rng, 2, 3), _small_draw(rng, 2, 3))),
            Sample((_concentration(rng, 4), _small_draw(rng, 4))),
        ],
        grad=False,
        parity_rtol=5e-5,
    ),
    OpInfo(
        "_sample_dirichlet",
        lambda t, a: t._sample_dirichlet(a.detach()) * 0,  # torch: NotImplemented
        lambda rng: [Sample((_concentration(rng, 2, 3),))],
        lambda a: np.zeros_like(a),
        grad=False,
    ),
    OpInfo(
        "_dirichlet_grad",
        lambda t, x, a, total: t._dirichlet_grad(x.detach(), a.detach(), total.detach()),
        _dirichlet_grad_regions,
        grad=False,
        parity_rtol=5e-5,
    ),
]
