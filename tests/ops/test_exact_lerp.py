"""lerp in torch's two-sided form (from ``input`` below a weight of 0.5, from ``end``
above), which decides its inf/NaN pattern, and quantile's interpolation built on it."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import numtorch

INF = math.inf


def test_lerp_takes_the_end_side_from_a_weight_of_one_half():
    start = numtorch.tensor([INF, 1.0, 1.0, INF])
    end = numtorch.tensor([1.0, INF, INF, INF])
    weight = numtorch.tensor([0.5, 0.25, 1.0, 0.0])
    # inf side: 1 - (1 - inf) / 2 = inf; 1 + inf / 4 = inf; inf - inf * 0 = NaN; inf - inf
    got = numtorch.lerp(start, end, weight).tolist()
    assert got[:2] == [INF, INF] and all(math.isnan(v) for v in got[2:])


def test_quantile_between_two_infinities_is_nan():
    x = numtorch.tensor([[1.0, INF, INF], [0.0, 1.0, 2.0]])
    got = numtorch.quantile(x, numtorch.tensor([0.75]), dim=1)
    assert math.isnan(got[0, 0]) and got[0, 1] == 1.5


def test_lerp_matches_torch_on_non_finite_values():
    torch = pytest.importorskip("torch")
    values = [INF, -INF, 1.0, 0.0, math.nan]
    weights = [0.0, 0.25, 0.5, 0.75, 1.0, 2.0, -0.5]
    a, b, w = (np.array(v) for v in zip(*itertools.product(values, values, weights)))
    with np.errstate(all="ignore"):
        ours = numtorch.lerp(numtorch.tensor(a), numtorch.tensor(b), numtorch.tensor(w))
    theirs = torch.lerp(torch.tensor(a), torch.tensor(b), torch.tensor(w))
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
