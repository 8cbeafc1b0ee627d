"""Op samples for the Gamma sampler behind the distributions' ``rsample`` (part of
``opinfo.OP_DB``): the ``_standard_gamma`` entry multiplies the draw by zero, like the other
samplers; the implicit gradient ``_standard_gamma_grad`` is deterministic (torch's own
approximations of it, evaluated as torch does) and compared with torch directly. Its
statistical correctness (``E[dx/dalpha] = 1``) is tested in
``tests/distributions/test_distributions.py``."""

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
