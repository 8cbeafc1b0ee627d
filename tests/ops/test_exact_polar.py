"""``torch.polar``'s gradients where the magnitude is zero, negative or non-finite: torch
reads both from the result (``sgn(z)`` for the unit phase), not from the inputs."""

from __future__ import annotations

import math

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.parity

_CASES = [
    ([1.0, 0.0, -2.0, 3.0], [0.3, 1.0, -0.5, 2.0]),
    ([math.inf, 1.0, -0.0, 2.0], [0.3, math.nan, 1.0, math.inf]),
]


def _gradients(lib, magnitude, angle):
    a = lib.tensor(magnitude, dtype=lib.float64, requires_grad=True)
    b = lib.tensor(angle, dtype=lib.float64, requires_grad=True)
    weights = lib.tensor([1 + 2j, -1j, 0.5, 2 - 1j], dtype=lib.complex128)
    loss = lib.view_as_real(lib.polar(a, b) * weights).sum()
    first = lib.autograd.grad(loss, (a, b), create_graph=True)
    second = lib.autograd.grad((first[0] * 1.5 + first[1]).sum(), (a, b))
    return [g.detach().numpy() for g in first + second]


@pytest.mark.parametrize("magnitude, angle", _CASES, ids=["signed", "non-finite"])
def test_polar_gradients_match_torch(magnitude, angle):
    for ours, theirs in zip(
        _gradients(numtorch, magnitude, angle), _gradients(torch, magnitude, angle)
    ):
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, equal_nan=True)
