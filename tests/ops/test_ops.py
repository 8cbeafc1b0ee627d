"""Registry-driven op tests: every entry of the op sample table is checked for its forward
against NumPy, gradcheck and gradgradcheck in float64, gradient shapes and dtypes, and the
no-grad path. A registered primitive with a derivative that no entry exercises fails."""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from conftest import to_lib

import numtorch as torch
from numtorch._core.observers import add_observer, remove_observer
from numtorch._core.op import REGISTRY
from numtorch.testing.opinfo import OP_DB

# Each op's samples come from a seed fixed by its name (crc32, not hash(): str hashes change
# with every process), so a failure reproduces and every run checks the same inputs.
CASES = [
    pytest.param(info, sample, id=f"{info.name}-{i}")
    for info in OP_DB
    for i, sample in enumerate(info.samples(np.random.default_rng(zlib.crc32(info.name.encode()))))
]


def build(info, sample, dtype=torch.float64, requires_grad=True):
    args = [to_lib(torch, a, dtype, requires_grad) for a in sample.args]
    return args, [a for a in args if isinstance(a, torch.Tensor) and a.requires_grad]


def run(info, args, sample):
    return info.op(torch, *args, **sample.kwargs)


@pytest.mark.parametrize("info, sample", CASES)
def test_forward_matches_numpy(info, sample):
    if info.ref is None:
        pytest.skip("no NumPy reference (checked by gradcheck and torch parity)")
    args, _ = build(info, sample)
    out = run(info, args, sample)
    expected = info.ref(*sample.args, **sample.kwargs)
    np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-10, atol=1e-12)
    assert out.shape == np.shape(expected)


@pytest.mark.parametrize("info, sample", CASES)
def test_gradcheck(info, sample):
    if not info.grad:
        pytest.skip("not differentiable here")
    args, inputs = build(info, sample)
    positions = [i for i, a in enumerate(args) if any(a is t for t in inputs)]

    def fn(*tensors):
        full = list(args)
        for i, t in zip(positions, tensors):
            full[i] = t
        return run(info, full, sample)

    assert torch.autograd.gradcheck(fn, tuple(inputs), atol=info.atol, rtol=info.rtol)


@pytest.mark.parametrize("info, sample", CASES)
def test_gradgradcheck(info, sample):
    if not (info.grad and info.gradgrad):
        pytest.skip("not twice differentiable here")
    args, inputs = build(info, sample)
    positions = [i for i, a in enumerate(args) if any(a is t for t in inputs)]

    def fn(*tensors):
        full = list(args)
        for i, t in zip(positions, tensors):
            full[i] = t
        return run(info, full, sample)

    assert torch.autograd.gradgradcheck(fn, tuple(inputs), atol=info.atol, rtol=info.rtol)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("info, sample", CASES)
def test_grad_shapes_and_dtypes(info, sample, dtype):
    args, inputs = build(info, sample, dtype)
    out = run(info, args, sample)
    if not out.requires_grad:
        assert not info.grad or not inputs
        return
    out.backward(torch.ones_like(out))
    for t in inputs:
        if t.grad is not None:
            assert t.grad.shape == t.shape
            assert t.grad.dtype == t.dtype


@pytest.mark.parametrize("info, sample", CASES)
def test_no_grad_path(info, sample):
    args, _ = build(info, sample)
    expected = run(info, args, sample)
    with torch.no_grad():
        out = run(info, args, sample)
    # as torch: a view taken under no_grad of a tensor requiring grad reports its base's
    # requires_grad, with no grad_fn; anything else records nothing
    view_of_grad = out._base is not None and out._base.requires_grad
    assert out.requires_grad == view_of_grad and out.grad_fn is None
    np.testing.assert_array_equal(out.detach().numpy(), expected.detach().numpy())


class _Seen:
    def __init__(self):
        self.names = set()

    def wrap(self, spec, args, run):
        self.names.add(spec.name)
        return run


def test_every_differentiable_primitive_is_exercised():
    seen = _Seen()
    add_observer(seen)
    try:
        for param in CASES:
            info, sample = param.values
            args, inputs = build(info, sample)
            out = run(info, args, sample)
            if out.requires_grad and info.grad:
                grads = torch.autograd.grad(
                    out, inputs, torch.ones_like(out), create_graph=True, allow_unused=True
                )
                second = [g.sum() for g in grads if g is not None and g.requires_grad]
                if second and info.gradgrad:  # (torch leaves some NotImplemented)
                    torch.autograd.grad(sum(second), inputs, allow_unused=True)
    finally:
        remove_observer(seen)
    differentiable = {name for name, spec in REGISTRY.items() if spec.formulas}
    missing = sorted(differentiable - seen.names)
    assert not missing, f"primitives with no sample in numtorch.testing.opinfo: {missing}"
