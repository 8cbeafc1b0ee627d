"""Parity with torch (skipped when torch is not installed): every op sample is run by both
libraries, comparing values, shapes, dtypes, grad_fn names and input gradients."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import to_lib
from test_ops import CASES

import numtorch

torch = pytest.importorskip("torch")


def _run(lib, info, sample, dtype_name):
    dtype = getattr(lib, dtype_name)
    args = [to_lib(lib, a, dtype) for a in sample.args]
    inputs = [a for a in args if isinstance(a, lib.Tensor) and a.requires_grad]
    return info.op(lib, *args, **sample.kwargs), inputs


def _node_name(fn):
    return None if fn is None else fn.name().rsplit("::", 1)[-1]


@pytest.mark.parametrize("dtype_name", ["float64", "float32"])
@pytest.mark.parametrize("info, sample", CASES)
def test_matches_torch(info, sample, dtype_name):
    ours, our_inputs = _run(numtorch, info, sample, dtype_name)
    theirs, their_inputs = _run(torch, info, sample, dtype_name)
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert str(ours.dtype) == str(theirs.dtype)
    # float32: results differ by a few ulps between machines (SIMD widths, summation order),
    # and values near zero after a cancellation (normalisation layers) need an absolute slack
    tol = dict(rtol=1e-10, atol=1e-12) if dtype_name == "float64" else dict(rtol=2e-5, atol=1e-5)
    if info.parity_rtol is not None and dtype_name == "float64":
        tol["rtol"] = info.parity_rtol
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), **tol)
    assert ours.requires_grad == theirs.requires_grad
    if info.torch_grad_fn:
        assert _node_name(ours.grad_fn) == _node_name(theirs.grad_fn)
    if not theirs.requires_grad:
        return
    seed = np.random.default_rng(7).standard_normal(tuple(theirs.shape))
    ours.backward(numtorch.tensor(seed, dtype=ours.dtype))
    theirs.backward(torch.tensor(seed, dtype=theirs.dtype))
    if info.defined_grad is not None:
        arrays = [a for a in sample.args if isinstance(a, np.ndarray) and a.dtype.kind == "f"]
        expected = info.defined_grad(seed, *arrays)
        for a, want in zip(our_inputs, expected):
            np.testing.assert_allclose(a.grad.numpy(), want, **tol)
        return
    for a, b in zip(our_inputs, their_inputs):
        if b.grad is None:
            assert a.grad is None or not a.grad.numpy().any()
            continue
        assert a.grad is not None
        # force: torch may return a ZeroTensor gradient (sgn), which numpy() refuses
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(force=True), **tol)
