"""Tensor.grad_dtype against torch: defaults, accumulation casts, assignment checks, errors."""

from __future__ import annotations

import warnings

import pytest

import numtorch

torch = pytest.importorskip("torch")


def _story(lib):
    """Each step's result or error, as (kind, text)."""
    out = []

    def step(fn):
        try:
            out.append(("ok", str(fn())))
        except Exception as e:  # the errors are compared with torch's
            out.append((type(e).__name__, str(e)))

    x = lib.tensor([1.0, 2.0], requires_grad=True)
    step(lambda: x.grad_dtype)
    step(lambda: setattr(x, "grad_dtype", lib.float16))
    step(lambda: x.grad_dtype)
    step(lambda: (x * 2).sum().backward())
    step(lambda: (x.grad, x.grad.dtype))
    step(lambda: setattr(x, "grad_dtype", lib.float64))  # a float16 .grad is there
    step(lambda: setattr(x, "grad", None))
    step(lambda: setattr(x, "grad_dtype", lib.float64))
    step(lambda: setattr(x, "grad", lib.zeros(2)))  # float32 into a float64 grad_dtype
    step(lambda: (x * 3).sum().backward())
    step(lambda: (x * 3).sum().backward())
    step(lambda: (x.grad, x.grad.dtype))
    step(lambda: setattr(x, "grad", None))
    step(lambda: setattr(x, "grad_dtype", None))
    step(lambda: x.grad_dtype)
    step(lambda: setattr(x, "grad", lib.zeros(2, dtype=lib.float64)))
    step(lambda: (x * 2).sum().backward())
    step(lambda: x.grad.dtype)
    step(lambda: setattr(x, "grad_dtype", 3))
    y = x * 2
    step(lambda: y.grad_dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch warns of reading a non-leaf's .grad here
        step(lambda: setattr(y, "grad_dtype", lib.float64))
    z = lib.tensor([1, 2])
    step(lambda: z.grad_dtype)
    step(lambda: x.detach().grad_dtype)
    w = lib.zeros(2, requires_grad=True)
    step(lambda: setattr(w, "grad", lib.zeros(2, dtype=lib.float64)))
    return out


def test_grad_dtype_story_matches_torch():
    ours, theirs = _story(numtorch), _story(torch)
    assert len(ours) == len(theirs)
    for i, (a, b) in enumerate(zip(ours, theirs)):
        assert a == b, f"step {i}: {a} != {b}"
