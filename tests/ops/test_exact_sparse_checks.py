"""Argument checks of sparse products and constructors with torch's exception types: a
dense operand that is not a matrix (mm, spmm, sparse.mm, sparse.addmm read its sizes first:
IndexError; @, mv and matmul take a vector), sparse.addmm's input dtype, and values whose
dense dims disagree with the size."""

from __future__ import annotations

import warnings

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


def _inplace_through_values(lib, how):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's sparse invariant-check notice
        leaf = lib.tensor([1.0, -2.0, 3.0, 0.5, -1.5, 2.5], dtype=lib.float64, requires_grad=True)
        indices = lib.tensor([[0, 1, 2, 0, 2, 0], [1, 3, 0, 2, 3, 1]])
        coalesced = lib.sparse_coo_tensor(indices, leaf, (3, 4)).coalesce()
    values = coalesced.values()
    if how == "no_grad":
        with lib.no_grad():
            values.add_(1)
    elif how == "select":
        values[0].abs_()
    elif how == "whole":
        values.mul_(2)
    shared = coalesced.values().tolist() == values.tolist()
    try:
        values.sum().backward()
    except RuntimeError as error:
        return values.grad_fn.name(), shared, str(error).split(":")[0]
    return values.grad_fn.name(), shared, leaf.grad.tolist()


@pytest.mark.parametrize("how", ["whole", "select", "no_grad", "none"])
def test_inplace_through_sparse_values_as_torch(how):
    # values() is a view of the sparse tensor: writes reach it, and a recorded write's
    # CopySlices backward refuses (torch lays the gradient out on the sparse root)
    torch = pytest.importorskip("torch")
    ours, theirs = _inplace_through_values(nt, how), _inplace_through_values(torch, how)
    if how == "no_grad":
        # torch's AsStridedBackward0 on a root without strides spreads the gradient over the
        # sparse tensor's numel (1/12 each here): a torch defect numtorch does not copy
        ours, theirs = ours[:2], theirs[:2]
    assert ours == theirs


def _restrided_values_backward(lib, method, args):
    d = lib.randn(3, 3, requires_grad=True)
    s = lib.sparse_coo_tensor(
        lib.tensor([[0, 1, 1, 2, 2], [1, 2, 0, 0, 1]]), (d * 1).reshape(-1)[:5], (3, 4)
    )
    values = s.coalesce().values()
    getattr(values, method)(*args)
    try:
        (values * 1).sum().backward()
    except RuntimeError as error:
        return values._version, "modified by an inplace operation" in str(error)
    return values._version, None


@pytest.mark.parametrize(
    "method, args", [("squeeze_", ()), ("t_", ()), ("unsqueeze_", (0,)), ("transpose_", (0, 0))]
)
def test_restriding_values_in_place_fails_backward_as_in_torch(method, args):
    # ValuesBackward0 saves the sparse tensor: a squeeze_ of its values view bumps the
    # version that check reads
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's note on unchecked sparse invariants
        expected = _restrided_values_backward(torch, method, args)
    assert _restrided_values_backward(nt, method, args) == expected == (1, True)


@pytest.mark.parametrize(
    "other, error",
    [
        (lambda: nt.tensor(1.0, dtype=nt.float64), "scalar type Float"),
        (lambda: nt.ones(3, 2, dtype=nt.int64), "scalar type Float"),
        (lambda: nt.tensor(1.0), "Dimension specified as 0"),
        (lambda: nt.ones(3, 2), "tensor.size[0] == 4"),
    ],
)
def test_sparse_mm_reduce_checks_the_dtype_before_the_shape(other, error):
    # torch's sparse_mm_reduce compares dtypes first: a 0-d double operand is a dtype error
    csr = nt.randn(3, 4).to_sparse_csr()
    with pytest.raises((RuntimeError, IndexError), match=error.replace("[", r"\[")):
        nt.sparse.mm(csr, other(), "sum")
