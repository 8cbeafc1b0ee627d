"""``numtorch.distributions.transforms`` and ``TransformedDistribution`` against torch:
forward and inverse maps, log-Jacobians and their gradients, domains, shapes, caching,
and the change-of-variables densities built from them."""

from __future__ import annotations

import pytest

import numtorch

torch = pytest.importorskip("torch")

from distributions_parity import error, params, parity, values_and_grads  # noqa: E402

TRANSFORMS = {
    "exp": (lambda T, lib: T.ExpTransform(), [[-1.0, 0.5], [2.0, 0.0]]),
    "power": (
        lambda T, lib: T.PowerTransform(lib.tensor(2.5, dtype=lib.float64)),
        [[0.5, 1.5], [2.0, 0.1]],
    ),
    "sigmoid": (lambda T, lib: T.SigmoidTransform(), [[-1.0, 0.5], [2.0, 0.0]]),
    "softplus": (lambda T, lib: T.SoftplusTransform(), [[-1.0, 0.5], [2.0, 0.0]]),
    "tanh": (lambda T, lib: T.TanhTransform(), [[-1.0, 0.5], [2.0, 0.0]]),
    "affine": (lambda T, lib: T.AffineTransform(1.5, -2.0), [[-1.0, 0.5], [2.0, 0.0]]),
    "affine_tensor": (
        lambda T, lib: T.AffineTransform(
            lib.tensor([0.5, -1.0], dtype=lib.float64),
            lib.tensor([2.0, 3.0], dtype=lib.float64),
            event_dim=1,
        ),
        [[-1.0, 0.5], [2.0, 0.0]],
    ),
    "stick_breaking": (lambda T, lib: T.StickBreakingTransform(), [[-1.0, 0.5], [2.0, 0.0]]),
    "compose": (
        lambda T, lib: T.ComposeTransform(
            [
                T.AffineTransform(0.5, 2.0),
                T.ExpTransform(),
                T.PowerTransform(lib.tensor(0.5, dtype=lib.float64)),
            ]
        ),
        [[-1.0, 0.5], [2.0, 0.0]],
    ),
    "independent": (
        lambda T, lib: T.IndependentTransform(T.SigmoidTransform(), 1),
        [[-1.0, 0.5], [2.0, 0.0]],
    ),
    "reshape": (lambda T, lib: T.ReshapeTransform((2,), (2, 1)), [[-1.0, 0.5], [2.0, 0.0]]),
    "exp_inverse": (lambda T, lib: T.ExpTransform().inv, [[0.5, 1.5], [2.0, 0.1]]),
    "identity": (lambda T, lib: T.identity_transform, [[-1.0, 0.5], [2.0, 0.0]]),
}


@pytest.mark.parametrize("name", sorted(TRANSFORMS))
def test_transform_matches_torch(name):
    build, data = TRANSFORMS[name]

    def case(lib):
        T = lib.distributions.transforms
        t = build(T, lib)
        (x,) = params(lib, data)
        y = t(x)
        outputs = [y, t.inv(y)]
        try:
            outputs.append(t.log_abs_det_jacobian(x, y))
        except NotImplementedError:
            outputs.append("missing")
        info = [
            repr(t),
            repr(t.domain),
            repr(t.codomain),
            t.domain.event_dim,
            t.codomain.event_dim,
            t.bijective,
            tuple(t.forward_shape((3, 2))),
            tuple(t.inverse_shape(tuple(t.forward_shape((3, 2))))),
            t == build(T, lib),
            t == T.SigmoidTransform(),
            t.inv.inv is t or t.inv.inv == t,
        ]
        try:
            sign = t.sign
            info.append(sign if isinstance(sign, int) else sign.tolist())
        except NotImplementedError:
            info.append("no sign")
        tensors = [o for o in outputs if isinstance(o, lib.Tensor)]
        return [*values_and_grads(lib, [x], tensors), outputs.count("missing"), *info]

    parity(case)


def test_cache_returns_the_same_tensor():
    for lib in (numtorch, torch):
        T = lib.distributions.transforms
        t = T.ExpTransform(cache_size=1)
        x = lib.tensor([0.5, 1.0])
        y = t(x)
        assert t(x) is y and t.inv(y) is x
        assert T.ExpTransform().with_cache(1)._cache_size == 1
        assert T.AffineTransform(0.0, 2.0).with_cache(1)._cache_size == 1
        uncached = T.ExpTransform()
        assert uncached.inv(uncached(x)) is not x


def test_transformed_distributions_match_torch():
    def case(lib):
        D = lib.distributions
        T = D.transforms
        loc, scale = params(lib, [0.2, -0.5], [0.7, 1.3])
        base = D.Normal(loc, scale)
        dists = [
            D.TransformedDistribution(base, [T.TanhTransform()]),
            D.TransformedDistribution(base, [T.AffineTransform(1.0, -2.0), T.ExpTransform()]),
            D.TransformedDistribution(base, T.AffineTransform(0.5, 3.0)),
            D.TransformedDistribution(D.Independent(base, 1), T.StickBreakingTransform()),
            D.TransformedDistribution(base, T.ReshapeTransform((2,), (1, 2))),
            D.TransformedDistribution(D.Uniform(loc - 1, loc + 2), T.AffineTransform(0.0, -1.0)),
        ]
        values = [
            lib.tensor([0.3, -0.9], dtype=lib.float64),
            lib.tensor([0.5, 4.0], dtype=lib.float64),
            lib.tensor([0.3, -0.9], dtype=lib.float64),
            lib.tensor([0.2, 0.5, 0.3], dtype=lib.float64),
            lib.tensor([[0.3, -0.9]], dtype=lib.float64),
            lib.tensor([-0.5, 0.1], dtype=lib.float64),
        ]
        outputs, info = [], []
        for dist, value in zip(dists, values):
            outputs.append(dist.log_prob(value))
            info += [dist.batch_shape, dist.event_shape, dist.has_rsample, repr(dist.support)]
            info += [dist.sample((3,)).shape, dist.rsample().requires_grad]
            info.append(dist.expand((4, *dist.batch_shape)).batch_shape)
        outputs.append(dists[2].cdf(values[2]))
        outputs.append(dists[2].icdf(lib.tensor([0.25, 0.5], dtype=lib.float64)))
        outputs.append(dists[5].cdf(values[5]))
        outputs.append(dists[5].icdf(lib.tensor([0.25, 0.5], dtype=lib.float64)))
        return [*values_and_grads(lib, [loc, scale], outputs), *info]

    parity(case)


def test_tanh_squashed_policy_matches_torch():
    # the SAC-style policy: tanh(Normal) with the rescaling to an action box
    def case(lib):
        D = lib.distributions
        T = D.transforms
        mu, log_std = params(lib, [[0.1, -0.4], [1.2, 0.3]], [[-0.2, 0.1], [0.0, -1.0]])
        policy = D.TransformedDistribution(
            D.Independent(D.Normal(mu, log_std.exp()), 1),
            [T.TanhTransform(cache_size=1), T.AffineTransform(0.0, 2.0)],
        )
        eps = lib.tensor([[0.5, -0.2], [1.0, 0.3]], dtype=lib.float64)
        action = policy.transforms[1](policy.transforms[0](mu + log_std.exp() * eps))
        return [
            *values_and_grads(lib, [mu, log_std], [policy.log_prob(action), action]),
            policy.batch_shape,
            policy.event_shape,
        ]

    parity(case)


ERRORS = {
    "cache_size": lambda T, D, t: T.ExpTransform(cache_size=2),
    "reshape_numel": lambda T, D, t: T.ReshapeTransform((2,), (3,)),
    "reshape_shape": lambda T, D, t: T.ReshapeTransform((2,), (1, 2)).forward_shape((3,)),
    "bad_transforms": lambda T, D, t: D.TransformedDistribution(D.Normal(0.0, 1.0), 3),
    "bad_list": lambda T, D, t: D.TransformedDistribution(D.Normal(0.0, 1.0), [3]),
    "too_small_base": lambda T, D, t: D.TransformedDistribution(
        D.Normal(0.0, 1.0), T.StickBreakingTransform()
    ),
    "event_dim": lambda T, D, t: T.StickBreakingTransform().event_dim,
    "with_cache": lambda T, D, t: T.PowerTransform(t(2.0)).inv.sign,
    "outside_support": lambda T, D, t: D.LogNormal(0.0, 1.0).log_prob(t(-1.0)),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_transform_errors_match_torch(name):
    def case(lib):
        D = lib.distributions
        return error(lambda: ERRORS[name](D.transforms, D, lib.tensor))

    parity(case)


MATRIX_TRANSFORMS = {
    "lower_cholesky": (lambda T, lib: T.LowerCholeskyTransform(), [[0.5, 0.2], [-1.0, 0.3]]),
    "positive_definite": (
        lambda T, lib: T.PositiveDefiniteTransform(),
        [[0.5, 0.2], [-1.0, 0.3]],
    ),
    "corr_cholesky": (lambda T, lib: T.CorrCholeskyTransform(), [[0.5, -0.2, 1.0]]),
    "cat": (
        lambda T, lib: T.CatTransform([T.ExpTransform(), T.SigmoidTransform()], 1, [1, 2]),
        [[0.5, -0.2, 1.0], [0.1, 0.3, -2.0]],
    ),
    "stack": (
        lambda T, lib: T.StackTransform([T.ExpTransform(), T.TanhTransform()], 0),
        [[0.5, -0.2, 1.0], [0.1, 0.3, -2.0]],
    ),
    "cdf": (
        lambda T, lib: T.CumulativeDistributionTransform(
            lib.distributions.Normal(lib.tensor(0.5), lib.tensor(2.0))
        ),
        [[0.5, -0.2, 1.0]],
    ),
}


@pytest.mark.parametrize("name", sorted(MATRIX_TRANSFORMS))
def test_structured_transform_matches_torch(name):
    build, data = MATRIX_TRANSFORMS[name]

    def case(lib):
        T = lib.distributions.transforms
        t = build(T, lib)
        (x,) = params(lib, data, dtype="float32")
        y = t(x)
        outputs = [y, t.inv(y)]
        try:
            outputs.append(t.log_abs_det_jacobian(x, y))
        except NotImplementedError:
            outputs.append("missing")
        tensors = [o for o in outputs if isinstance(o, lib.Tensor)]
        info = [repr(t.domain), repr(t.codomain), t.bijective, t == build(T, lib)]
        return [*values_and_grads(lib, [x], tensors), outputs.count("missing"), *info]

    parity(case)


CONSTRAINTS = {
    "real": lambda C, t: C.real,
    "positive": lambda C, t: C.positive,
    "greater_than": lambda C, t: C.greater_than(1.5),
    "less_than": lambda C, t: C.less_than(-0.5),
    "unit_interval": lambda C, t: C.unit_interval,
    "interval": lambda C, t: C.interval(-2.0, 3.0),
    "simplex": lambda C, t: C.simplex,
    "independent": lambda C, t: C.independent(C.positive, 1),
    "lower_cholesky": lambda C, t: C.lower_cholesky,
    "positive_definite": lambda C, t: C.positive_definite,
    "corr_cholesky": lambda C, t: C.corr_cholesky,
    "cat": lambda C, t: C.cat([C.positive, C.real], 0, [1, 2]),
    "stack": lambda C, t: C.stack([C.positive, C.unit_interval, C.real], 0),
}


@pytest.mark.parametrize("name", sorted(CONSTRAINTS))
def test_biject_to_and_transform_to_match_torch(name):
    def case(lib):
        D = lib.distributions
        constraint = CONSTRAINTS[name](D.constraints, lib.tensor)
        x = lib.tensor([[0.3, -1.2, 0.8], [1.5, 0.1, -0.4], [0.2, 0.7, -0.9]])
        out = []
        for registry in (D.biject_to, D.transform_to):
            try:
                t = registry(constraint)
            except NotImplementedError as e:
                out.append(str(e))
                continue
            arg = x[0] if name in ("simplex", "corr_cholesky") else x
            y = t(arg)
            out += [repr(t), y, bool(constraint.check(y).all())]
        return out

    parity(case)
