"""``numtorch.distributions`` against torch.distributions: every deterministic quantity
(log_prob, entropy, cdf/icdf, mean/variance/mode, KL, their gradients, shapes of samples,
validation errors and their messages). Samples come from numtorch's own random stream, so
their values are checked through statistics rather than against torch's draws."""

from __future__ import annotations

import math

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

from distributions_parity import error, params, parity, values_and_grads  # noqa: E402

# Each case builds one distribution from differentiable parameters, evaluates the
# deterministic methods and returns them with the gradients of their sum.
CASES = {
    "normal": lambda D, p: (D.Normal(*p), [-0.5, 0.3, 2.0]),
    "normal_batch": lambda D, p: (D.Normal(p[0], p[1].exp()), [[0.1], [1.5]]),
    "laplace": lambda D, p: (D.Laplace(*p), [-0.5, 0.3, 2.0]),
    "exponential": lambda D, p: (D.Exponential(p[1]), [0.5, 0.3, 2.0]),
    "uniform": lambda D, p: (D.Uniform(p[0] - 2, p[1] + 1), [-0.5, 0.3, 1.0]),
    "bernoulli_probs": lambda D, p: (D.Bernoulli(probs=p[1] / 3), [0.0, 1.0, 1.0]),
    "bernoulli_logits": lambda D, p: (D.Bernoulli(logits=p[0]), [1.0, 0.0, 1.0]),
    "poisson": lambda D, p: (D.Poisson(p[1]), [0.0, 3.0, 1.0]),
    "cauchy": lambda D, p: (D.Cauchy(*p), [-0.5, 0.3, 2.0]),
    "gumbel": lambda D, p: (D.Gumbel(*p), [-0.5, 0.3, 2.0]),
    "half_normal": lambda D, p: (D.HalfNormal(p[1]), [0.5, 0.3, 2.0]),
    "log_normal": lambda D, p: (D.LogNormal(*p), [0.5, 0.3, 2.0]),
    "geometric": lambda D, p: (D.Geometric(p[1] / 3), [0.0, 3.0, 1.0]),
    "geometric_logits": lambda D, p: (D.Geometric(logits=p[0]), [0.0, 3.0, 1.0]),
    "binomial": lambda D, p: (D.Binomial(5, p[1] / 3), [0.0, 3.0, 5.0]),
    "gamma": lambda D, p: (D.Gamma(p[1], p[1].detach() + 0.5), [0.5, 0.3, 2.0]),
    "gamma_rate": lambda D, p: (D.Gamma(p[1].detach() + 1, p[1]), [0.5, 0.3, 2.0]),
    "chi2": lambda D, p: (D.Chi2(p[1] * 2), [0.5, 0.3, 2.0]),
    "beta": lambda D, p: (D.Beta(p[1], p[1].flip(0) + 0.5), [0.5, 0.3, 0.9]),
    "student_t": lambda D, p: (D.StudentT(p[1] + 0.5, *p), [-0.5, 0.3, 2.0]),
    "half_cauchy": lambda D, p: (D.HalfCauchy(p[1]), [0.5, 0.3, 2.0]),
    "pareto": lambda D, p: (D.Pareto(p[1] / 4, p[1] + 2), [0.5, 0.3, 2.0]),
    "weibull": lambda D, p: (D.Weibull(p[1], p[1].flip(0) + 0.5), [0.5, 0.3, 2.0]),
    "inverse_gamma": lambda D, p: (D.InverseGamma(p[1] + 1.5, p[1]), [0.5, 0.3, 2.0]),
    "negative_binomial": lambda D, p: (D.NegativeBinomial(p[1] * 3, p[1] / 3), [0.0, 3.0, 1.0]),
    "negative_binomial_logits": lambda D, p: (
        D.NegativeBinomial(p[1] * 3, logits=p[0]),
        [0.0, 3.0, 1.0],
    ),
    "fisher_snedecor": lambda D, p: (D.FisherSnedecor(p[1] * 3, p[1] + 4), [0.5, 0.3, 2.0]),
    "kumaraswamy": lambda D, p: (D.Kumaraswamy(p[1] + 1, p[1].flip(0) + 1), [0.5, 0.3, 0.9]),
    "continuous_bernoulli": lambda D, p: (D.ContinuousBernoulli(p[1] / 3), [0.5, 0.3, 0.9]),
    "continuous_bernoulli_logits": lambda D, p: (
        D.ContinuousBernoulli(logits=p[0] * 0.001),
        [0.5, 0.3, 0.9],
    ),
    "von_mises": lambda D, p: (D.VonMises(p[0], p[1] * 3), [-0.5, 0.3, 2.0]),
    "generalized_pareto": lambda D, p: (
        # float32: torch's own isclose(concentration, tensor(0.0)) refuses float64 here
        D.GeneralizedPareto((p[0] - 3).float(), p[1].float(), (p[1] * 0.3 - 0.2).float()),
        [0.5, 0.3, 2.0],
    ),
    "binomial_logits": lambda D, p: (
        D.Binomial(p[1].detach().round() + 2, logits=p[0]),
        [0.0, 1.0, 3.0],
    ),
}
LOC, SCALE = [0.2, -1.0, 0.7], [0.5, 1.2, 2.0]


@pytest.mark.parametrize("name", sorted(CASES))
def test_univariate_methods_match_torch(name):
    def case(lib):
        parameters = params(lib, LOC, SCALE)
        dist, value = CASES[name](lib.distributions, parameters)
        value = lib.tensor(value, dtype=lib.float64)
        outputs = [dist.log_prob(value)]
        for method in ("entropy", "cdf", "icdf"):
            try:
                arg = () if method == "entropy" else (value.clamp(0.1, 0.9),)
                outputs.append(getattr(dist, method)(*arg))
            except NotImplementedError:
                outputs.append("missing")
        for prop in ("mean", "variance", "stddev", "mode"):
            try:
                outputs.append(getattr(dist, prop))
            except NotImplementedError:
                outputs.append("missing")
        info = [
            dist.batch_shape,
            dist.event_shape,
            dist.has_rsample,
            repr(dist),
            repr(dist.support),
            dist.sample((4, 2)).shape,
            str(dist.sample().dtype),
        ]
        tensors = [o for o in outputs if isinstance(o, lib.Tensor)]
        try:
            results = values_and_grads(lib, parameters, tensors)
        except NotImplementedError as e:  # torch cannot differentiate gammainc in its `a`
            results = [*tensors, str(e)]
        return [*results, outputs.count("missing"), *info]

    parity(case)


@pytest.mark.parametrize(
    "name",
    [
        "normal",
        "laplace",
        "exponential",
        "uniform",
        "gumbel",
        "half_normal",
        "gamma",
        "chi2",
        "beta",
    ],
)
def test_rsample_is_differentiable_and_has_the_right_moments(name):
    nt = numtorch
    nt.manual_seed(0)
    parameters = params(nt, LOC, SCALE)
    dist, _ = CASES[name](nt.distributions, parameters)
    x = dist.rsample((20000,))
    assert x.shape == (20000, 3) and x.requires_grad and x.dtype == nt.float64
    np.testing.assert_allclose(x.mean(0).detach().numpy(), dist.mean.detach().numpy(), atol=0.1)
    np.testing.assert_allclose(x.std(0).detach().numpy(), dist.stddev.detach().numpy(), rtol=0.05)
    grads = nt.autograd.grad(x.sum(), parameters, allow_unused=True)
    assert any(g is not None for g in grads)
    assert not dist.sample((2,)).requires_grad


@pytest.mark.parametrize(
    "name",
    [
        "bernoulli_probs",
        "poisson",
        "geometric",
        "binomial",
        "bernoulli_logits",
        "negative_binomial",
    ],
)
def test_discrete_samples_have_the_right_mean(name):
    nt = numtorch
    nt.manual_seed(0)
    dist, _ = CASES[name](nt.distributions, params(nt, LOC, SCALE))
    draws = dist.sample((20000,))
    assert draws.shape == (20000, 3) and not draws.requires_grad
    assert bool(dist.support.check(draws).all())
    mean, std = dist.mean.detach().numpy(), dist.stddev.detach().numpy()
    assert (np.abs(draws.mean(0).numpy() - mean) <= 0.05 * (1 + std)).all()


def test_gamma_rsample_gradient_is_unbiased():
    # E[x] = concentration / rate, so E[dx/dconcentration] = 1 / rate and
    # E[dx/drate] = -concentration / rate^2: the implicit gradient must average to these
    nt = numtorch
    nt.manual_seed(0)
    conc, rate = params(nt, [0.3, 1.0, 4.0], [2.0, 0.5, 1.0])
    n = 40000
    x = nt.distributions.Gamma(conc, rate).rsample((n,))
    d_conc, d_rate = nt.autograd.grad(x.sum(), [conc, rate])
    np.testing.assert_allclose(d_conc.numpy() / n, 1 / rate.detach().numpy(), rtol=0.03)
    expected = -(conc / rate**2).detach().numpy()
    np.testing.assert_allclose(d_rate.numpy() / n, expected, rtol=0.03)
    assert x.grad_fn is not None and (x > 0).all()


def test_dirichlet_matches_torch():
    def case(lib):
        (conc,) = params(lib, [[0.5, 2.0, 1.5], [3.0, 0.8, 0.4]])
        D = lib.distributions
        dist = D.Dirichlet(conc)
        value = lib.tensor([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]], dtype=lib.float64)
        outputs = [dist.log_prob(value), dist.entropy(), dist.mean, dist.variance, dist.mode]
        sample = dist.rsample((5,))
        return [
            *values_and_grads(lib, [conc], outputs),
            dist.batch_shape,
            dist.event_shape,
            tuple(sample.shape),
            bool((sample.sum(-1) - 1).abs().max() < 1e-12),
            sample.requires_grad,
            repr(dist.support),
            dist.expand((4, 2)).batch_shape,
        ]

    parity(case)


def test_dirichlet_rsample_gradient_is_unbiased():
    # E[x_i] = a_i / a_0: the pathwise gradient of the sum of x_0 averages to its derivative
    nt = numtorch
    nt.manual_seed(0)
    (conc,) = params(nt, [1.5, 0.7, 2.0])
    n = 40000
    x = nt.distributions.Dirichlet(conc).rsample((n,))
    (grad,) = nt.autograd.grad(x[:, 0].sum(), [conc])
    a = conc.detach().numpy()
    expected = -a[0] / a.sum() ** 2 + np.array([1 / a.sum(), 0, 0])
    np.testing.assert_allclose(grad.numpy() / n, expected, atol=0.01)


def test_rsample_gradient_with_fixed_noise_matches_torch():
    # the reparametrisation x = loc + eps * scale with the same eps in both libraries
    def case(lib):
        loc, log_scale = params(lib, LOC, [0.1, -0.2, 0.3])
        dist = lib.distributions.Normal(loc, log_scale.exp())
        eps = lib.tensor([[0.5, -1.0, 2.0], [1.5, 0.0, -0.3]], dtype=lib.float64)
        x = dist.mean + eps * dist.stddev
        return values_and_grads(lib, [loc, log_scale], [dist.log_prob(x.detach()) + x])

    parity(case)


def test_categorical_matches_torch():
    def case(lib):
        (logits,) = params(lib, [[1.0, 2.0, 0.5, -1.0], [0.0, 0.0, 3.0, 1.0]])
        D = lib.distributions
        outputs = []
        for dist in (D.Categorical(logits=logits), D.Categorical(probs=logits.softmax(-1) * 3)):
            value = lib.tensor([[0, 2], [3, 1], [1, 1]])
            outputs += [dist.log_prob(value), dist.entropy(), dist.probs, dist.logits]
            outputs += [dist.mode, dist.mean, dist.enumerate_support(), dist.perplexity()]
            outputs += [dist.enumerate_support(expand=False)]
            outputs += [dist.sample().shape, dist.sample((5, 3)).shape, str(dist.sample().dtype)]
            outputs += [dist.batch_shape, dist.event_shape, repr(dist.support)]
        tensors = [o for o in outputs if isinstance(o, lib.Tensor)]
        others = [o for o in outputs if not isinstance(o, lib.Tensor)]
        return [*values_and_grads(lib, [logits], tensors), *others]

    parity(case)


def test_categorical_samples_follow_probs():
    nt = numtorch
    nt.manual_seed(0)
    probs = nt.tensor([0.1, 0.2, 0.7])
    draws = nt.distributions.Categorical(probs).sample((30000,))
    freq = np.bincount(draws.numpy(), minlength=3) / 30000
    np.testing.assert_allclose(freq, probs.numpy(), atol=0.015)
    assert draws.dtype == nt.int64


def test_one_hot_categorical_matches_torch():
    def case(lib):
        (logits,) = params(lib, [[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]])
        dist = lib.distributions.OneHotCategorical(logits=logits)
        value = lib.tensor([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], dtype=lib.float64)
        outputs = [dist.log_prob(value), dist.entropy(), dist.mean, dist.variance, dist.mode]
        outputs += [dist.enumerate_support()]
        sample = dist.sample((4,))
        return [
            *values_and_grads(lib, [logits], outputs),
            sample.shape,
            sample.sum(-1).tolist(),
            dist.event_shape,
        ]

    parity(case)


@pytest.mark.parametrize("form", ["covariance_matrix", "precision_matrix", "scale_tril"])
def test_multivariate_normal_matches_torch(form):
    def case(lib):
        loc, a = params(
            lib,
            [[0.5, -1.0, 0.0], [1.0, 2.0, -0.5]],
            [[2.0, 0.3, 0.1], [0.0, 1.5, -0.2], [0.4, 0.0, 1.0]],
        )
        tril = a.tril()
        matrix = {"covariance_matrix": a @ a.mT, "precision_matrix": a @ a.mT, "scale_tril": tril}[
            form
        ]
        dist = lib.distributions.MultivariateNormal(loc, **{form: matrix})
        value = lib.tensor([[[0.0, 0.0, 0.0]], [[1.0, -1.0, 2.0]]], dtype=lib.float64)
        outputs = [dist.log_prob(value), dist.entropy(), dist.mean, dist.variance]
        outputs += [dist.covariance_matrix, dist.precision_matrix, dist.scale_tril]
        eps = lib.tensor([0.3, -0.7, 1.1], dtype=lib.float64)
        outputs.append(dist.loc + (dist._unbroadcasted_scale_tril @ eps.unsqueeze(-1)).squeeze(-1))
        return [
            *values_and_grads(lib, [loc, a], outputs),
            dist.batch_shape,
            dist.event_shape,
            dist.rsample((4,)).shape,
            dist.expand((3, 2)).batch_shape,
        ]

    parity(case)


def test_independent_matches_torch():
    def case(lib):
        loc, scale = params(lib, [[0.1, 0.2], [0.3, 0.4]], [[1.0, 2.0], [0.5, 1.5]])
        D = lib.distributions
        base = D.Normal(loc, scale)
        dist = D.Independent(base, 1)
        other = D.Independent(D.Normal(loc.detach() + 1, scale.detach()), 1)
        value = lib.tensor([0.5, -0.5], dtype=lib.float64)
        outputs = [dist.log_prob(value), dist.entropy(), D.kl_divergence(dist, other)]
        return [
            *values_and_grads(lib, [loc, scale], outputs),
            dist.batch_shape,
            dist.event_shape,
            repr(dist),
            repr(dist.support),
            dist.expand((3, 2)).batch_shape,
            D.Independent(base, 2).event_shape,
        ]

    parity(case)


KL_PAIRS = {
    "normal": lambda D, a, b: (D.Normal(a, b), D.Normal(b, a + 2)),
    "bernoulli": lambda D, a, b: (D.Bernoulli(b / 3), D.Bernoulli(logits=a)),
    "categorical": lambda D, a, b: (D.Categorical(logits=a), D.Categorical(probs=b)),
    "one_hot": lambda D, a, b: (D.OneHotCategorical(logits=a), D.OneHotCategorical(b)),
    "uniform": lambda D, a, b: (D.Uniform(a - 3, b + 3), D.Uniform(a - 4, b + 4)),
    "uniform_outside": lambda D, a, b: (D.Uniform(a - 3, b + 3), D.Uniform(a, b + 4)),
    "exponential": lambda D, a, b: (D.Exponential(b), D.Exponential(b * 2)),
    "laplace": lambda D, a, b: (D.Laplace(a, b), D.Laplace(b, a + 2)),
    "poisson": lambda D, a, b: (D.Poisson(b), D.Poisson(b + 1)),
    "normal_laplace": lambda D, a, b: (D.Normal(a, b), D.Laplace(b, a + 2)),
    "uniform_normal": lambda D, a, b: (D.Uniform(a - 3, b + 3), D.Normal(b, a + 2)),
    "log_normal": lambda D, a, b: (D.LogNormal(a, b), D.LogNormal(b, a + 2)),
    "half_normal": lambda D, a, b: (D.HalfNormal(b), D.HalfNormal(a + 2)),
    "gumbel": lambda D, a, b: (D.Gumbel(a, b), D.Gumbel(b, a + 2)),
    "cauchy": lambda D, a, b: (D.Cauchy(a, b), D.Cauchy(b, a + 2)),
    "geometric": lambda D, a, b: (D.Geometric(b / 3), D.Geometric(logits=a)),
    "binomial": lambda D, a, b: (D.Binomial(4, b / 3), D.Binomial(4, logits=a)),
    "bernoulli_poisson": lambda D, a, b: (D.Bernoulli(b / 3), D.Poisson(a + 2)),
    "normal_gumbel": lambda D, a, b: (D.Normal(a, b), D.Gumbel(b, a + 2)),
    "exponential_normal": lambda D, a, b: (D.Exponential(b), D.Normal(a, b + 1)),
    "laplace_normal": lambda D, a, b: (D.Laplace(a, b), D.Normal(b, a + 2)),
    "uniform_exponential": lambda D, a, b: (D.Uniform(a + 1.5, b + 3), D.Exponential(b)),
    "uniform_gumbel": lambda D, a, b: (D.Uniform(a - 3, b + 3), D.Gumbel(b, a + 2)),
    "exponential_gumbel": lambda D, a, b: (D.Exponential(b), D.Gumbel(a, b)),
    "gamma": lambda D, a, b: (D.Gamma(b, a + 2), D.Gamma(a + 2, b)),
    "beta": lambda D, a, b: (D.Beta(b, a + 2), D.Beta(a + 2, b)),
    "dirichlet": lambda D, a, b: (D.Dirichlet(b), D.Dirichlet(a + 2)),
    "exponential_gamma": lambda D, a, b: (D.Exponential(b), D.Gamma(a + 2, b)),
    "gamma_exponential": lambda D, a, b: (D.Gamma(b, a + 2), D.Exponential(b)),
    "gamma_normal": lambda D, a, b: (D.Gamma(b, a + 2), D.Normal(a, b)),
    "beta_uniform": lambda D, a, b: (D.Beta(b, a + 2), D.Uniform(a - 2, b + 1)),
    "pareto": lambda D, a, b: (D.Pareto(b, a + 2), D.Pareto(b / 2, b + 1)),
    "pareto_outside": lambda D, a, b: (D.Pareto(b / 2, a + 2), D.Pareto(b, b + 1)),
    "beta_exponential": lambda D, a, b: (D.Beta(b, a + 2), D.Exponential(b)),
    "beta_gamma": lambda D, a, b: (D.Beta(b, a + 2), D.Gamma(a + 2, b)),
    "beta_normal": lambda D, a, b: (D.Beta(b, a + 2), D.Normal(a, b)),
    "gamma_gumbel": lambda D, a, b: (D.Gamma(b, a + 2), D.Gumbel(a, b)),
    "gumbel_normal": lambda D, a, b: (D.Gumbel(a, b), D.Normal(b, a + 2)),
    "pareto_exponential": lambda D, a, b: (D.Pareto(b, a + 2), D.Exponential(b)),
    "pareto_gamma": lambda D, a, b: (D.Pareto(b, a + 2), D.Gamma(a + 2, b)),
    "pareto_normal": lambda D, a, b: (D.Pareto(b, a + 2.5), D.Normal(a, b)),
    "uniform_beta": lambda D, a, b: (D.Uniform(b / 3, b / 3 + 0.1), D.Beta(b, a + 2)),
    "normal_uniform_infinite": lambda D, a, b: (D.Normal(a, b), D.Uniform(a - 1, b + 1)),
    "gamma_pareto_infinite": lambda D, a, b: (D.Gamma(b, a + 2), D.Pareto(b, a + 2)),
    "poisson_binomial_infinite": lambda D, a, b: (D.Poisson(b), D.Binomial(3, b / 3)),
    "poisson_generic": lambda D, a, b: (D.Poisson(b), D.Poisson(a + 2)),
    "continuous_bernoulli": lambda D, a, b: (
        D.ContinuousBernoulli(b / 3),
        D.ContinuousBernoulli(logits=a),
    ),
    "beta_continuous_bernoulli": lambda D, a, b: (D.Beta(b, a + 2), D.ContinuousBernoulli(b / 3)),
    "continuous_bernoulli_normal": lambda D, a, b: (D.ContinuousBernoulli(b / 3), D.Normal(a, b)),
    "continuous_bernoulli_exponential": lambda D, a, b: (
        D.ContinuousBernoulli(b / 3),
        D.Exponential(b),
    ),
    "continuous_bernoulli_uniform": lambda D, a, b: (
        D.ContinuousBernoulli(b / 3),
        D.Uniform(a - 2, b + 1),
    ),
    "uniform_continuous_bernoulli": lambda D, a, b: (
        D.Uniform(b / 3, b / 3 + 0.1),
        D.ContinuousBernoulli(b / 3),
    ),
    "normal_continuous_bernoulli": lambda D, a, b: (D.Normal(a, b), D.ContinuousBernoulli(b / 3)),
    "mvn": lambda D, a, b: (
        D.MultivariateNormal(a, scale_tril=b.diag_embed()),
        D.MultivariateNormal(b, covariance_matrix=(a + 2).diag_embed() + 0.1),
    ),
    "independent": lambda D, a, b: (
        D.Independent(D.Normal(a, b), 1),
        D.Independent(D.Normal(b, a + 2), 1),
    ),
}


@pytest.mark.parametrize("name", sorted(KL_PAIRS))
def test_kl_divergence_matches_torch(name):
    def case(lib):
        a, b = params(lib, LOC, SCALE)
        p, q = KL_PAIRS[name](lib.distributions, a, b)
        return values_and_grads(lib, [a, b], [lib.distributions.kl_divergence(p, q)])

    parity(case)


def test_register_kl_dispatches_to_the_most_specific_pair():
    def case(lib):
        D = lib.distributions
        t = lib.tensor

        class MyNormal(D.Normal):
            pass

        @D.register_kl(MyNormal, D.Normal)
        def _kl(p, q):
            return lib.zeros(())

        p = MyNormal(0.0, 1.0)
        results = [D.kl_divergence(p, D.Normal(1.0, 1.0)), D.kl_divergence(D.Normal(0.0, 1.0), p)]
        try:
            D.kl_divergence(D.Laplace(0.0, 1.0), D.Categorical(t([0.5, 0.5])))
        except NotImplementedError as e:
            results.append(str(e))
        del D.kl._KL_REGISTRY[MyNormal, D.Normal]
        D.kl._KL_MEMOIZE.clear()
        return results

    parity(case)


ERRORS = {
    "negative_scale": lambda D, t: D.Normal(t([0.0, 1.0]), t([1.0, -1.0])),
    "nan_loc": lambda D, t: D.Normal(t(float("nan")), t(1.0)),
    "probs_above_one": lambda D, t: D.Bernoulli(t([0.2, 1.5])),
    "both_probs_logits": lambda D, t: D.Bernoulli(t(0.5), t(0.0)),
    "neither": lambda D, t: D.Categorical(),
    "categorical_0d": lambda D, t: D.Categorical(t(1.0)),
    "categorical_negative": lambda D, t: D.Categorical(t([0.5, -0.5])),
    "uniform_reversed": lambda D, t: D.Uniform(t(1.0), t(0.0)),
    "mvn_two_forms": lambda D, t: D.MultivariateNormal(t([0.0]), t([[1.0]]), scale_tril=t([[1.0]])),
    "mvn_not_pd": lambda D, t: D.MultivariateNormal(t([0.0, 0.0]), t([[1.0, 2.0], [2.0, 1.0]])),
    "mvn_0d_loc": lambda D, t: D.MultivariateNormal(t(0.0), t([[1.0]])),
    "mvn_1d_cov": lambda D, t: D.MultivariateNormal(t([0.0]), t([1.0])),
    "independent_too_many": lambda D, t: D.Independent(D.Normal(t([0.0]), t([1.0])), 2),
    "value_outside_support": lambda D, t: D.Bernoulli(t(0.3)).log_prob(t(0.5)),
    "value_not_tensor": lambda D, t: D.Normal(t(0.0), t(1.0)).log_prob(0.5),
    "value_bad_shape": lambda D, t: D.Normal(t([0.0, 0.0]), t(1.0)).log_prob(t([1.0, 2.0, 3.0])),
    "value_bad_event": lambda D, t: D.MultivariateNormal(
        t([0.0, 0.0]), t([[1.0, 0.0], [0.0, 1.0]])
    ).log_prob(t([1.0, 2.0, 3.0])),
    "categorical_out_of_range": lambda D, t: D.Categorical(t([0.5, 0.5])).log_prob(t(2.0)),
    "uniform_outside": lambda D, t: D.Uniform(t(0.0), t(1.0)).log_prob(t(1.5)),
    "unvalidated": lambda D, t: D.Normal(t(0.0), t(-1.0), validate_args=False).scale,
    "mode_missing": lambda D, t: D.Distribution().mode,
    "enumerate_product": lambda D, t: D.Independent(D.Bernoulli(t([0.5])), 1).enumerate_support(),
    "register_not_type": lambda D, t: D.register_kl(1, D.Normal),
    "validate_bad_value": lambda D, t: D.Distribution.set_default_validate_args(3),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_validation_errors_match_torch(name):
    def case(lib):
        result = error(lambda: ERRORS[name](lib.distributions, lib.tensor))
        return result if name != "register_not_type" else result[0]

    parity(case)


def test_default_validation_can_be_turned_off():
    for lib in (numtorch, torch):
        D = lib.distributions
        D.Distribution.set_default_validate_args(False)
        try:
            dist = D.Normal(lib.tensor(0.0), lib.tensor(-1.0))
            assert math.isnan(dist.log_prob(lib.tensor(0.0)).item())
        finally:
            D.Distribution.set_default_validate_args(True)
        with pytest.raises(ValueError):
            D.Normal(lib.tensor(0.0), lib.tensor(-1.0))


def test_expand_and_shapes_match_torch():
    def case(lib):
        D = lib.distributions
        t = lib.tensor
        out = []
        for dist in (
            D.Normal(t([0.0, 1.0]), t(1.0)),
            D.Bernoulli(logits=t([0.0, 1.0])),
            D.Categorical(t([[0.2, 0.8], [0.5, 0.5]]).T[0:1]),
            D.Uniform(0.0, 1.0),
            D.Exponential(t([2.0, 1.0])),
        ):
            big = dist.expand((3, *dist.batch_shape))
            out += [big.batch_shape, big.sample((2,)).shape, repr(big), big._validate_args]
            out.append(big.log_prob(dist.sample()).shape)
        out.append(D.Normal(0.0, 1.0).sample().shape)
        out.append(str(D.Normal(0.0, 1.0).sample().dtype))
        out.append(D.Normal(t([0.0], dtype=lib.float64), 1.0).scale.dtype == lib.float64)
        return out

    parity(case)


def test_constraints_match_torch():
    def case(lib):
        C = lib.distributions.constraints
        t = lib.tensor
        x = t([[-1.0, 0.0, 0.5], [1.0, 2.0, float("nan")]])
        out = []
        for c in (
            C.real,
            C.positive,
            C.nonnegative,
            C.unit_interval,
            C.boolean,
            C.nonnegative_integer,
            C.positive_integer,
            C.greater_than(0.5),
            C.greater_than_eq(0.5),
            C.less_than(1.0),
            C.interval(-1, 1),
            C.half_open_interval(-1, 1),
            C.integer_interval(0, 1),
            C.simplex,
            C.real_vector,
            C.one_hot,
            C.independent(C.positive, 1),
        ):
            out += [repr(c), c.check(x).tolist(), c.event_dim, c.is_discrete]
        m = t([[2.0, 0.0], [1.0, 3.0]])
        for c in (
            C.lower_triangular,
            C.lower_cholesky,
            C.square,
            C.symmetric,
            C.positive_definite,
            C.positive_semidefinite,
        ):
            out += [repr(c), bool(c.check(m)), bool(c.check(m @ m.T)), c.event_dim]
        out.append(C.is_dependent(C.dependent))
        out.append(error(lambda: C.dependent.check(x)))
        return out

    parity(case)


@pytest.mark.parametrize("name", ["normal", "bernoulli_logits", "exponential", "gamma"])
def test_exponential_family_entropy_and_bregman_kl_match_torch(name):
    # the generic entropy and KL (from autograd of the log-normaliser), not the closed forms
    def case(lib):
        D = lib.distributions
        p_params = params(lib, LOC, SCALE)
        p, _ = CASES[name](D, p_params)
        q, _ = CASES[name](D, params(lib, [0.5, 0.1, -0.3], [1.5, 0.4, 0.9]))
        outputs = [D.ExponentialFamily.entropy(p), D.kl._kl_expfamily_expfamily(p, q)]
        return [*values_and_grads(lib, p_params, outputs), isinstance(p, D.ExponentialFamily)]

    parity(case)


def test_cross_family_kl_error_matches_torch():
    def case(lib):
        D = lib.distributions
        return error(lambda: D.kl_divergence(D.Normal(0.0, 1.0), D.Bernoulli(0.5)))

    parity(case)


def test_logistic_normal_matches_torch():
    def case(lib):
        loc, scale = params(lib, [[0.2, -0.5], [1.0, 0.0]], [[0.5, 1.5], [1.0, 0.3]])
        dist = lib.distributions.LogisticNormal(loc, scale)
        value = lib.tensor([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]], dtype=lib.float64)
        sample = dist.rsample((4,))
        return [
            *values_and_grads(lib, [loc, scale], [dist.log_prob(value)]),
            dist.batch_shape,
            dist.event_shape,
            tuple(sample.shape),
            bool((sample.sum(-1) - 1).abs().max() < 1e-9),
            lib.distributions.LogisticNormal(0.0, 1.0).event_shape,
        ]

    parity(case)


def test_low_rank_multivariate_normal_matches_torch():
    def case(lib):
        loc, W, log_d = params(
            lib,
            [[0.5, -1.0, 0.0], [1.0, 2.0, -0.5]],
            [[0.3, -0.2], [1.0, 0.5], [0.0, 0.7]],
            [0.1, -0.3, 0.2],
        )
        D = lib.distributions
        dist = D.LowRankMultivariateNormal(loc, W, log_d.exp())
        value = lib.tensor([[[0.0, 0.0, 0.0]], [[1.0, -1.0, 2.0]]], dtype=lib.float64)
        outputs = [dist.log_prob(value), dist.entropy(), dist.variance]
        outputs += [dist.covariance_matrix, dist.precision_matrix, dist.scale_tril]
        full = D.MultivariateNormal(loc.detach() + 1, scale_tril=lib.eye(3, dtype=lib.float64) * 2)
        other = D.LowRankMultivariateNormal(loc.detach(), W.detach() * 2, log_d.detach().exp() + 1)
        outputs += [D.kl_divergence(dist, other), D.kl_divergence(other, dist)]
        outputs += [D.kl_divergence(dist, full), D.kl_divergence(full, dist)]
        small = D.MultivariateNormal(lib.zeros(2), lib.eye(2))
        return [
            *values_and_grads(lib, [loc, W, log_d], outputs),
            dist.batch_shape,
            dist.event_shape,
            tuple(dist.rsample((4,)).shape),
            dist.expand((3, 2)).batch_shape,
            error(lambda: D.kl_divergence(dist, small)),
            error(lambda: D.kl_divergence(small, full)),
            error(lambda: D.LowRankMultivariateNormal(loc, W[:2], log_d.exp())),
        ]

    parity(case)


def test_von_mises_samples_concentrate_around_loc():
    nt = numtorch
    nt.manual_seed(0)
    loc = nt.tensor([0.5, -2.5, 3.0])
    kappa = nt.tensor([4.0, 1.0, 10.0])
    draws = nt.distributions.VonMises(loc, kappa).sample((20000,))
    assert draws.shape == (20000, 3) and draws.dtype == nt.float32
    assert bool(((draws >= -np.pi) & (draws < np.pi)).all())
    # the mean resultant direction is loc; its length is I1(k) / I0(k) = 1 - variance
    dist = nt.distributions.VonMises(loc, kappa)
    resultant = nt.stack([draws.cos().mean(0), draws.sin().mean(0)])
    direction = nt.atan2(resultant[1], resultant[0])
    np.testing.assert_allclose(direction.numpy(), loc.numpy(), atol=0.05)
    length = resultant.pow(2).sum(0).sqrt()
    np.testing.assert_allclose(length.numpy(), (1 - dist.variance).numpy(), atol=0.02)


def test_continuous_bernoulli_rsample_follows_its_cdf():
    nt = numtorch
    nt.manual_seed(0)
    (probs,) = params(nt, [0.2, 0.5, 0.9])
    dist = nt.distributions.ContinuousBernoulli(probs)
    x = dist.rsample((20000,))
    assert x.requires_grad and bool(((x >= 0) & (x <= 1)).all())
    np.testing.assert_allclose(x.mean(0).detach().numpy(), dist.mean.detach().numpy(), atol=0.01)


def test_lkj_cholesky_matches_torch():
    def case(lib):
        (conc,) = params(lib, [0.5, 2.0])
        D = lib.distributions
        dist = D.LKJCholesky(3, conc)
        T = D.transforms.CorrCholeskyTransform()
        value = T(lib.tensor([[0.3, -0.5, 0.8], [0.1, 0.0, -1.2]], dtype=lib.float64))
        sample = dist.sample((4,))
        return [
            *values_and_grads(lib, [conc], [dist.log_prob(value)]),
            dist.batch_shape,
            dist.event_shape,
            tuple(sample.shape),
            bool(D.constraints.corr_cholesky.check(sample).all()),
            dist.expand((5, 2)).batch_shape,
            error(lambda: D.LKJCholesky(1, conc)),
        ]

    parity(case)
