"""Keys mixing integers, slices, None and index arrays. torch applies the basic parts first,
as views, and then the index arrays to that view: integers drop their dims before NumPy's
rule places the advanced dims (``x[0, :, [0, 1]]`` is 3 x 2 in torch, 2 x 3 under NumPy's
rule), and a write through such a key is an in-place write on a view (CopySlices)."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

KEYS = {
    "int slice list": lambda lib: (0, slice(None), [0, 1]),
    "int list slice": lambda lib: (0, [0, 2], slice(1, None)),
    "list slice int": lambda lib: ([0, 1], slice(1, None), 0),
    "ellipsis tensor": lambda lib: (1, Ellipsis, lib.tensor([0, 3])),
    "none slice list": lambda lib: (None, slice(None), [1]),
    "slice none list int": lambda lib: (slice(None), None, [1], 0),
    "int mask": lambda lib: (0, lib.tensor([True, False, True])),
    "slice list list": lambda lib: (slice(1, None), [0, 2], [1, 3]),
    "int 0-d tensor list": lambda lib: (lib.tensor(1), slice(None), [2, 0]),
    "list only": lambda lib: (slice(None), [0, 1]),
}


def _chain(t):
    names, node = [], t.grad_fn
    while node is not None and node.name() != "MulBackward0":
        names.append(node.name())
        node = node.next_functions[0][0]
    return names


def _read(lib, key):
    base = lib.arange(24.0, dtype=lib.float64).reshape(2, 3, 4).requires_grad_()
    out = (base * 1)[key(lib)]
    out.pow(2).sum().backward()
    return tuple(out.shape), out.detach().numpy(), _chain(out), base.grad.numpy()


def _write(lib, key):
    base = lib.arange(24.0, dtype=lib.float64).reshape(2, 3, 4).requires_grad_()
    copy = base * 1
    shape = tuple(base.detach()[key(lib)].shape)
    copy[key(lib)] = lib.arange(float(np.prod(shape)), dtype=lib.float64).reshape(shape)
    copy.pow(2).sum().backward()
    return copy.grad_fn.name(), copy.detach().numpy(), base.grad.numpy()


@pytest.mark.parametrize("key", KEYS.values(), ids=KEYS.keys())
def test_a_mixed_key_reads_as_torch(key):
    ours, theirs = _read(numtorch, key), _read(torch, key)
    assert ours[0] == theirs[0]
    assert ours[2] == theirs[2]
    np.testing.assert_array_equal(ours[1], theirs[1])
    np.testing.assert_array_equal(ours[3], theirs[3])


@pytest.mark.parametrize("key", KEYS.values(), ids=KEYS.keys())
def test_a_mixed_key_writes_as_torch(key):
    ours, theirs = _write(numtorch, key), _write(torch, key)
    assert ours[0] == theirs[0]
    np.testing.assert_array_equal(ours[1], theirs[1])
    np.testing.assert_array_equal(ours[2], theirs[2])


def test_integer_keys_select_as_torch():
    # x[i] takes select straight away; the other one-element keys keep the key's walk
    data = np.arange(12.0).reshape(3, 4)
    for key in (0, -1, 2, True, False):
        ours = numtorch.tensor(data, requires_grad=True)[key]
        theirs = torch.tensor(data, requires_grad=True)[key]
        np.testing.assert_array_equal(ours.detach().numpy(), theirs.detach().numpy())
        assert type(ours.grad_fn).__name__ == type(theirs.grad_fn).__name__
        if key.__class__ is int:
            assert ours.stride() == theirs.stride()
    for lib in (numtorch, torch):
        with pytest.raises(IndexError):
            lib.tensor(data)[3]
        with pytest.raises(IndexError):
            lib.tensor(1.0)[0]
