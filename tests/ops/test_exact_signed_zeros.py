"""The sign of a zero result, as torch's kernels leave it: a later reciprocal, log, rsqrt or
copysign turns -0.0 against 0.0 into -inf against inf."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import numtorch as nt


def test_softshrink_inside_the_band_keeps_the_sign_of_the_input():
    # torch's kernel gives input * 0 for |input| <= lambd: -0.0 from a negative input
    x = nt.tensor([-0.3, -0.0, 0.0, 0.2, -1.0, 1.0, float("nan")], requires_grad=True)
    out = nt.nn.functional.softshrink(x, 0.5).detach().numpy()
    np.testing.assert_array_equal(np.signbit(out)[:6], [True, True, False, False, True, False])
    np.testing.assert_array_equal(out[:6], [0.0, 0.0, 0.0, 0.0, -0.5, 0.5])
    assert np.isnan(out[6])
    assert np.signbit(nt.nn.functional.softshrink(nt.tensor([-0.25]), 0.5).numpy()[0])


def test_coalesce_sums_from_the_first_value_of_each_index():
    # torch starts each sum from the index's first value, not from 0: a lone -0.0 (and a sum
    # of -0.0s) stays -0.0; torch.sparse.sum and to_dense start from 0 and give 0.0
    indices = nt.tensor([[2, 1, 1, 0, 2], [0, 1, 1, 0, 0]])
    values = nt.tensor([3.0, -0.0, -0.0, -0.0, 4.0], dtype=nt.float64, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        coalesced = nt.sparse_coo_tensor(indices, values, (3, 3)).coalesce()
    out = coalesced.values()
    np.testing.assert_array_equal(coalesced.indices().numpy(), [[0, 1, 2], [0, 1, 0]])
    np.testing.assert_array_equal(out.detach().numpy(), [0.0, 0.0, 7.0])
    np.testing.assert_array_equal(np.signbit(out.detach().numpy()), [True, True, False])
    out.backward(nt.tensor([1.0, 2.0, 3.0], dtype=nt.float64))
    np.testing.assert_array_equal(values.grad.numpy(), [3.0, 2.0, 2.0, 1.0, 3.0])


def test_scatter_and_index_reduce_extremes_keep_the_first_of_equal_zeros():
    # torch keeps the first of equal values in scatter order, the input's own value first:
    # 0.0 against -0.0 keeps the first zero's sign (NumPy's minimum and maximum keep the last)
    own = nt.tensor([5.0, 0.0, -0.0, 3.0, 0.0, -0.0])
    src = nt.tensor([0.0, -0.0, -0.0, 0.0, 0.0, -0.0, 1.0, 2.0])
    index = nt.tensor([0, 0, 1, 1, 2, 3, 4, 5])
    expected = {
        False: [False, True, False, True, False, False],
        True: [False, False, True, True, False, True],
    }
    for reduce in ("amin", "amax"):
        for include_self, signs in expected.items():
            out = own.scatter_reduce(0, index, src, reduce, include_self=include_self).numpy()
            if reduce == "amax" and include_self:
                signs = [False, False, True, False, False, False]
            np.testing.assert_array_equal(np.signbit(out), signs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # index_reduce is in beta
        rows = nt.zeros(2, 2).index_reduce(
            0, nt.tensor([1, 1, 0]), nt.tensor([[-0.0, 0.0], [0.0, -0.0], [-0.0, -0.0]]), "amin",
            include_self=False,
        )  # fmt: skip
    np.testing.assert_array_equal(np.signbit(rows.numpy()), [[True, True], [True, False]])


def test_max_pool_gradient_gives_its_losers_a_positive_zero():
    # torch scatters into a zeroed buffer: an element no window picked gets +0.0 even where
    # the gradient is negative (a later rsqrt or reciprocal turns -0.0 into -inf)
    x = nt.arange(32.0).reshape(1, 2, 4, 4).requires_grad_()
    for padding in (0, 1):
        y = nt.nn.functional.max_pool2d(x, 2, padding=padding)
        (g,) = nt.autograd.grad(y, x, -nt.ones_like(y))
        g = g.numpy()
        assert not np.signbit(g[g == 0]).any()


def test_scans_start_from_positive_zero():
    # torch's cumsum starts from +0 and logcumsumexp from -inf: a leading -0.0 gives +0.0
    # (its 0-d form copies the input, -0.0 stays)
    for dtype in (nt.float32, nt.float64, nt.complex64):
        zeros = nt.zeros(3, 2, dtype=dtype).neg()
        for dim in (0, 1):
            out = nt.cumsum(zeros, dim).numpy()
            assert not np.signbit(out.real).any() and not np.signbit(out.imag).any()
    out = nt.tensor([-0.0, 1.0]).logcumsumexp(0).numpy()
    assert not np.signbit(out[0])
    assert np.signbit(nt.cumsum(nt.tensor(-0.0), 0).numpy())


def test_layer_norm_without_bias_adds_a_zero_beta():
    # torch's kernel writes (x - mean) * rstd * gamma + beta with beta 0 when there is no
    # bias: a row of equal values times a negative weight gives +0.0, not -0.0
    torch = pytest.importorskip("torch")

    x = [[0.5, 0.5], [-1.0, -1.0], [-0.0, -0.0]]
    found = []
    for lib in (nt, torch):
        for weight in (lib.tensor([-1.5, 2.0]), None):
            y = lib.nn.functional.layer_norm(lib.tensor(x), (2,), weight, None, eps=0.1)
            found.append(lib.signbit(y).tolist())
    assert found[:2] == found[2:]


def test_layer_norm_parameter_gradients_of_one_row_sum_from_zero():
    # torch's kernel sums the weight's and bias's gradients over the rows into zeros: an
    # input without batch dims still gives +0.0 where the products are -0.0
    torch = pytest.importorskip("torch")

    found = []
    for lib in (nt, torch):
        x = lib.tensor([-1.0, 0.5, 2.0], dtype=lib.float64)
        weight = lib.tensor([1.0, -2.0, 0.5], dtype=lib.float64, requires_grad=True)
        bias = lib.zeros(3, dtype=lib.float64, requires_grad=True)
        y = lib.nn.functional.layer_norm(x, (3,), weight, bias)
        grads = lib.autograd.grad(
            y, [weight, bias], lib.tensor([0.0, -0.0, -0.0], dtype=lib.float64)
        )
        found.append([lib.signbit(g).tolist() for g in grads])
    assert found[0] == found[1]


@pytest.mark.parametrize("dim", [-1, 0])
@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
def test_softmax_backward_sums_as_torchs_kernels(op, dim):
    # along the last dim torch's sum starts from the first element (a row of -0.0 sums to
    # -0.0, and -0.0 - exp(o) * -0.0 is +0.0); along another dim it starts from +0.0
    torch = pytest.importorskip("torch")
    g = [[-0.0, -0.0, -0.0], [-0.0, 0.0, -0.0]] if dim == -1 else [[-0.0, -0.0, 0.0]] * 2
    found = []
    for lib in (nt, torch):
        x = lib.tensor([[0.5, -1.0, 0.2], [2.0, 0.3, -0.1]], dtype=lib.float64)
        x.requires_grad_()
        (grad,) = lib.autograd.grad(getattr(x, op)(dim), x, lib.tensor(g, dtype=lib.float64))
        found.append(lib.signbit(grad).tolist())
    assert found[0] == found[1]


@pytest.mark.parametrize("requires_grad", [False, True])
@pytest.mark.parametrize("first", [0.0, -0.0])
def test_max_pool_of_tied_zeros_keeps_the_first_zero(first, requires_grad):
    # torch's kernel replaces its running maximum only by a greater value: of a window's
    # tied +0 and -0 the first stays (NumPy's maximum may take either)
    row = [first, -first, -1.0, -first, first, first, -first, -first, -2.0]
    x = nt.tensor([[row] * 16], requires_grad=requires_grad)
    pooled = nt.nn.functional.max_pool1d(x, 2).detach().numpy()
    expected = [np.signbit(first), np.signbit(-first), np.signbit(first), np.signbit(-first)]
    np.testing.assert_array_equal(np.signbit(pooled)[0, 0], expected)
    np.testing.assert_array_equal(pooled[0, 0], 0.0)
