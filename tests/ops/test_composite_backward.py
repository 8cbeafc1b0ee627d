"""Derivatives of ops whose backward is a composite (``ops/nn/composite_backward.py``) under
``create_graph=True``, against torch."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch


def test_create_graph_gradient_of_a_composite_op_whose_arguments_share_an_ancestor():
    # ormqr(a, tau, c) with a computed from c: each argument's derivative counts only the
    # paths through that argument, or the gradient through a is counted twice
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    x0, tau0 = rng.standard_normal((2, 4)), rng.standard_normal(3)
    grads = []
    for lib in (numtorch, torch):
        x, tau = lib.tensor(x0, requires_grad=True), lib.tensor(tau0, requires_grad=True)
        a = x.reshape(-1).repeat(2)[:12].reshape(4, 3)
        loss = (lib.ormqr(a, tau, x, left=False) * lib.arange(8.0).reshape(2, 4)).sum()
        grads.append(
            [g.detach().numpy() for g in lib.autograd.grad(loss, [x, tau], create_graph=True)]
        )
    for ours, theirs in zip(*grads):
        np.testing.assert_allclose(ours, theirs, rtol=1e-10)
