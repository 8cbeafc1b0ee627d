"""torch.sparse.mm with ``reduce=`` on a sparse CSR matrix, against torch."""

from __future__ import annotations

import warnings

import pytest

import numtorch

torch = pytest.importorskip("torch")

# row 0 has a tie (1 * 1 twice), so amax/amin must pick the first entry as torch's kernel does
_DENSE = [[1.0, 1.0, 2.0], [0.0, 3.0, 0.0], [0.0, 0.0, 0.0]]
_OTHER = [[1.0, 1.0], [1.0, -5.0], [0.0, 7.0]]
_GRAD = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]


def _run(lib, reduce):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's "CSR support is in beta"
        a = lib.tensor(_DENSE, dtype=lib.float64).to_sparse_csr().requires_grad_()
    b = lib.tensor(_OTHER, dtype=lib.float64, requires_grad=True)
    out = lib.sparse.mm(a, b, reduce)
    out.backward(lib.tensor(_GRAD, dtype=lib.float64))
    return out, a.grad, b.grad


@pytest.mark.parametrize("reduce", ["sum", "mean", "amax", "amin", "max", "min"])
def test_reduce_values_and_gradients_match_torch(reduce):
    ours, theirs = _run(numtorch, reduce), _run(torch, reduce)
    assert ours[0].grad_fn.name() == theirs[0].grad_fn.name() == "SparseMmReduceImplBackward0"
    assert ours[0].tolist() == theirs[0].tolist()
    assert ours[1].layout is numtorch.sparse_csr
    assert ours[1].col_indices().tolist() == theirs[1].col_indices().tolist()
    assert ours[1].values().tolist() == pytest.approx(theirs[1].values().tolist())
    assert ours[2].flatten().tolist() == pytest.approx(theirs[2].flatten().tolist())


def _error(lib, case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        csr = lib.tensor(_DENSE).to_sparse_csr()
        coo = lib.tensor(_DENSE).to_sparse()
        csr_long = lib.tensor([[1, 0], [0, 2]]).to_sparse_csr()
    b = lib.tensor(_OTHER)
    args = {
        "unknown": (csr, b, "foo"),
        "prod": (csr, b, "prod"),
        "dense_input": (b, csr, "sum"),
        "coo_input": (coo, b, "sum"),
        "rows": (csr, b[:2], "sum"),
        "vector": (csr, b[0], "sum"),
        "dtype": (csr, b.double(), "sum"),
        "integer": (csr_long, lib.tensor([[1, 2], [3, 4]]), "sum"),
    }[case]
    with pytest.raises(Exception) as info:
        lib.sparse.mm(*args)
    return info.type, str(info.value)


@pytest.mark.parametrize(
    "case", ["unknown", "prod", "dense_input", "coo_input", "rows", "vector", "dtype", "integer"]
)
def test_reduce_errors_match_torch(case):
    ours, theirs = _error(numtorch, case), _error(torch, case)
    assert ours[0] is theirs[0]
    if case != "coo_input":  # torch's message there lists every dispatch key
        assert ours[1] == theirs[1]


@pytest.mark.parametrize("reduce", ["sum", "amax"])
def test_second_order_raises_as_torch(reduce):
    # torch's gradients come from _sparse_mm_reduce_impl_backward, which has no derivative
    torch = pytest.importorskip("torch")
    outcomes = []
    for lib in (numtorch, torch):
        values = lib.tensor([1.0, -2.0, 3.0], dtype=lib.float64, requires_grad=True)
        dense = lib.tensor([[1.0, 2.0], [3.0, -1.0]], dtype=lib.float64, requires_grad=True)
        csr = lib.sparse_coo_tensor(lib.tensor([[0, 0, 1], [0, 1, 1]]), values, (2, 2))
        out = lib.sparse.mm(csr.to_sparse_csr(), dense, reduce)
        (g,) = lib.autograd.grad(out.sum(), dense, create_graph=True)
        with pytest.raises(RuntimeError) as info:
            lib.autograd.grad(g.sum(), dense)
        outcomes.append((g.requires_grad, type(g.grad_fn).__name__, str(info.value)))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("reduce", ["amax", "amin"])
@pytest.mark.parametrize(
    "values", [[float("inf"), 1.0, -float("inf"), 3.0], [1.0, float("nan"), 2.0, 3.0]]
)
def test_extremes_with_infinite_and_nan_products_as_torch(reduce, values):
    # the picked product itself, not a weighted sum (0 * inf is NaN for an unpicked one)
    torch = pytest.importorskip("torch")
    results = []
    for lib in (numtorch, torch):
        index = lib.tensor([[0, 0, 1, 2], [0, 1, 1, 0]])
        sparse = lib.sparse_coo_tensor(index, lib.tensor(values, dtype=lib.float64), (4, 2))
        dense = lib.tensor([[1.0, -1.0], [2.0, 0.5]], dtype=lib.float64)
        results.append(lib.sparse.mm(sparse.to_sparse_csr(), dense, reduce).tolist())
    assert str(results[0]) == str(results[1])


_INF, _NAN = float("inf"), float("nan")


@pytest.mark.parametrize("reduce", ["amax", "amin"])
@pytest.mark.parametrize(
    "dense, grad",
    [
        ([[2.0, -1.0], [2.0, 5.0], [0.5, -1.0]], [[1.0, 2.0], [3.0, 4.0]]),  # ties
        ([[_NAN, 1.0], [3.0, _NAN], [_NAN, _NAN]], [[1.0, 2.0], [3.0, 4.0]]),  # last NaN
        ([[-_INF, _INF], [-_INF, _INF], [1.0, 2.0]], [[1.0, 2.0], [3.0, 4.0]]),  # nothing
        ([[_INF, 1.0], [5.0, -_INF], [2.0, 3.0]], [[1.0, 2.0], [3.0, 4.0]]),  # unpicked inf
        ([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[_NAN, 2.0], [_INF, 0.0]]),  # gradient's own
    ],
)
def test_extreme_gradients_go_to_the_picked_entry_as_torch(reduce, dense, grad):
    # torch's kernel picks, per output element, the first entry reaching the extreme, the
    # last NaN, or none when every product equals its starting infinity; only that entry
    # gets a gradient (an unpicked entry's infinite factor gives no 0 * inf NaN); row 2 is
    # empty, row 0 has three entries, row 1 one
    torch = pytest.importorskip("torch")
    results = []
    for lib in (numtorch, torch):
        values = lib.tensor([1.0, 1.0, 1.0, -2.0], dtype=lib.float64, requires_grad=True)
        other = lib.tensor(dense, dtype=lib.float64, requires_grad=True)
        index = lib.tensor([[0, 0, 0, 1], [0, 1, 2, 2]])
        sparse = lib.sparse_coo_tensor(index, values, (3, 3)).to_sparse_csr()
        out = lib.sparse.mm(sparse, other, reduce)
        out[:2].backward(lib.tensor(grad, dtype=lib.float64))
        results.append((out.tolist(), values.grad.tolist(), other.grad.tolist()))
    assert str(results[0]) == str(results[1])


def test_zero_dim_dense_operand_raises_torch_index_error():
    for lib in (numtorch, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            csr = lib.tensor(_DENSE).to_sparse_csr()
        with pytest.raises(IndexError, match="Dimension specified as 0 but tensor has no dim"):
            lib.sparse.mm(csr, lib.tensor(2.0), "amax")
