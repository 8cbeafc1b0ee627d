"""torch.sparse.spdiags against torch: entries, layouts, the NotImplemented node, errors."""

from __future__ import annotations

import warnings

import pytest

import numtorch

torch = pytest.importorskip("torch")

CASES = {
    "lower": ([[0, 1, 2], [3, 4, 5], [6, 7, 8]], [0, -1, -2], (3, 3)),
    "upper_wide": ([[0, 1, 2], [3, 4, 5], [6, 7, 8]], [0, 1, 2], (3, 4)),
    "larger_than_diagonals": ([[1, 2], [3, 4]], [0, -1], (5, 5)),
    "tall": ([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], [2, -3], (4, 3)),
    "vector": ([0, 1, 2], [1], (3, 3)),
}


def _spdiags(lib, case, **kwargs):
    diagonals, offsets, shape = CASES[case]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's "CSR support is in beta"
        return lib.sparse.spdiags(lib.tensor(diagonals), lib.tensor(offsets), shape, **kwargs)


@pytest.mark.parametrize("case", sorted(CASES))
def test_entries_match_torch(case):
    ours, theirs = _spdiags(numtorch, case), _spdiags(torch, case)
    assert ours._indices().tolist() == theirs._indices().tolist()
    assert ours._values().tolist() == theirs._values().tolist()
    assert str(ours.dtype) == str(theirs.dtype)
    assert ours.is_coalesced() == theirs.is_coalesced()
    assert ours.to_dense().tolist() == theirs.to_dense().tolist()


@pytest.mark.parametrize("case", sorted(CASES))
def test_csr_layout_matches_torch(case):
    ours = _spdiags(numtorch, case, layout=numtorch.sparse_csr)
    theirs = _spdiags(torch, case, layout=torch.sparse_csr)
    assert ours.crow_indices().tolist() == theirs.crow_indices().tolist()
    assert ours.col_indices().tolist() == theirs.col_indices().tolist()
    assert ours.values().tolist() == theirs.values().tolist()


def _backward_error(lib):
    x = lib.arange(6.0).reshape(2, 3).requires_grad_()
    s = lib.sparse.spdiags(x, lib.tensor([1, -1]), (3, 3))
    name = s.grad_fn.name()
    with pytest.raises(RuntimeError) as info:
        s.to_dense().sum().backward()
    return name, str(info.value)


def test_gradient_refused_as_torch_refuses_it():
    assert _backward_error(numtorch) == _backward_error(torch)


ERRORS = {
    "duplicate": lambda lib: (lib.arange(9).reshape(3, 3), lib.tensor([0, 0, 1]), (3, 3)),
    "count": lambda lib: (lib.arange(9).reshape(3, 3), lib.tensor([0, 1]), (3, 3)),
    "shape": lambda lib: (lib.arange(9).reshape(3, 3), lib.tensor([0, 1, 2]), (3,)),
    "offsets_2d": lambda lib: (lib.arange(9).reshape(3, 3), lib.tensor([[0, 1, 2]]), (3, 3)),
    "offsets_float": lambda lib: (lib.arange(9).reshape(3, 3), lib.tensor([0.0, 1, 2]), (3, 3)),
    "diagonals_3d": lambda lib: (lib.arange(9).reshape(1, 3, 3), lib.tensor([0]), (3, 3)),
    "offsets_list": lambda lib: (lib.arange(9).reshape(3, 3), [0, 1, 2], (3, 3)),
}


def _error(lib, case, **kwargs):
    with pytest.raises(Exception) as info:
        lib.sparse.spdiags(*ERRORS[case](lib), **kwargs)
    return info.type, str(info.value)


@pytest.mark.parametrize("case", sorted(ERRORS))
def test_errors_match_torch(case):
    assert _error(numtorch, case) == _error(torch, case)


def test_strided_layout_refused_as_torch_refuses_it():
    ours = _error(numtorch, "count", layout=numtorch.strided)  # the count check comes first
    assert ours == _error(torch, "count", layout=torch.strided)
    args = (numtorch.arange(3).reshape(1, 3), numtorch.tensor([0]), (3, 3))
    with pytest.raises(RuntimeError, match="got Strided"):
        numtorch.sparse.spdiags(*args, layout=numtorch.strided)
