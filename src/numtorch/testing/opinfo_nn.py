"""Op samples for the nn primitives (convolution, pooling, normalization, losses, ...).

Part of the op sample table (``opinfo.OP_DB``): each entry calls ``torch.nn.functional`` (or
its numtorch twin) so the same expression runs in both libraries. Integer targets and
running statistics are built inside the entry, so that only float arrays become inputs that
require grad.
"""

from __future__ import annotations

import numpy as np

from .opinfo import OpInfo, Sample, _away, _distinct, _n, _pos


def _f(t):
    return t.nn.functional


def _unit(rng, *shape):
    return rng.uniform(0.1, 0.9, shape)


def _indices(t, values):
    return t.tensor(np.asarray(values, dtype=np.int64))


def _conv_samples(rng):
    return [
        Sample((_n(rng, 2, 2, 5, 4), _n(rng, 3, 2, 3, 2), _n(rng, 3))),
        Sample((_n(rng, 1, 2, 5, 5), _n(rng, 2, 2, 2, 2), None), {"stride": 2, "padding": 1}),
        Sample((_n(rng, 1, 4, 5, 4), _n(rng, 2, 2, 3, 2), None), {"dilation": 2, "groups": 2}),
    ]


def _conv_transpose_samples(rng):
    return [
        Sample((_n(rng, 1, 2, 3, 2), _n(rng, 2, 3, 3, 2), _n(rng, 3))),
        Sample(
            (_n(rng, 1, 4, 2, 3), _n(rng, 4, 1, 2, 2), None),
            {"stride": 2, "padding": 1, "output_padding": 1, "groups": 2},
        ),
        # output_padding >= stride (allowed below dilation): Note [Wide output padding]
        Sample(
            (_n(rng, 1, 2, 3, 2), _n(rng, 2, 2, 2, 2), _n(rng, 2)),
            {"stride": (1, 2), "padding": (1, 0), "output_padding": (1, 2), "dilation": 3},
        ),
    ]


def _batch_norm_eval(t, x, w, b):
    mean = t.tensor([0.1, -0.2], dtype=x.dtype)
    var = t.tensor([0.5, 2.0], dtype=x.dtype)
    return _f(t).batch_norm(x, mean, var, w, b, training=False)


def _instance_norm_stats(t, x, training):
    # the output's dependence on x; the running statistics are checked by the layer tests
    mean = t.tensor([0.1, -0.2], dtype=x.dtype)
    var = t.tensor([0.5, 2.0], dtype=x.dtype)
    return _f(t).instance_norm(x, mean, var, use_input_stats=training, momentum=0.3)


def _pool_gradient(t, x, pool):
    # the gradient of a max pool as a function of x: its derivative runs the pool's gather
    recording = t.is_grad_enabled()
    with t.enable_grad():
        grad = t.autograd.grad(pool(x, 2).pow(2).sum(), x, create_graph=recording)[0]
    return grad if recording else grad.detach()


NN = [
    OpInfo("conv2d", lambda t, x, w, b, **k: _f(t).conv2d(x, w, b, **k), _conv_samples),
    OpInfo(
        "conv1d",
        lambda t, x, w: _f(t).conv1d(x, w, stride=2, padding=1),
        lambda rng: [Sample((_n(rng, 2, 2, 5), _n(rng, 3, 2, 3)))],
    ),
    OpInfo(
        "conv3d",
        lambda t, x, w: _f(t).conv3d(x, w),
        lambda rng: [Sample((_n(rng, 1, 1, 3, 3, 2), _n(rng, 2, 1, 2, 2, 1)))],
    ),
    OpInfo(
        "conv_transpose2d",
        lambda t, x, w, b, **k: _f(t).conv_transpose2d(x, w, b, **k),
        _conv_transpose_samples,
    ),
    OpInfo(
        "max_pool2d",
        lambda t, x, **k: _f(t).max_pool2d(x, **k),
        lambda rng: [
            Sample((_distinct(rng, 1, 2, 4, 4),), {"kernel_size": 2}),
            Sample((_distinct(rng, 1, 1, 5, 5),), {"kernel_size": 3, "stride": 2, "padding": 1}),
        ],
    ),
    OpInfo(
        "max_pool3d",
        lambda t, x: _f(t).max_pool3d(x, 2),
        lambda rng: [Sample((_distinct(rng, 1, 1, 2, 4, 2),))],
    ),
    OpInfo(
        "max_pool2d_gradient",
        lambda t, x: _pool_gradient(t, x, _f(t).max_pool2d),
        lambda rng: [Sample((_distinct(rng, 1, 2, 4, 4),))],
    ),
    OpInfo(
        "max_pool3d_gradient",
        lambda t, x: _pool_gradient(t, x, _f(t).max_pool3d),
        lambda rng: [Sample((_distinct(rng, 1, 1, 2, 2, 4),))],
    ),
    OpInfo(
        "avg_pool2d",
        lambda t, x, **k: _f(t).avg_pool2d(x, **k),
        lambda rng: [
            Sample((_n(rng, 1, 2, 4, 4),), {"kernel_size": 2}),
            Sample(
                (_n(rng, 1, 1, 5, 4),),
                {"kernel_size": 3, "stride": 2, "padding": 1, "count_include_pad": False},
            ),
        ],
    ),
    OpInfo(
        "avg_pool3d",
        lambda t, x: _f(t).avg_pool3d(x, 2, 1),
        lambda rng: [Sample((_n(rng, 1, 1, 2, 3, 2),))],
    ),
    OpInfo(
        "adaptive_avg_pool2d",
        lambda t, x: _f(t).adaptive_avg_pool2d(x, (2, 3)),
        lambda rng: [Sample((_n(rng, 1, 2, 5, 4),))],
    ),
    OpInfo(
        "adaptive_avg_pool3d",
        lambda t, x: _f(t).adaptive_avg_pool3d(x, (2, 1, 2)),
        lambda rng: [Sample((_n(rng, 1, 1, 3, 2, 3),))],
    ),
    OpInfo(
        "batch_norm",
        lambda t, x, w, b: _f(t).batch_norm(x, None, None, w, b, training=True),
        lambda rng: [Sample((_n(rng, 3, 2, 2), _n(rng, 2), _n(rng, 2)))],
    ),
    OpInfo(
        "batch_norm_eval",
        _batch_norm_eval,
        lambda rng: [Sample((_n(rng, 3, 2, 2), _n(rng, 2), _n(rng, 2)))],
    ),
    OpInfo(
        "layer_norm",
        lambda t, x, w, b: _f(t).layer_norm(x, (3,), w, b),
        lambda rng: [Sample((_n(rng, 2, 3), _n(rng, 3), _n(rng, 3)))],
    ),
    OpInfo(
        "group_norm",
        lambda t, x, w, b: _f(t).group_norm(x, 2, w, b),
        lambda rng: [Sample((_n(rng, 2, 4, 2), _n(rng, 4), _n(rng, 4)))],
    ),
    OpInfo(
        "instance_norm",
        lambda t, x, w, b: _f(t).instance_norm(x, weight=w, bias=b, eps=1e-3),
        lambda rng: [Sample((_n(rng, 2, 3, 4), _n(rng, 3), _n(rng, 3)))],
    ),
    OpInfo(
        "instance_norm_running_stats",
        _instance_norm_stats,
        lambda rng: [
            Sample((_n(rng, 2, 2, 3, 2),), {"training": True}),
            Sample((_n(rng, 2, 2, 3),), {"training": False}),
        ],
    ),
    OpInfo(
        "rms_norm",
        lambda t, x, *w, **k: _f(t).rms_norm(x, k.pop("shape"), *w, **k),
        lambda rng: [
            Sample((_n(rng, 2, 3),), {"shape": (3,)}),
            Sample((_n(rng, 2, 3, 2), _n(rng, 3, 2)), {"shape": (3, 2), "eps": 1e-3}),
        ],
    ),
    OpInfo(
        "local_response_norm",
        lambda t, x, size: _f(t).local_response_norm(x, size, alpha=0.5, k=1.5),
        lambda rng: [Sample((_n(rng, 2, 5, 3), 3)), Sample((_n(rng, 1, 4, 2, 3), 2))],
    ),
    OpInfo(
        "nll_loss",
        lambda t, x, **k: _f(t).nll_loss(x, _indices(t, [0, 2, 1]), **k),
        lambda rng: [
            Sample((_n(rng, 3, 4),)),
            Sample((_n(rng, 3, 4),), {"reduction": "none", "ignore_index": 2}),
            Sample((_n(rng, 3, 4),), {"reduction": "sum"}),
        ],
    ),
    OpInfo(
        "nll_loss2d",
        lambda t, x: _f(t).nll_loss(x, _indices(t, [[[0, 2], [1, 1]]]), reduction="sum"),
        lambda rng: [Sample((_n(rng, 1, 3, 2, 2),))],
    ),
    OpInfo(
        "cross_entropy",
        lambda t, x: _f(t).cross_entropy(x, _indices(t, [3, 0]), label_smoothing=0.1),
        lambda rng: [Sample((_n(rng, 2, 4),))],
    ),
    OpInfo(
        "cross_entropy_probabilities",
        lambda t, x, p, **k: _f(t).cross_entropy(x, p, **k),
        lambda rng: [
            Sample((_n(rng, 2, 4), _unit(rng, 2, 4))),
            Sample((_n(rng, 2, 4), _unit(rng, 2, 4)), {"label_smoothing": 0.2}),
            Sample((_n(rng, 3, 2, 2), _unit(rng, 3, 2, 2)), {"reduction": "sum"}),
            Sample((_n(rng, 4), _unit(rng, 4)), {"reduction": "none"}),
        ],
    ),
    OpInfo(
        "mse_loss",
        lambda t, a, b, **k: _f(t).mse_loss(a, b, **k),
        lambda rng: [
            Sample((_n(rng, 2, 3), _n(rng, 2, 3))),
            Sample((_n(rng, 2, 3), _n(rng, 2, 3)), {"reduction": "sum"}),
        ],
        lambda a, b, reduction="mean": getattr(np, reduction)((a - b) ** 2),
    ),
    OpInfo(
        "binary_cross_entropy",
        lambda t, p, y: _f(t).binary_cross_entropy(p, y),
        lambda rng: [Sample((_unit(rng, 2, 3), _unit(rng, 2, 3)))],
        lambda p, y: np.mean(-(y * np.log(p) + (1 - y) * np.log(1 - p))),
    ),
    OpInfo(
        "binary_cross_entropy_with_logits",
        lambda t, x, y: _f(t).binary_cross_entropy_with_logits(
            x, y, pos_weight=t.tensor([0.5, 2.0, 1.0], dtype=x.dtype)
        ),
        lambda rng: [Sample((_n(rng, 2, 3), _unit(rng, 2, 3)))],
    ),
    OpInfo(
        "embedding",
        lambda t, w: _f(t).embedding(_indices(t, [[0, 2, 2], [3, 0, 2]]), w, padding_idx=1),
        lambda rng: [Sample((_n(rng, 4, 3),))],
    ),
    OpInfo("gelu", lambda t, x: _f(t).gelu(x), lambda rng: [Sample((_n(rng, 2, 3),))]),
    OpInfo(
        "gelu_tanh",
        lambda t, x: _f(t).gelu(x, approximate="tanh"),
        lambda rng: [Sample((_n(rng, 2, 3),))],
    ),
    OpInfo("silu", lambda t, x: _f(t).silu(x), lambda rng: [Sample((_n(rng, 2, 3),))]),
    OpInfo(
        "leaky_relu",
        lambda t, x: _f(t).leaky_relu(x, 0.2),
        lambda rng: [Sample((_away(rng, 2, 3),))],
        lambda x: np.where(x > 0, x, 0.2 * x),
    ),
    OpInfo(
        "hardtanh",
        lambda t, x: _f(t).hardtanh(x, -1.0, 1.5),
        lambda rng: [Sample((np.array([-2.0, -0.5, 0.3, 1.2, 1.9]),))],
        lambda x: np.clip(x, -1.0, 1.5),
    ),
    OpInfo(
        "softplus",
        lambda t, x: _f(t).softplus(x, beta=2.0, threshold=3.0),
        lambda rng: [Sample((np.array([-2.0, -0.5, 0.3, 1.0, 2.5]),))],
    ),
    OpInfo(
        "erf",
        lambda t, x: t.erf(x),
        lambda rng: [Sample((_n(rng, 2, 3),)), Sample((_pos(rng, 4) * 2,))],
    ),
    OpInfo("erfc", lambda t, x: t.erfc(x), lambda rng: [Sample((_n(rng, 2, 3),))]),
    *[
        OpInfo(
            f"pad_{mode}",
            lambda t, x, pad, mode=mode: _f(t).pad(x, pad, mode=mode),
            lambda rng: [
                Sample((_n(rng, 2, 4), (1, 2))),
                Sample((_n(rng, 1, 3, 4), (1, 1, 2, 0))),
                Sample((_n(rng, 1, 3, 3, 3), (1, 0, 0, 1, 2, 1))),
            ],
        )
        for mode in ("reflect", "replicate", "circular")
    ],
    OpInfo(
        "pad_constant",
        lambda t, x: _f(t).pad(x, (1, 2, -1, 1), value=0.5),
        lambda rng: [Sample((_n(rng, 3, 4),))],
    ),
]
