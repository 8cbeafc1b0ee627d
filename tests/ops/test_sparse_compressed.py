"""Sparse compressed tensors (CSR, CSC, BSR, BSC; batched and hybrid) against torch:
construction, printing, index accessors, conversions between layouts, ``to_dense``, the
invariant errors, gradients through conversions, and ``narrow_copy`` of a COO tensor."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import numtorch

DENSE = [[1.0, 0.0, 0.0, 2.0], [0.0, 0.0, 0.0, 0.0], [3.0, 4.0, 0.0, 0.0], [0.0, 5.0, 0.0, 6.0]]
BATCHED = [
    [[1.0, 0.0, 2.0, 0.0], [0.0, 3.0, 0.0, 0.0]],
    [[0.0, 0.0, 4.0, 5.0], [6.0, 0.0, 0.0, 0.0]],
]
HYBRID = [[[1.0, 2.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 3.0]], [[0.0, 0.0], [0.0, 0.0]]]


def _both(fn):
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's note that BSR/BSC support is in beta
        return fn(numtorch), fn(torch)


def _outcome(fn, lib):
    try:
        return fn(lib)
    except Exception as e:  # the error is the outcome compared
        return (type(e).__name__, str(e))


CASES = {
    "csr": lambda lib: lib.tensor(DENSE).to_sparse_csr(),
    "csc": lambda lib: lib.tensor(DENSE).to_sparse_csc(),
    "bsr": lambda lib: lib.tensor(DENSE).to_sparse_bsr((2, 2)),
    "bsc": lambda lib: lib.tensor(DENSE).to_sparse_bsc((2, 1)),
    "bsr_rect": lambda lib: lib.tensor(DENSE).to_sparse_bsr((1, 4)),
    "batched_csr": lambda lib: lib.tensor(BATCHED).to_sparse_csr(),
    "batched_csc": lambda lib: lib.tensor(BATCHED).to_sparse_csc(),
    "batched_bsr": lambda lib: lib.tensor(BATCHED).to_sparse_bsr((2, 2)),
    "hybrid_csr": lambda lib: lib.tensor(HYBRID).to_sparse_csr(dense_dim=1),
    "hybrid_bsc": lambda lib: lib.tensor(HYBRID).to_sparse_bsc((1, 1), 1),
    "int_csc": lambda lib: lib.tensor([[0, 7], [8, 0]]).to_sparse_csc(),
    "float64_bsr": lambda lib: lib.tensor(DENSE, dtype=lib.float64).to_sparse_bsr((2, 2)),
    "empty_csr": lambda lib: lib.zeros(2, 3).to_sparse_csr(),
    "csr_to_csc": lambda lib: lib.tensor(DENSE).to_sparse_csr().to_sparse_csc(),
    "csc_to_bsr": lambda lib: lib.tensor(DENSE).to_sparse_csc().to_sparse_bsr((2, 2)),
    "coo_to_bsc": lambda lib: lib.tensor(DENSE).to_sparse().to_sparse_bsc((2, 2)),
    "coo_hybrid_to_csr": lambda lib: lib.tensor(HYBRID).to_sparse(2).to_sparse_csr(),
    "to_sparse_layout": lambda lib: lib.tensor(DENSE).to_sparse(
        layout=lib.sparse_bsc, blocksize=(4, 2)
    ),
    "to_sparse_dense_dim": lambda lib: lib.tensor(HYBRID).to_sparse(
        layout=lib.sparse_csc, dense_dim=1
    ),
    "csc_tensor": lambda lib: lib.sparse_csc_tensor([0, 2, 3, 3], [0, 2, 1], [1.0, 2.0, 3.0]),
    "csc_tensor_size": lambda lib: lib.sparse_csc_tensor(
        [0, 1, 1], [2], [5.0], (4, 2), dtype=lib.float64
    ),
    "bsr_tensor": lambda lib: lib.sparse_bsr_tensor(
        [0, 1, 2], [1, 0], lib.arange(8.0).reshape(2, 2, 2)
    ),
    "bsc_tensor_rect": lambda lib: lib.sparse_bsc_tensor(
        [0, 1, 1, 2], [0, 1], lib.arange(12.0).reshape(2, 3, 2), (6, 6)
    ),
    "batched_csr_tensor": lambda lib: lib.sparse_csr_tensor(
        [[0, 1, 2], [0, 0, 2]], [[1, 0], [0, 1]], [[1.0, 2.0], [3.0, 4.0]]
    ),
    "hybrid_csc_tensor": lambda lib: lib.sparse_csc_tensor(
        [0, 1, 2], [1, 0], [[1.0, 2.0], [3.0, 4.0]], (2, 2, 2)
    ),
    "empty_csc_tensor": lambda lib: lib.sparse_csc_tensor(
        lib.tensor([0, 0]), lib.tensor([], dtype=lib.int64), lib.tensor([]), (4, 1)
    ),
    "empty_batched_csr_tensor": lambda lib: lib.sparse_csr_tensor(
        lib.tensor([[0, 0], [0, 0]]), lib.zeros(2, 0, dtype=lib.int64), lib.zeros(2, 0), (2, 1, 2)
    ),
    "compressed_tensor": lambda lib: lib.sparse_compressed_tensor(
        [0, 1, 2], [1, 0], [[[1.0]], [[2.0]]], layout=lib.sparse_bsc
    ),
    "requires_grad": lambda lib: lib.sparse_csc_tensor(
        [0, 1, 2], [1, 0], [1.0, 2.0], requires_grad=True
    ),
}


@pytest.mark.parity
@pytest.mark.parametrize("name", sorted(CASES))
def test_compressed_tensor_matches_torch(name):
    ours, theirs = _both(CASES[name])
    assert repr(ours) == repr(theirs)
    assert repr(ours.layout) == repr(theirs.layout)
    assert ours.shape == tuple(theirs.shape)
    assert ours._nnz() == theirs._nnz()
    assert (ours.sparse_dim(), ours.dense_dim()) == (theirs.sparse_dim(), theirs.dense_dim())
    assert (ours.is_sparse, ours.is_sparse_csr) == (theirs.is_sparse, theirs.is_sparse_csr)
    np.testing.assert_array_equal(
        ours.to_dense().detach().numpy(), theirs.to_dense().detach().numpy()
    )
    np.testing.assert_array_equal(ours.values().detach().numpy(), theirs.values().detach().numpy())
    coo_ours, coo_theirs = ours.to_sparse(), theirs.to_sparse()
    assert repr(coo_ours) == repr(coo_theirs)


ACCESSORS = ("crow_indices", "col_indices", "ccol_indices", "row_indices")


@pytest.mark.parity
@pytest.mark.parametrize("name", ["csr", "csc", "bsr", "bsc", "batched_csc", "hybrid_bsc"])
@pytest.mark.parametrize("accessor", ACCESSORS)
def test_index_accessors_and_their_errors_match_torch(name, accessor):
    torch = pytest.importorskip("torch")
    ours, theirs = _both(CASES[name])
    got = _outcome(lambda t: getattr(t, accessor)(), ours)
    want = _outcome(lambda t: getattr(t, accessor)(), theirs)
    if isinstance(want, tuple):
        assert got == want
    else:
        np.testing.assert_array_equal(got.numpy(), want.numpy())
        copy = getattr(numtorch, f"{accessor}_copy")(ours)
        np.testing.assert_array_equal(copy.numpy(), getattr(torch, f"{accessor}_copy")(theirs))


@pytest.mark.parity
@pytest.mark.parametrize("accessor", ACCESSORS)
def test_dense_and_coo_tensors_have_no_compressed_indices(accessor):
    for make in (lambda lib: lib.ones(2, 2), lambda lib: lib.ones(2, 2).to_sparse()):
        ours, theirs = _both(lambda lib, make=make: _outcome(
            lambda m: getattr(make(m), accessor)(), lib))  # fmt: skip
        assert ours == theirs


ERRORS = {
    "values_without_blocks": lambda lib: lib.sparse_bsr_tensor(
        lib.tensor([[0, 1]]), lib.tensor([[0]]), lib.ones(1, 1, 2)
    ),
    "bsc_product": lambda lib: lib.tensor(DENSE).to_sparse_bsc((2, 2)) @ lib.ones(4, 3),
    "batched_product": lambda lib: lib.tensor(BATCHED).to_sparse_csr() @ lib.ones(2, 4, 3),
    "bsr_to_csr": lambda lib: lib.tensor(DENSE).to_sparse_bsr((2, 2)).to_sparse_csr(),
    "coo_batched_to_csc": lambda lib: lib.tensor(BATCHED).to_sparse().to_sparse_csc(),
    "coo_with_dense_dim": lambda lib: lib.tensor(DENSE).to_sparse().to_sparse_csr(1),
    "csc_with_dense_dim": lambda lib: lib.tensor(DENSE).to_sparse_csc().to_sparse_csr(1),
    "batched_csr_to_bsr": lambda lib: lib.tensor(BATCHED).to_sparse_csr().to_sparse_bsr((1, 1)),
    "blocksize_changed": lambda lib: lib.tensor(DENSE).to_sparse_bsr((2, 2)).to_sparse_bsc((1, 1)),
    "csr_with_blocksize": lambda lib: lib.tensor(DENSE).to_sparse(
        layout=lib.sparse_csr, blocksize=(2, 2)
    ),
    "bsr_without_blocksize": lambda lib: lib.tensor(DENSE).to_sparse(layout=lib.sparse_bsr),
    "indivisible_blocks": lambda lib: lib.tensor(DENSE).to_sparse_bsr((3, 2)),
    "indivisible_via_to_sparse": lambda lib: lib.tensor(DENSE).to_sparse(
        layout=lib.sparse_bsc, blocksize=(4, 3)
    ),
    "uneven_batches": lambda lib: lib.tensor([[[1.0, 0.0]], [[1.0, 1.0]]]).to_sparse_csr(),
    "not_compressed_layout": lambda lib: lib.sparse_compressed_tensor(
        [0, 1], [0], [1.0], layout=lib.sparse_coo
    ),
    "no_layout": lambda lib: lib.sparse_compressed_tensor([0, 1], [0], [1.0]),
    "first_pointer": lambda lib: lib.sparse_csc_tensor(
        [1, 2], [0], [1.0], (2, 1), check_invariants=True
    ),
    "last_pointer": lambda lib: lib.sparse_csr_tensor(
        [0, 1, 3], [0, 1], [1.0, 2.0], (2, 2), check_invariants=True
    ),
    "plain_out_of_range": lambda lib: lib.sparse_csc_tensor(
        [0, 1, 2], [0, 5], [1.0, 2.0], (2, 2), check_invariants=True
    ),
    "unsorted_plain": lambda lib: lib.sparse_csc_tensor(
        [0, 2, 2], [1, 0], [1.0, 2.0], (2, 2), check_invariants=True
    ),
    "block_indivisible_size": lambda lib: lib.sparse_bsr_tensor(
        [0, 1], [0], lib.ones(1, 2, 3), (2, 4), check_invariants=True
    ),
}


@pytest.mark.parity
@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_match_torch(name):
    ours, theirs = _both(lambda lib: _outcome(ERRORS[name], lib))
    assert isinstance(theirs, tuple), theirs
    assert ours == theirs


GRADS = {
    "csc_to_dense": lambda lib, x: x.to_sparse_csc().to_dense() * lib.arange(16.0).reshape(4, 4),
    "bsr_values": lambda lib, x: x.to_sparse_bsr((2, 2)).values() * 3,
    "csc_values": lambda lib, x: x.to_sparse_csc().values() ** 2,
    "bsc_to_dense": lambda lib, x: x.to_sparse_bsc((1, 2)).to_dense().exp(),
}


@pytest.mark.parity
@pytest.mark.parametrize("name", ["csr", "csc", "bsr", "hybrid_csr"])
def test_products_and_scaling_match_torch(name):
    def run(lib):
        s = CASES[name](lib)
        dense = lib.arange(8.0).reshape(4, 2)[: s.shape[1]]
        product = (s @ dense) if s.dense_dim() == 0 else None
        return product, (s * 2).to_dense(), (s + s).to_dense(), s.sum()

    ours, theirs = _both(run)
    for a, b in zip(ours, theirs):
        if b is not None:
            np.testing.assert_allclose(a.numpy(), b.numpy())


@pytest.mark.parity
@pytest.mark.parametrize("name", ["csr", "csc", "bsr"])
def test_torch_functions_take_compressed_operands(name):
    def run(lib):
        s = CASES[name](lib)
        dense = lib.arange(8.0).reshape(4, 2)
        return (
            lib.mm(s, dense),
            lib.matmul(s, dense),
            lib.addmm(lib.ones(4, 2), s, dense, beta=2, alpha=0.5),
            lib.mv(s, lib.arange(4.0)),
        )

    ours, theirs = _both(run)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy())


@pytest.mark.parity
@pytest.mark.parametrize("name", sorted(GRADS))
def test_gradients_through_compressed_layouts_match_torch(name):
    def run(lib):
        x = lib.tensor(DENSE, requires_grad=True)
        GRADS[name](lib, x).sum().backward()
        return x.grad

    ours, theirs = _both(run)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy())


NARROW = {
    "sparse_dim": (0, 1, 1),
    "middle": (1, 1, 1),
    "dense_dim": (3, 1, 1),
    "empty": (0, 2, 0),
}


@pytest.mark.parity
@pytest.mark.parametrize("name", sorted(NARROW))
def test_narrow_copy_of_a_coo_tensor_matches_torch(name):
    dim, start, length = NARROW[name]
    ours, theirs = _both(
        lambda lib: lib.narrow_copy(
            lib.arange(16).reshape(2, 2, 2, 2).to_sparse(2), dim, start, length
        )
    )
    assert repr(ours) == repr(theirs)
    assert ours.is_coalesced() == theirs.is_coalesced()


@pytest.mark.parity
def test_narrow_copy_keeps_an_uncoalesced_tensor_uncoalesced_and_checks_its_range():
    def run(lib):
        s = lib.sparse_coo_tensor([[1, 0, 1]], [1.0, 2.0, 3.0], (3,))
        out = lib.narrow_copy(s, 0, 1, 2)
        return repr(out), out.is_coalesced(), _outcome(lambda m: m.narrow_copy(s, 0, 2, 5), lib)

    ours, theirs = _both(run)
    assert ours == theirs
