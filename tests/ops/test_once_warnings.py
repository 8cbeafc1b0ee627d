"""Warnings torch gives once per program, for usage it still accepts: a uint8 condition in
``where``, ``stft``/``istft`` without a window, ``x.T`` of other than 2 dims, sparse tensors
(compressed layouts in beta, invariants left unchecked). Values and types as torch's; one
warning each."""

import warnings

import numpy as np
import pytest

import numtorch
from numtorch._core.warn_once import given

torch = pytest.importorskip("torch")


def _run(lib, make):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = make(lib)
        except Exception as e:  # the type is what is compared
            result = type(e).__name__
    if isinstance(result, lib.Tensor):
        result = (str(result.dtype).split(".")[-1], result.tolist())
    return result, [str(w.message).split(" (Triggered internally")[0] for w in caught]


CASES = {
    "where_uint8": lambda L: L.where(L.tensor([1, 0, 2], dtype=L.uint8), L.ones(3), 0.0),
    "where_float": lambda L: L.where(L.ones(2), L.ones(2), 0.0),
    "where_long": lambda L: L.where(L.ones(2, dtype=L.int64), L.ones(2), 0.0),
    "stft_no_window": lambda L: L.stft(L.arange(32.0), 8, return_complex=True).abs().sum(),
    "istft_no_window": lambda L: L.istft(L.stft(L.arange(32.0), 8, return_complex=True), 8),
    "T_0d": lambda L: L.tensor(2.0).T,
    "T_1d": lambda L: L.arange(3.0).T,
    "T_3d": lambda L: L.arange(6.0).view(1, 2, 3).T.contiguous().view(-1),
    "T_2d": lambda L: L.arange(6.0).view(2, 3).T,
    "csc_beta": lambda L: L.eye(2).to_sparse_csc().to_dense(),
    "coo_unchecked": lambda L: L.sparse_coo_tensor([[0], [1]], [2.0], (2, 2)).to_dense(),
    "default_tensor_type": lambda L: (
        L.set_default_tensor_type(L.FloatTensor),
        L.set_default_tensor_type("torch.FloatTensor"),
        L.ones(1),
    )[-1],
    "coo_checked": lambda L: L.sparse_coo_tensor(
        [[0], [1]], [2.0], (2, 2), check_invariants=False
    ).to_dense(),
}
# what our first warning says (torch's own once-per-process state cannot be reset to compare)
SAYS = {
    "where_uint8": "where received a uint8 condition tensor",
    "stft_no_window": "A window was not provided. A rectangular window will be applied,which",
    "istft_no_window": "A window was not provided. A rectangular window will be applied.Please",
    "T_0d": "Tensor.T is deprecated on 0-D tensors.",
    "T_1d": "The use of `x.T` on tensors of dimension other than 2 to reverse their shape",
    "T_3d": "The use of `x.T` on tensors of dimension other than 2 to reverse their shape",
    "csc_beta": "Sparse CSC tensor support is in beta state.",
    "coo_unchecked": "Sparse invariant checks are implicitly disabled.",
    "default_tensor_type": "torch.set_default_tensor_type() is deprecated as of PyTorch 2.1",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_value_and_first_warning_as_torch(name):
    given.clear()
    (ours, said), (theirs, _) = _run(numtorch, CASES[name]), _run(torch, CASES[name])
    if isinstance(ours, tuple):
        assert ours[0] == theirs[0]
        assert np.allclose(ours[1], theirs[1], rtol=1e-5, atol=1e-4)
    else:
        assert ours == theirs
    if name in SAYS:
        # (istft's case runs stft first, which gives its own warning too)
        assert [m for m in said if m.startswith(SAYS[name])] == [said[-1]]
    else:
        assert said == []


def test_each_warns_once_per_program():
    given.clear()
    make = CASES["where_uint8"]
    first, again = _run(numtorch, make)[1], _run(numtorch, make)[1]
    assert len(first) == 1 and "uint8 condition" in first[0] and again == []


def test_gradient_through_a_uint8_condition():
    x = numtorch.ones(3, requires_grad=True)
    cond = numtorch.tensor([1, 0, 1], dtype=numtorch.uint8)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        numtorch.where(cond, x * 2, 0.0).sum().backward()
    assert x.grad.tolist() == [2.0, 0.0, 2.0]


DEPRECATED_LINALG = {
    "qr": lambda L: L.qr(L.eye(2)),
    "cholesky": lambda L: L.cholesky(L.eye(2)),
    "lu": lambda L: L.lu(L.eye(2)),
    "triangular_solve": lambda L: L.triangular_solve(L.eye(2), L.eye(2)),
}


@pytest.mark.parametrize("name", sorted(DEPRECATED_LINALG))
def test_deprecated_linalg_functions_say_torchs_whole_message(name):
    # the message goes on to show the replacement call (torch's text, line by line)
    given.clear()
    ours = _run(numtorch, DEPRECATED_LINALG[name])[1]
    theirs = _run(torch, DEPRECATED_LINALG[name])[1]
    if theirs:  # torch warns once per program: only its first call in this run says it
        assert ours == theirs
    assert len(ours) == 1 and "\nshould be replaced with\n" in ours[0]
