"""nn ops on NaN and infinite inputs give torch's values and gradients (torch's kernels skip
a NaN comparison, mask before they multiply, ...), checked against torch itself."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

nan, inf = float("nan"), float("inf")
ROWS = np.array([[nan, 0.3, -0.2, 0.1], [0.5, inf, 0.2, -1.0], [0.1, 0.2, -inf, nan]])


def _run(lib, fn, arrays):
    inputs = [lib.tensor(a, requires_grad=True) for a in arrays]
    out = fn(lib, *inputs)
    out.sum().backward()
    return [out.detach().numpy()] + [x.grad.numpy() for x in inputs]


def _check(fn, *arrays):
    for a, b in zip(_run(numtorch, fn, arrays), _run(torch, fn, arrays)):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=0)


def _margin(**kwargs):
    def fn(t, x):
        options = dict(kwargs)
        if "weight" in options:
            options["weight"] = t.tensor(options["weight"], dtype=x.dtype)
        return t.nn.functional.multi_margin_loss(x, t.tensor([0, 3, 1]), **options)

    return fn


@pytest.mark.parametrize(
    "options",
    [{}, {"p": 2, "reduction": "none"}, {"reduction": "sum", "weight": [1.0, inf, 0.0, 2.0]}],
)
def test_multi_margin_loss_skips_nan_margins(options):
    _check(_margin(**options), ROWS)
