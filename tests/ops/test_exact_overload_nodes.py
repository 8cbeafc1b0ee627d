"""Corners a random-program fuzzer found in the nodes torch records for ops with a number
overload and a tensor one, and in ``tensor[key] = value``: which node a write records, which
edges a node has, and which values a write refuses. Each is checked against torch where it is
installed, and against the expected names where it is not."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

X = np.array([[1.5, -2.0], [3.0, -4.5]])


def _graph(lib, program):
    x = lib.tensor(X, requires_grad=True)
    out = program(lib, x)
    edges = tuple(None if f is None else type(f).__name__ for f, _ in out.grad_fn.next_functions)
    (grad,) = lib.autograd.grad((out * lib.tensor(X)).sum(), x)
    return type(out.grad_fn).__name__, edges, out.detach().numpy().copy(), grad.numpy().copy()


def _setitem(key, value):
    def program(lib, x):
        b = x * 1
        b[key] = value(x) if callable(value) else value
        return b

    return program


PROGRAMS = {
    # the operator picks the overload by its operand, as torch.remainder does
    "mod_tensor": (lambda lib, x: x % (x.detach() + 7), "RemainderBackward1"),
    "rmod_tensor": (lambda lib, x: (x.detach() + 7) % x, "RemainderBackward1"),
    "mod_number": (lambda lib, x: x % 2, "RemainderBackward0"),
    "fmod_number": (lambda lib, x: lib.fmod(x, 2.5), "FmodBackward0"),
    "lerp_number": (lambda lib, x: lib.lerp(x, x * 2, 0.25), "LerpBackward0"),
    # torch names fill's four overloads apart
    "fill_number": (lambda lib, x: lib.fill(x, 2.0), "FillBackward0"),
    "fill_tensor": (lambda lib, x: lib.fill(x, x[0, 1]), "FillBackward1"),
    "fill__number": (lambda lib, x: (x * 1).fill_(2.0), "FillBackward2"),
    "fill__tensor": (lambda lib, x: (x * 1).fill_(x.sum()), "FillBackward3"),
    # a key of full slices writes into the tensor itself: no view, no CopySlices
    "setitem_ellipsis_number": (_setitem(Ellipsis, 3.0), "FillBackward3"),
    "setitem_slice_number": (_setitem(slice(None), 3), "FillBackward3"),
    "setitem_slices_tensor": (
        _setitem((slice(None), slice(0, 2)), lambda x: x[0, 0]),
        "FillBackward3",
    ),
    "setitem_ellipsis_row": (_setitem((Ellipsis, slice(None)), lambda x: x[0]), "CopyBackwards"),
    "setitem_same_shape": (_setitem(Ellipsis, lambda x: x.exp()), "CopyBackwards"),
    "setitem_partial_slice": (_setitem(slice(1, None), 3.0), "CopySlices"),
    "setitem_row": (_setitem(0, lambda x: x[1]), "CopySlices"),
    "setitem_none": (_setitem(None, 3.0), "CopySlices"),
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_nodes_of_overloads_and_writes(name):
    program, node = PROGRAMS[name]
    ours = _graph(numtorch, program)
    assert ours[0] == node
    torch = pytest.importorskip("torch")
    theirs = _graph(torch, program)
    assert ours[:2] == theirs[:2]
    np.testing.assert_array_equal(ours[2], theirs[2])
    np.testing.assert_array_equal(ours[3], theirs[3])


def test_setitem_of_a_zero_dim_tensor_copies():
    # the value (a number, as a 0-dim tensor) has the written tensor's shape: copy_, not fill_
    x = numtorch.tensor(2.0, requires_grad=True)
    b = x * 1
    b[...] = 5
    assert type(b.grad_fn).__name__ == "CopyBackwards"


def _outcome(fn):
    try:
        out = fn()
    except Exception as error:  # the error type is the outcome
        return type(error).__name__, str(error)
    return "ok", out.tolist()


def _refusals(lib):
    zeros = lib.zeros(3)
    ints = lib.zeros(3, dtype=lib.int64)
    return {
        "fill_row": lambda: zeros.clone().fill_(lib.ones(1)),
        "fill_complex": lambda: zeros.clone().fill_(1 + 2j),
        "fill_real_complex": lambda: ints.clone().fill_(2 + 0j),
        "masked_fill_complex": lambda: zeros.masked_fill(zeros == 0, 2 - 1j),
        "full_complex": lambda: lib.full((2,), 1j, dtype=lib.float64),
        "setitem_complex": lambda: zeros.clone().__setitem__(Ellipsis, 1 + 2j),
        "setitem_list": lambda: zeros.clone().__setitem__(Ellipsis, [1.0, 2.0, 3.0]),
        "setitem_int_truncates": lambda: _written(ints.clone(), 2.7),
        # fill_ with a number writes through an expanded tensor; with a tensor it refuses
        "fill_expanded_number": lambda: lib.zeros(1).expand(2).fill_(2.0),
        "fill_expanded_tensor": lambda: lib.zeros(1).expand(2).fill_(lib.tensor(2.0)),
        "setitem_expanded": lambda: _written(lib.zeros(1).expand(2), 2.0),
    }


def _written(t, value):
    t[...] = value
    return t


@pytest.mark.parametrize("name", sorted(_refusals(numtorch)))
def test_fill_values_torch_refuses(name):
    ours = _outcome(_refusals(numtorch)[name])
    if name not in ("setitem_int_truncates", "fill_real_complex", "fill_expanded_number"):
        assert ours[0] in ("RuntimeError", "TypeError")
    torch = pytest.importorskip("torch")
    theirs = _outcome(_refusals(torch)[name])
    if name in ("fill_expanded_tensor", "setitem_expanded"):  # (the message adds the op)
        ours, theirs = ours[0], theirs[0]
    assert ours == theirs
