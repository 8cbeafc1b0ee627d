"""Shared by the distribution parity tests: run one case under numtorch and torch and
compare what it returns (tensors by shape, dtype, values and grad_fn name)."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")


def summary(lib, value):
    if isinstance(value, lib.Tensor):
        node = value.grad_fn
        return (
            tuple(value.shape),
            str(value.dtype),
            value.detach().numpy(),
            None if node is None else type(node).__name__,
        )
    if isinstance(value, (list, tuple)):
        return [summary(lib, v) for v in value]
    if isinstance(value, lib.Size):
        return tuple(value)
    return value


def same(ours, theirs, where="result"):
    if isinstance(theirs, np.ndarray):
        assert ours.shape == theirs.shape, where
        np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6, err_msg=where)
    elif isinstance(theirs, (list, tuple)):
        assert len(ours) == len(theirs), f"{where}: {ours} vs {theirs}"
        for i, (a, b) in enumerate(zip(ours, theirs)):
            same(a, b, f"{where}[{i}]")
    elif isinstance(theirs, float):
        assert ours == pytest.approx(theirs, rel=1e-5, nan_ok=True), where
    else:
        assert ours == theirs, where


def parity(case):
    """Runs ``case(lib)`` under both libraries and compares what it returns."""
    same(summary(numtorch, case(numtorch)), summary(torch, case(torch)))


def params(lib, *values, dtype="float64"):
    return [lib.tensor(v, dtype=getattr(lib, dtype), requires_grad=True) for v in values]


def values_and_grads(lib, params, outputs):
    differentiable = [o.sum() for o in outputs if o.requires_grad]
    if not (params and differentiable):  # (an infinite KL, say, is a constant)
        return [*outputs, len(differentiable)]
    grads = lib.autograd.grad(sum(differentiable), params, allow_unused=True)
    return [*outputs, *grads]


def error(fn):
    try:
        fn()
    except Exception as e:
        return type(e).__name__, str(e).replace("numtorch", "torch")
    return "no error"
