"""Corners the differential fuzzer found in random op graphs: NaN, infinite and far-out values,
where torch's conventions decide the result or the error. Each is checked against torch where it
is installed."""

from __future__ import annotations

import math

import numpy as np
import pytest

import numtorch


def test_standard_gamma_grad_is_zero_where_small_draws_leave_it_undefined():
    # torch's small-draw series gives 0 for x <= 0 and for a NaN or infinite alpha
    alpha = numtorch.tensor([2.0, 2.0, 2.0, math.inf, math.nan, 2.0, 2.0], dtype=numtorch.float64)
    x = numtorch.tensor([0.0, -0.0, -1.0, 0.7, 0.7, math.nan, math.inf], dtype=numtorch.float64)
    got = numtorch._standard_gamma_grad(alpha, x).tolist()
    assert got[:5] == [0.0] * 5
    assert all(math.isnan(v) for v in got[5:])


@pytest.mark.parametrize("n", [2, 3])
def test_polygamma_far_below_zero_matches_torch(n):
    # torch sums the zeta series one unit step at a time up from x (seconds here, hours
    # further down); the reflected values agree with those sums
    torch = pytest.importorskip("torch")
    x = [-1000.3, -1000.5, -10000.3, -100000.25]
    expected = torch.polygamma(n, torch.tensor(x, dtype=torch.float64)).numpy()
    got = numtorch.polygamma(n, numtorch.tensor(x, dtype=numtorch.float64)).numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-14)


def test_polygamma_far_below_zero_terminates():
    x = numtorch.tensor([-1e12 - 0.5, -3e9 - 0.25, -1e20], dtype=numtorch.float64)
    second = numtorch.polygamma(2, x).numpy()
    # psi''(x) = psi''(1 - x) - pi d^2/dx^2 cot(pi x): 4 pi^3 at x = 3/4 (mod 1); a pole
    # at the integer
    np.testing.assert_allclose(second[:2], [0.0, 4 * math.pi**3], atol=1e-13 * 4 * math.pi**3)
    assert second[2] == -math.inf
    # psi'(x) = pi^2 / sin^2(pi x) - psi'(1 - x), with psi'(y) ~ 1/y far up; the sine is
    # taken of the unreduced argument, as torch's trigamma does (it gives torch's value)
    first = numtorch.polygamma(1, x[1:2]).item()
    sin_pi_x = math.sin(math.pi * (-3e9 - 0.25))
    assert first == pytest.approx(math.pi**2 / sin_pi_x**2 - 1 / (3e9 + 1.25), rel=1e-13)


def _clamp_gradients(lib, x, lo, hi):
    tensors = [lib.tensor(v, dtype=lib.float64, requires_grad=True) for v in (x, lo, hi)]
    lib.clamp(*tensors).sum().backward()
    return [t.grad.tolist() for t in tensors]


def test_clamp_bounds_share_the_gradient_by_torchs_tie_rule():
    # below min == max, or with min > max: max is the limit, and min gets no gradient
    x = [0.0, 0.0, 1.0, math.nan, 2.0, 3.0]
    lo = [1.0, 2.0, 2.0, 1.0, 1.0, 1.0]
    hi = [1.0, 0.0, 1.0, 0.0, 1.0, 4.0]
    grads = _clamp_gradients(numtorch, x, lo, hi)
    assert grads == [[0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 0], [0, 1, 1, 1, 1, 0]]
    torch = pytest.importorskip("torch")
    assert grads == _clamp_gradients(torch, x, lo, hi)


# call, the exception torch raises
EMPTY_AND_NONFINITE = {
    "kthvalue of an empty dim": (lambda t: t.kthvalue(t.ones(2, 0), 1, 1), IndexError),
    "histogram of an infinite value": (
        lambda t: t.histogram(t.tensor([-1.5, math.inf]), 3),
        RuntimeError,
    ),
    "histogram of NaN": (lambda t: t.histogram(t.tensor([1.0, math.nan]), 3), RuntimeError),
    "histogram over an infinite range": (
        lambda t: t.histogram(t.tensor([1.0, 2.0]), 3, range=(0.0, math.inf)),
        RuntimeError,
    ),
}


@pytest.mark.parametrize("case", sorted(EMPTY_AND_NONFINITE))
def test_empty_and_nonfinite_reductions_raise_torchs_error(case):
    call, expected = EMPTY_AND_NONFINITE[case]
    with pytest.raises(expected) as ours:
        call(numtorch)
    torch = pytest.importorskip("torch")
    with pytest.raises(expected) as theirs:
        call(torch)
    assert str(ours.value) == str(theirs.value)


def _adaptive_average_of_nonfinite(lib):
    inf, nan = float("inf"), float("nan")
    x = lib.arange(30.0, dtype=lib.float64).reshape(1, 1, 5, 6)
    x[0, 0, 1, 2], x[0, 0, 4, 5], x[0, 0, 0, 0] = inf, -inf, nan
    x.requires_grad_()
    y = lib.nn.functional.adaptive_avg_pool2d(x, (3, 4))
    weights = lib.ones(1, 1, 3, 4, dtype=lib.float64)
    weights[0, 0, 2, 1] = inf
    (grad,) = lib.autograd.grad(y, x, weights)
    z = lib.arange(24.0).reshape(1, 2, 3, 4)
    z[0, 0, 0, 0] = inf
    pooled = [lib.nn.functional.adaptive_avg_pool3d(z, (2, 2, 3))]
    pooled.append(lib.nn.functional.adaptive_avg_pool1d(z[0], 3))
    return [t.detach().numpy() for t in (y, grad, *pooled)]


def test_adaptive_average_pooling_keeps_a_nonfinite_value_in_its_own_windows():
    # torch sums each window: an inf or NaN reaches only the windows holding it
    y, grad, pooled3d, pooled1d = _adaptive_average_of_nonfinite(numtorch)
    assert np.isfinite(y).sum() == 8 and np.isfinite(grad).sum() == 26
    assert np.isfinite(pooled3d).sum() == 11 and np.isfinite(pooled1d).sum() == 17
    torch = pytest.importorskip("torch")
    for ours, theirs in zip((y, grad, pooled3d, pooled1d), _adaptive_average_of_nonfinite(torch)):
        np.testing.assert_allclose(ours, theirs, rtol=1e-6)


def _embedding_bag_max_with_nan(lib, padding_idx):
    nan, inf = float("nan"), float("inf")
    rows = [[1.0, nan, -inf], [2.0, 0.5, 3.0], [nan, 1.0, 2.0], [-1.0, -2.0, -3.0]]
    weight = lib.tensor(rows, requires_grad=True)
    indices, offsets = lib.tensor([0, 1, 2, 3, 1, 2]), lib.tensor([0, 2, 4, 4])
    out = lib.nn.functional.embedding_bag(
        indices, weight, offsets, mode="max", padding_idx=padding_idx
    )
    (grad,) = lib.autograd.grad(out.nan_to_num().sum(), weight)
    return out.detach().numpy(), grad.numpy()


@pytest.mark.parametrize("padding_idx", [None, 0])
def test_embedding_bag_max_keeps_a_leading_nan_and_skips_a_later_one(padding_idx):
    # torch seeds a bag with its first row and replaces by strictly greater values only
    out, grad = _embedding_bag_max_with_nan(numtorch, padding_idx)
    np.testing.assert_array_equal(out[3], [2.0, 1.0, 3.0])
    assert np.isnan(out[1, 0])
    torch = pytest.importorskip("torch")
    torch_out, torch_grad = _embedding_bag_max_with_nan(torch, padding_idx)
    np.testing.assert_array_equal(out, torch_out)
    np.testing.assert_array_equal(grad, torch_grad)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("padding_idx", [None, 0])
def test_embedding_bag_mean_divides_the_sum_of_its_rows(dtype, padding_idx):
    # torch sums a bag, then divides by its size: rows near the dtype's largest value sum
    # to inf, and 5 / 3 rounds once
    top = float(np.finfo(dtype).max)
    rows = [[1.0, top, 2.0], [top, top, top], [-1.0, top, 3.0], [top, -top, 1.0]]
    indices, offsets = [0, 1, 2, 3, 1, 1, 0, 2, 3, 3], [0, 2, 5, 10, 10]
    outs = []
    for lib in (numtorch, pytest.importorskip("torch")):
        weight = lib.tensor(rows, dtype=getattr(lib, dtype))
        out = lib.nn.functional.embedding_bag(
            lib.tensor(indices),
            weight,
            lib.tensor(offsets),
            mode="mean",
            padding_idx=padding_idx,
            include_last_offset=True,
        )
        outs.append(out.numpy())
    np.testing.assert_array_equal(*outs)


def _complex_parts(t):
    return [(z.real, z.imag) for z in t.detach().reshape(-1).tolist()]


def _same_floats(ours, theirs):
    np.testing.assert_array_equal(np.array(ours, dtype=float), np.array(theirs, dtype=float))


_COMPLEX_SUMS = {
    "add": lambda t, z, w: z + w,
    "add reversed": lambda t, z, w: w + z,
    "sub": lambda t, z, w: z - w,
    "rsub": lambda t, z, w: t.rsub(w, z),
    "add a number": lambda t, z, w: z + math.inf,
    "number minus": lambda t, z, w: math.inf - z,
    "real plus complex number": lambda t, z, w: t.tensor([0.5]) + complex(math.inf, 0),
    "add alpha": lambda t, z, w: z.add(w, alpha=2),
    "add_": lambda t, z, w: z.clone().add_(w),
}


@pytest.mark.parametrize("name", sorted(_COMPLEX_SUMS))
def test_complex_add_multiplies_other_by_a_complex_one_as_torch(name):
    # torch computes input + alpha * other with alpha = 1 + 0j: inf * 0 makes NaN of the
    # other part of a non-finite complex `other` (Note [Complex alpha])
    torch = pytest.importorskip("torch")
    results = []
    for lib in (numtorch, torch):
        z = lib.tensor([0.5j, 1 + 1j, 2.0])
        w = lib.tensor([complex(math.inf, 0), complex(1, math.nan), complex(0, -math.inf)])
        results.append(_complex_parts(_COMPLEX_SUMS[name](lib, z, w)))
    _same_floats(*results)


@pytest.mark.parametrize("values", [[1.0, math.inf], [0.0, math.inf], [math.inf, math.inf]])
@pytest.mark.parametrize("create_graph", [False, True])
def test_complex_gradients_meet_as_torch_adds_them(values, create_graph):
    # the gradients of z.real and z.imag meet at z: torch adds the later one times 1 + 0j
    torch = pytest.importorskip("torch")
    grads = []
    for lib in (numtorch, torch):
        x = lib.tensor(values, dtype=lib.float64, requires_grad=True)
        z = lib.view_as_complex(x)
        (g,) = lib.autograd.grad(z.real * z.imag * 0.7, x, create_graph=create_graph)
        x.grad = None
        (z.real * z.imag * 0.7).backward()
        grads.append(g.tolist() + x.grad.tolist())
    _same_floats(*grads)


def test_sgn_second_derivative_at_zero_is_nan_as_torch():
    # torch's sgn backward divides by 2|z| and masks z = 0 afterwards: the masked division
    # by zero still takes part in the second derivative (NaN there), the first is 0
    torch = pytest.importorskip("torch")
    seen = []
    for lib in (numtorch, torch):
        x = lib.tensor([[0.0, 0.0], [0.6, -0.8]], dtype=lib.float64, requires_grad=True)
        weights = lib.tensor([[0.3, -1.2], [0.5, 0.7]], dtype=lib.float64)
        y = (lib.view_as_real(lib.view_as_complex(x).sgn()) * weights).sum()
        (g,) = lib.autograd.grad(y, x, create_graph=True)
        (g2,) = lib.autograd.grad((g * weights).sum(), x)
        seen.append(g.tolist() + g2.tolist())
    _same_floats(*seen)


def test_adaptive_average_of_huge_values_overflows_as_torch_sums_them():
    # torch sums each window and then divides: two -1.7e308 make -inf (weights of 1/n
    # would give -1.7e308)
    x = numtorch.full((1, 2, 4, 4), -1.7e308, dtype=numtorch.float64)
    out = numtorch.nn.functional.adaptive_avg_pool2d(x, (3, 2))
    np.testing.assert_array_equal(out.numpy(), np.full((1, 2, 3, 2), -np.inf))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(
    "values", [[-math.inf, 0.3], [-math.inf, -math.inf, 1.0], [1.0, math.inf], [0.3, -1.2, 2.0]]
)
def test_logcumsumexp_forward_derivative_is_torchs_formula(values, dtype):
    # fuzz seed 8600375: the running sum over the primal's plus 1e-13, so a zero sum below a
    # -inf gives 0 (not NaN) and float64 values sit a little under the exact ones
    torch = pytest.importorskip("torch")
    out = []
    for lib in (numtorch, torch):
        x = lib.tensor(values, dtype=getattr(lib, dtype))
        t = lib.full_like(x, 0.5)
        out.append(lib.func.jvp(lambda a, lib=lib: lib.logcumsumexp(a, -1), (x,), (t,))[1])
    np.testing.assert_array_equal(out[0].numpy(), out[1].numpy())
