"""Op samples whose recorded node depends on how the op is called (part of the op sample
table in ``opinfo.py``): the Tensor overloads of ops that also take a number (torch names a
node after the overload that ran: ``fmod(t, 2.0)`` records FmodBackward0, ``fmod(t, t)``
FmodBackward1), reshape's no-copy alias of a non-contiguous tensor, and matmul's folded
matrix @ batch product.
"""

from __future__ import annotations

import numpy as np

from .opinfo import OpInfo, Sample, _distinct, _n


def _small(rng, *shape):
    return rng.uniform(0.1, 0.4, shape) * rng.choice([-1.0, 1.0], shape)


def _divisor(rng, *shape):
    # |input / other| < 1: trunc and floor stay constant near the samples
    return rng.uniform(0.5, 0.9, shape) * rng.choice([-1.0, 1.0], shape)


def _above(rng, *shape):
    return _distinct(rng, *shape) + 0.1  # never equal to a _distinct value: no ties


NODE_CHOICES = [
    OpInfo(
        "fmod_tensor",
        lambda t, a, b: t.fmod(a, b),
        lambda rng: [
            Sample((_small(rng, 2, 3), _divisor(rng, 2, 3))),
            Sample((_small(rng, 2, 3), _divisor(rng, 3))),
        ],
        np.fmod,
    ),
    OpInfo(
        "remainder_tensor",
        lambda t, a, b: t.remainder(a, b),
        lambda rng: [
            Sample((_small(rng, 2, 3), _divisor(rng, 2, 3))),
            Sample((_small(rng, 2, 3), _divisor(rng, 3))),
        ],
        np.remainder,
    ),
    OpInfo(
        "clamp_min_tensor",
        lambda t, x, lo: t.clamp_min(x, lo),
        lambda rng: [Sample((_distinct(rng, 2, 3), _above(rng, 3)))],
        np.maximum,
    ),
    OpInfo(
        "clamp_max_tensor",
        lambda t, x, hi: x.clamp_max(hi),
        lambda rng: [Sample((_distinct(rng, 2, 3), _above(rng, 2, 3)))],
        np.minimum,
    ),
    OpInfo(
        "lerp_tensor_weight",
        lambda t, a, b, w: t.lerp(a, b, w),
        lambda rng: [
            Sample((_n(rng, 2, 3), _n(rng, 2, 3), _n(rng, 2, 3))),
            Sample((_n(rng, 2, 3), _n(rng, 3), _n(rng, 1))),
        ],
        lambda a, b, w: a + w * (b - a),
    ),
    OpInfo(
        "reshape_alias",
        lambda t, x: x.t().reshape(3, 1, 2),
        lambda rng: [Sample((_n(rng, 2, 3),))],
        lambda x: x.T.reshape(3, 1, 2),
    ),
    OpInfo(
        "reshape_alias_expanded",
        lambda t, x: x.expand(2, 3).reshape(2, 1, 3),
        lambda rng: [Sample((_n(rng, 3),))],
        lambda x: np.broadcast_to(x, (2, 3)).reshape(2, 1, 3),
    ),
    OpInfo(
        "matmul_matrix_batch",
        lambda t, a, b: t.matmul(a, b),
        lambda rng: [
            Sample((_n(rng, 2, 3), _n(rng, 2, 3, 4))),
            Sample((_n(rng, 1, 3), _n(rng, 2, 3, 4))),
            Sample((_n(rng, 2, 3), _n(rng, 2, 1, 3, 2))),
        ],
        np.matmul,
    ),
]
