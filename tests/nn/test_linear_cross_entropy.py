"""``nn.LinearCrossEntropyLoss`` and ``F.linear_cross_entropy`` against torch: the Linear
layer's initialisation from the same seed, losses and gradients for class indices and
probabilities, K-dimensional losses, every reduction, weights, ignore_index, label smoothing,
options, printing and errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")


def _run(lib, out_features, bias, probabilities, kwargs):
    lib.manual_seed(283)
    loss = lib.nn.LinearCrossEntropyLoss(5, 4, out_features=out_features, bias=bias, **kwargs)
    input = lib.randn(3, 5, requires_grad=True)
    if probabilities:
        target = lib.randn(3, 4, *out_features).softmax(dim=1)
    else:
        target = lib.randint(0, 4, (3, *out_features))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        output = loss(input, target)
    output.sum().backward()
    grads = [input.grad] + [p.grad for p in loss.parameters()]
    return output, grads, repr(loss)


CASES = [
    ((), False, False, {}),
    ((), True, False, {"reduction": "sum"}),
    ((), True, False, {"reduction": "none", "ignore_index": 2}),
    ((2, 3), False, False, {}),
    ((2,), True, True, {"reduction": "none"}),
    ((), False, True, {"label_smoothing": 0.2}),
    ((), False, False, {"weight": "classes", "label_smoothing": 0.1}),
    ((), False, False, {"options": "default"}),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_loss_matches_torch(case):
    out_features, bias, probabilities, kwargs = CASES[case]
    results = []
    for lib in (numtorch, torch):
        options = dict(kwargs)
        if options.get("weight") == "classes":
            options["weight"] = lib.tensor([1.0, 0.5, 2.0, 1.5])
        if options.get("options") == "default":
            options["options"] = lib.nn.LinearCrossEntropyOptions()
        results.append(_run(lib, out_features, bias, probabilities, options))
    (ours, ours_grads, ours_repr), (theirs, theirs_grads, theirs_repr) = results
    assert ours.shape == theirs.shape and str(ours.dtype) == str(theirs.dtype)
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-5)
    for a, b in zip(ours_grads, theirs_grads):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-4, atol=1e-6)
    if "options" not in kwargs:  # the chunked path's node is one of torch's custom ops
        assert type(ours.grad_fn).__name__ == type(theirs.grad_fn).__name__
    assert ours_repr == theirs_repr


def test_unbatched_input_matches_torch():
    ours, theirs = (
        lib.nn.functional.linear_cross_entropy(
            lib.tensor([0.5, -0.5]), lib.tensor([[1.0, 0.0], [0.0, 1.0]]), lib.tensor(1)
        )
        for lib in (numtorch, torch)
    )
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)


def _error(lib, fn):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fn(lib)
    except Exception as e:  # the type is compared
        return type(e)
    return None


ERRORS = [
    lambda t: t.nn.LinearCrossEntropyLoss(3, 4, weight=t.ones(3)),
    lambda t: t.nn.LinearCrossEntropyLoss(3, 4, label_smoothing=1.5),
    lambda t: t.nn.functional.linear_cross_entropy(t.ones(2, 2, 3), t.ones(4, 3), t.zeros(2)),
    lambda t: t.nn.functional.linear_cross_entropy(t.ones(2, 3), t.ones(4), t.zeros(2)),
    lambda t: t.nn.functional.linear_cross_entropy(t.ones(2, 3), t.ones(4, 2), t.zeros(2)),
    lambda t: t.nn.functional.linear_cross_entropy(
        t.ones(2, 3), t.ones(4, 3), t.zeros(2).long(), linear_bias=t.ones(3)
    ),
    lambda t: t.nn.functional.linear_cross_entropy(t.ones(3), t.ones(4, 2, 3), t.zeros(2)),
    lambda t: t.nn.functional.linear_cross_entropy(
        t.ones(2, 3), t.ones(4, 3), t.ones(2, 4) / 4, ignore_index=1
    ),
    lambda t: t.nn.LinearCrossEntropyOptions(acc_policy="fast"),
    lambda t: t.nn.LinearCrossEntropyOptions(chunking_method="rows"),
    lambda t: t.nn.LinearCrossEntropyOptions(batch_chunk_size=0),
    lambda t: t.nn.LinearCrossEntropyOptions(acc_dtype=t.int32),
]


@pytest.mark.parametrize("index", range(len(ERRORS)))
def test_errors_match_torch(index):
    theirs = _error(torch, ERRORS[index])
    assert theirs is not None
    assert _error(numtorch, ERRORS[index]) is theirs
