"""``_sample_dirichlet`` and ``_dirichlet_grad`` as torch computes them: draws normalised in
double, and the reparametrisation gradient's four approximations (series near 0 and near 1,
saddle point, rational correction) in the kernel's precisions, so that Dirichlet and Beta
``rsample`` gradients match torch's."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.parity


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_dirichlet_grad_follows_torchs_approximations(dtype):
    rng = np.random.default_rng(0)
    n = 2000
    alpha = np.exp(rng.uniform(-3, 3, n)).astype(dtype)
    total = alpha + np.exp(rng.uniform(-3, 3, n)).astype(dtype)
    x = rng.uniform(0.001, 0.999, n).astype(dtype)

    def run(lib):
        args = (lib.from_numpy(a) for a in (x, alpha, total))
        return lib._dirichlet_grad(*args).numpy()

    np.testing.assert_allclose(run(numtorch), run(torch), rtol=1e-6)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_dirichlet_and_beta_rsample_gradients_are_torchs(dtype):
    def run(lib):
        lib.manual_seed(11)
        a = lib.tensor([1.5, 0.4, 9.0], dtype=getattr(lib, dtype), requires_grad=True)
        b = lib.tensor([2.0, 3.0, 7.0], dtype=getattr(lib, dtype), requires_grad=True)
        x = lib.distributions.Beta(a, b).rsample((3,))
        x.pow(2).sum().backward()
        alpha = lib.tensor([0.5, 1.0, 2.0], dtype=getattr(lib, dtype), requires_grad=True)
        d = lib.distributions.Dirichlet(alpha).rsample((2,))
        (d * lib.tensor([1.0, 2.0, 3.0], dtype=getattr(lib, dtype))).sum().backward()
        return [t.detach().numpy() for t in (x, a.grad, b.grad, d, alpha.grad)], d.grad_fn.name()

    (ours, our_node), (theirs, their_node) = run(numtorch), run(torch)
    assert our_node == their_node == "_DirichletBackward"
    for o, t in zip(ours, theirs):
        np.testing.assert_allclose(o, t, rtol=1e-6)


def test_dirichlet_ops_refuse_as_torch():
    for lib in (numtorch, torch):
        with pytest.raises(RuntimeError, match="Found dtype Double but expected Float"):
            lib._dirichlet_grad(lib.ones(2), lib.ones(2, dtype=lib.float64), lib.ones(2))
        with pytest.raises(RuntimeError, match="derivative for aten::_sample_dirichlet"):
            lib._sample_dirichlet(lib.ones(2, requires_grad=True)).sum().backward()
        with pytest.raises(NotImplementedError):
            lib._sample_dirichlet(lib.ones(2, dtype=lib.half))


def test_dirichlet_draws_of_non_finite_concentrations_clamp_as_torch():
    # an infinite concentration's Gamma draw is inf, so its share inf / inf is NaN, which
    # torch's clamp turns into the smallest normal number
    rows = [[float("inf"), 1.0, 1.0], [float("nan"), 1.0, 1.0], [0.0, 1.0, 2.0]]
    found = []
    for lib in (numtorch, torch):
        lib.manual_seed(0)
        found.append(lib._sample_dirichlet(lib.tensor(rows)).numpy())
    np.testing.assert_array_equal(found[0], found[1])
