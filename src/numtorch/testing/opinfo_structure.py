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


def _index(*values):
    return np.array(values, dtype=np.int64)


CONSTRUCTION = [
    OpInfo(
        "meshgrid",
        lambda t, a, b: t.meshgrid(a, b, indexing="ij")[1],
        lambda rng: [Sample((_n(rng, 3), _n(rng, 2)))],
        lambda a, b: np.meshgrid(a, b, indexing="ij")[1],
    ),
    OpInfo(
        "meshgrid_xy",
        lambda t, a, b, c: t.meshgrid(a, b, c, indexing="xy")[0],
        lambda rng: [Sample((_n(rng, 3), _n(rng, 2), _n(rng, 2)))],
        lambda a, b, c: np.meshgrid(a, b, c, indexing="xy")[0],
    ),
    OpInfo(
        "cartesian_prod",
        lambda t, a, b: t.cartesian_prod(a, b),
        lambda rng: [Sample((_n(rng, 3), _n(rng, 2)))],
        lambda a, b: np.stack([g.reshape(-1) for g in np.meshgrid(a, b, indexing="ij")], 1),
    ),
    OpInfo(
        "block_diag",
        lambda t, a, b, c: t.block_diag(a, b, c),
        lambda rng: [Sample((_n(rng, 2, 3), _n(rng, 2), _n(rng)))],
        None,
    ),
    OpInfo(
        "rot90",
        lambda t, x, *a: t.rot90(x, *a),
        lambda rng: [
            Sample((_n(rng, 2, 3),)),
            Sample((_n(rng, 2, 3, 4), 2, (2, 0))),
            Sample((_n(rng, 2, 3), -1)),
        ],
        lambda x, k=1, dims=(0, 1): np.rot90(x, k, dims),
    ),
    OpInfo(
        "unfold",
        lambda t, x, *a: x.unfold(*a),
        lambda rng: [Sample((_n(rng, 2, 5), 1, 2, 1)), Sample((_n(rng, 7, 2), 0, 3, 2))],
        lambda x, d, size, step: np.moveaxis(
            np.lib.stride_tricks.sliding_window_view(x, size, axis=d), d, d
        ).take(range(0, x.shape[d] - size + 1, step), axis=d),
    ),
]


INDEXED = [
    OpInfo(
        "take_along_dim",
        lambda t, x, i, *d: t.take_along_dim(x, t.tensor(i), *d),
        lambda rng: [
            Sample((_n(rng, 2, 3), _index([0, 2], [1, 1]), 1)),
            Sample((_n(rng, 2, 3), _index([[0], [1]]).reshape(2, 1), 0)),
            Sample((_n(rng, 2, 3), _index(5, 0, 5))),
        ],
        None,
    ),
    OpInfo(
        "index_fill",
        lambda t, x: t.index_fill(x, 1, t.tensor(_index(0, 2)), -1.5),
        lambda rng: [Sample((_n(rng, 2, 3),))],
        None,
    ),
    OpInfo(
        "index_fill_tensor",
        lambda t, x, v: x.index_fill(0, t.tensor(_index(1)), v),
        lambda rng: [Sample((_n(rng, 2, 3), _n(rng)))],
        None,
    ),
    OpInfo(
        "index_fill_",
        lambda t, x: (x * 1).index_fill_(0, t.tensor(_index(0)), 2.0),
        lambda rng: [Sample((_n(rng, 2, 3),))],
        None,
    ),
    OpInfo(
        "index_copy",
        lambda t, x, s: t.index_copy(x, 1, t.tensor(_index(2, 0)), s),
        lambda rng: [Sample((_n(rng, 2, 3), _n(rng, 2, 2)))],
        None,
    ),
    OpInfo(
        "masked_scatter",
        lambda t, x, m, s: t.masked_scatter(x, t.tensor(m), s),
        lambda rng: [
            Sample((_n(rng, 2, 3), _n(rng, 2, 3) > 0, _n(rng, 7))),
            Sample((_n(rng, 2, 3), np.array([True, False, True]), _n(rng, 2, 2))),
        ],
        None,
    ),
    OpInfo(
        "masked_select_broadcast",
        lambda t, x, m: t.masked_select(x, t.tensor(m)),
        lambda rng: [Sample((_n(rng, 2, 3), np.array([True, False, True])))],
        lambda x, m: x[np.broadcast_to(m, x.shape)],
    ),
    OpInfo(
        "where_condition",
        lambda t, x: t.where(x > 0)[1],
        lambda rng: [Sample((_n(rng, 3, 4),))],
        lambda x: np.nonzero(x > 0)[1],
        grad=False,
    ),
    OpInfo(
        "tensor_where",
        lambda t, x, y: x.where(x > 0, y),
        lambda rng: [Sample((_n(rng, 2, 3), _n(rng, 3)))],
        lambda x, y: np.where(x > 0, x, y),
    ),
]


# In-place view ops change a non-leaf's geometry (x * 1: a fresh tensor in the graph).
INPLACE_VIEWS = [
    OpInfo(
        "transpose_",
        lambda t, x: (x * 1).transpose_(0, 2),
        lambda rng: [Sample((_n(rng, 2, 3, 4),))],
        lambda x: np.swapaxes(x, 0, 2),
    ),
    OpInfo("t_", lambda t, x: (x * 1).t_(), lambda rng: [Sample((_n(rng, 2, 3),))], np.transpose),
    OpInfo(
        "squeeze_",
        lambda t, x: (
            (x * 1).squeeze_() + (x * 1).squeeze_(1).squeeze_(2) + (x * 1).squeeze_((1, 3))
        ),
        lambda rng: [Sample((_n(rng, 2, 1, 3, 1),))],
        lambda x: 3 * x.squeeze(),
    ),
    OpInfo(
        "unsqueeze_",
        lambda t, x: (x * 1).unsqueeze_(-1),
        lambda rng: [Sample((_n(rng, 2, 3),))],
        lambda x: x[..., None],
    ),
    OpInfo(
        "as_strided",
        lambda t, x: x.as_strided((2, 2), (1, 2), 1) + (x * 1).as_strided_((2,), (2,)),
        lambda rng: [Sample((_n(rng, 6),))],
        lambda x: np.array([[x[1], x[3]], [x[2], x[4]]]) + x[[0, 2]],
    ),
]


def _segment_op(reduce, axis=0, initial=None, make=_n):
    """segment_reduce over segments of 2, 0, 3 and 1 rows (the empty one gives the initial
    value or the reduce's identity); once differentiable, as torch's: its gradient is
    _segment_reduce_backward, which has no derivative. Distinct values for max and min."""
    lengths = [[2, 0, 3, 1], [1, 1, 0, 4]] if axis == 1 else [2, 0, 3, 1]
    shape = (2, 6, 2) if axis == 1 else (6, 3)
    return OpInfo(
        f"segment_reduce_{reduce}"
        + (f"_axis{axis}" if axis else "")
        + ("_initial" if initial else ""),
        lambda t, x: t.segment_reduce(
            x, reduce, lengths=t.tensor(lengths), axis=axis, initial=initial
        ),
        lambda rng: [Sample((make(rng, *shape),))],
        gradgrad=False,
    )


def _distinct_values(rng, *shape):
    return (rng.permutation(int(np.prod(shape))) * 0.37 - 1.5).reshape(shape)


SEGMENTS = [
    _segment_op("sum"),
    _segment_op("mean", initial=0.5),
    _segment_op("max", initial=-10.0, make=_distinct_values),
    _segment_op("min", axis=1, initial=10.0, make=_distinct_values),
    _segment_op("prod", initial=1.5),
    _segment_op("sum", axis=1),
]

STRUCTURE_OPS = INPLACE_VIEWS + TRIANGULAR + CONSTRUCTION + INDEXED + SEGMENTS
