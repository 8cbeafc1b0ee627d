"""Losses and distances beyond the op table: the layers against torch (repr, values, grad_fn,
gradients), torch's errors and warnings, and the reduction modes."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from nn_parity import assert_same_error, grad_fn_name

import numtorch

RNG = np.random.default_rng(0)
A, B, C = (RNG.standard_normal((3, 4)) for _ in range(3))
SIGNS = np.array([[1.0, -1.0, 1.0, -1.0], [-1.0, -1.0, 1.0, 1.0], [1.0, 1.0, -1.0, 1.0]])
COUNTS = np.floor(RNG.uniform(0, 5, (3, 4)))
VAR = RNG.uniform(0.5, 2.0, (3, 4))
LOG_P = np.log(RNG.dirichlet(np.ones(4), 3))
P = RNG.dirichlet(np.ones(4), 3)


def _long(m, values):
    return m.tensor(values)


# (id, module constructor, inputs: arrays (float ones require grad) or lib -> tensor)
LAYERS = [
    ("smooth-l1", lambda m: m.nn.SmoothL1Loss(beta=0.5), [A, B]),
    ("smooth-l1-legacy", lambda m: m.nn.SmoothL1Loss(reduce=False), [A, B]),
    ("huber", lambda m: m.nn.HuberLoss(reduction="sum", delta=0.5), [A, B]),
    ("kl-div", lambda m: m.nn.KLDivLoss(reduction="batchmean"), [LOG_P, P]),
    (
        "kl-div-log-target",
        lambda m: m.nn.KLDivLoss("none", log_target=True),
        [LOG_P, LOG_P[::-1].copy()],
    ),
    ("poisson", lambda m: m.nn.PoissonNLLLoss(), [A, COUNTS]),
    ("poisson-full", lambda m: m.nn.PoissonNLLLoss(False, True, reduction="sum"), [VAR, COUNTS]),
    ("gaussian", lambda m: m.nn.GaussianNLLLoss(full=True), [A, B, VAR]),
    ("soft-margin", lambda m: m.nn.SoftMarginLoss(), [A, lambda m: m.tensor(SIGNS)]),
    ("margin-ranking", lambda m: m.nn.MarginRankingLoss(0.2), [A, B, lambda m: m.tensor(SIGNS)]),
    ("hinge", lambda m: m.nn.HingeEmbeddingLoss(0.5), [A, lambda m: m.tensor(SIGNS)]),
    (
        "cosine-embedding",
        lambda m: m.nn.CosineEmbeddingLoss(0.1),
        [A, B, lambda m: m.tensor(SIGNS[:, 0])],
    ),
    ("triplet", lambda m: m.nn.TripletMarginLoss(swap=True), [A, B, C]),
    ("multilabel-soft-margin", lambda m: m.nn.MultiLabelSoftMarginLoss(), [A, (SIGNS > 0) * 1.0]),
    (
        "multilabel-soft-margin-weight",
        lambda m: m.nn.MultiLabelSoftMarginLoss(
            m.tensor([1.0, 2.0, 0.5, 1.0]).double(), reduction="none"
        ),
        [A, (SIGNS > 0) * 1.0],
    ),
    ("multi-margin", lambda m: m.nn.MultiMarginLoss(), [A, lambda m: _long(m, [0, 3, 1])]),
    (
        "multi-margin-weight",
        lambda m: m.nn.MultiMarginLoss(2, 0.5, m.tensor([1.0, 2.0, 0.5, 1.0]).double()),
        [A, lambda m: _long(m, [0, 3, 1])],
    ),
    ("cosine-similarity", lambda m: m.nn.CosineSimilarity(0, 1e-6), [A, B]),
    ("pairwise-distance", lambda m: m.nn.PairwiseDistance(1.5, keepdim=True), [A, B]),
]


def _inputs(m, values):
    out = []
    for v in values:
        if callable(v):
            out.append(v(m))
        else:
            out.append(m.tensor(v, requires_grad=v.dtype.kind == "f" and len(out) < 2))
    return out


@pytest.mark.parametrize("name, make, values", LAYERS, ids=[c[0] for c in LAYERS])
def test_layer_matches_torch(name, make, values):
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = make(numtorch), make(torch)
        assert repr(ours) == repr(theirs)
        nx, tx = _inputs(numtorch, values), _inputs(torch, values)
        ny, ty = ours(*nx), theirs(*tx)
    np.testing.assert_allclose(ny.detach().numpy(), ty.detach().numpy(), rtol=1e-10, atol=1e-12)
    assert grad_fn_name(ny) == grad_fn_name(ty)
    g = RNG.standard_normal(ty.shape)
    ny.backward(numtorch.tensor(g))
    ty.backward(torch.tensor(g))
    for a, b in zip(nx, tx):
        if b.requires_grad:
            np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-10, atol=1e-12)


def _x(t, *shape):
    return t.ones(*shape)


def _targets(t, *values):
    return t.tensor(values)


ERRORS = {
    "cross-entropy-float-target-0d": lambda t: t.nn.functional.cross_entropy(
        t.ones(3, 2, 2), t.tensor(0.5)
    ),
    "cross-entropy-float-target-batch": lambda t: t.nn.functional.cross_entropy(
        t.ones(3, 2, 2), t.ones(5)
    ),
    "cross-entropy-float-target-size": lambda t: t.nn.functional.cross_entropy(
        t.ones(3, 2, 2), t.ones(3, 2, 2, 1)
    ),
    "cross-entropy-float-target-dtype": lambda t: t.nn.functional.cross_entropy(
        t.ones(3, 2, 2), t.ones(3, 2)
    ),
    "smooth-l1-beta": lambda t: t.nn.functional.smooth_l1_loss(_x(t, 3), _x(t, 3), beta=-1.0),
    "smooth-l1-reduction": lambda t: t.nn.functional.smooth_l1_loss(
        _x(t, 3), _x(t, 3), reduction="x"
    ),
    "smooth-l1-shapes": lambda t: t.nn.functional.smooth_l1_loss(_x(t, 3, 4), _x(t, 3)),
    "smooth-l1-integer": lambda t: t.nn.functional.smooth_l1_loss(
        t.tensor([1, 2]), t.tensor([1, 3])
    ),
    "huber-delta": lambda t: t.nn.functional.huber_loss(_x(t, 3), _x(t, 3), delta=0.0),
    "huber-reduction": lambda t: t.nn.functional.huber_loss(_x(t, 3), _x(t, 3), reduction="x"),
    "huber-weight-size": lambda t: t.nn.functional.huber_loss(
        _x(t, 2, 3), _x(t, 2, 3), weight=_x(t, 3)
    ),
    "huber-weight-reduction": lambda t: t.nn.functional.huber_loss(
        _x(t, 3), _x(t, 3), reduction="x", weight=_x(t, 3)
    ),
    "huber-module-delta": lambda t: t.nn.HuberLoss(delta="1"),
    "kl-reduction": lambda t: t.nn.functional.kl_div(_x(t, 3), _x(t, 3), reduction="x"),
    "kl-integer": lambda t: t.nn.functional.kl_div(t.tensor([1, 2]), _x(t, 2)),
    "soft-margin-reduction": lambda t: t.nn.functional.soft_margin_loss(
        _x(t, 3), _x(t, 3), reduction="x"
    ),
    "soft-margin-shapes": lambda t: t.nn.functional.soft_margin_loss(_x(t, 3, 4), _x(t, 4, 4)),
    "soft-margin-target-grad": lambda t: t.nn.functional.soft_margin_loss(
        _x(t, 3), _x(t, 3).requires_grad_()
    ),
    "margin-ranking-dims": lambda t: t.nn.functional.margin_ranking_loss(
        _x(t, 3, 4), _x(t, 3, 4), _x(t, 3)
    ),
    "hinge-reduction": lambda t: t.nn.functional.hinge_embedding_loss(
        _x(t, 3), _x(t, 3), reduction="x"
    ),
    "cosine-target-dims": lambda t: t.nn.functional.cosine_embedding_loss(
        _x(t, 3, 4), _x(t, 3, 4), _x(t, 3, 1)
    ),
    "cosine-1d-target": lambda t: t.nn.functional.cosine_embedding_loss(
        _x(t, 4), _x(t, 4), _x(t, 3)
    ),
    "cosine-0d-target": lambda t: t.nn.functional.cosine_embedding_loss(
        _x(t, 3, 4), _x(t, 3, 4), t.tensor(1.0)
    ),
    "cosine-sizes": lambda t: t.nn.functional.cosine_embedding_loss(
        _x(t, 3, 4), _x(t, 3, 5), _x(t, 3)
    ),
    "cosine-target-size": lambda t: t.nn.functional.cosine_embedding_loss(
        _x(t, 3, 4), _x(t, 3, 4), _x(t, 2)
    ),
    "poisson-reduction": lambda t: t.nn.functional.poisson_nll_loss(
        _x(t, 3), _x(t, 3), reduction="x"
    ),
    "gaussian-negative": lambda t: t.nn.functional.gaussian_nll_loss(_x(t, 3), _x(t, 3), -_x(t, 3)),
    "gaussian-negative-float": lambda t: t.nn.functional.gaussian_nll_loss(
        _x(t, 3), _x(t, 3), -0.5
    ),
    "gaussian-size": lambda t: t.nn.functional.gaussian_nll_loss(
        _x(t, 3, 4), _x(t, 3, 4), _x(t, 2, 4)
    ),
    "gaussian-reduction": lambda t: t.nn.functional.gaussian_nll_loss(
        _x(t, 3), _x(t, 3), _x(t, 3), reduction="x"
    ),
    "triplet-margin": lambda t: t.nn.functional.triplet_margin_loss(
        _x(t, 3), _x(t, 3), _x(t, 3), margin=0.0
    ),
    "triplet-module-margin": lambda t: t.nn.TripletMarginLoss(margin=-1.0),
    "triplet-dims": lambda t: t.nn.functional.triplet_margin_loss(
        _x(t, 2, 3), _x(t, 3), _x(t, 2, 3)
    ),
    "multilabel-reduction": lambda t: t.nn.functional.multilabel_soft_margin_loss(
        _x(t, 3), _x(t, 3), reduction="x"
    ),
    "multi-margin-p": lambda t: t.nn.functional.multi_margin_loss(
        _x(t, 2, 3), _targets(t, 0, 1), p=3
    ),
    "multi-margin-weight-dims": lambda t: t.nn.functional.multi_margin_loss(
        _x(t, 2, 3), _targets(t, 0, 1), weight=_x(t, 3, 1)
    ),
    "multi-margin-weight-size": lambda t: t.nn.functional.multi_margin_loss(
        _x(t, 2, 3), _targets(t, 0, 1), weight=_x(t, 2)
    ),
    "multi-margin-weight-grad": lambda t: t.nn.functional.multi_margin_loss(
        _x(t, 2, 3), _targets(t, 0, 1), weight=_x(t, 3).requires_grad_()
    ),
    "multi-margin-target-range": lambda t: t.nn.functional.multi_margin_loss(
        _x(t, 2, 3), _targets(t, 0, 3)
    ),
    "multi-margin-target-negative": lambda t: t.nn.functional.multi_margin_loss(
        _x(t, 2, 3), _targets(t, -1, 0)
    ),
    "multi-margin-target-size": lambda t: t.nn.functional.multi_margin_loss(
        _x(t, 2, 3), _targets(t, 0)
    ),
    "multi-margin-target-dtype": lambda t: t.nn.functional.multi_margin_loss(_x(t, 2, 3), _x(t, 2)),
    "multi-margin-dims": lambda t: t.nn.functional.multi_margin_loss(
        _x(t, 2, 3, 4), _targets(t, 0, 1)
    ),
    "multi-margin-module-p": lambda t: t.nn.MultiMarginLoss(p=3),
    "cosine-similarity-sizes": lambda t: t.nn.functional.cosine_similarity(
        _x(t, 3, 4), _x(t, 3, 5)
    ),
    "cosine-similarity-integer": lambda t: t.nn.functional.cosine_similarity(
        t.tensor([1, 2]), t.tensor([1, 3]), dim=0
    ),
    "cosine-similarity-dim": lambda t: t.nn.functional.cosine_similarity(
        _x(t, 3, 4), _x(t, 3, 4), dim=2
    ),
    "pairwise-sizes": lambda t: t.nn.functional.pairwise_distance(_x(t, 3, 4), _x(t, 3, 5)),
    "pdist-dims": lambda t: t.nn.functional.pdist(_x(t, 3)),
    "pdist-p": lambda t: t.nn.functional.pdist(_x(t, 3, 2), p=-1),
    "pdist-integer": lambda t: t.nn.functional.pdist(t.ones(3, 2, dtype=t.long)),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_error_matches_torch(name):
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same_error(ERRORS[name], torch)


def test_kl_div_warns_for_mean_as_torch():
    torch = pytest.importorskip("torch")
    for lib in (numtorch, torch):
        with pytest.warns(UserWarning) as record:
            lib.nn.functional.kl_div(lib.zeros(2, 3), lib.ones(2, 3) / 3)
        messages = [str(w.message) for w in record]
        if lib is numtorch:
            ours = messages
    assert ours == messages
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        numtorch.nn.functional.kl_div(
            numtorch.zeros(2, 3), numtorch.ones(2, 3), reduction="batchmean"
        )


def test_broadcast_warning_points_at_the_caller():
    with pytest.warns(UserWarning, match="Using a target size") as record:
        numtorch.nn.functional.smooth_l1_loss(numtorch.zeros(2, 3), numtorch.zeros(3))
    assert record[0].filename == __file__


def test_pdist_matches_all_pairs_and_differentiates_once_as_torch():
    x = numtorch.randn(5, 3, dtype=numtorch.float64, requires_grad=True)
    d = numtorch.nn.functional.pdist(x)
    rows, cols = np.triu_indices(5, 1)
    expected = np.linalg.norm(x.detach().numpy()[rows] - x.detach().numpy()[cols], axis=1)
    np.testing.assert_allclose(d.detach().numpy(), expected)
    assert numtorch.autograd.gradcheck(numtorch.nn.functional.pdist, (x,))
    # torch's _pdist_backward has no derivative: its node raises
    (g,) = numtorch.autograd.grad(d.sum(), x, create_graph=True)
    assert g.grad_fn.name() == "PdistBackwardBackward0"
    with pytest.raises(NotImplementedError, match="_pdist_backward"):
        g.sum().backward()


def test_bce_with_logits_target_gradient_differentiates_log_sigmoid_at_zero():
    # the target's gradient is log_sigmoid(-x) - pos_weight log_sigmoid(x), differentiated
    # through log_sigmoid's own backward (exact at x = 0, where min/abs have kinks)
    torch = pytest.importorskip("torch")
    found = []
    for lib in (numtorch, torch):
        x = lib.tensor([[0.0, 1.5, -2.0]], requires_grad=True)
        y = lib.tensor([[0.3, 0.6, 0.9]], requires_grad=True)
        pos_weight = lib.tensor([0.5, 2.0, 1.0])
        loss = lib.nn.functional.binary_cross_entropy_with_logits(x, y, pos_weight=pos_weight)
        gx, gy = lib.autograd.grad(loss, (x, y), create_graph=True)
        found.append(lib.autograd.grad((gx * 2 + gy * 3).sum(), (x, y)))
    for a, b in zip(*found):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)


@pytest.mark.parametrize("label_smoothing", [0.0, 0.1])
def test_cross_entropy_with_probabilities_of_an_empty_batch_is_a_filled_nan(label_smoothing):
    # torch's mean over no samples fills the sum with NaN in place and negates it
    torch = pytest.importorskip("torch")
    found = []
    for lib in (numtorch, torch):
        x = lib.zeros(0, 4, dtype=lib.float64, requires_grad=True)
        target = lib.zeros(0, 4, dtype=lib.float64)
        loss = lib.nn.functional.cross_entropy(x, target, label_smoothing=label_smoothing)
        (grad,) = lib.autograd.grad(loss, x)
        found.append((grad_fn_name(loss), np.isnan(loss.item()), tuple(grad.shape)))
    assert found[0] == found[1]


def _node_names(node, seen=None):
    seen = set() if seen is None else seen
    if node is None or id(node) in seen:
        return []
    seen.add(id(node))
    names = [node.name()]
    for nxt, _ in node.next_functions:
        names += _node_names(nxt, seen)
    return names


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
def test_label_smoothed_cross_entropy_graph_matches_torch(reduction, weighted):
    """torch's composite scales both parts by Scalars: MulBackward1 nodes in its graph."""
    torch = pytest.importorskip("torch")
    graphs = []
    for lib in (numtorch, torch):
        x = lib.tensor(A, requires_grad=True)
        weight = lib.tensor(VAR[0]) if weighted else None
        loss = lib.nn.functional.cross_entropy(
            x, lib.tensor([0, 3, 1]), weight, reduction=reduction, label_smoothing=0.2
        )
        graphs.append(_node_names(loss.grad_fn))
    assert graphs[0] == graphs[1]
