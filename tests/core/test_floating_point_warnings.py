"""torch computes log(0), 0/0 and acosh(0.5) silently (inf/NaN); NumPy warns. numtorch
filters NumPy's RuntimeWarnings by the module that issues them, which generated op runners
must name too."""

from __future__ import annotations

import warnings

import pytest

import numtorch


@pytest.mark.parametrize(
    "call",
    [
        lambda t: numtorch.acosh(t),
        lambda t: numtorch.log(t - 1),
        lambda t: (t - 0.5) / (t - 0.5),
        lambda t: numtorch.sqrt(-t),
    ],
)
def test_floating_point_edge_cases_are_silent(call):  # forward and backward
    t = numtorch.tensor([0.5, 0.5], requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        out = call(t)
        out.sum().backward()
    assert not [w for w in caught if issubclass(w.category, RuntimeWarning)]


def test_in_place_edge_cases_are_silent():
    with warnings.catch_warnings(record=True) as caught:
        numtorch.tensor([0.5, 2.0]).acosh_()
    assert not [w for w in caught if issubclass(w.category, RuntimeWarning)]
