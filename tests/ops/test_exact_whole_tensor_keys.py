"""Keys whose slices all take a whole dim. torch skips a slice from 0 with step 1 whose stop
reaches the end (``:``, ``0:n``, ``0:10``; a start of ``-n`` still slices), so a tuple key of
them reads as an alias (AliasBackward0; a bare slice key still slices) and a write through
one goes into the tensor itself: a value of its shape is copied (CopyBackwards), a number or
a 0-d value fills (FillBackward3, fill's Tensor overload) and an index array after them is
an index_put_ on the tensor (IndexPutBackward0), not a write through a view (CopySlices)."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

KEYS = {
    "bare full slice": lambda lib: slice(None),
    "bare 0:n": lambda lib: slice(0, 4),
    "bare 0:big": lambda lib: slice(0, 10),
    "bare -n:": lambda lib: slice(-4, None),
    "bare 0:n-1": lambda lib: slice(0, 3),
    "tuple 0:n, :": lambda lib: (slice(0, 4), slice(None)),
    "tuple 0:big, 0:2": lambda lib: (slice(0, 10), slice(0, 2)),
    "tuple -n:, :": lambda lib: (slice(-4, None), slice(None)),
    "one-slice tuple": lambda lib: (slice(0, 4),),
    "ellipsis 0:2": lambda lib: (Ellipsis, slice(0, 2)),
    "ellipsis": lambda lib: Ellipsis,
    "empty tuple": lambda lib: (),
    "0:n then list": lambda lib: (slice(0, 4), [1]),
    "0:n then mask": lambda lib: (slice(0, 4), lib.tensor([True, False])),
}
VALUES = {
    "number": lambda lib: 1.5,
    "0-d": lambda lib: lib.tensor(2.0, dtype=lib.float64, requires_grad=True),
    "row": lambda lib: lib.tensor([1.0, -1.0], dtype=lib.float64, requires_grad=True),
    "leading ones": lambda lib: lib.ones(1, 1, 2, dtype=lib.float64),
}


def _read(lib, key):
    base = lib.arange(8.0, dtype=lib.float64).reshape(4, 2).requires_grad_()
    out = base[key(lib)]
    return out.grad_fn.name(), tuple(out.shape)


def _write(lib, key, value):
    base = lib.arange(8.0, dtype=lib.float64).reshape(4, 2).requires_grad_()
    v = value(lib)
    copy = base * 1
    k = key(lib)
    if (
        isinstance(k, tuple)
        and len(k) == 2
        and not isinstance(k[1], slice)
        and getattr(v, "ndim", 0)
    ):
        v = v[..., :1]  # one column is indexed
    copy[key(lib)] = v
    inputs = [base] + ([v] if getattr(v, "requires_grad", False) else [])
    weights = lib.arange(8.0, dtype=lib.float64).reshape(4, 2)
    grads = lib.autograd.grad((copy * weights).sum(), inputs)
    return copy.grad_fn.name(), copy.detach().numpy(), [g.numpy() for g in grads]


@pytest.mark.parametrize("key", KEYS.values(), ids=KEYS.keys())
def test_a_whole_tensor_key_reads_as_torch(key):
    assert _read(numtorch, key) == _read(torch, key)


@pytest.mark.parametrize("value", VALUES.values(), ids=VALUES.keys())
@pytest.mark.parametrize("key", KEYS.values(), ids=KEYS.keys())
def test_a_whole_tensor_key_writes_as_torch(key, value):
    ours, theirs = _write(numtorch, key, value), _write(torch, key, value)
    assert ours[0] == theirs[0]
    np.testing.assert_array_equal(ours[1], theirs[1])
    for a, b in zip(ours[2], theirs[2]):
        np.testing.assert_array_equal(a, b)


def test_fill_records_the_overload_that_ran():
    names = []
    for lib in (numtorch, torch):
        x = lib.ones(3, requires_grad=True)
        v = lib.tensor(2.0, requires_grad=True)
        y, z = x * 1, x * 1
        y.fill_(0.5)
        z.fill_(v)
        got = [t.grad_fn.name() for t in (lib.fill(x, 0.5), lib.fill(x, v), y, z)]
        names.append(got)
    assert names[0] == names[1] == [f"FillBackward{k}" for k in range(4)]
