"""Property-based tests: random compositions of ops on random broadcastable shapes agree
with finite differences, and gradients keep their inputs' shapes."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import numtorch as torch

UNARY = {
    "sin": lambda x: x.sin(),
    "tanh": lambda x: x.tanh(),
    "sigmoid": lambda x: x.sigmoid(),
    "square": lambda x: x * x,
    "softplus": lambda x: (x.exp() + 1).log(),
    "sum_keepdim": lambda x: x.sum(-1, keepdim=True) if x.ndim else x,
    "softmax": lambda x: x.softmax(-1) if x.ndim else x,
    # transposed and back: a bare transpose of a non-square input no longer broadcasts
    # against ``b`` in a later binary step
    "transpose": lambda x: (x.transpose(0, -1) * 2).transpose(0, -1) if x.ndim else x,
    "flip": lambda x: x.flip(0) if x.ndim else x,
}
BINARY = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "safe_div": lambda a, b: a / (b * b + 1),
    "maximum_smooth": lambda a, b: (a + b + ((a - b) ** 2 + 1).sqrt()) / 2,
}

dims = st.integers(1, 3)


@st.composite
def broadcastable_shapes(draw):
    ndim = draw(st.integers(0, 3))
    full = tuple(draw(dims) for _ in range(ndim))
    other = tuple(1 if draw(st.booleans()) else s for s in full)
    drop = draw(st.integers(0, ndim))
    return full, other[drop:]


programs = st.lists(
    st.one_of(
        st.tuples(st.just("unary"), st.sampled_from(sorted(UNARY))),
        st.tuples(st.just("binary"), st.sampled_from(sorted(BINARY))),
    ),
    min_size=1,
    max_size=5,
)


def run_program(program, a, b):
    y = a
    for kind, name in program:
        y = UNARY[name](y) if kind == "unary" else BINARY[name](y, b)
    return y


@settings(max_examples=60, deadline=None)
@given(shapes=broadcastable_shapes(), program=programs, seed=st.integers(0, 2**16))
def test_random_programs_match_finite_differences(shapes, program, seed):
    rng = np.random.default_rng(seed)
    a = torch.tensor(rng.standard_normal(shapes[0]), dtype=torch.float64, requires_grad=True)
    b = torch.tensor(rng.standard_normal(shapes[1]), dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda x, y: run_program(program, x, y), (a, b))
    out = run_program(program, a, b)
    out.backward(torch.ones_like(out))
    assert a.grad.shape == a.shape
    assert b.grad is None or b.grad.shape == b.shape


@settings(max_examples=40, deadline=None)
@given(
    shape=st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple),
    picks=st.lists(st.integers(-4, 3), min_size=1, max_size=6),
)
def test_duplicate_fancy_indices_accumulate_like_np_add_at(shape, picks):
    size = shape[0]
    index = [p % size for p in picks]
    x = torch.zeros(shape, dtype=torch.float64, requires_grad=True)
    x[index].sum().backward()
    expected = np.zeros(shape)
    np.add.at(expected, index, 1.0)
    np.testing.assert_array_equal(x.grad.numpy(), expected)
