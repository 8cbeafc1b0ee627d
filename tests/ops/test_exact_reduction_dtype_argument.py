"""Reductions given ``dtype=`` (Note [Reductions with dtype=]): torch converts the input
inside the op, so the graph holds the reduction's own node with no ToCopyBackward0 beneath
it; the halves accumulate in float32 and round once; the norms check the dtype first."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

# quarters: every sum is exact in float32, whatever order torch's vectorised kernels add in
_VALUES = np.random.RandomState(0).randint(-12, 13, size=(3, 4)) / 4

_CALLS = {
    "sum": lambda lib, x, d: x.sum(dtype=d),
    "sum_dim": lambda lib, x, d: x.sum(1, dtype=d),
    "mean": lambda lib, x, d: x.mean(dtype=d),
    "mean_dim": lambda lib, x, d: x.mean(0, dtype=d),
    "nansum": lambda lib, x, d: lib.nansum(x, dtype=d),
    "nanmean": lambda lib, x, d: lib.nanmean(x, 1, dtype=d),
    "cumsum": lambda lib, x, d: x.cumsum(0, dtype=d),
    "cumprod": lambda lib, x, d: x.cumprod(1, dtype=d),
    "vector_norm": lambda lib, x, d: lib.linalg.vector_norm(x, dtype=d),
    "vector_norm_dim": lambda lib, x, d: lib.linalg.vector_norm(x, 1, 0, dtype=d),
    "norm": lambda lib, x, d: lib.norm(x, 2, 1, dtype=d),
    "matrix_norm": lambda lib, x, d: lib.linalg.matrix_norm(x, dtype=d),
}


def _chain(t):
    names, fn = [], t.grad_fn
    while fn is not None:
        names.append(type(fn).__name__)
        fn = fn.next_functions[0][0] if fn.next_functions else None
    return names


def _outcome(lib, call, source, dtype):
    x = lib.tensor(_VALUES, dtype=getattr(lib, source), requires_grad=True)
    try:
        y = _CALLS[call](lib, x, getattr(lib, dtype))
        (grad,) = lib.autograd.grad(y.sum(), x)
    except Exception as e:  # the type and message are compared
        return type(e).__name__, str(e)
    values = y.detach().to(lib.float64).numpy()
    return str(y.dtype), _chain(y), str(grad.dtype), values.tolist(), grad.double().tolist()


@pytest.mark.parametrize("call", sorted(_CALLS))
@pytest.mark.parametrize(
    ("source", "dtype"),
    [
        ("float32", "float64"),
        ("float64", "float32"),
        ("float32", "bfloat16"),
        ("bfloat16", "float32"),
    ],
)
def test_reduction_dtype_argument_matches_torch(call, source, dtype):
    assert _outcome(numtorch, call, source, dtype) == _outcome(torch, call, source, dtype)


@pytest.mark.parametrize("source", ["float32", "float64", "int32"])
def test_sum_in_bfloat16_rounds_once(source):
    # a bfloat16 sum accumulates in float32: 1 + 0.01 * 99 rounds to 2.0, not to 1.0
    values = np.concatenate([[1.0], np.full(99, 0.01)]) * (100 if source == "int32" else 1)

    def total(lib):
        x = lib.tensor(values, dtype=getattr(lib, source))
        return x.sum(dtype=lib.bfloat16).float().item(), x.mean(dtype=lib.float16).item()

    assert total(numtorch) == total(torch)


@pytest.mark.parametrize("ord", [2, 1, 3, 0.5, float("inf")])
def test_half_norm_accumulates_in_float(ord):
    # small halves: their squares underflow a half, not the float torch sums them in
    values = np.array([[1e-6, 2e-6, -1e-6], [-3e-6, 5e-8, 0.0]], dtype=np.float16)

    def norms(lib):
        x = lib.tensor(values)
        out = lib.linalg.vector_norm(x, ord), lib.linalg.vector_norm(x, ord, 1), lib.norm(x, ord)
        return [t.float().tolist() for t in out]

    assert norms(numtorch) == norms(torch)


@pytest.mark.parametrize("dtype", ["int32", "complex64", "float16", "float64"])
@pytest.mark.parametrize("source", ["float32", "complex64", "int64"])
@pytest.mark.parametrize("call", ["vector_norm", "matrix_norm"])
def test_norm_dtype_checks_match_torch(call, source, dtype):
    def outcome(lib):
        x = lib.ones(2, 2, dtype=getattr(lib, source))
        try:
            return str(_CALLS[call](lib, x, getattr(lib, dtype)).dtype)
        except RuntimeError as e:
            return str(e)

    assert outcome(numtorch) == outcome(torch)


def _complex_backward(lib, call):
    x = lib.tensor(_VALUES, requires_grad=True)
    try:
        y = _CALLS[call](lib, x, lib.complex128)
        (grad,) = lib.autograd.grad(y.abs().sum(), x)
    except Exception as error:  # the error type is the outcome
        return type(error).__name__
    return str(grad.dtype).replace("numtorch", "torch"), grad.tolist()


@pytest.mark.parametrize("call", ["sum", "sum_dim", "mean", "mean_dim", "cumsum", "cumprod"])
def test_a_complex_dtype_of_a_real_input_backward_as_torch(call):
    # sum, mean and cumprod hand the real input a complex gradient, which torch's engine
    # refuses; cumsum's formula casts it to the input's dtype first
    assert _complex_backward(numtorch, call) == _complex_backward(torch, call)


def test_prod_with_complex_dtype_refuses_the_complex_gradient():
    x = numtorch.tensor(_VALUES + 2, requires_grad=True)
    for y in (x.prod(dtype=numtorch.complex64), x.prod(1, dtype=numtorch.complex128)):
        with pytest.raises(RuntimeError, match="input_is_complex == grad_is_complex"):
            y.abs().sum().backward()
