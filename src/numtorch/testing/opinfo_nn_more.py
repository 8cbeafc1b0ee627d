"""Op samples for the later nn primitives (part of ``opinfo.OP_DB``): weight normalization,
embedding bags, grid sampling."""

from __future__ import annotations

from .opinfo import OpInfo, Sample, _n, _pos

NN_MORE = [
    OpInfo(
        "_weight_norm",
        lambda t, v, g, dim: t._weight_norm(v, g, dim),
        lambda rng: [
            Sample((_n(rng, 3, 4), _pos(rng, 3, 1), 0)),
            Sample((_n(rng, 2, 3, 2), _pos(rng, 1, 1, 2), 2)),
            Sample((_n(rng, 2, 3, 2), _pos(rng, 1, 3, 1), 1)),
            Sample((_n(rng, 3, 2), _pos(rng), -1)),
        ],
    ),
]
