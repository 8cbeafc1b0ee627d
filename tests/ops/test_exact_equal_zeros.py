"""Which of 0.0 and -0.0 torch's kernels give, against torch: the extrema's choice between
equal zeros (Note [Equal zeros in maximum and minimum]), relu's kept -0.0, average pooling's
sums from +0, complex negation's 0 - x and sgn's division by parts in vectors."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch as nt

torch = pytest.importorskip("torch")


def _zeros_against_torch(make):
    got, want = make(nt), make(torch)
    np.testing.assert_array_equal(np.signbit(got.numpy()), np.signbit(want.numpy()))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("op", ["maximum", "minimum", "fmax", "fmin"])
@pytest.mark.parametrize(
    "operands",
    [
        "m[0, :3], p[0, :3]",  # scalar loop only: the first operand
        "m.reshape(-1), p.reshape(-1)",  # vectors, then a scalar tail
        "p.reshape(-1), m.reshape(-1)",
        "m.t(), p.t()",  # one run in memory order
        "m[:, :17], p[:, :17]",  # rows: vectors and a tail each
        "m, p.t().contiguous().t()",  # operands in different orders: scalar loop
        "m, lib.tensor(0.0, dtype=m.dtype)",
        "lib.tensor(0.0, dtype=m.dtype), m",
        "m, p[:1]",
    ],
)
def test_extremes_choose_between_equal_zeros_as_torch(op, dtype, operands):
    # Note [Equal zeros in maximum and minimum]
    def make(lib):
        m = lib.zeros(5, 20, dtype=getattr(lib, dtype)).neg()
        p = lib.zeros(5, 20, dtype=getattr(lib, dtype))
        a, b = eval(operands, {"lib": lib, "m": m, "p": p})
        return getattr(lib, op)(a, b)

    _zeros_against_torch(make)


@pytest.mark.parametrize("n", [1, 5, 33, 1 << 17])
def test_relu_keeps_negative_zero(n):
    _zeros_against_torch(lambda lib: lib.relu(lib.zeros(n).neg()))
    _zeros_against_torch(lambda lib: lib.relu(lib.zeros(n, dtype=lib.float64).neg()[::2]))


def test_average_pooling_sums_from_positive_zero():
    _zeros_against_torch(lambda lib: lib.nn.functional.avg_pool2d(lib.zeros(1, 1, 4, 4).neg(), 1))


def _linear_weight_grad(lib, a, b):
    # batch 1: the weight gradient grad^T x is a product of one term
    w = lib.ones(3, 3, dtype=a.dtype, requires_grad=True)
    (g,) = lib.autograd.grad(lib.nn.functional.linear(b, w), w, a.T)
    return g


PRODUCTS_OF_ONE_TERM = {
    "mm": lambda lib, a, b: lib.mm(a, b),
    "matmul": lambda lib, a, b: a @ b,
    "addmm": lambda lib, a, b: lib.addmm(lib.zeros(3, 3, dtype=a.dtype), a, b, beta=0, alpha=-1),
    "linear weight gradient": _linear_weight_grad,
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("case", PRODUCTS_OF_ONE_TERM.values(), ids=PRODUCTS_OF_ONE_TERM.keys())
def test_products_of_one_term_keep_the_products_zeros(case, dtype):
    # Note [Products of one term]: torch's GEMM gives a zero times a negative number as -0.0
    def make(lib):
        a = lib.tensor([[-1.0], [1.0], [2.0]], dtype=getattr(lib, dtype))
        b = lib.tensor([[0.0, -0.0, 3.0]], dtype=getattr(lib, dtype))
        return case(lib, a, b).detach()

    _zeros_against_torch(make)
    np.testing.assert_array_equal(make(nt).numpy(), make(torch).numpy())


_NEGATIONS = {
    "neg": lambda x: x.neg(),
    "transposed": lambda x: -x.mT,
    "strided": lambda x: x[:, ::2].neg(),
    "in_place": lambda x: x.clone().neg_(),
    "short": lambda x: x[:1, :3].neg(),
}


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("make", sorted(_NEGATIONS))
def test_complex_negation_of_zero_parts(dtype, make):
    # torch's vector loop negates as 0 - x (+0 for both zeros), its scalar tail flips signs
    parts = np.where(np.arange(2 * 5 * 9).reshape(5, 9, 2) % 3 == 0, -0.0, 0.0)
    values = np.empty((5, 9), dtype)
    values.real, values.imag = parts[..., 0], parts[..., 1]

    def run(lib):
        out = _NEGATIONS[make](lib.tensor(values))
        return lib.view_as_real(out.resolve_conj().contiguous())

    _zeros_against_torch(run)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("size", [5, 16, 23])
def test_complex_sgn_divides_each_part_in_vector_lanes(dtype, size):
    # torch's vector loop takes re / |z| and im / |z| (a -0 part stays -0, inf gives NaN + 0j);
    # its scalar tail divides as complex numbers ((-0 + 0.5j) / 0.5 is +0 + 1j)
    base = [(-0.0, 0.5), (0.5, -0.0), (np.inf, 0.0), (np.nan, 0.0), (3.0, -4.0), (-0.0, -0.0)]
    parts = np.array([base[i % len(base)] for i in range(size)])
    values = np.empty(size, dtype)
    values.real, values.imag = parts[:, 0], parts[:, 1]

    def run(lib):
        return lib.view_as_real(lib.sgn(lib.tensor(values)))

    _zeros_against_torch(run)
    ours, theirs = run(nt).numpy(), run(torch).numpy()
    np.testing.assert_array_equal(ours, theirs)
