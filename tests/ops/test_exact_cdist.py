"""``cdist`` on NaN, infinite and coincident points, against torch: torch's distance kernels
skip NaN in the max of p=inf, count a NaN difference as NaN for p=0, take the sign of a NaN
difference as NaN in the backward, and clamp the matrix-product form of p=2 at zero."""

from __future__ import annotations

import math

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.parity

nan, inf = math.nan, math.inf
_POINTS = {
    "nan": (
        [[0.5, nan, 1.0], [1.0, 2.0, 3.0], [nan, 0.0, -1.0]],
        [[0.0, 0.0, 0.0], [nan, 1.0, 2.0]],
    ),
    "inf": (
        [[0.5, inf, 1.0], [1.0, 2.0, 3.0], [-inf, 0.0, -1.0]],
        [[0.0, 0.0, 3.0], [inf, 1.0, 2.0]],
    ),
}


def _run(lib, a, b, **kwargs):
    x = lib.tensor(a, dtype=lib.float64, requires_grad=True)
    y = lib.tensor(b, dtype=lib.float64, requires_grad=True)
    d = lib.cdist(x, y, **kwargs)
    weights = lib.arange(float(d.numel()), dtype=lib.float64).reshape(d.shape) - 2
    (d * weights).sum().backward()
    return d.detach().numpy(), x.grad.numpy(), y.grad.numpy()


@pytest.mark.parametrize("p", [0.0, 0.5, 1.0, 2.0, 3.0, inf])
@pytest.mark.parametrize("points", sorted(_POINTS))
def test_cdist_of_non_finite_points_matches_torch(points, p):
    a, b = _POINTS[points]
    for ours, theirs in zip(_run(numtorch, a, b, p=p), _run(torch, a, b, p=p)):
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, equal_nan=True)


def test_cdist_matrix_product_form_gives_zero_between_equal_points():
    a = [[1.0, 2.0], [3.0, 4.0]]
    mode = {"compute_mode": "use_mm_for_euclid_dist"}
    for ours, theirs in zip(_run(numtorch, a, a, **mode), _run(torch, a, a, **mode)):
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("shapes", [((0, 3, 2), (27, 2)), ((2, 0, 30, 2), (1, 4, 2))])
def test_an_empty_batch_is_cdists_own_result_even_where_the_mm_form_would_run(shapes):
    # torch's _cdist_forward makes the empty result itself (CdistBackward0), before choosing
    # the matrix-product form for more than 25 rows
    names = []
    for lib in (numtorch, torch):
        y = lib.cdist(lib.zeros(*shapes[0], requires_grad=True), lib.zeros(*shapes[1]))
        names.append((tuple(y.shape), type(y.grad_fn).__name__))
    assert names[0] == names[1]
