"""``torch.sparse.as_sparse_gradcheck`` against torch: sparse COO and CSR inputs and outputs,
``masked=``, partials of gradcheck, and a wrong gradient caught as torch catches it."""

from __future__ import annotations

import functools

import pytest

import numtorch

torch = pytest.importorskip("torch")

DATA = [[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]]


def _coo(lib):
    return lib.tensor(DATA, dtype=lib.float64).to_sparse_coo().requires_grad_(True)


def _csr(lib):
    return lib.tensor(DATA, dtype=lib.float64).to_sparse_csr().requires_grad_(True)


def _scaled_wrongly(lib):
    class Wrong(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return grad * 3

    return Wrong.apply


CASES = {
    "coo_to_csr": (_coo, lambda lib: lambda x: x.to_sparse_csr(), {}),
    "coo_to_dense": (_coo, lambda lib: lambda x: x.to_dense() * 2, {}),
    "coo_masked": (_coo, lambda lib: lambda x: x.to_dense().sin(), {"masked": True}),
    "coo_sparse_output": (_coo, lambda lib: lambda x: x * 3, {}),
    "coo_with_dense": (
        _coo,
        lambda lib: lambda x: lib.sparse.mm(x, lib.ones(3, 2, dtype=lib.float64)),
        {},
    ),
    "csr_to_dense": (_csr, lambda lib: lambda x: x.to_dense().exp(), {}),
    "csr_masked": (_csr, lambda lib: lambda x: x.to_dense() * 2, {"masked": True}),
    "wrong_gradient": (
        _coo,
        lambda lib: lambda x: _scaled_wrongly(lib)(x.to_dense()),
        {"raise_exception": False},
    ),
}


def _outcome(lib, name):
    make_input, make_func, kwargs = CASES[name]
    gradcheck = lib.sparse.as_sparse_gradcheck(
        functools.partial(lib.autograd.gradcheck, eps=1e-6, atol=1e-5)
    )
    try:
        return gradcheck(make_func(lib), make_input(lib), **kwargs)
    except Exception as e:  # the type's name is compared
        return type(e).__name__


@pytest.mark.parametrize("name", sorted(CASES))
def test_outcome_matches_torch(name):
    theirs = _outcome(torch, name)
    assert _outcome(numtorch, name) == theirs
    assert theirs is (name != "wrong_gradient")
