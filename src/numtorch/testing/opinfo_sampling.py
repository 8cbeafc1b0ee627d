"""Op samples for the Gamma sampler behind the distributions' ``rsample`` (part of
``opinfo.OP_DB``): ``_standard_gamma`` draws differ from torch's (separate random
streams), so its entry multiplies the draw by zero, like the other samplers; the implicit
gradient ``_standard_gamma_grad`` is deterministic and compared with torch directly, at
points where torch's own approximation of it (a truncated series below ``x = 0.8``) agrees
with the true derivative to ~2e-5 relative; elsewhere torch's rational approximation is
up to ~1e-4 off, and numtorch computes the derivative more closely. Its statistical correctness
(``E[dx/dalpha] = 1``) is tested in ``tests/test_distributions.py``."""

from __future__ import annotations

import numpy as np

from .opinfo import OpInfo, Sample


def _concentration(rng, *shape):
    return rng.uniform(0.5, 2.0, shape)


def _small_draw(rng, *shape):
    return rng.uniform(0.05, 0.7, shape)


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
]
