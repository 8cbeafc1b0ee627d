"""numtorch.nn.functional: losses, convolution and pooling grids, dropout, embedding, padding,
one_hot and erf, against torch where it is installed and against references otherwise."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from nn_parity import grad_fn_name

import numtorch
import numtorch.nn.functional as F

RNG = np.random.default_rng(0)
# Core naming differences outside nn: numtorch's division by a Python number records
# DivBackward0 where torch records DivBackward1.
KNOWN_NAME_DIFFERENCES = {("DivBackward0", "DivBackward1")}


def _both(torch, *arrays, grad=()):
    ours = [numtorch.tensor(a, requires_grad=i in grad) for i, a in enumerate(arrays)]
    theirs = [torch.tensor(a, requires_grad=i in grad) for i, a in enumerate(arrays)]
    return ours, theirs


def _compare(fn, torch, arrays, grad=(0,), atol=1e-6):
    ours, theirs = _both(torch, *arrays, grad=grad)
    y, ty = fn(numtorch, ours), fn(torch, theirs)
    np.testing.assert_allclose(y.detach().numpy(), ty.detach().numpy(), rtol=1e-5, atol=atol)
    names = (grad_fn_name(y), grad_fn_name(ty))
    assert names[0] == names[1] or names in KNOWN_NAME_DIFFERENCES
    g = RNG.standard_normal(ty.shape)
    y.backward(numtorch.tensor(g))
    ty.backward(torch.tensor(g))
    for a, b in zip(ours, theirs):
        if b.requires_grad:
            np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-5, atol=atol)


# -- losses ----------------------------------------------------------------------------------
LOGITS = RNG.standard_normal((5, 4))
TARGET = np.array([0, 3, 1, 3, 2])
IGNORED = np.array([0, -100, 1, 3, -100])
WEIGHT = np.array([0.5, 2.0, 1.0, 1.5])
PROBS = RNG.dirichlet(np.ones(4), 5)
IMAGE_LOGITS = RNG.standard_normal((2, 3, 2, 2))
IMAGE_TARGET = RNG.integers(0, 3, (2, 2, 2))
SEQ_LOGITS = RNG.standard_normal((2, 3, 4))
SEQ_TARGET = RNG.integers(0, 3, (2, 4))

LOSSES = [
    ("ce", lambda m, x, t: m.nn.functional.cross_entropy(x, t, reduction=R), [LOGITS, TARGET]),
    (
        "ce-weight-ignore",
        lambda m, x, t, w: m.nn.functional.cross_entropy(x, t, w, reduction=R),
        [LOGITS, IGNORED, WEIGHT],
    ),
    (
        "ce-smoothing",
        lambda m, x, t, w: m.nn.functional.cross_entropy(x, t, w, reduction=R, label_smoothing=0.2),
        [LOGITS, IGNORED, WEIGHT],
    ),
    ("ce-probs", lambda m, x, t: m.nn.functional.cross_entropy(x, t, reduction=R), [LOGITS, PROBS]),
    (
        "ce-probs-smoothing-weight",
        lambda m, x, t, w: m.nn.functional.cross_entropy(x, t, w, reduction=R, label_smoothing=0.1),
        [LOGITS, PROBS, WEIGHT],
    ),
    (
        "ce-image",
        lambda m, x, t: m.nn.functional.cross_entropy(x, t, reduction=R),
        [IMAGE_LOGITS, IMAGE_TARGET],
    ),
    (
        "ce-unbatched",
        lambda m, x, t: m.nn.functional.cross_entropy(x, t, reduction=R),
        [LOGITS[0], np.array(2)],
    ),
    ("nll", lambda m, x, t: m.nn.functional.nll_loss(x, t, reduction=R), [LOGITS, IGNORED]),
    (
        "nll-weight",
        lambda m, x, t, w: m.nn.functional.nll_loss(x, t, w, reduction=R, ignore_index=3),
        [LOGITS, TARGET, WEIGHT],
    ),
    (
        "nll-image",
        lambda m, x, t: m.nn.functional.nll_loss(x, t, reduction=R),
        [IMAGE_LOGITS, IMAGE_TARGET],
    ),
    (
        "nll-sequence",
        lambda m, x, t: m.nn.functional.nll_loss(x, t, reduction=R),
        [SEQ_LOGITS, SEQ_TARGET],
    ),
    ("mse", lambda m, x, t: m.nn.functional.mse_loss(x, t, reduction=R), [LOGITS, PROBS]),
    ("l1", lambda m, x, t: m.nn.functional.l1_loss(x, t, reduction=R), [LOGITS, PROBS]),
    (
        "bce",
        lambda m, x, t, w: m.nn.functional.binary_cross_entropy(x, t, w[:1], reduction=R),
        [PROBS, RNG.random((5, 4)), WEIGHT],
    ),
    (
        "bce-logits",
        lambda m, x, t, w: m.nn.functional.binary_cross_entropy_with_logits(
            x, t, reduction=R, pos_weight=w
        ),
        [LOGITS * 10, RNG.random((5, 4)), WEIGHT],
    ),
]
R = "mean"


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("name, fn, arrays", LOSSES, ids=[c[0] for c in LOSSES])
def test_loss_matches_torch(name, fn, arrays, reduction):
    torch = pytest.importorskip("torch")
    global R
    R = reduction
    grad = (0, 1) if name in ("mse", "l1", "bce", "bce-logits", "ce-probs") else (0,)
    _compare(lambda m, ts: fn(m, *ts), torch, arrays, grad=grad)


@pytest.mark.parametrize("name, fn, arrays", LOSSES, ids=[c[0] for c in LOSSES])
def test_loss_gradcheck(name, fn, arrays):
    global R
    R = "mean"
    grad = (0, 1) if name in ("mse", "bce-logits", "ce-probs") else (0,)
    tensors = [numtorch.tensor(a, requires_grad=i in grad) for i, a in enumerate(arrays)]
    assert numtorch.autograd.gradcheck(lambda *ts: fn(numtorch, *ts), tuple(tensors))


def test_loss_modules_match_functions():
    x = numtorch.tensor(LOGITS)
    t = numtorch.tensor(TARGET)
    w = numtorch.tensor(WEIGHT)
    nn = numtorch.nn
    assert nn.CrossEntropyLoss(w, label_smoothing=0.1)(x, t).item() == pytest.approx(
        F.cross_entropy(x, t, w, label_smoothing=0.1).item()
    )
    assert nn.NLLLoss(reduction="sum")(x, t).item() == pytest.approx(
        F.nll_loss(x, t, reduction="sum").item()
    )
    p = numtorch.tensor(PROBS)
    assert nn.MSELoss()(x, p).item() == pytest.approx(F.mse_loss(x, p).item())
    assert nn.L1Loss(reduction="none")(x, p).shape == x.shape
    assert nn.BCELoss()(p, p).item() == pytest.approx(F.binary_cross_entropy(p, p).item())
    loss = nn.BCEWithLogitsLoss(pos_weight=w)
    assert list(loss.state_dict()) == ["pos_weight"]
    assert loss(x, p).item() == pytest.approx(
        F.binary_cross_entropy_with_logits(x, p, pos_weight=w).item()
    )


def test_legacy_reduction_flags():
    x, p = numtorch.tensor(LOGITS), numtorch.tensor(PROBS)
    with pytest.warns(UserWarning, match="reduction='sum'"):
        summed = F.mse_loss(x, p, size_average=False)
    assert summed.item() == pytest.approx(F.mse_loss(x, p, reduction="sum").item())


def test_cross_entropy_of_saturated_logits_is_finite():
    x = numtorch.tensor([[1000.0, -1000.0]], requires_grad=True)
    loss = F.cross_entropy(x, numtorch.tensor([1]))
    loss.backward()
    assert loss.item() == pytest.approx(2000.0)
    assert x.grad.tolist() == [[1.0, -1.0]]


def test_bce_clamps_logs_like_torch():
    loss = F.binary_cross_entropy(numtorch.tensor([0.0, 1.0]), numtorch.tensor([1.0, 0.0]))
    assert loss.item() == pytest.approx(100.0)


# -- convolution and pooling grids -----------------------------------------------------------
CONV_GRID = list(itertools.product((1, 2), (0, 1, 2), (1, 2), (1, 2)))


@pytest.mark.parametrize("stride, padding, dilation, groups", CONV_GRID)
def test_conv2d_grid_matches_torch(stride, padding, dilation, groups):
    torch = pytest.importorskip("torch")
    x = RNG.standard_normal((2, 4, 7, 6))
    w = RNG.standard_normal((6, 4 // groups, 3, 2))
    b = RNG.standard_normal(6)
    _compare(
        lambda m, ts: m.nn.functional.conv2d(*ts, stride, padding, dilation, groups),
        torch,
        [x, w, b],
        grad=(0, 1, 2),
        atol=1e-9,
    )


@pytest.mark.parametrize("stride, padding, dilation, groups", CONV_GRID[::3])
def test_conv2d_grid_gradcheck(stride, padding, dilation, groups):
    x = numtorch.randn(1, 2, 5, 6, dtype=numtorch.float64, requires_grad=True)
    w = numtorch.randn(2, 2 // groups, 2, 3, dtype=numtorch.float64, requires_grad=True)
    assert numtorch.autograd.gradcheck(
        lambda x, w: F.conv2d(x, w, None, stride, padding, dilation, groups), (x, w)
    )


@pytest.mark.parametrize(
    "stride, padding, output_padding, dilation, groups",
    [(1, 0, 0, 1, 1), (2, 1, 1, 1, 2), (3, 2, 2, 1, 1), (2, 0, 1, 2, 1)],
)
def test_conv_transpose2d_matches_torch(stride, padding, output_padding, dilation, groups):
    torch = pytest.importorskip("torch")
    x = RNG.standard_normal((2, 4, 3, 4))
    w = RNG.standard_normal((4, 6 // groups, 3, 2))
    b = RNG.standard_normal(6)
    _compare(
        lambda m, ts: m.nn.functional.conv_transpose2d(
            *ts, stride, padding, output_padding, groups, dilation
        ),
        torch,
        [x, w, b],
        grad=(0, 1, 2),
        atol=1e-9,
    )


POOL_GRID = [
    (2, None, 0, 1, False),
    (3, 2, 1, 1, False),
    (3, 2, 1, 1, True),
    ((2, 3), (1, 2), (1, 0), (2, 1), False),
    (2, 3, 0, 1, True),
]


@pytest.mark.parametrize("kernel, stride, padding, dilation, ceil", POOL_GRID)
def test_max_pool2d_grid_matches_torch(kernel, stride, padding, dilation, ceil):
    torch = pytest.importorskip("torch")
    x = RNG.standard_normal((2, 3, 7, 8))
    x[0, 0, 0, :2] = 4.0  # a tie: the first element wins, as in torch

    def pool(m, ts):
        return m.nn.functional.max_pool2d(ts[0], kernel, stride, padding, dilation, ceil)

    _compare(pool, torch, [x])
    y, i = F.max_pool2d(numtorch.tensor(x), kernel, stride, padding, dilation, ceil, True)
    ty, ti = torch.nn.functional.max_pool2d(
        torch.tensor(x), kernel, stride, padding, dilation, ceil, True
    )
    assert i.dtype == numtorch.int64
    np.testing.assert_array_equal(i.numpy(), ti.numpy())


@pytest.mark.parametrize("kernel, stride, padding, dilation, ceil", POOL_GRID)
def test_avg_pool2d_grid_matches_torch(kernel, stride, padding, dilation, ceil):
    torch = pytest.importorskip("torch")
    x = RNG.standard_normal((2, 3, 7, 8))
    for include_pad, divisor in ((True, None), (False, None), (True, 5)):
        _compare(
            lambda m, ts: m.nn.functional.avg_pool2d(
                ts[0], kernel, stride, padding, ceil, include_pad, divisor
            ),
            torch,
            [x],
        )


def test_max_pool_gradient_goes_to_the_maximum_and_accumulates_when_windows_overlap():
    x = numtorch.tensor([[[[1.0, 5.0, 2.0], [0.0, 0.0, 0.0], [3.0, 0.0, 4.0]]]], requires_grad=True)
    F.max_pool2d(x, 2, 1).sum().backward()
    assert x.grad.tolist() == [[[[0.0, 2.0, 0.0], [0.0, 0.0, 0.0], [1.0, 0.0, 1.0]]]]


def test_max_pool_without_grad_skips_indices_but_agrees():
    x = numtorch.randn(2, 3, 6, 6)
    with numtorch.no_grad():
        y = F.max_pool2d(x, 3, 2, 1)
    assert y.grad_fn is None
    values, _ = F.max_pool2d(x, 3, 2, 1, return_indices=True)
    assert numtorch.equal(y, values)


def test_max_pool_nan_propagates_like_torch():
    torch = pytest.importorskip("torch")
    x = np.array([[[[1.0, np.nan, 3.0, np.nan], [2.0, 2.0, 2.0, 2.0]]]])
    y, i = F.max_pool2d(numtorch.tensor(x), 2, return_indices=True)
    ty, ti = torch.nn.functional.max_pool2d(torch.tensor(x), 2, return_indices=True)
    assert np.isnan(y.numpy()).all() and i.tolist() == ti.tolist()


def test_adaptive_avg_pool_windows_match_torch():
    torch = pytest.importorskip("torch")
    x = RNG.standard_normal((2, 2, 7, 5))
    for size in [(3, 2), (7, 5), (1, 3), (4, 4), 2]:
        _compare(lambda m, ts: m.nn.functional.adaptive_avg_pool2d(ts[0], size), torch, [x])


# -- dropout ---------------------------------------------------------------------------------
def test_dropout_zeroes_and_scales():
    numtorch.manual_seed(0)
    x = numtorch.ones(10000, requires_grad=True)
    y = F.dropout(x, 0.3)
    values = np.unique(y.detach().numpy())
    np.testing.assert_allclose(values, [0.0, 1 / 0.7], rtol=1e-6)
    assert abs((y == 0).float().mean().item() - 0.3) < 0.03
    assert y.grad_fn.name() == "MulBackward0"
    y.sum().backward()
    assert numtorch.equal(x.grad, (y.detach() != 0).float() / 0.7)


def test_dropout_edge_probabilities_and_training_flag():
    x = numtorch.randn(3, 4, requires_grad=True)
    assert F.dropout(x, 0.0) is x
    assert F.dropout(x, 0.5, training=False) is x
    out = F.dropout(x, 1.0)
    assert out.abs().sum().item() == 0 and out.grad_fn.name() == "MulBackward0"
    for p in (-0.1, 1.5):
        with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1"):
            F.dropout(x, p)
        with pytest.raises(ValueError, match="dropout probability"):
            numtorch.nn.Dropout(p)


def test_dropout2d_zeroes_whole_channels():
    numtorch.manual_seed(1)
    y = F.dropout2d(numtorch.ones(8, 16, 3, 3), 0.5)
    per_channel = y.numpy().reshape(8, 16, 9)
    assert ((per_channel == 0).all(-1) | (per_channel == 2).all(-1)).all()


def test_dropout_inplace():
    x = numtorch.ones(100)
    y = F.dropout(x, 0.5, inplace=True)
    assert y is x and set(np.unique(x.numpy()).tolist()) <= {0.0, 2.0}


# -- embedding, one_hot, pad, linear ---------------------------------------------------------
def test_embedding_duplicates_accumulate_like_add_at():
    weight = numtorch.randn(5, 3, requires_grad=True)
    idx = numtorch.tensor([[0, 2, 2], [4, 2, 0]])
    out = F.embedding(idx, weight)
    assert out.grad_fn.name() == "EmbeddingBackward0"
    g = np.arange(18.0).reshape(2, 3, 3)
    out.backward(numtorch.tensor(g, dtype=numtorch.float32))
    expected = np.zeros((5, 3))
    np.add.at(expected, idx.numpy().ravel(), g.reshape(6, 3))
    np.testing.assert_allclose(weight.grad.numpy(), expected)


def test_embedding_padding_idx_and_scale_grad_by_freq():
    torch = pytest.importorskip("torch")
    w = RNG.standard_normal((6, 2))
    idx = np.array([[1, 1, 3], [0, 5, 1]])
    for kwargs in ({"padding_idx": 1}, {"padding_idx": -1}, {"scale_grad_by_freq": True}):
        _compare(
            lambda m, ts: m.nn.functional.embedding(m.tensor(idx), ts[0], **kwargs),
            torch,
            [w],
        )


def test_embedding_max_norm_renormalises_in_place():
    weight = numtorch.tensor([[3.0, 4.0], [0.3, 0.4]])
    F.embedding(numtorch.tensor([0, 1]), weight, max_norm=1.0)
    np.testing.assert_allclose(weight.numpy(), [[0.6, 0.8], [0.3, 0.4]], rtol=1e-6)


def test_one_hot():
    assert F.one_hot(numtorch.tensor([0, 2])).tolist() == [[1, 0, 0], [0, 0, 1]]
    out = F.one_hot(numtorch.tensor([[1], [0]]), 3)
    assert out.shape == (2, 1, 3) and out.dtype == numtorch.int64


@pytest.mark.parametrize("mode", ["constant", "reflect", "replicate", "circular"])
def test_pad_modes_match_torch(mode):
    torch = pytest.importorskip("torch")
    x = RNG.standard_normal((1, 2, 4, 5))
    for pad in [(2, 1, 1, 3), (0, 0, 2, 0)]:
        _compare(lambda m, ts: m.nn.functional.pad(ts[0], pad, mode=mode), torch, [x])
    _compare(lambda m, ts: m.nn.functional.pad(ts[0], (1, 2), mode=mode), torch, [x[0]])
    if mode == "constant":
        _compare(lambda m, ts: m.nn.functional.pad(ts[0], (-1, 2, 1, -2), value=3.0), torch, [x])


@pytest.mark.parametrize("shape, pad", [((2, 3, 2), (-1, 1)), ((2, 3, 1), (1, 0))])
def test_circular_pad_whose_side_is_the_whole_dim_copies_into_a_slice(shape, pad):
    # torch slices each side before copying into it: CopySlices even where the side spans
    # the whole padded dim (a size-1 dim padded by (-1, 1) is no case: torch's result is
    # uninitialised memory there)
    torch = pytest.importorskip("torch")
    x = RNG.standard_normal(shape)
    _compare(lambda m, ts: m.nn.functional.pad(ts[0], pad, mode="circular"), torch, [x])


def test_pad_gradcheck_and_double_backward():
    x = numtorch.randn(2, 3, dtype=numtorch.float64, requires_grad=True)
    for mode in ("constant", "reflect", "replicate", "circular"):
        fn = lambda x: F.pad(x.unsqueeze(0), (2, 1), mode=mode)
        assert numtorch.autograd.gradcheck(fn, (x,))
    assert numtorch.autograd.gradgradcheck(lambda x: F.pad(x, (1, -1, 2, 0)), (x,))


@pytest.mark.parametrize("shape", [(4,), (3, 4), (2, 3, 4)])
def test_linear_shapes_and_grad_fns(shape):
    torch = pytest.importorskip("torch")
    x, w, b = RNG.standard_normal(shape), RNG.standard_normal((5, 4)), RNG.standard_normal(5)
    _compare(lambda m, ts: m.nn.functional.linear(*ts), torch, [x, w, b], grad=(0, 1, 2))
    _compare(lambda m, ts: m.nn.functional.linear(*ts), torch, [x, w], grad=(0, 1))


# -- activations and erf ---------------------------------------------------------------------
def test_erf_matches_math_erf_to_float64_roundoff():
    xs = np.concatenate(
        [np.linspace(-7, 7, 20001), [0.0, 0.46875, -0.46875, 4.0, -4.0, 1e-300, 26.0, 30.0]]
    )
    ours = numtorch.erf(numtorch.tensor(xs)).numpy()
    expected = np.array([math.erf(v) for v in xs])
    assert (np.abs(ours - expected) <= 4 * np.spacing(np.abs(expected))).all()
    ours_c = numtorch.erfc(numtorch.tensor(xs)).numpy()
    expected_c = np.array([math.erfc(v) for v in xs])
    assert (np.abs(ours_c - expected_c) <= 8 * np.spacing(np.abs(expected_c))).all()
    special = numtorch.erf(numtorch.tensor([np.inf, -np.inf, np.nan])).tolist()
    assert special[:2] == [1.0, -1.0] and math.isnan(special[2])


def test_erf_float32_and_gradients():
    x = numtorch.tensor([0.3, -1.2, 2.5])
    assert x.erf().dtype == numtorch.float32
    np.testing.assert_allclose(x.erf().numpy(), [math.erf(v) for v in (0.3, -1.2, 2.5)], 1e-6)
    x64 = numtorch.randn(5, dtype=numtorch.float64, requires_grad=True)
    assert numtorch.autograd.gradcheck(numtorch.erf, (x64,))
    assert numtorch.autograd.gradgradcheck(numtorch.erfc, (x64,))


def test_gelu_matches_torch_in_float64():
    torch = pytest.importorskip("torch")
    x = np.linspace(-6, 6, 101)
    for approximate in ("none", "tanh"):
        _compare(
            lambda m, ts: m.nn.functional.gelu(ts[0], approximate=approximate),
            torch,
            [x],
            atol=1e-14,
        )


def test_softmax_implicit_dim_warns_like_torch():
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmax"):
        y = F.softmax(numtorch.zeros(2, 3))
    assert y.sum(1).tolist() == pytest.approx([1.0, 1.0])


def test_inplace_activations():
    x = numtorch.tensor([-1.0, 2.0])
    assert F.relu(x, inplace=True) is x and x.tolist() == [0.0, 2.0]
    y = numtorch.tensor([-1.0, 2.0])
    F.leaky_relu(y, 0.5, inplace=True)
    assert y.tolist() == [-0.5, 2.0]


def test_pdist_of_a_strided_input_saves_a_contiguous_copy_as_torch():
    # torch runs _pdist_forward on input.contiguous(): a CloneBackward0 before PdistBackward0,
    # and an in-place write to the expanded input's base after the call is not an error
    torch = pytest.importorskip("torch")
    found = []
    for lib in (numtorch, torch):
        x = lib.tensor([[0.5, -1.0, 2.0]], dtype=lib.float64, requires_grad=True)
        base = x * 1
        y = lib.pdist(base.expand(4, 3) * lib.tensor([[1.0], [2.0], [3.0], [4.0]]).double())
        z = lib.pdist(base.expand(4, 3))
        base.mul_(2)
        (y.sum() + z.sum()).backward()
        found.append((z.grad_fn.next_functions[0][0].name(), x.grad.tolist()))
    assert found[0] == found[1]
