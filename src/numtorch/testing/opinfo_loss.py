"""Op samples for the losses and distances added beyond the core ones (part of
``opinfo.OP_DB``): smooth L1, Huber, KL divergence, Poisson and Gaussian NLL, the margin
losses, cosine similarity, pairwise distances, pdist and xlogy.

Targets that torch does not differentiate (signs, class indices) are built inside the entry.
"""

from __future__ import annotations

import numpy as np

from .opinfo import OpInfo, Sample, _n, _pos


def _f(t):
    return t.nn.functional


def _signs(t, x, values=(1.0, -1.0, -1.0, 1.0)):
    """A fixed +-1 target shaped like ``x`` (its last dim at most 4)."""
    row = np.asarray(values[: x.shape[-1]] if x.ndim else values[0])
    return t.tensor(np.broadcast_to(row, tuple(x.shape)).copy(), dtype=x.dtype)


def _log_probs(rng, *shape):
    return np.log(rng.dirichlet(np.ones(shape[-1]), shape[:-1]))


def _pair(make=_n, shape=(3, 4)):
    return lambda rng: [Sample((make(rng, *shape), make(rng, *shape)))]


def _with_reductions(make, reductions=("mean", "none")):
    return lambda rng: [Sample(make(rng), {"reduction": r}) for r in reductions]


LOSSES = [
    OpInfo(
        "smooth_l1_loss",
        lambda t, x, y, **k: _f(t).smooth_l1_loss(x, y, beta=0.7, **k),
        lambda rng: [
            Sample((_n(rng, 3, 4) * 2, _n(rng, 3, 4))),
            Sample((_n(rng, 3, 4) * 2, _n(rng, 3, 4)), {"reduction": "none"}),
        ],
    ),
    OpInfo(
        "huber_loss",
        lambda t, x, y, **k: _f(t).huber_loss(x, y, delta=0.8, **k),
        _with_reductions(lambda rng: (_n(rng, 3, 4) * 2, _n(rng, 3, 4)), ("sum", "none")),
    ),
    OpInfo(
        "kl_div",
        lambda t, x, y, **k: _f(t).kl_div(x, y, **k),
        lambda rng: [
            Sample(
                (_log_probs(rng, 3, 4), np.exp(_log_probs(rng, 3, 4))), {"reduction": "batchmean"}
            ),
            Sample(
                (_log_probs(rng, 2, 3), _log_probs(rng, 2, 3)),
                {"log_target": True, "reduction": "none"},
            ),
        ],
    ),
    OpInfo(
        "soft_margin_loss",
        lambda t, x, **k: _f(t).soft_margin_loss(x, _signs(t, x), **k),
        _with_reductions(lambda rng: (_n(rng, 3, 4),)),
    ),
    OpInfo(
        "margin_ranking_loss",
        lambda t, a, b, **k: _f(t).margin_ranking_loss(a, b, _signs(t, a), 0.3, **k),
        _with_reductions(lambda rng: (_n(rng, 2, 4), _n(rng, 2, 4))),
    ),
    OpInfo(
        "hinge_embedding_loss",
        lambda t, x, **k: _f(t).hinge_embedding_loss(x, _signs(t, x), 0.5, **k),
        _with_reductions(lambda rng: (_n(rng, 3, 4),)),
    ),
    OpInfo(
        "cosine_embedding_loss",
        lambda t, a, b, **k: _f(t).cosine_embedding_loss(
            a, b, _signs(t, a[:, 0]) if a.ndim == 2 else _signs(t, a[0]), 0.1, **k
        ),
        lambda rng: [
            Sample((_n(rng, 3, 4), _n(rng, 3, 4))),
            Sample((_n(rng, 4), _n(rng, 4)), {"reduction": "sum"}),
        ],
    ),
    OpInfo(
        "poisson_nll_loss",
        lambda t, x, y, **k: _f(t).poisson_nll_loss(x, y, **k),
        lambda rng: [
            Sample((_n(rng, 3, 4), _pos(rng, 3, 4) * 2)),
            Sample((_pos(rng, 3, 4), _pos(rng, 3, 4) * 2), {"log_input": False, "full": True}),
        ],
    ),
    OpInfo(
        "gaussian_nll_loss",
        lambda t, x, y, v, **k: _f(t).gaussian_nll_loss(x, y, v, **k),
        lambda rng: [
            Sample((_n(rng, 3, 4), _n(rng, 3, 4), _pos(rng, 3, 4))),
            Sample(
                (_n(rng, 3, 4), _n(rng, 3, 4), _pos(rng, 3)), {"full": True, "reduction": "none"}
            ),
        ],
    ),
    OpInfo(
        "triplet_margin_loss",
        lambda t, anchor, pos, neg, **k: _f(t).triplet_margin_loss(anchor, pos, neg, **k),
        lambda rng: [
            Sample((_n(rng, 3, 4), _n(rng, 3, 4), _n(rng, 3, 4) * 2)),
            Sample(
                (_n(rng, 3, 4), _n(rng, 3, 4), _n(rng, 3, 4)), {"p": 1, "swap": True, "margin": 2.0}
            ),
        ],
    ),
    OpInfo(
        "multilabel_soft_margin_loss",
        lambda t, x, y, **k: _f(t).multilabel_soft_margin_loss(x, y, **k),
        _with_reductions(lambda rng: (_n(rng, 3, 4), rng.uniform(0.1, 0.9, (3, 4)))),
    ),
    OpInfo(
        "multi_margin_loss",
        lambda t, x, **k: _f(t).multi_margin_loss(
            x, t.tensor([0, 3, 1] if x.ndim == 2 else 2), **k
        ),
        lambda rng: [
            Sample((_n(rng, 3, 4),)),
            Sample((_n(rng, 3, 4),), {"p": 2, "margin": 0.7, "reduction": "none"}),
            Sample((_n(rng, 4),), {"reduction": "sum"}),
        ],
        gradgrad=False,  # torch has no derivative for multi_margin_loss_backward either
    ),
    OpInfo(
        "multilabel_margin_loss",
        lambda t, x, **k: _f(t).multilabel_margin_loss(
            x,
            t.tensor(
                [[3, 0, -1, 1], [1, 1, 2, -1], [-1, 0, 0, 0]][: len(x)]
                if x.ndim == 2
                else [2, 0, -1, 3]
            ),
            **k,
        ),
        lambda rng: [
            Sample((_n(rng, 3, 4),)),
            Sample((_n(rng, 2, 4),), {"reduction": "none"}),
            Sample((_n(rng, 4),), {"reduction": "sum"}),
        ],
        gradgrad=False,  # torch has no derivative for multilabel_margin_loss_backward either
    ),
    OpInfo(
        "multi_margin_loss_weight",
        lambda t, x: _f(t).multi_margin_loss(
            x, t.tensor([0, 3, 1]), 2, weight=t.tensor([1.0, 2.0, 0.5, 1.0], dtype=x.dtype)
        ),
        lambda rng: [Sample((_n(rng, 3, 4),))],
        gradgrad=False,
    ),
    OpInfo(
        "cosine_similarity",
        lambda t, a, b, **k: _f(t).cosine_similarity(a, b, **k),
        lambda rng: [
            Sample((_n(rng, 3, 4), _n(rng, 3, 4))),
            Sample((_n(rng, 2, 3, 4), _n(rng, 4)), {"dim": -1}),
        ],
    ),
    OpInfo(
        "pairwise_distance",
        lambda t, a, b, **k: _f(t).pairwise_distance(a, b, **k),
        lambda rng: [
            Sample((_n(rng, 3, 4), _n(rng, 3, 4))),
            Sample((_n(rng, 3, 4), _n(rng, 4)), {"p": 3.0, "keepdim": True}),
            Sample((_n(rng, 3, 4), _n(rng, 3, 4)), {"p": 1.0}),
        ],
    ),
    OpInfo(
        "pdist",
        lambda t, x, **k: _f(t).pdist(x, **k),
        lambda rng: [Sample((_n(rng, 4, 3),)), Sample((_n(rng, 4, 3),), {"p": 3.0})],
        gradgrad=False,  # torch's _pdist_backward has no derivative
    ),
    OpInfo(
        "normalize",
        lambda t, x, **k: _f(t).normalize(x, **k),
        lambda rng: [Sample((_n(rng, 3, 4),)), Sample((_n(rng, 3, 4),), {"p": 1.0, "dim": 0})],
    ),
    OpInfo(
        "xlogy",
        lambda t, x, y: t.xlogy(x, y),
        lambda rng: [
            Sample((_n(rng, 3, 4), _pos(rng, 3, 4))),
            Sample((_n(rng, 3), 2.5)),
            Sample((1.5, _pos(rng, 3))),
        ],
        lambda x, y: x * np.log(y),
    ),
]

# linear_cross_entropy: Linear to logits, then cross entropy (K-dimensional with out_features)
LOSSES += [
    OpInfo(
        "linear_cross_entropy",
        lambda t, x, w, b: t.nn.functional.linear_cross_entropy(
            x, w, t.tensor([0, 2, 1]), linear_bias=b
        ),
        lambda rng: [Sample((_n(rng, 3, 4), _n(rng, 3, 4), _n(rng, 3)))],
    ),
    OpInfo(
        "linear_cross_entropy_k_dim",
        lambda t, x, w: t.nn.functional.linear_cross_entropy(
            x, w, t.tensor([[0, 2], [1, 1]]), reduction="none", label_smoothing=0.1
        ),
        lambda rng: [Sample((_n(rng, 2, 3), _n(rng, 3, 2, 3)))],
    ),
]
