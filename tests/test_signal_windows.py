"""torch.signal.windows: every window, symmetric and periodic, against torch."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

NAMES = ["bartlett", "blackman", "cosine", "exponential", "gaussian"]
NAMES += ["hamming", "hann", "kaiser", "nuttall"]
OPTIONS = {
    "general_cosine": {"a": [0.5, 0.3, 0.2]},
    "general_hamming": {"alpha": 0.6},
    "gaussian": {"std": 2.5},
    "exponential": {"tau": 3.0},
    "kaiser": {"beta": 3.0},
}


def _same(ours, theirs):
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert str(ours.dtype) == str(theirs.dtype)
    assert ours.requires_grad == theirs.requires_grad
    # float32 cosines round differently where a window touches zero
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", NAMES + ["general_cosine", "general_hamming"])
@pytest.mark.parametrize("M", [0, 1, 2, 7, 8])
@pytest.mark.parametrize("sym", [True, False])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_window_matches_torch(name, M, sym, dtype):
    options = dict(OPTIONS.get(name, {}), sym=sym)
    results = [
        getattr(lib.signal.windows, name)(M, dtype=getattr(lib, dtype), **options)
        for lib in (numtorch, torch)
    ]
    _same(*results)


def test_options_and_requires_grad_match_torch():
    cases = [
        ("exponential", {"center": 1.0, "sym": False}),
        ("gaussian", {"std": 0.5}),
        ("kaiser", {"beta": 0.0}),
        ("hann", {"requires_grad": True}),
    ]
    for name, options in cases:
        _same(*[getattr(lib.signal.windows, name)(6, **options) for lib in (numtorch, torch)])


@pytest.mark.parametrize(
    "call",
    [
        lambda w, lib: w.hann(-1),
        lambda w, lib: w.hann(3, dtype=lib.int64),
        lambda w, lib: w.gaussian(3, std=0),
        lambda w, lib: w.exponential(3, tau=0),
        lambda w, lib: w.exponential(3, center=1.0),
    ],
)
def test_bad_arguments_raise_torchs_value_error(call):
    messages = []
    for lib in (numtorch, torch):
        with pytest.raises(ValueError) as raised:
            call(lib.signal.windows, lib)
        messages.append(str(raised.value))
    assert messages[0] == messages[1]
