"""``numtorch.distributions``: parametrised probability distributions with sampling,
reparametrised sampling, log densities, entropies and KL divergences, all differentiable
through numtorch's autograd. Draws use numtorch's random stream, so sampled values differ
from torch's under the same seed; every deterministic quantity matches."""

from . import constraints, transforms
from .bernoulli import Bernoulli
from .binomial import Binomial, Geometric
from .categorical import Categorical
from .cauchy import Cauchy
from .dirichlet import Beta, Dirichlet
from .distribution import Distribution
from .exponential import Exponential
from .gamma import Chi2, Gamma
from .independent import Independent
from .kl import kl_divergence, register_kl
from .laplace import Laplace
from .multivariate_normal import MultivariateNormal
from .normal import Normal
from .one_hot_categorical import OneHotCategorical, OneHotCategoricalStraightThrough
from .poisson import Poisson
from .student_t import StudentT
from .transformed_distribution import TransformedDistribution
from .transformed_families import Gumbel, HalfNormal, LogNormal
from .uniform import Uniform

__all__ = [
    "Bernoulli",
    "Beta",
    "Binomial",
    "Categorical",
    "Cauchy",
    "Chi2",
    "Dirichlet",
    "Distribution",
    "Exponential",
    "Gamma",
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
    "StudentT",
    "TransformedDistribution",
    "Uniform",
    "constraints",
    "kl_divergence",
    "register_kl",
    "transforms",
]
