"""Op samples for the ``*_copy`` ops and ``unsafe_split``/``unsafe_chunk`` (part of the op
sample table in ``opinfo.py``): each copies its view op's result."""

from __future__ import annotations

import numpy as np

from .opinfo import OpInfo, Sample, _n


def _one(rng, *shape):
    return lambda rng: [Sample((_n(rng, *shape),))]


VIEW_COPIES = [
    OpInfo(
        "view_copy",
        lambda t, x: t.view_copy(x, (6, -1)),
        _one(None, 2, 3, 4),
        lambda x: x.reshape(6, -1),
    ),
    OpInfo(
        "permute_copy",
        lambda t, x: t.permute_copy(x, (2, 0, 1)),
        _one(None, 2, 3, 4),
        lambda x: x.transpose(2, 0, 1),
    ),
    OpInfo(
        "transpose_copy",
        lambda t, x: t.transpose_copy(x, 0, -1),
        _one(None, 2, 3, 4),
        lambda x: np.swapaxes(x, 0, -1),
    ),
    OpInfo("t_copy", lambda t, x: t.t_copy(x), _one(None, 2, 3), lambda x: x.T),
    OpInfo(
        "expand_copy",
        lambda t, x: t.expand_copy(x, (2, 3, 4)),
        _one(None, 3, 1),
        lambda x: np.broadcast_to(x, (2, 3, 4)),
    ),
    OpInfo(
        "squeeze_copy",
        lambda t, x: t.squeeze_copy(x, 1),
        _one(None, 2, 1, 3),
        lambda x: x.squeeze(1),
    ),
    OpInfo(
        "unsqueeze_copy",
        lambda t, x: t.unsqueeze_copy(x, -1),
        _one(None, 2, 3),
        lambda x: x[..., None],
    ),
    OpInfo(
        "select_copy", lambda t, x: t.select_copy(x, 1, -1), _one(None, 2, 3, 4), lambda x: x[:, -1]
    ),
    OpInfo(
        "slice_copy",
        lambda t, x: t.slice_copy(x, 1, 1, None, 2),
        _one(None, 2, 5),
        lambda x: x[:, 1::2],
    ),
    OpInfo(
        "diagonal_copy",
        lambda t, x: t.diagonal_copy(x, 1),
        _one(None, 3, 4),
        lambda x: np.diagonal(x, 1),
    ),
    OpInfo("alias_copy", lambda t, x: t.alias_copy(x), _one(None, 2, 3), lambda x: x),
    OpInfo(
        "split_copy", lambda t, x: t.split_copy(x, 2, 1)[1], _one(None, 2, 5), lambda x: x[:, 2:4]
    ),
    OpInfo(
        "split_with_sizes_copy",
        lambda t, x: t.split_with_sizes_copy(x, [1, 4], 1)[1],
        _one(None, 2, 5),
        lambda x: x[:, 1:],
    ),
    OpInfo("unbind_copy", lambda t, x: t.unbind_copy(x, 1)[2], _one(None, 2, 3), lambda x: x[:, 2]),
    OpInfo(
        "unfold_copy",
        lambda t, x: t.unfold_copy(x, 1, 2, 1),
        _one(None, 2, 3),
        lambda x: np.stack([x[:, 0:2], x[:, 1:3]], 1),
    ),
    OpInfo(
        "as_strided_copy",
        lambda t, x: t.as_strided_copy(x, (2, 2), (1, 2), 1),
        _one(None, 2, 3),
        lambda x: np.lib.stride_tricks.as_strided(x.ravel()[1:], (2, 2), (8, 16)),
    ),
    OpInfo(
        "unsafe_split",
        lambda t, x: t.unsafe_split(x, 2, 1)[1],
        _one(None, 2, 5),
        lambda x: x[:, 2:4],
    ),
    OpInfo(
        "unsafe_chunk",
        lambda t, x: t.unsafe_chunk(x, 3, 1)[0],
        _one(None, 2, 5),
        lambda x: x[:, :2],
    ),
    OpInfo(
        "unsafe_split_with_sizes",
        lambda t, x: t.unsafe_split_with_sizes(x, [3, 2], 1)[1],
        _one(None, 2, 5),
        lambda x: x[:, 3:],
    ),
    OpInfo(
        "squeeze_copy_all",
        lambda t, x: t.squeeze_copy(x),
        _one(None, 2, 1, 3),
        lambda x: x.squeeze(),
    ),
    OpInfo(
        "squeeze_copy_dims",
        lambda t, x: t.squeeze_copy(x, (1, 2)),
        _one(None, 2, 1, 1, 3),
        lambda x: x.squeeze((1, 2)),
    ),
    OpInfo(
        "view_as_real_copy",
        lambda t, x: t.view_as_real_copy(t.view_as_complex(x)),
        _one(None, 3, 2),
        lambda x: x,
    ),
    # torch refuses autograd through it (a complex output), so its sample checks values only
    OpInfo(
        "view_as_complex_copy",
        lambda t, x: t.view_as_real(t.view_as_complex_copy(x.detach())),
        _one(None, 2, 3, 2),
        lambda x: x,
        grad=False,
        gradgrad=False,
    ),
    # torch records a node that refuses to differentiate (NotImplemented: tests/ops/
    # test_view_copies.py), so its sample checks values only
    OpInfo(
        "detach_copy",
        lambda t, x: t.detach_copy(x.detach()),
        _one(None, 2, 3),
        lambda x: x,
        grad=False,
        gradgrad=False,
    ),
]
