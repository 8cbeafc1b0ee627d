"""Indexing with every sequence torch accepts (range, tuples of lists, nested lists, NumPy
integer, float and bool arrays, bool lists, uint8 masks), read and write, against torch."""

import warnings

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

KEYS = {
    "range and tensor": lambda lib: (range(3), lib.tensor([1, 0, 3])),
    "range alone": lambda lib: range(2),
    "range columns": lambda lib: (slice(None), range(1, 3)),
    "range step": lambda lib: range(0, 3, 2),
    "range negative step": lambda lib: range(-1, -3, -1),
    "empty range": lambda lib: range(0),
    "two ranges": lambda lib: (range(2), range(2)),
    "ellipsis and range": lambda lib: (Ellipsis, range(2)),
    "None and range": lambda lib: (None, range(2)),
    "tuple of lists": lambda lib: ([0, 1], [1, 2]),
    "list of lists": lambda lib: [[0, 1], [1, 2]],
    "nested list": lambda lib: [[[0], [1]]],
    "tuple inside tuple": lambda lib: ((0, 1), (1, 2)),
    "NumPy ints": lambda lib: np.array([0, 2]),
    "NumPy ints 2-D": lambda lib: np.array([[0, 2]]),
    "NumPy 0-d": lambda lib: np.array(1),
    "NumPy floats": lambda lib: np.array([0.0, 1.9]),
    "float list": lambda lib: [0.7, 1.2],
    "NumPy bools": lambda lib: np.array([True, False, True]),
    "bool list": lambda lib: [True, False, True],
    "NumPy uint8 mask": lambda lib: np.array([1, 0, 1], dtype=np.uint8),
    "uint8 tensor mask": lambda lib: lib.tensor([1, 0, 1], dtype=lib.uint8),
    "NumPy scalars": lambda lib: (np.int32(1), np.int64(2)),
    "list of NumPy ints": lambda lib: [np.int64(0), np.int64(2)],
    "list of 0-d tensors": lambda lib: [lib.tensor(0), lib.tensor(2)],
    "NumPy array and slice": lambda lib: (np.array([0, 1]), slice(1, 3)),
    "range out of bounds": lambda lib: range(5),
    "float scalar": lambda lib: 1.0,
    "float tensor": lambda lib: lib.tensor([0.0]),
}


def _get(lib, make):
    x = lib.arange(12.0).reshape(3, 4).requires_grad_()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            y = x[make(lib)]
        except Exception as e:  # the type is what gets compared
            return ("raised", type(e).__name__)
    y.sum().backward()
    return y.detach().tolist(), type(y.grad_fn).__name__, x.grad.tolist()


@pytest.mark.parametrize("name", list(KEYS))
def test_read_and_gradient(name):
    assert _get(numtorch, KEYS[name]) == _get(torch, KEYS[name])


WRITES = ["range and tensor", "range alone", "NumPy ints", "bool list", "tuple of lists"]


@pytest.mark.parametrize("name", WRITES)
@pytest.mark.parametrize("how", ["assign", "add"])
def test_write(name, how):
    results = []
    for lib in (numtorch, torch):
        x = lib.arange(12.0).reshape(3, 4)
        key = KEYS[name](lib)
        if how == "assign":
            x[key] = -1.0
        else:
            x[key] += 10
        results.append(x.tolist())
    assert results[0] == results[1]


def test_nll_by_range_indexing():
    results = []
    for lib in (numtorch, torch):
        logits = lib.tensor([[0.2, 1.5, -0.3], [2.0, 0.1, 0.4]], requires_grad=True)
        target = lib.tensor([1, 0])
        logp = logits.log_softmax(-1)
        loss = -logp[range(target.shape[0]), target].mean()
        loss.backward()
        results.append([loss.item(), *logits.grad.flatten().tolist()])
    assert results[0] == pytest.approx(results[1])
