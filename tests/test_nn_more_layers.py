"""Later nn layers (EmbeddingBag, grid sampling, unpooling, LP pooling, channel shuffle, CTC
and distance-function losses): parity with torch for repr, values, grad_fn names, input and
parameter gradients, and torch's error types."""

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
]


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
    lambda m: _bag_call(m, indices=m.tensor([[[1]]])),
    lambda m: m.nn.EmbeddingBag(3, 2, padding_idx=3),
]


@pytest.mark.parametrize("fn", ERRORS)
def test_errors_match_torch(fn):
    assert_same_error(fn, torch, exact=False)
