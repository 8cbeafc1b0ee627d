"""linalg.vecdot is ``x^H y``: the first vector conjugated, along ``dim``; two 1-D operands
run torch's vdot (VdotBackward0), whatever ``dim`` says, others a product and a sum."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

SHAPES = [
    ((3,), (3,), -1),
    ((3,), (3,), -2),
    ((2, 3), (3,), -1),
    ((3,), (2, 3), -1),
    ((2, 3), (2, 3), 0),
]


def _chain(t):
    names, node = [], t.grad_fn
    while node is not None and node.next_functions:
        names.append(node.name())
        node = node.next_functions[0][0]
    return names


def _run(lib, xs, ys, dim, dtype):
    rng = np.random.default_rng(len(xs) * 10 + len(ys))
    x = lib.tensor(rng.standard_normal(xs) + 1j * rng.standard_normal(xs), dtype=dtype)
    y = lib.tensor(rng.standard_normal(ys) - 1j * rng.standard_normal(ys), dtype=dtype)
    x.requires_grad_()
    y.requires_grad_()
    out = lib.linalg.vecdot(x, y, dim=dim)
    grads = lib.autograd.grad(out.abs().sum() if out.is_complex() else out.sum(), (x, y))
    return _chain(out), out.detach().numpy(), [g.resolve_conj().numpy() for g in grads]


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
@pytest.mark.parametrize("xs, ys, dim", SHAPES)
def test_vecdot_conjugates_x_and_records_torchs_nodes(xs, ys, dim, dtype):
    ours = _run(numtorch, xs, ys, dim, getattr(numtorch, dtype))
    theirs = _run(torch, xs, ys, dim, getattr(torch, dtype))
    assert ours[0] == theirs[0]
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-12)
    for a, b in zip(ours[2], theirs[2]):
        np.testing.assert_allclose(a, b, rtol=1e-12)
