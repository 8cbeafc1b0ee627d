"""Op samples for torch's top-level nn functions (``torch.batch_norm``, ``torch.kl_div``...),
which take ATen's signatures, and for channel_shuffle and native_dropout (part of the op
sample table in ``opinfo.py``)."""

from __future__ import annotations

import numpy as np

from .opinfo import OpInfo, Sample, _away, _distinct, _n, _pos


def _unit(rng, *shape):
    return rng.uniform(0.1, 0.9, shape)


def _stats(t, x):
    return t.tensor([0.1, -0.2], dtype=x.dtype), t.tensor([0.5, 2.0], dtype=x.dtype)


def _batch_norm(t, x, w, b, training):
    mean, var = _stats(t, x)
    return t.batch_norm(x, w, b, mean, var, training, 0.1, 1e-5, False)


def _native_batch_norm(t, x, w, b):
    return t.native_batch_norm(x, w, b, None, None, True, 0.1, 1e-5)[0]


def _instance_norm(t, x, w, b):
    return t.instance_norm(x, w, b, None, None, True, 0.1, 1e-5, False)


def _native_dropout(t, x, train):
    # p = 0 (training) and train=False are deterministic
    return t.native_dropout(x, 0.0 if train else 0.5, train)[0]


def _target(t, x, values):
    return t.tensor(np.asarray(values, dtype=np.float64), dtype=x.dtype)


def _samples(*samples):
    return lambda rng: [s(rng) for s in samples]


NN_ATEN = [
    OpInfo(
        "channel_shuffle",
        lambda t, x, g: t.channel_shuffle(x, g),
        lambda rng: [Sample((_n(rng, 2, 6, 3), 3)), Sample((_n(rng, 1, 4, 2, 2), 2))],
        lambda x, g: x.reshape(x.shape[0], g, -1, *x.shape[2:]).swapaxes(1, 2).reshape(x.shape),
    ),
    OpInfo(
        "native_channel_shuffle",
        lambda t, x: t.native_channel_shuffle(x.detach(), 2),
        lambda rng: [Sample((_n(rng, 1, 4, 3),))],
        lambda x: x.reshape(1, 2, 2, 3).swapaxes(1, 2).reshape(x.shape),
        grad=False,
    ),
    OpInfo(
        "native_dropout",
        _native_dropout,
        lambda rng: [Sample((_n(rng, 2, 3), True)), Sample((_n(rng, 2, 3), False))],
        lambda x, train: x,
    ),
    OpInfo(
        "torch.batch_norm",
        lambda t, x, w, b: _batch_norm(t, x, w, b, True),
        lambda rng: [Sample((_n(rng, 3, 2, 4), _pos(rng, 2), _n(rng, 2)))],
        None,
    ),
    OpInfo(
        "torch.batch_norm_eval",
        lambda t, x, w, b: _batch_norm(t, x, w, b, False),
        lambda rng: [Sample((_n(rng, 3, 2), _pos(rng, 2), _n(rng, 2)))],
        None,
    ),
    OpInfo(
        "torch.native_batch_norm",
        _native_batch_norm,
        lambda rng: [Sample((_n(rng, 3, 2, 2), _pos(rng, 2), _n(rng, 2)))],
        None,
    ),
    OpInfo(
        "torch.layer_norm",
        lambda t, x, w, b: t.layer_norm(x, [3], w, b),
        lambda rng: [Sample((_n(rng, 2, 3), _pos(rng, 3), _n(rng, 3)))],
        None,
    ),
    OpInfo(
        "torch.native_layer_norm",
        lambda t, x, w, b: t.native_layer_norm(x, (2, 3), w, b, 1e-5)[0],
        lambda rng: [Sample((_n(rng, 2, 2, 3), _pos(rng, 2, 3), _n(rng, 2, 3)))],
        None,
    ),
    OpInfo(
        "torch.group_norm",
        lambda t, x, w, b: t.group_norm(x, 2, w, b),
        lambda rng: [Sample((_n(rng, 2, 4, 3), _pos(rng, 4), _n(rng, 4)))],
        None,
    ),
    OpInfo(
        "torch.native_group_norm",
        lambda t, x: t.native_group_norm(x, None, None, 2, 4, 3, 2, 1e-5)[0],
        lambda rng: [Sample((_n(rng, 2, 4, 3),))],
        None,
    ),
    OpInfo(
        "torch.instance_norm",
        _instance_norm,
        lambda rng: [Sample((_n(rng, 2, 2, 4), _pos(rng, 2), _n(rng, 2)))],
        None,
    ),
    OpInfo(
        "torch.max_pool1d",
        lambda t, x, **k: t.max_pool1d(x, 2, **k),
        lambda rng: [
            Sample((_distinct(rng, 2, 2, 5),)),
            Sample((_distinct(rng, 1, 6),), {"stride": 1}),
        ],
        None,
        gradgrad=False,
    ),
    OpInfo(
        "torch.max_pool2d",
        lambda t, x: t.max_pool2d(x, 2, (), 1),
        lambda rng: [Sample((_distinct(rng, 1, 2, 4, 3),))],
        None,
        gradgrad=False,
    ),
    OpInfo(
        "torch.max_pool3d",
        lambda t, x: t.max_pool3d(x, (1, 2, 2)),
        lambda rng: [Sample((_distinct(rng, 1, 1, 2, 4, 4),))],
        None,
        gradgrad=False,
    ),
    OpInfo(
        "torch.avg_pool1d",
        lambda t, x: t.avg_pool1d(x, 3, 2, 1, True, False),
        lambda rng: [Sample((_n(rng, 2, 2, 6),))],
        None,
    ),
    OpInfo(
        "torch.adaptive_avg_pool1d",
        lambda t, x: t.adaptive_avg_pool1d(x, 3),
        lambda rng: [Sample((_n(rng, 2, 2, 7),))],
        None,
    ),
    OpInfo(
        "torch.adaptive_max_pool1d",
        lambda t, x: t.adaptive_max_pool1d(x, 3)[0],
        lambda rng: [Sample((_distinct(rng, 2, 2, 7),))],
        None,
        gradgrad=False,
    ),
    OpInfo(
        "torch.bilinear",
        lambda t, *a: t.bilinear(*a),
        lambda rng: [
            Sample((_n(rng, 2, 3), _n(rng, 2, 4), _n(rng, 5, 3, 4), _n(rng, 5))),
            Sample((_n(rng, 2, 3), _n(rng, 2, 4), _n(rng, 5, 3, 4))),
        ],
        None,
    ),
    OpInfo(
        "torch.binary_cross_entropy_with_logits",
        lambda t, x, *r: t.binary_cross_entropy_with_logits(
            x, _target(t, x, [1, 0, 1]), None, None, *r
        ),
        lambda rng: [Sample((_n(rng, 3),)), Sample((_n(rng, 3), 1)), Sample((_n(rng, 3), 2))],
        None,
    ),
    OpInfo(
        "torch.kl_div",
        lambda t, x, y, *r, **k: t.kl_div(x, y, *r, **k),
        lambda rng: [
            Sample((_n(rng, 2, 3), _unit(rng, 2, 3))),
            Sample((_n(rng, 2, 3), _unit(rng, 2, 3), 1)),
            Sample((_n(rng, 2, 3), _n(rng, 2, 3), 2), {"log_target": True}),
        ],
        None,
    ),
    OpInfo(
        "torch.cosine_embedding_loss",
        lambda t, a, b, *r: t.cosine_embedding_loss(a, b, _target(t, a, [1, -1, 1]), 0.1, *r),
        lambda rng: [
            Sample((_n(rng, 3, 4), _n(rng, 3, 4))),
            Sample((_n(rng, 3, 4), _n(rng, 3, 4), 1)),
        ],
        None,
    ),
    OpInfo(
        "torch.margin_ranking_loss",
        lambda t, a, b, *r: t.margin_ranking_loss(a, b, _target(t, a, [1, -1, 1]), 0.1, *r),
        lambda rng: [
            Sample((_away(rng, 3), _away(rng, 3) * 0.1)),
            Sample((_away(rng, 3), _away(rng, 3) * 0.1, 2)),
        ],
        None,
    ),
    OpInfo(
        "torch.hinge_embedding_loss",
        lambda t, a, *r: t.hinge_embedding_loss(a, _target(t, a, [1, -1, -1]), 2.0, *r),
        lambda rng: [Sample((_away(rng, 3),)), Sample((_away(rng, 3), 1))],
        None,
    ),
    OpInfo(
        "Tensor.prelu",
        lambda t, x, w: x.prelu(w),
        lambda rng: [Sample((_away(rng, 2, 3), _n(rng, 3)))],
        None,
    ),
    OpInfo(
        "Tensor.hardshrink",
        lambda t, x: x.hardshrink(0.3),
        lambda rng: [Sample((_away(rng, 2, 3, gap=0.4),))],
        lambda x: np.where(np.abs(x) > 0.3, x, 0),
    ),
]


# Samplers at parameters where the draw cannot matter (std 0, probabilities 0 and 1, rate
# 0): their values and (zero) gradients agree with torch; gradcheck does not apply.
def _zero_one(rng, *shape):
    return rng.integers(0, 2, shape).astype(np.float64)


SAMPLERS = [
    OpInfo(
        "normal_tensor_float",
        lambda t, m: t.normal(m, 0.0),
        lambda rng: [Sample((_n(rng, 2, 3),))],
        lambda m: m,
        grad=False,
    ),
    OpInfo(
        "normal_float_tensor",
        lambda t, s: t.normal(0.5, s * 0),
        lambda rng: [Sample((_n(rng, 3),))],
        lambda s: np.full_like(s, 0.5),
        grad=False,
    ),
    OpInfo(
        "normal_tensor_tensor",
        lambda t, m, s: t.normal(m, s * 0),
        lambda rng: [Sample((_n(rng, 2, 1), _n(rng, 3)))],
        lambda m, s: np.broadcast_to(m, (2, 3)),
        grad=False,
    ),
    OpInfo(
        "bernoulli",
        lambda t, p: t.bernoulli(p),
        lambda rng: [Sample((_zero_one(rng, 2, 5),))],
        lambda p: p,
        grad=False,
    ),
    OpInfo(
        "poisson",
        lambda t, r: t.poisson(r * 0),
        lambda rng: [Sample((_pos(rng, 4),))],
        lambda r: np.zeros_like(r),
        grad=False,
    ),
]
