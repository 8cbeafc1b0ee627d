"""``numtorch.distributions``: parametrised probability distributions with sampling,
reparametrised sampling, log densities, entropies and KL divergences, all differentiable
through numtorch's autograd. Draws use numtorch's random stream, so sampled values differ
from torch's under the same seed; every deterministic quantity matches."""

from . import constraints, transforms
from .bernoulli import Bernoulli
from .binomial import Binomial, Geometric
from .categorical import Categorical
from .cauchy import Cauchy
from .distribution import Distribution
from .exponential import Exponential
from .independent import Independent
from .kl import kl_divergence, register_kl
from .laplace import Laplace
from .multivariate_normal import MultivariateNormal
from .normal import Normal
from .one_hot_categorical import OneHotCategorical, OneHotCategoricalStraightThrough
from .poisson import Poisson
from .transformed_distribution import TransformedDistribution
from .transformed_families import Gumbel, HalfNormal, LogNormal
from .uniform import Uniform

__all__ = [
    "Bernoulli",
    "Binomial",
    "Categorical",
    "Cauchy",
    "Distribution",
    "Exponential",
    "Geometric",
    "Gumbel",
    "HalfNormal",
    "Independent",
    "Laplace",
    "LogNormal",
    "MultivariateNormal",
    "Normal",
    "OneHotCategorical",
    "OneHotCategoricalStraightThrough",
    "Poisson",
    "TransformedDistribution",
    "Uniform",
    "constraints",
    "kl_divergence",
    "register_kl",
    "transforms",
]
