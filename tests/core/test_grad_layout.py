"""torch's gradient layout contract for a leaf's first gradient, and
``enforce_grad_layout_policy``, against an installed torch."""

import pytest

import numtorch

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.parity


def _strides(lib, enable):
    seen = []
    # a permuted (non-overlapping, dense) leaf: a fresh row-major gradient is taken over
    # as it is only while the contract is relaxed
    p = lib.zeros(2, 3, 4).permute(2, 0, 1).requires_grad_()
    with lib.autograd.enforce_grad_layout_policy(enable):
        (p * 2).sum().backward()
    seen.append(p.grad.stride())
    # a gradient that has to be copied gets the leaf's layout either way
    p = lib.zeros(2, 3, 4).permute(2, 0, 1).requires_grad_()
    with lib.autograd.enforce_grad_layout_policy(enable):
        (p * 2).backward(lib.ones(2, 3, 4).permute(2, 0, 1))
    seen.append(p.grad.stride())
    w = lib.zeros(2, 3, 4, 5).to(memory_format=lib.channels_last).requires_grad_()
    with lib.autograd.enforce_grad_layout_policy(enable):
        (w * 2).backward(lib.ones(2, 3, 4, 5))
    seen.append(w.grad.stride())
    # an overlapping leaf (expanded): a row-major gradient
    e = lib.zeros(3, 1).requires_grad_()
    with lib.autograd.enforce_grad_layout_policy(enable):
        (e.expand(3, 4) * 1).sum().backward()
    seen.append(e.grad.stride())
    return seen


@pytest.mark.parametrize("enable", [True, False])
def test_first_gradient_layout_matches_torch(enable):
    assert _strides(numtorch, enable) == _strides(torch, enable)


def test_policy_is_a_function_and_a_decorator():
    enforced = numtorch._core.grad_mode.is_grad_layout_enforced
    numtorch.autograd.enforce_grad_layout_policy(False)
    try:
        assert not enforced()

        @numtorch.autograd.enforce_grad_layout_policy(True)
        def inside():
            return enforced()

        assert inside() and not enforced()
    finally:
        numtorch.autograd.enforce_grad_layout_policy(True)
    assert enforced()
