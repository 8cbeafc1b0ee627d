"""binary_cross_entropy and binary_cross_entropy_with_logits at torch's corners: the target
gradient -logit(input) unclamped (infinite at 0 and 1), torch's float EPSILON in the input
gradient, and the in-place steps of the logits form, which refuse an operand that would
broadcast the tensor they write into (forward, backward, and backward with create_graph)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("create_graph", [False, True])
def test_bce_gradients_at_saturated_inputs_match_torch(create_graph):
    results = []
    for lib in (numtorch, torch):
        p = lib.tensor([0.0, 1.0, 0.5, 1e-13], dtype=lib.float64, requires_grad=True)
        t = lib.tensor([0.3, 0.3, 0.3, 0.3], dtype=lib.float64, requires_grad=True)
        loss = lib.nn.functional.binary_cross_entropy(p, t)
        grads = lib.autograd.grad(loss, [p, t], create_graph=create_graph)
        results.append([g.detach().numpy() for g in grads])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-13)
    assert results[0][1][:2].tolist() == [np.inf, -np.inf]


def _bcel(lib, shapes, reduction, create_graph):
    def filled(shape, lo, hi):
        return lib.linspace(lo, hi, max(1, int(np.prod(shape))), dtype=lib.float64).reshape(shape)

    x, t = filled(shapes[0], -1, 1).requires_grad_(), filled(shapes[1], 0.1, 0.9).requires_grad_()
    pos_weight = None if shapes[2] is None else filled(shapes[2], 0.5, 3)
    try:
        loss = lib.binary_cross_entropy_with_logits(x, t, None, pos_weight, reduction)
    except RuntimeError as exc:
        return str(exc)
    try:
        grads = lib.autograd.grad(loss.sum(), [x, t], create_graph=create_graph)
    except RuntimeError as exc:
        return [str(exc)]
    return [g.detach().numpy().round(10).tolist() for g in grads]


SHAPES = [
    (a, b, c)
    for a, b in itertools.product([(), (3,), (2, 3)], repeat=2)
    for c in (None, (3,), (2, 1))
]


@pytest.mark.parametrize("shapes", SHAPES, ids=str)
@pytest.mark.parametrize("create_graph", [False, True])
def test_bce_with_logits_broadcasting_matches_torch(shapes, create_graph):
    for reduction in (0, 1):
        ours = _bcel(numtorch, shapes, reduction, create_graph)
        assert ours == _bcel(torch, shapes, reduction, create_graph)


@pytest.mark.parametrize(
    "shapes",
    [((0,), (3,), None, None), ((3,), (0,), None, None), ((3,), (3,), (2,), None)]
    + [((3,), (3,), None, (2,)), ((2, 3), (2, 3), (4, 3), None), ((2, 3), (2, 3), None, (4, 1))],
    ids=str,
)
def test_bce_with_logits_operands_that_do_not_broadcast_raise_torchs_error(shapes):
    messages = []
    for lib in (numtorch, torch):
        x, t, weight, pos_weight = (None if s is None else lib.ones(s) for s in shapes)
        with pytest.raises(RuntimeError) as info:
            lib.binary_cross_entropy_with_logits(x, t, weight, pos_weight)
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def _bce_second_order(lib, dtype, reduction, weighted):
    dtype = getattr(lib, dtype)
    x = lib.tensor([1.0, 0.0, 0.3, 1e-7, 0.999999, 0.5], dtype=dtype, requires_grad=True)
    y = lib.tensor([0.25, 0.5, 0.7, 0.0, 1.0, 0.5], dtype=dtype, requires_grad=True)
    weight = lib.tensor([1.5, 2.0, 0.5, 1.0, 3.0, 1.0], dtype=dtype) if weighted else None
    loss = lib.nn.functional.binary_cross_entropy(x, y, weight=weight, reduction=reduction)
    shape = (6,) if reduction == "none" else ()
    upstream = lib.full(shape, 1.25, dtype=dtype, requires_grad=True)
    gx, gy = lib.autograd.grad(loss, (x, y), upstream, create_graph=True)
    outer = lib.tensor([0.5, -1.0, 2.0, 1.0, 0.75, 1.0], dtype=dtype)
    total = (gx * outer).sum() + (gy * outer.flip(0)).sum()
    return [g.numpy() for g in lib.autograd.grad(total, (x, y, upstream))]


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_bce_second_order_follows_torchs_double_backward_formulas(dtype, reduction, weighted):
    # torch's own formulas with a double eps of 1e-12: at an input of 0 or 1 the input's is
    # (x^2 - 2xt + t) / (eps^2 (1 + eps)^2) (~1e24), where the derivative of the clamped first
    # gradient is 0; the target's and grad_output's divide by (x + eps)(1 - x + eps) or clamp
    # at 1e-12, not at the float 1e-12 of the first derivative
    ours = _bce_second_order(numtorch, dtype, reduction, weighted)
    theirs = _bce_second_order(torch, dtype, reduction, weighted)
    for a, b in zip(ours, theirs):
        np.testing.assert_array_equal(a, b)
