"""torch.special's gradient-less Bessel functions against torch: values over the ranges
each method covers (series, quadrature, asymptotic), edge values, dtypes, no gradients."""

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

POINTS = np.concatenate(
    [
        [-30.0, -3.0, -1.0, 0.0, 1e-300, 1e-20, 1e-5, 1e-3, 0.5, 2.404825557695773, 24.9],
        [25.1, 30.0, 100.0, 700.0, 800.0, 1e4, np.inf, -np.inf, np.nan],
        np.linspace(0.01, 40.0, 120),
    ]
)
# torch's rational approximations of J0, J1, Y0, Y1 between 2 and 8 are good to about 5e-7
# (absolute); the others agree to a few units in the last place
ACCURACY = {
    # torch's Ai is off by up to 3e-6 near x = -2 (checked against mpmath)
    "airy_ai": dict(rtol=0, atol=5e-6),
    "bessel_j0": dict(rtol=0, atol=1e-6),
    "bessel_j1": dict(rtol=0, atol=1e-6),
    "bessel_y0": dict(rtol=1e-6, atol=1e-6),
    "bessel_y1": dict(rtol=1e-6, atol=1e-6),
    "modified_bessel_i0": dict(rtol=1e-13),
    "modified_bessel_i1": dict(rtol=1e-13),
    "modified_bessel_k0": dict(rtol=1e-12),
    "modified_bessel_k1": dict(rtol=1e-12),
    "scaled_modified_bessel_k0": dict(rtol=1e-12),
    "scaled_modified_bessel_k1": dict(rtol=1e-12),
    "spherical_bessel_j0": dict(rtol=1e-14),
}


@pytest.mark.parametrize("name", sorted(ACCURACY))
def test_float64_values(name):
    ours = getattr(numtorch.special, name)(numtorch.tensor(POINTS))
    theirs = getattr(torch.special, name)(torch.tensor(POINTS))
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), equal_nan=True, **ACCURACY[name])


@pytest.mark.parametrize("name", sorted(ACCURACY))
@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_float32_and_integer_inputs(name, dtype):
    values = [0, 1, 2, 5, 9, 30] if dtype == "int64" else [0.0, 0.3, 1.0, 4.5, 20.0, 40.0]
    ours = getattr(numtorch.special, name)(numtorch.tensor(values, dtype=getattr(numtorch, dtype)))
    theirs = getattr(torch.special, name)(torch.tensor(values, dtype=getattr(torch, dtype)))
    assert str(ours.dtype) == str(theirs.dtype) == "torch.float32"
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=2e-6, atol=1e-6)


def test_results_never_require_grad_as_in_torch():
    for lib in (numtorch, torch):
        x = lib.tensor([0.5, 2.0], requires_grad=True)
        for name in ACCURACY:
            r = getattr(lib.special, name)(x)
            assert r.grad_fn is None and not r.requires_grad


def test_non_tensor_input_is_a_type_error():
    for lib in (numtorch, torch):
        with pytest.raises(TypeError):
            lib.special.bessel_j0([0.5])


def test_airy_ai_decay_for_positive_x_to_the_last_digits():
    x = np.linspace(0.5, 100.0, 60)
    ours = numtorch.special.airy_ai(numtorch.tensor(x)).numpy()
    theirs = torch.special.airy_ai(torch.tensor(x)).numpy()
    np.testing.assert_allclose(ours, theirs, rtol=1e-12)
