"""Argument checks of sparse products and constructors with torch's exception types: a
dense operand that is not a matrix (mm, spmm, sparse.mm, sparse.addmm read its sizes first:
IndexError; @, mv and matmul take a vector), sparse.addmm's input dtype, and values whose
dense dims disagree with the size."""

from __future__ import annotations

import pytest

import numtorch as nt


def _sparse():
    return nt.eye(4).to_sparse()


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda s: nt.sparse.addmm(nt.zeros(4, 4), s, nt.zeros(())), IndexError, "as 1 but"),
        (lambda s: nt.sparse.addmm(nt.zeros(4, 4), s, nt.zeros(0)), IndexError, "out of range"),
        (lambda s: nt.sparse.mm(s, nt.zeros(())), IndexError, "as -1 but"),
        (lambda s: nt.sparse.mm(s, nt.zeros(4)), IndexError, "out of range"),
        (lambda s: nt.mm(s, nt.zeros(4)), IndexError, "out of range"),
        (lambda s: s.mm(nt.zeros(4)), IndexError, "out of range"),
        (
            lambda s: nt.sparse.addmm(nt.zeros(4, 2, dtype=nt.float64), s, nt.zeros(4, 2)),
            RuntimeError,
            "expected scalar type Float but found Double",
        ),
        (
            lambda s: nt.sparse_coo_tensor(nt.tensor([[0, 2]]), nt.zeros(2, 0), (3, 4)),
            RuntimeError,
            r"values has incorrect size, expected \[2, 4\], got \[2, 0\]",
        ),
    ],
)
def test_sparse_argument_errors(call, error, message):
    with pytest.raises(error, match=message):
        call(_sparse())


def test_a_vector_still_multiplies_through_matmul_and_mv():
    s = _sparse()
    v = nt.arange(4.0)
    assert (s @ v).tolist() == s.mv(v).tolist() == [0.0, 1.0, 2.0, 3.0]
