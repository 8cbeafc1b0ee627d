"""Elementwise results laid out as torch's TensorIterator lays them out (Note [Elementwise
result layout] in backend/layout.py), from random permuted, expanded, sliced and broadcast
operands: ``.stride()``, ``is_contiguous()`` and whether ``.view(-1)`` works match torch."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.parity

UNARY = {
    "exp": lambda lib, x: x.exp(),
    "neg": lambda lib, x: -x,
    "abs": lambda lib, x: x.abs(),
    "sigmoid": lambda lib, x: x.sigmoid(),
    "relu": lambda lib, x: lib.relu(x),
    "gelu": lambda lib, x: lib.nn.functional.gelu(x),
    "leaky_relu": lambda lib, x: lib.nn.functional.leaky_relu(x, 0.1),
    "clamp": lambda lib, x: x.clamp(-0.5, 0.5),
    "pow": lambda lib, x: x**2,
    "times_number": lambda lib, x: x * 2,
    "number_minus": lambda lib, x: 1 - x,
    "isnan": lambda lib, x: x.isnan(),
    "int_cast_sum": lambda lib, x: x.to(lib.float64) + 1,
}
BINARY = {
    "add": lambda lib, a, b: a + b,
    "mul": lambda lib, a, b: a * b,
    "div": lambda lib, a, b: a / b,
    "atan2": lambda lib, a, b: lib.atan2(a, b),
    "maximum": lambda lib, a, b: lib.maximum(a, b),
    "lt": lambda lib, a, b: a < b,
    "mixed_dtypes": lambda lib, a, b: a + b.to(lib.float64),
}
TERNARY = {
    "where": lambda lib, a, b, c: lib.where(a > 0, b, c),
    "addcmul": lambda lib, a, b, c: lib.addcmul(a, b, c, value=0.5),
    "lerp": lambda lib, a, b, c: lib.lerp(a, b, c),
    "clamp": lambda lib, a, b, c: lib.clamp(a, b, c),
}


def _layout_spec(rng, shape, size_one):
    """How to make an operand of ``shape``: a permutation of a contiguous base, maybe a
    step-2 slice along a dim, maybe one dim expanded from a single row."""
    ndim = len(shape)
    perm = rng.permutation(ndim).tolist()
    sliced = int(rng.integers(ndim)) if ndim and rng.random() < 0.3 else None
    expanded = int(rng.integers(ndim)) if ndim and rng.random() < 0.3 else None
    if expanded is not None and not size_one and shape[expanded] == 1:
        expanded = None
    return shape, perm, sliced, expanded


def _make(lib, base, spec):
    shape, perm, sliced, expanded = spec
    t = lib.tensor(base).permute(*perm) if base.ndim else lib.tensor(base)
    if sliced is not None:
        index = [slice(None)] * t.ndim
        index[sliced] = slice(None, None, 2)
        t = t[tuple(index)]
    if expanded is not None:
        index = [slice(None)] * t.ndim
        index[expanded] = slice(0, 1)
        t = t[tuple(index)].expand(*shape)
    assert tuple(t.shape) == tuple(shape)
    return t


def _base(rng, spec):
    shape, perm, sliced, _ = spec
    base_shape = [0] * len(shape)
    for position, dim in enumerate(perm):
        base_shape[dim] = shape[position] * (2 if position == sliced else 1)
    return rng.standard_normal(base_shape).astype(np.float32)


def _case(seed, size_one):
    rng = np.random.default_rng(seed)
    ndim = int(rng.integers(1, 5))
    sizes = (1, 2, 3, 4) if size_one else (2, 3, 4)
    full = [int(rng.choice(sizes)) for _ in range(ndim)]
    arity = int(rng.integers(1, 4))
    table = {1: UNARY, 2: BINARY, 3: TERNARY}[arity]
    name = sorted(table)[int(rng.integers(len(table)))]
    specs = []
    for _ in range(arity):
        rank = int(rng.integers(1, ndim + 1)) if rng.random() < 0.4 else ndim
        specs.append(_layout_spec(rng, full[ndim - rank :], size_one))
    bases = [_base(rng, spec) for spec in specs]
    return table[name], bases, specs


def _observe(lib, op, bases, specs, size_one):
    out = op(lib, *[_make(lib, base, spec) for base, spec in zip(bases, specs)])
    try:
        out.view(-1)
        viewable = True
    except RuntimeError:
        viewable = False
    strides = out.stride()
    if size_one:
        # the strides of a dim of size 1 are left out where every operand is C-contiguous
        # in NumPy's relaxed sense (Note [Elementwise result layout]): no view reads them
        strides = tuple(s for s, n in zip(strides, out.shape) if n != 1)
    return tuple(out.shape), strides, out.is_contiguous(), viewable


@pytest.mark.parametrize("block", range(4))
def test_elementwise_result_strides_match_torch(block):
    for seed in range(block * 100, block * 100 + 100):
        op, bases, specs = _case(seed, size_one=False)
        ours = _observe(numtorch, op, bases, specs, False)
        assert ours == _observe(torch, op, bases, specs, False), (seed, specs)


@pytest.mark.parametrize("block", range(2))
def test_elementwise_result_layouts_with_size_one_dims_match_torch(block):
    for seed in range(1000 + block * 100, 1000 + block * 100 + 100):
        op, bases, specs = _case(seed, size_one=True)
        ours = _observe(numtorch, op, bases, specs, True)
        assert ours == _observe(torch, op, bases, specs, True), (seed, specs)


@pytest.mark.parametrize(
    "make, strides",
    [
        # operands that agree: their order (channels-last, a transpose) is kept
        (lambda lib: lib.ones(2, 3, 4, 5).permute(0, 2, 3, 1).permute(0, 3, 1, 2), None),
        (lambda lib: lib.ones(4, 3).t()[:, ::2], None),
        # a broadcast dim has no say; the first operand that orders two dims decides
        (lambda lib: lib.ones(4, 3).t() + lib.ones(4), None),
        (lambda lib: lib.ones(3, 1).expand(3, 4) * lib.ones(4, 3).t(), None),
    ],
)
def test_named_layouts_match_torch(make, strides):
    def run(lib):
        out = make(lib).exp()
        return out.stride(), out.is_contiguous()

    assert run(numtorch) == run(torch)


CLONED = {
    # torch clones the input contiguous, then writes into the clone
    "masked_fill": lambda lib, x: x.masked_fill(lib.tensor([True, False, True, False]), 1.0),
    "masked_scatter": lambda lib, x: x.masked_scatter(lib.tensor([True, False] * 2), x),
    # ... or in its own layout
    "index_fill": lambda lib, x: x.index_fill(0, lib.tensor([0, 2]), 1.0),
    "diagonal_scatter": lambda lib, x: lib.diagonal_scatter(x, lib.ones(3)),
    "select_scatter": lambda lib, x: lib.select_scatter(x, lib.ones(4), 0, 0),
    "slice_scatter": lambda lib, x: lib.slice_scatter(x, lib.ones(1, 4), 0, 0, 1),
    "put": lambda lib, x: x.put(lib.tensor([0, 2]), lib.ones(2)),
    # results torch allocates contiguous
    "log_sigmoid": lambda lib, x: lib.nn.functional.logsigmoid(x),
    "number_pow": lambda lib, x: 2**x,
    "polar": lambda lib, x: lib.polar(x, x),
}


@pytest.mark.parametrize("name", sorted(CLONED))
def test_results_of_non_iterator_ops_are_laid_out_as_torchs(name):
    # a transposed input: a later .view(-1) works in one layout and raises in the other
    def run(lib):
        out = CLONED[name](lib, lib.arange(12.0).reshape(4, 3).t())
        return out.stride(), out.is_contiguous()

    assert run(numtorch) == run(torch)


def test_inplace_on_a_non_contiguous_view_keeps_its_strides():
    for lib in (numtorch, torch):
        base = lib.zeros(4, 3)
        view = base.t()
        out = view.cosh_().add_(lib.ones(4))
        assert out.stride() == (1, 3) and base.sum().item() == 24.0
