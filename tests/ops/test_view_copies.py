"""The ``*_copy`` ops and ``unsafe_split``/``unsafe_chunk`` against torch: values, dtypes,
``grad_fn`` names, not views, gradients, and errors (the op sample table checks gradients
in float64 as well)."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")


def _inputs(lib):
    x = lib.tensor(np.arange(24.0).reshape(2, 3, 4), requires_grad=True)
    pairs = lib.tensor(np.arange(12.0).reshape(2, 3, 2))
    z = lib.tensor(np.arange(4.0).reshape(2, 2)).to(lib.complex128).requires_grad_()
    return x, pairs, z


CASES = {
    "view_copy": lambda t, x, c, z: t.view_copy(x, (6, 4)),
    "view_copy_of_a_transpose": lambda t, x, c, z: t.view_copy(x.transpose(0, 1), (24,)),
    "permute_copy": lambda t, x, c, z: t.permute_copy(x, (2, 0, 1)),
    "transpose_copy": lambda t, x, c, z: t.transpose_copy(x, 0, -1),
    "t_copy": lambda t, x, c, z: t.t_copy(x[0]),
    "expand_copy": lambda t, x, c, z: t.expand_copy(x, (2, 2, 3, 4)),
    "squeeze_copy": lambda t, x, c, z: t.squeeze_copy(x[:1]),
    "squeeze_copy_dim": lambda t, x, c, z: t.squeeze_copy(x[:1], 0),
    "squeeze_copy_dims": lambda t, x, c, z: t.squeeze_copy(x[:1], (0, 1)),
    "unsqueeze_copy": lambda t, x, c, z: t.unsqueeze_copy(x, 0),
    "select_copy": lambda t, x, c, z: t.select_copy(x, 1, -1),
    "slice_copy": lambda t, x, c, z: t.slice_copy(x, 1, 0, 2),
    "slice_copy_step": lambda t, x, c, z: t.slice_copy(x, 2, None, None, 2),
    "slice_copy_clamped": lambda t, x, c, z: t.slice_copy(x, -1, -3, 100),
    "diagonal_copy": lambda t, x, c, z: t.diagonal_copy(x, 1, 1, 2),
    "alias_copy": lambda t, x, c, z: t.alias_copy(x),
    "detach_copy": lambda t, x, c, z: t.detach_copy(x),
    "split_copy": lambda t, x, c, z: t.split_copy(x, 2, 2),
    "split_copy_of_a_list": lambda t, x, c, z: t.split_copy(x, [1, 3], 2),
    "split_with_sizes_copy": lambda t, x, c, z: t.split_with_sizes_copy(x, [1, 3], 2),
    "unbind_copy": lambda t, x, c, z: t.unbind_copy(x, 1),
    "unfold_copy": lambda t, x, c, z: t.unfold_copy(x, 2, 2, 1),
    "as_strided_copy": lambda t, x, c, z: t.as_strided_copy(x, (2, 2), (1, 2), 1),
    "view_as_real_copy": lambda t, x, c, z: t.view_as_real_copy(z),
    "view_as_complex_copy": lambda t, x, c, z: t.view_as_complex_copy(c),
    "view_as_complex_copy_of_a_grad_input": lambda t, x, c, z: t.view_as_complex_copy(
        c.requires_grad_()
    ),
    "unsafe_chunk": lambda t, x, c, z: t.unsafe_chunk(x, 2, 2),
    "unsafe_split": lambda t, x, c, z: t.unsafe_split(x, 2, 2),
    "unsafe_split_with_sizes": lambda t, x, c, z: t.unsafe_split_with_sizes(x, [1, 3], 2),
    "Tensor.unsafe_split": lambda t, x, c, z: x.unsafe_split(2, 2),
    "Tensor.unsafe_chunk": lambda t, x, c, z: x.unsafe_chunk(3, 1),
    "Tensor.unsafe_split_with_sizes": lambda t, x, c, z: x.unsafe_split_with_sizes([2, 1], 1),
    "permute_copy_duplicate_dims": lambda t, x, c, z: t.permute_copy(x, (0, 0, 1)),
    "squeeze_copy_bad_dim": lambda t, x, c, z: t.squeeze_copy(x, 3),
}


def _describe(result):
    if isinstance(result, (tuple, list)):
        return [_describe(part) for part in result]
    grad_fn = result.grad_fn.name() if result.grad_fn is not None else None
    view = result._base is not None
    return grad_fn, str(result.dtype), tuple(result.shape), result.detach().tolist(), view


def _run(lib, name):
    x, c, z = _inputs(lib)
    try:
        out = CASES[name](lib, x, c, z)
    except Exception as error:  # the parity compares the type and the message
        return type(error).__name__, str(error)
    described = _describe(out)
    parts = out if isinstance(out, (tuple, list)) else [out]
    if any(p.grad_fn is not None and "NotImplemented" in p.grad_fn.name() for p in parts):
        try:
            parts[0].sum().backward()
        except RuntimeError as error:
            return described, str(error)
    loss = sum(((p.real if p.is_complex() else p) * (i + 1.5)).sum() for i, p in enumerate(parts))
    if loss.requires_grad:
        loss.backward()
    grads = [None if leaf.grad is None else leaf.grad.tolist() for leaf in (x, c, z)]
    return described, grads


@pytest.mark.parametrize("name", sorted(CASES))
def test_copy_op_matches_torch(name):
    assert _run(numtorch, name) == _run(torch, name)


@pytest.mark.parametrize("name", ["unsafe_split", "unsafe_chunk", "unsafe_split_with_sizes"])
def test_unsafe_split_results_share_the_inputs_memory_without_being_views(name):
    # torch's unsafe ops are views that autograd does not track: a later write into the
    # input shows in them, and their version counters are their own
    seen = []
    for lib in (numtorch, torch):
        y = lib.arange(6.0).requires_grad_() * 1
        size = [3, 3] if name == "unsafe_split_with_sizes" else (2 if name == "unsafe_chunk" else 3)
        first = getattr(lib, name)(y, size)[0]
        with lib.no_grad():
            y.add_(10)
        seen.append(
            (first.tolist(), first._is_view(), first._version, type(first.grad_fn).__name__)
        )
    assert seen[0] == seen[1] and seen[0][0] == [10.0, 11.0, 12.0]


@pytest.mark.parametrize("name", ["unsafe_split", "unsafe_chunk"])
def test_unsafe_split_shares_memory_not_versions_as_torch(name):
    # torch's results are the split's views untracked: the input's memory and strides (a
    # reshape of one is a copy where the view's would be), version counters of their own
    def facts(lib):
        x = lib.arange(10.0).reshape(2, 5)
        pieces = getattr(lib, name)(x, 2, 1)
        pieces[1].add_(1)
        flat = pieces[1].reshape(-1)
        return (
            [tuple(p.stride()) for p in pieces],
            x.tolist(),
            (x._version, pieces[1]._version, pieces[0]._version),
            flat._base is not None,
        )

    assert facts(numtorch) == facts(torch)
