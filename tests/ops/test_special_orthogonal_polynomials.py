"""torch.special's orthogonal polynomials against torch: values over degrees and points
(the ends, inside and outside the interval), dtypes, no gradients, errors."""

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

NAMES = [
    "chebyshev_polynomial_t",
    "chebyshev_polynomial_u",
    "chebyshev_polynomial_v",
    "chebyshev_polynomial_w",
    "shifted_chebyshev_polynomial_t",
    "shifted_chebyshev_polynomial_u",
    "shifted_chebyshev_polynomial_v",
    "shifted_chebyshev_polynomial_w",
    "hermite_polynomial_h",
    "hermite_polynomial_he",
    "laguerre_polynomial_l",
    "legendre_polynomial_p",
]
POINTS = [-1.5, -1.0, -0.7, -0.2, 0.0, 0.3, 0.5, 0.9, 1.0, 1.2, 2.5]


def _call(lib, name, x, n):
    return getattr(lib.special, name)(x, n)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_values_over_degrees_and_points(name, dtype):
    out = []
    for lib in (numtorch, torch):
        x = lib.tensor(POINTS, dtype=getattr(lib, dtype))[:, None]
        out.append(_call(lib, name, x, lib.arange(-2, 16)[None, :]))
    ours, theirs = out
    assert str(ours.dtype) == str(theirs.dtype)
    assert not ours.requires_grad
    tol = dict(rtol=1e-10, atol=1e-12) if dtype == "float64" else dict(rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), **tol)


@pytest.mark.parametrize("name", NAMES)
def test_number_degree_fractional_degree_and_dtypes(name):
    cases = [
        lambda lib: _call(lib, name, lib.tensor([0.25, 0.75], dtype=lib.float64), 3),
        lambda lib: _call(lib, name, lib.tensor([0.25, 0.75]), lib.tensor(2.7)),
        lambda lib: _call(lib, name, lib.tensor([1, 2]), 3),
        lambda lib: _call(lib, name, 0.5, lib.tensor([0, 1, 4])),
        lambda lib: _call(lib, name, lib.tensor([0.5]), lib.tensor([5], dtype=lib.float64)),
    ]
    for case in cases:
        ours, theirs = case(numtorch), case(torch)
        assert str(ours.dtype) == str(theirs.dtype)
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)


def test_results_never_require_grad_as_in_torch():
    for lib in (numtorch, torch):
        x = lib.tensor([0.1, 0.4], requires_grad=True)
        r = lib.special.legendre_polynomial_p(x, 3)
        assert r.grad_fn is None and not r.requires_grad
        with pytest.raises(RuntimeError):
            r.sum().backward()


def test_non_number_argument_is_a_type_error():
    for lib in (numtorch, torch):
        with pytest.raises(TypeError):
            lib.special.chebyshev_polynomial_t(lib.tensor([0.5]), "3")
