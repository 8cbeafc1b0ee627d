"""float32 sigmoid with torch's bits: SLEEF's vector exp over whole pairs of vectors, the C
library's expf over the rest of the row (Note [Sigmoid as torch's CPU kernel]). NumPy's
float32 exp gave another last bit for ~15% of values."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch
from numtorch.backend.sleef import expf_u10

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.parity


@pytest.mark.parametrize("shape", [(5,), (33,), (64, 48), (4096,)])
@pytest.mark.parametrize("scale", [1.0, 30.0])
def test_sigmoid_takes_torchs_exp_in_each_loop(shape, scale):
    x = (np.random.default_rng(0).standard_normal(shape) * scale).astype(np.float32)
    for transpose in (False, True):
        ours = numtorch.from_numpy(x.copy())
        theirs = torch.from_numpy(x.copy())
        if transpose and len(shape) == 2:
            ours, theirs = ours.T, theirs.T
        np.testing.assert_array_equal(numtorch.sigmoid(ours).numpy(), torch.sigmoid(theirs).numpy())


def test_sleef_exp_follows_the_vector_kernel_over_the_whole_range():
    # torch's sigmoid over a vector-sized row is 1 / (1 + SLEEF's exp(-x)) exactly
    x = np.linspace(-110.0, 110.0, 4096, dtype=np.float32)
    values = [0.0, -0.0, 88.7, -88.7, 103.9, -103.99, 1e-30, np.inf, -np.inf, np.nan]
    x[: len(values)] = values
    one = np.float32(1)
    with np.errstate(all="ignore"):
        ours = one / (one + expf_u10(-x))
    np.testing.assert_array_equal(ours, torch.sigmoid(torch.from_numpy(x)).numpy())
