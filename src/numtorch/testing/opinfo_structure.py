"""Op samples for triangles and diagonals, grids and blocks, rotations, windows and indexed
writes (part of the op sample table in ``opinfo.py``)."""

from __future__ import annotations

import numpy as np

from .opinfo import OpInfo, Sample, _n


def _diag_embed_ref(x, offset=0):
    n = x.shape[-1] + abs(offset)
    out = np.zeros(x.shape[:-1] + (n, n))
    rows = np.arange(x.shape[-1]) + max(-offset, 0)
    out[..., rows, rows + offset] = x
    return out


TRIANGULAR = [
    OpInfo(
        "tril",
        lambda t, x, **k: t.tril(x, **k),
        lambda rng: [
            Sample((_n(rng, 3, 4),)),
            Sample((_n(rng, 2, 3, 3),), {"diagonal": -1}),
            Sample((_n(rng, 3, 2),), {"diagonal": 1}),
        ],
        lambda x, diagonal=0: np.tril(x, diagonal),
    ),
    OpInfo(
        "triu",
        lambda t, x, **k: t.triu(x, **k),
        lambda rng: [Sample((_n(rng, 3, 4),)), Sample((_n(rng, 2, 3, 3),), {"diagonal": 1})],
        lambda x, diagonal=0: np.triu(x, diagonal),
    ),
    OpInfo(
        "tril_",
        lambda t, x: (x * 1).tril_(-1),
        lambda rng: [Sample((_n(rng, 3, 3),))],
        lambda x: np.tril(x, -1),
    ),
    OpInfo(
        "diagonal",
        lambda t, x, *a: t.diagonal(x, *a),
        lambda rng: [
            Sample((_n(rng, 3, 4),)),
            Sample((_n(rng, 3, 4), 1)),
            Sample((_n(rng, 2, 3, 4), -1, 2, 1)),
            Sample((_n(rng, 2, 3, 4), 0, 0, 2)),
        ],
        lambda x, offset=0, d1=0, d2=1: np.diagonal(x, offset, d1, d2),
    ),
    OpInfo(
        "diagonal_write",
        lambda t, x, v: _write_diagonal(x, v),
        lambda rng: [Sample((_n(rng, 3, 3), _n(rng, 3)))],
        None,
    ),
    OpInfo(
        "diag",
        lambda t, x, *a: t.diag(x, *a),
        lambda rng: [
            Sample((_n(rng, 3),)),
            Sample((_n(rng, 3), -2)),
            Sample((_n(rng, 3, 4),)),
            Sample((_n(rng, 3, 4), 1)),
        ],
        np.diag,
    ),
    OpInfo(
        "diag_embed",
        lambda t, x, *a: t.diag_embed(x, *a),
        lambda rng: [Sample((_n(rng, 2, 3),)), Sample((_n(rng, 2, 3), 1))],
        _diag_embed_ref,
    ),
    OpInfo(
        "diag_embed_dims",
        lambda t, x: t.diag_embed(x, -1, 0, 2),
        lambda rng: [Sample((_n(rng, 2, 3),))],
        lambda x: np.moveaxis(_diag_embed_ref(x, -1), 0, 1),
    ),
    OpInfo(
        "diagflat",
        lambda t, x, *a: t.diagflat(x, *a),
        lambda rng: [Sample((_n(rng, 2, 2),)), Sample((_n(rng, 3), 1))],
        lambda x, offset=0: np.diagflat(x, offset),
    ),
    OpInfo(
        "trace",
        lambda t, x: t.trace(x),
        lambda rng: [Sample((_n(rng, 3, 3),)), Sample((_n(rng, 2, 4),))],
        np.trace,
    ),
]


def _write_diagonal(x, v):
    y = x * 1
    y.diagonal().mul_(v)
    return y


STRUCTURE_OPS = TRIANGULAR
