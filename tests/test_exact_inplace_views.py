"""In-place ops through views, as torch records them: the views of a tensor that starts
requiring grad follow it, and what each in-place op saves decides which later writes its
backward refuses. Each case runs under numtorch and, where installed, under torch."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

VIEWS = {
    "view": lambda b: b.view(-1),
    "select": lambda b: b[1],
    "slice": lambda b: b[:, 1:],
    "transpose": lambda b: b.t(),
    "expand": lambda b: b.expand(2, 2, 3),
    "diagonal": lambda b: b.diagonal(),
}


def _sibling_view_after_inplace(lib, make_view, through_view):
    base = lib.zeros(2, 3, dtype=lib.float64)
    view = make_view(base)
    w = lib.tensor([1.0, 2.0, 3.0], dtype=lib.float64, requires_grad=True)
    if through_view:
        base[1].add_(w)  # the base starts requiring grad through another view
    else:
        base.add_(w)
    seen = (view.requires_grad, view.is_leaf)
    (view * 2).sum().backward()
    return seen, w.grad.numpy().copy()


@pytest.mark.parametrize("through_view", [True, False])
@pytest.mark.parametrize("name", sorted(VIEWS))
def test_a_view_made_earlier_requires_grad_once_its_base_does(name, through_view):
    seen, grad = _sibling_view_after_inplace(numtorch, VIEWS[name], through_view)
    assert seen == (True, False)
    assert grad.any()
    torch = pytest.importorskip("torch")
    torch_seen, torch_grad = _sibling_view_after_inplace(torch, VIEWS[name], through_view)
    assert seen == torch_seen
    np.testing.assert_allclose(grad, torch_grad)


def test_a_view_made_earlier_feeds_ops_that_record():
    base = numtorch.zeros(4, dtype=numtorch.float64)
    flat = base.view(2, 2)
    w = numtorch.ones(1, dtype=numtorch.float64, requires_grad=True)
    base[0:1].mul_(w).add_(w * 3)
    out = flat.exp()
    assert out.requires_grad and type(out.grad_fn).__name__ == "ExpBackward0"
    out.sum().backward()
    assert w.grad.item() == pytest.approx(3 * np.exp(3.0))
