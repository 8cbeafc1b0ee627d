"""``torch.signal.windows`` against torch: every window, lengths 0 to 8, symmetric and
periodic, float32 and float64, and the errors."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

WINDOWS = {
    "bartlett": {},
    "blackman": {},
    "cosine": {},
    "gaussian": {"std": 1.5},
    "hamming": {},
    "hann": {},
    "kaiser": {"beta": 8.0},
    "nuttall": {},
    "exponential": {"tau": 2.0},
    "general_cosine": {"a": [0.5, 0.3, 0.2]},
    "general_hamming": {"alpha": 0.6},
}


@pytest.mark.parametrize("name", sorted(WINDOWS))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_window_matches_torch(name, dtype):
    for M in (0, 1, 2, 5, 8):
        for sym in (True, False):
            kwargs = dict(WINDOWS[name], sym=sym)
            ours = getattr(numtorch.signal.windows, name)(
                M, dtype=getattr(numtorch, dtype), **kwargs
            )
            theirs = getattr(torch.signal.windows, name)(M, dtype=getattr(torch, dtype), **kwargs)
            assert str(ours.dtype) == str(theirs.dtype)
            # the same formulas in the same dtype; the elementary functions differ by an ulp
            tolerance = 2e-6 if dtype == "float32" else 1e-14
            np.testing.assert_allclose(
                ours.numpy(), theirs.numpy(), rtol=tolerance, atol=tolerance, err_msg=(M, sym)
            )


def test_default_dtype_and_requires_grad_follow_torch():
    ours = numtorch.signal.windows.gaussian(4, requires_grad=True)
    theirs = torch.signal.windows.gaussian(4, requires_grad=True)
    assert (str(ours.dtype), ours.requires_grad) == (str(theirs.dtype), theirs.requires_grad)
    assert numtorch.windows is numtorch.signal.windows


@pytest.mark.parametrize(
    "call",
    [
        lambda W, t: W.hann(-1),
        lambda W, t: W.hann(3, dtype=t.int64),
        lambda W, t: W.gaussian(3, std=0),
        lambda W, t: W.exponential(3, center=1.0),
        lambda W, t: W.exponential(3, tau=0),
        lambda W, t: W.general_cosine(3, a=3),
        lambda W, t: W.general_cosine(3, a=[]),
        lambda W, t: W.kaiser(3, beta=-1),
    ],
)
def test_window_errors_match_torch(call):
    with pytest.raises(Exception) as theirs:
        call(torch.signal.windows, torch)
    with pytest.raises(type(theirs.value), match=str(theirs.value).split(",")[0]):
        call(numtorch.signal.windows, numtorch)


def test_exponential_with_a_center_matches_torch():
    ours = numtorch.signal.windows.exponential(6, center=1.0, sym=False)
    theirs = torch.signal.windows.exponential(6, center=1.0, sym=False)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=2e-6)
