"""Powers torch's kernel computes by multiplying (x ** 3, x ** -2): the same bits."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("exponent", [3, -2, 3.0, -2.0, 2, -1])
def test_scalar_powers_bits_match_torch(dtype, exponent):
    gen = torch.Generator().manual_seed(0)
    t = (torch.randn(4000, generator=gen) * 3).to(getattr(torch, dtype))
    t = torch.cat([t, torch.tensor([0.0, -0.0, float("inf"), -float("inf"), float("nan")]).to(t)])
    n = numtorch.tensor(t.numpy())
    ours, theirs = (n**exponent).numpy(), (t**exponent).numpy()
    assert ours.dtype == theirs.dtype
    np.testing.assert_array_equal(ours, theirs)


def test_rsqrt_gradient_cubes_as_torch():
    t = (torch.rand(3000, generator=torch.Generator().manual_seed(1)) + 0.1).requires_grad_()
    n = numtorch.tensor(t.detach().numpy(), requires_grad=True)
    t.rsqrt().sum().backward()
    n.rsqrt().sum().backward()
    np.testing.assert_array_equal(n.grad.numpy(), t.grad.numpy())


_EXTREMES = [np.finfo(np.float64).max, -np.finfo(np.float64).max, 1e200, -1e160, np.inf, -np.inf]
_EXTREMES += [np.nan, 0.0, -0.0, 1.5, -2.0]


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("exponent", [0.5, -0.5, -1, 2, 3, -2, 2.0, 3 + 0j])
@pytest.mark.parametrize("size", [3, 8, 13])
def test_complex_powers_take_torchs_kernels(dtype, exponent, size):
    # Note [Complex powers as torch's kernels take them]: sqrt, quotients and products,
    # whose infinities, NaNs and zero signs a general power does not give
    rng = np.random.default_rng(size)
    parts = rng.choice(_EXTREMES, size=(8, size, 2))
    with np.errstate(all="ignore"):
        values = (parts[..., 0] + 1j * parts[..., 1]).astype(dtype)
    for row in values:
        t, n = torch.from_numpy(row.copy()), numtorch.tensor(row.copy())
        ours, theirs = (n**exponent).numpy(), (t**exponent).numpy()
        np.testing.assert_array_equal(ours.view(ours.real.dtype), theirs.view(theirs.real.dtype))


def test_complex_reciprocal_is_one_over_the_value():
    # torch's complex division: 1 / 0j is inf + nanj, 1 / (1e300 + 0j) is +0j (NumPy's
    # reciprocal gives nan + nanj and -0j)
    values = np.array([0j, -0.0 + 0j, 1e300 + 0j, complex(1, np.inf), complex(np.inf, 2)])
    ours = numtorch.tensor(values).reciprocal().numpy()
    theirs = torch.from_numpy(values).reciprocal().numpy()
    np.testing.assert_array_equal(ours.view(np.float64), theirs.view(np.float64))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("exponent", [0.0, 1, 4, -3, 2.5, 1 + 1j, "tensor", "base"])
def test_general_complex_powers_are_exp_of_exponent_times_log(dtype, exponent):
    # Note [Complex powers as torch's kernels take them]: exp(y log x), so 0 ** 0 is NaN for a
    # tensor exponent and integer powers round as the exponential does; 0 fills ones, 1 copies
    rng = np.random.default_rng(7)
    values = rng.standard_normal(12) + 1j * rng.standard_normal(12)
    values = np.r_[values, 0j, complex(0, -0.0), complex(-0.0, 0), -1 + 0j, complex(np.inf, 1)]
    values = values.astype(dtype)
    rows = []
    for lib in (torch, numtorch):
        x = lib.tensor(values)
        if exponent == "tensor":
            out = x ** lib.tensor(values[::-1].copy())
        elif exponent == "base":
            out = lib.pow(-2, x)
        else:
            out = x**exponent
        rows.append(out.numpy())
    ours, theirs = (r.view(r.real.dtype) for r in rows[::-1])
    assert ours.dtype == theirs.dtype
    # the last bits are the C library's exp and log (and its multiply-adds): not imitated
    np.testing.assert_allclose(ours, theirs, rtol=1e-5 if dtype == "complex64" else 1e-13)
    zeros = theirs == 0
    np.testing.assert_array_equal(ours[zeros], theirs[zeros])
    np.testing.assert_array_equal(np.signbit(ours[zeros]), np.signbit(theirs[zeros]))
