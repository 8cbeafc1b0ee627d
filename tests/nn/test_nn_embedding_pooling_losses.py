"""EmbeddingBag, grid sampling, unpooling, LP pooling, channel shuffle, CTC and
distance-function losses, gumbel-softmax and lazy layers: parity with torch for repr, values,
grad_fn names, input and parameter gradients, and torch's error types."""

from __future__ import annotations

import numpy as np
import pytest
from nn_parity import assert_runs_match, assert_same_error, run_both

import numtorch

torch = pytest.importorskip("torch")

_rng = np.random.default_rng(0)
_BAG = np.array([1, 2, 4, 4, 3, 0, 5, 5])
_OFFSETS = np.array([0, 2, 2, 5])

# (id, constructor taking the library, inputs (NumPy; float ones require grad), call kwargs)
LAYERS = [
    ("embedding-bag-mean", lambda m: m.nn.EmbeddingBag(6, 3), [_BAG, _OFFSETS], {}),
    (
        "embedding-bag-sum-weights",
        lambda m: m.nn.EmbeddingBag(6, 3, mode="sum", padding_idx=4),
        [_BAG, _OFFSETS, _rng.random(8)],
        {},
    ),
    (
        "embedding-bag-max-2d",
        lambda m: m.nn.EmbeddingBag(6, 4, mode="max"),
        [np.array([[0, 2, 5], [1, 1, 3]])],
        {},
    ),
    (
        "embedding-bag-last-offset",
        lambda m: m.nn.EmbeddingBag(6, 3, include_last_offset=True, scale_grad_by_freq=True),
        [_BAG, np.array([0, 3, 3, 8])],
        {},
    ),
    ("lp-pool1d", lambda m: m.nn.LPPool1d(2, 3, stride=2), [_rng.standard_normal((2, 3, 7))], {}),
    (
        "lp-pool2d-ceil",
        lambda m: m.nn.LPPool2d(1.5, (2, 3), ceil_mode=True),
        [_rng.uniform(0.5, 2, (1, 2, 5, 7))],
        {},
    ),
    (
        "lp-pool2d-inf",
        lambda m: m.nn.LPPool2d(float("inf"), 2),
        [_rng.standard_normal((1, 2, 4, 4))],
        {},
    ),
    ("lp-pool3d", lambda m: m.nn.LPPool3d(3, 2), [_rng.uniform(0.5, 2, (1, 1, 2, 4, 4))], {}),
    ("channel-shuffle", lambda m: m.nn.ChannelShuffle(3), [_rng.standard_normal((2, 6, 2, 3))], {}),
]


def _unpool_case(make_pool, make_unpool, shape, **kwargs):
    def call(lib_module, x):
        lib = numtorch if isinstance(x, numtorch.Tensor) else torch
        pooled, indices = make_pool(lib)(x)
        return lib_module(pooled, indices, **kwargs)

    return make_unpool, [_rng.standard_normal(shape)], call


UNPOOLS = [
    (
        "max-unpool1d",
        *_unpool_case(
            lambda m: m.nn.MaxPool1d(2, return_indices=True),
            lambda m: m.nn.MaxUnpool1d(2),
            (2, 3, 6),
        ),
    ),
    (
        "max-unpool2d-output-size",
        *_unpool_case(
            lambda m: m.nn.MaxPool2d(3, 2, 1, return_indices=True),
            lambda m: m.nn.MaxUnpool2d(3, 2, 1),
            (1, 2, 5, 6),
            output_size=[1, 2, 5, 6],
        ),
    ),
    (
        "max-unpool3d",
        *_unpool_case(
            lambda m: m.nn.MaxPool3d(2, return_indices=True),
            lambda m: m.nn.MaxUnpool3d(2),
            (1, 1, 4, 4, 2),
        ),
    ),
]


@pytest.mark.parametrize(
    "make, inputs, call", [case[1:] for case in UNPOOLS], ids=[case[0] for case in UNPOOLS]
)
def test_unpool_matches_torch(make, inputs, call):
    results = run_both(make, torch, inputs, call=call)
    assert repr(results["numtorch"][4]) == repr(results["torch"][4])
    assert_runs_match(results)


@pytest.mark.parametrize(
    "make, inputs, kwargs", [case[1:] for case in LAYERS], ids=[case[0] for case in LAYERS]
)
def test_layer_matches_torch(make, inputs, kwargs):
    results = run_both(make, torch, inputs, kwargs=kwargs)
    assert repr(results["numtorch"][4]) == repr(results["torch"][4])
    assert_runs_match(results)


def test_embedding_bag_init_and_from_pretrained():
    numtorch.manual_seed(0)
    bag = numtorch.nn.EmbeddingBag(1000, 8, padding_idx=3)
    weight = bag.weight.detach().numpy()
    assert abs(weight.std() - 1) < 0.05 and not weight[3].any()
    frozen = numtorch.nn.EmbeddingBag.from_pretrained(numtorch.ones(4, 2), mode="sum")
    assert not frozen.weight.requires_grad
    out = frozen(numtorch.tensor([[0, 1, 2]]))
    np.testing.assert_allclose(out.numpy(), [[3.0, 3.0]])


def _bag_call(lib, **kwargs):
    weight = lib.ones(5, 3)
    indices = kwargs.pop("indices", lib.tensor([1, 2, 4, 4, 3, 0]))
    offsets = kwargs.pop("offsets", lib.tensor([0, 2, 2, 5]))
    return lib.nn.functional.embedding_bag(indices, weight, offsets, **kwargs)


def _ctc(lib, input_lengths=(6, 4), target_lengths=(2, 1), **kwargs):
    log_probs = lib.zeros(6, 2, 5).log_softmax(2)
    targets = lib.tensor([[1, 2], [3, 0]])
    return lib.nn.functional.ctc_loss(log_probs, targets, input_lengths, target_lengths, **kwargs)


ERRORS = [
    lambda m: _bag_call(m, mode="max", per_sample_weights=m.ones(6)),
    lambda m: _bag_call(m, indices=m.tensor([[1, 2], [3, 4]])),
    lambda m: _bag_call(m, offsets=None),
    lambda m: _bag_call(m, offsets=m.tensor([1, 2])),
    lambda m: _bag_call(m, offsets=m.tensor([0, 9])),
    lambda m: _bag_call(m, mode="foo"),
    lambda m: _bag_call(m, indices=m.tensor([1.0, 2.0])),
    lambda m: _bag_call(m, indices=m.tensor([7]), offsets=m.tensor([0])),
    lambda m: _bag_call(m, per_sample_weights=m.ones(3), mode="sum"),
    lambda m: _bag_call(m, mode="max", scale_grad_by_freq=True),
    lambda m: _bag_call(m, offsets=m.tensor([0.0, 2.0])),
    lambda m: _bag_call(m, mode="sum", per_sample_weights=m.ones(6, dtype=m.float64)),
    lambda m: _bag_call(m, indices=m.tensor([[[1]]])),
    lambda m: m.nn.EmbeddingBag(3, 2, padding_idx=3),
    lambda m: _ctc(m, input_lengths=[7, 4]),
    lambda m: _ctc(m, target_lengths=[3, 1]),
    lambda m: _ctc(m, blank=5),
    lambda m: _ctc(m, reduction="avg"),
    lambda m: _ctc(m, input_lengths=[5]),
    lambda m: m.nn.TripletMarginWithDistanceLoss(margin=0),
    lambda m: m.nn.functional.triplet_margin_with_distance_loss(
        m.ones(2, 3), m.ones(2, 3), m.ones(3), reduction="mean"
    ),
    lambda m: m.nn.functional.triplet_margin_with_distance_loss(
        m.ones(2, 3), m.ones(2, 3), m.ones(2, 3), reduction="average"
    ),
    lambda m: m.nn.functional.channel_shuffle(m.ones(1, 4, 2), 3),
    lambda m: m.nn.functional.channel_shuffle(m.ones(4, 2), 2),
    lambda m: m.nn.functional.channel_shuffle(m.ones(1, 4, 2), 0),
    lambda m: m.nn.functional.max_unpool2d(
        m.ones(1, 1, 2, 2), m.zeros(1, 1, 2, 2, dtype=m.long), 2, output_size=(9, 9)
    ),
    lambda m: m.nn.functional.max_unpool2d(
        m.ones(1, 1, 2, 2), m.zeros(1, 1, 2, 2, dtype=m.long), 2, output_size=(1, 2, 3)
    ),
    lambda m: m.nn.functional.max_unpool2d(m.ones(1, 1, 2, 2), m.zeros(1, 1, 2, 2), 2),
    lambda m: m.nn.functional.max_unpool2d(m.ones(1, 1, 2, 2), m.zeros(1, 1, 2, dtype=m.long), 2),
    lambda m: m.nn.functional.max_unpool2d(
        m.ones(1, 1, 2, 2), m.full((1, 1, 2, 2), 99, dtype=m.long), 2
    ),
]


@pytest.mark.parametrize("fn", ERRORS)
def test_errors_match_torch(fn):
    assert_same_error(fn, torch, exact=False)


def test_gumbel_softmax_samples_the_categorical_distribution():
    numtorch.manual_seed(0)
    logits = numtorch.tensor([1.0, 0.0, -1.0]).log_softmax(0).expand(20000, 3)
    soft = numtorch.nn.functional.gumbel_softmax(logits, tau=0.7)
    np.testing.assert_allclose(soft.sum(-1).numpy(), 1.0, rtol=1e-6)
    hard = numtorch.nn.functional.gumbel_softmax(logits, hard=True)
    assert set(np.unique(hard.numpy())) == {0.0, 1.0}
    # argmax of logits + Gumbel noise is distributed as softmax(logits)
    frequencies = hard.numpy().mean(0)
    np.testing.assert_allclose(frequencies, logits[0].softmax(0).numpy(), atol=0.015)


def test_gumbel_softmax_hard_gradient_is_the_soft_one():
    logits = numtorch.tensor([[0.5, 1.5, -1.0]], requires_grad=True)
    weights = numtorch.tensor([[1.0, -2.0, 3.0]])
    numtorch.manual_seed(3)
    (numtorch.nn.functional.gumbel_softmax(logits, hard=True) * weights).sum().backward()
    hard_grad = logits.grad.clone()
    logits.grad = None
    numtorch.manual_seed(3)
    (numtorch.nn.functional.gumbel_softmax(logits) * weights).sum().backward()
    np.testing.assert_allclose(hard_grad.numpy(), logits.grad.numpy(), rtol=1e-6)


DISTANCES = [
    ("default", lambda m: m.nn.TripletMarginWithDistanceLoss()),
    (
        "cosine-swap",
        lambda m: m.nn.TripletMarginWithDistanceLoss(
            distance_function=m.nn.CosineSimilarity(), margin=0.5, swap=True, reduction="sum"
        ),
    ),
    (
        "lambda-none",
        lambda m: m.nn.TripletMarginWithDistanceLoss(
            distance_function=lambda x, y: (x - y).abs().sum(-1), margin=2.0, reduction="none"
        ),
    ),
]


@pytest.mark.parametrize("make", [d[1] for d in DISTANCES], ids=[d[0] for d in DISTANCES])
def test_triplet_margin_with_distance_loss_matches_torch(make):
    inputs = [_rng.standard_normal((4, 3)) for _ in range(3)]
    results = run_both(make, torch, inputs)
    assert repr(results["numtorch"][4]) == repr(results["torch"][4])
    assert_runs_match(results)


CTC_CASES = [
    ("padded-none", [[1, 2, 2], [3, 1, 0], [4, 4, 1]], [6, 5, 4], [3, 1, 3], {"reduction": "none"}),
    ("padded-mean", [[1, 2, 2], [3, 1, 0], [4, 4, 1]], [6, 5, 4], [3, 1, 3], {}),
    ("concatenated-sum", [1, 2, 2, 3, 4, 4], [6, 6, 3], [3, 1, 2], {"reduction": "sum"}),
    ("blank-last", [[1, 1, 1], [2, 3, 1], [1, 0, 0]], [3, 6, 6], [3, 3, 0], {"blank": 4}),
    (
        "impossible-zero-infinity",
        [[1, 1, 1], [2, 1, 0], [3, 0, 0]],
        [2, 6, 5],
        [3, 2, 1],
        {"zero_infinity": True, "reduction": "sum"},
    ),
]


@pytest.mark.parametrize(
    "targets, input_lengths, target_lengths, kwargs",
    [case[1:] for case in CTC_CASES],
    ids=[case[0] for case in CTC_CASES],
)
def test_ctc_loss_matches_torch(targets, input_lengths, target_lengths, kwargs):
    logits = _rng.standard_normal((6, 3, 5))
    results = {}
    for lib in (numtorch, torch):
        x = lib.tensor(logits, requires_grad=True)
        log_probs = x.log_softmax(2)
        log_probs.retain_grad()
        loss = lib.nn.CTCLoss(**kwargs)(
            log_probs, lib.tensor(targets), lib.tensor(input_lengths), lib.tensor(target_lengths)
        )
        (
            loss * lib.arange(1.0, loss.numel() + 1, dtype=loss.dtype).reshape(loss.shape)
        ).sum().backward()
        results[lib.__name__] = (loss, log_probs.grad, x.grad)
    ours, theirs = results["numtorch"], results["torch"]
    assert type(ours[0].grad_fn).__name__ == type(theirs[0].grad_fn).__name__
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-9, atol=1e-12)


def test_ctc_loss_unbatched_and_repr():
    log_probs = _rng.standard_normal((5, 4))
    for lib in (numtorch, torch):
        x = lib.tensor(log_probs).log_softmax(1)
        value = lib.nn.functional.ctc_loss(x, lib.tensor([1, 2]), (5,), (2,), reduction="none")
        assert value.shape == ()
    ours = numtorch.nn.functional.ctc_loss(
        numtorch.tensor(log_probs).log_softmax(1), numtorch.tensor([1, 2]), (5,), (2,)
    )
    theirs = torch.nn.functional.ctc_loss(
        torch.tensor(log_probs).log_softmax(1), torch.tensor([1, 2]), (5,), (2,)
    )
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-10)
    assert repr(numtorch.nn.CTCLoss(blank=2, zero_infinity=True)) == repr(
        torch.nn.CTCLoss(blank=2, zero_infinity=True)
    )


def _lazy_story(lib):
    """What a lazy layer looks like before and after its first call, and after loading."""
    record = []
    fc = lib.nn.LazyLinear(3)
    record += [repr(fc), repr(fc.weight), list(fc.state_dict()), fc.has_uninitialized_params()]
    y = fc(lib.ones(2, 4))
    record += [repr(fc), type(fc).__name__, tuple(fc.weight.shape), tuple(y.shape)]
    record += [type(y.grad_fn).__name__, type(fc.weight).__name__]
    loaded = lib.nn.LazyLinear(2, bias=False)
    loaded.load_state_dict(lib.nn.Linear(6, 2, bias=False).state_dict())
    record += [tuple(loaded.weight.shape), type(loaded).__name__]
    loaded(lib.ones(6))
    record.append(type(loaded).__name__)
    return record


def test_lazy_linear_matches_torch():
    assert _lazy_story(numtorch) == _lazy_story(torch)
    fc = numtorch.nn.LazyLinear(5)
    fc(numtorch.ones(1, 400))
    bound = 1 / 20  # kaiming_uniform(a=sqrt(5)) on fan_in=400
    assert np.abs(fc.weight.detach().numpy()).max() <= bound
    assert np.abs(fc.weight.detach().numpy()).max() > bound / 2


def test_uninitialized_parameter_errors_match_torch():
    assert_same_error(lambda m: m.nn.LazyLinear(2).weight.shape, torch)


@pytest.mark.parametrize("indices", [[0, -1], [5, 0], [2, 0, 7, 1], [[1, 9], [-5, 2]]])
def test_max_norm_renorms_up_to_the_first_row_out_of_range_as_torch(indices):
    # torch renorms the sorted unique rows one by one: an index out of range stops it (with
    # select()'s IndexError) after the rows before it were scaled in place
    found = []
    for lib in (numtorch, torch):
        lib.manual_seed(0)
        module = lib.nn.Embedding(3, 2, max_norm=0.5)
        try:
            module(lib.tensor(indices))
            error = None
        except IndexError as caught:
            error = str(caught)
        found.append((error, module.weight.detach().numpy().round(6).tolist()))
    assert found[0] == found[1]


def _max_pool1d_result(lib, requires_grad, no_grad):
    x = lib.tensor([[0.95, 0.3, -0.16, -0.5, 0.21, 0.1]], dtype=lib.float64)
    x.requires_grad_(requires_grad)
    if no_grad:
        with lib.no_grad():
            out = lib.max_pool1d(x, 2, 1)
    else:
        out = lib.max_pool1d(x, 2, 1)
    is_view = out._base is not None
    scale = lib.tensor(0.5, dtype=lib.float64, requires_grad=True)
    if not out.requires_grad:
        out.mul_(scale)  # an in-place op records its own node on a fresh tensor
    return is_view, type(out.grad_fn).__name__


@pytest.mark.parametrize("requires_grad, no_grad", [(False, False), (True, True), (True, False)])
def test_max_pool1d_without_indices_is_a_view_only_where_torch_takes_the_indices_path(
    requires_grad, no_grad
):
    # torch's max_pool1d runs its own 1-D kernel (a fresh tensor) unless a gradient is to be
    # recorded, where it squeezes max_pool1d_with_indices' result (a view)
    ours = _max_pool1d_result(numtorch, requires_grad, no_grad)
    assert ours == _max_pool1d_result(torch, requires_grad, no_grad)
