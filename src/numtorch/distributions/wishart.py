"""The Wishart distribution over positive-definite matrices, sampled by the Bartlett
decomposition (chi-squared diagonal, normal lower triangle)."""

from __future__ import annotations

import math
import numbers
import warnings

import numtorch as torch

from . import constraints
from .chi2 import Chi2
from .exp_family import ExponentialFamily
from .multivariate_normal import _precision_to_scale_tril
from .utils import lazy_property

__all__ = ["Wishart"]

_LOG_2 = math.log(2)


def _mvdigamma(x, p: int):
    """The multivariate digamma function: ``sum_i digamma(x - i / 2)``."""
    if not x.gt((p - 1) / 2).all():
        raise ValueError("Wrong domain for multivariate digamma function.")
    shifts = torch.arange(p, dtype=x.dtype).div(2).expand(tuple(x.shape) + (-1,))
    return torch.digamma(x.unsqueeze(-1) - shifts).sum(-1)


def _clamp_above_eps(x):
    return x.clamp(min=torch.finfo(x.dtype).eps)


class Wishart(ExponentialFamily):
    """Wishart with ``df`` degrees of freedom and scale matrix given by exactly one of
    ``covariance_matrix``, ``precision_matrix`` or ``scale_tril``."""

    support = constraints.positive_definite
    has_rsample = True
    _mean_carrier_measure = 0

    @property
    def arg_constraints(self):
        return {
            "covariance_matrix": constraints.positive_definite,
            "precision_matrix": constraints.positive_definite,
            "scale_tril": constraints.lower_cholesky,
            "df": constraints.greater_than(self.event_shape[-1] - 1),
        }

    def __init__(
        self,
        df,
        covariance_matrix=None,
        precision_matrix=None,
        scale_tril=None,
        validate_args=None,
    ):
        given = [
            (name, m)
            for name, m in (
                ("covariance_matrix", covariance_matrix),
                ("precision_matrix", precision_matrix),
                ("scale_tril", scale_tril),
            )
            if m is not None
        ]
        if len(given) != 1:
            raise AssertionError(  # torch's type here (MultivariateNormal raises ValueError)
                "Exactly one of covariance_matrix or precision_matrix or scale_tril may be "
                "specified."
            )
        ((name, param),) = given
        if param.dim() < 2:
            raise ValueError(
                "scale_tril must be at least two-dimensional, with optional leading batch "
                "dimensions"
            )
        if isinstance(df, numbers.Number):
            batch_shape = tuple(param.shape[:-2])
            self.df = torch.tensor(df, dtype=param.dtype)
        else:
            batch_shape = tuple(torch.broadcast_shapes(tuple(param.shape[:-2]), tuple(df.shape)))
            self.df = df.expand(batch_shape)
        event_shape = param.shape[-2:]
        p = event_shape[-1]
        if self.df.le(p - 1).any():
            raise ValueError(f"Value of df={df} expected to be greater than ndim - 1 = {p - 1}.")
        setattr(self, name, param.expand(batch_shape + (-1, -1)))
        if self.df.lt(p).any():
            warnings.warn(
                "Low df values detected. Singular samples are highly likely to occur for "
                "ndim - 1 < df < ndim.",
                stacklevel=2,
            )
        super().__init__(batch_shape, event_shape, validate_args=validate_args)
        self._batch_dims = [-(x + 1) for x in range(len(self._batch_shape))]
        if name == "scale_tril":
            self._unbroadcasted_scale_tril = param
        elif name == "covariance_matrix":
            self._unbroadcasted_scale_tril = torch.linalg.cholesky(param)
        else:
            self._unbroadcasted_scale_tril = _precision_to_scale_tril(param)
        self._dist_chi2 = self._bartlett_chi2(batch_shape)

    def _bartlett_chi2(self, batch_shape):
        # the i-th diagonal entry of the Bartlett factor is sqrt(chi2(df - i))
        p = self._event_shape[-1]
        shifts = torch.arange(p, dtype=self._unbroadcasted_scale_tril.dtype)
        return Chi2(df=self.df.unsqueeze(-1) - shifts.expand(tuple(batch_shape) + (-1,)))

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Wishart, _instance)
        batch_shape = torch.Size(batch_shape)
        cov_shape = tuple(batch_shape) + tuple(self.event_shape)
        new._unbroadcasted_scale_tril = self._unbroadcasted_scale_tril.expand(cov_shape)
        new.df = self.df.expand(batch_shape)
        new._batch_dims = [-(x + 1) for x in range(len(batch_shape))]
        for k in ("covariance_matrix", "scale_tril", "precision_matrix"):
            if k in self.__dict__:
                setattr(new, k, self.__dict__[k].expand(cov_shape))
        ExponentialFamily.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._dist_chi2 = new._bartlett_chi2(batch_shape)
        new._validate_args = self._validate_args
        return new

    def _matrix_shape(self):
        return tuple(self._batch_shape) + tuple(self._event_shape)

    @lazy_property
    def scale_tril(self):
        return self._unbroadcasted_scale_tril.expand(self._matrix_shape())

    @lazy_property
    def covariance_matrix(self):
        L = self._unbroadcasted_scale_tril
        return (L @ L.transpose(-2, -1)).expand(self._matrix_shape())

    @lazy_property
    def precision_matrix(self):
        L = self._unbroadcasted_scale_tril
        identity = torch.eye(self._event_shape[-1], dtype=L.dtype)
        return torch.cholesky_solve(identity, L).expand(self._matrix_shape())

    def _df_matrix(self):
        return self.df.view(tuple(self._batch_shape) + (1, 1))

    @property
    def mean(self):
        return self._df_matrix() * self.covariance_matrix

    @property
    def mode(self):
        factor = self.df - self.covariance_matrix.shape[-1] - 1
        factor[factor <= 0] = math.nan
        return factor.view(tuple(self._batch_shape) + (1, 1)) * self.covariance_matrix

    @property
    def variance(self):
        V = self.covariance_matrix
        diag_V = V.diagonal(dim1=-2, dim2=-1)
        outer = diag_V.unsqueeze(-1) * diag_V.unsqueeze(-2)  # V_ii V_jj
        return self._df_matrix() * (V.pow(2) + outer)

    def _bartlett_sampling(self, sample_shape=()):
        p = self._event_shape[-1]
        noise = _clamp_above_eps(self._dist_chi2.rsample(sample_shape).sqrt()).diag_embed(
            dim1=-2, dim2=-1
        )
        i, j = torch.tril_indices(p, p, offset=-1)
        shape = tuple(torch.Size(sample_shape)) + tuple(self._batch_shape) + (p * (p - 1) // 2,)
        noise[..., i, j] = torch.randn(shape, dtype=noise.dtype)
        chol = self._unbroadcasted_scale_tril @ noise
        return chol @ chol.transpose(-2, -1)

    def rsample(self, sample_shape=(), max_try_correction=None):
        """A reparametrised draw, redrawn up to ``max_try_correction`` times as torch does."""
        max_try_correction = 10 if max_try_correction is None else max_try_correction
        sample_shape = torch.Size(sample_shape)
        sample = self._bartlett_sampling(sample_shape)
        # torch's first test marks the draws that pass the support check (positive definite)
        # and redraws those, warning "Singular sample detected." for every ordinary draw;
        # later rounds test the redraws the right way round. Followed as is, so that the
        # values and the random stream after a sample match torch's.
        is_singular = self.support.check(sample)
        if self._batch_shape:
            is_singular = is_singular.amax(self._batch_dims)
        if is_singular.any():
            warnings.warn("Singular sample detected.", stacklevel=2)
            for _ in range(max_try_correction):
                redrawn = self._bartlett_sampling(is_singular[is_singular].shape)
                sample[is_singular] = redrawn
                still = ~self.support.check(redrawn)
                if self._batch_shape:
                    still = still.amax(self._batch_dims)
                is_singular[is_singular.clone()] = still
                if not is_singular.any():
                    break
        return sample

    def _half_log_det_times_2(self, p):
        L = self._unbroadcasted_scale_tril
        return p * _LOG_2 / 2 + L.diagonal(dim1=-2, dim2=-1).log().sum(-1)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        nu = self.df
        p = self._event_shape[-1]
        trace = (
            torch.cholesky_solve(value, self._unbroadcasted_scale_tril)
            .diagonal(dim1=-2, dim2=-1)
            .sum(dim=-1)
        )
        return (
            -nu * self._half_log_det_times_2(p)
            - torch.mvlgamma(nu / 2, p=p)
            + (nu - p - 1) / 2 * torch.linalg.slogdet(value).logabsdet
            - trace / 2
        )

    def entropy(self):
        nu = self.df
        p = self._event_shape[-1]
        return (
            (p + 1) * self._half_log_det_times_2(p)
            + torch.mvlgamma(nu / 2, p=p)
            - (nu - p - 1) / 2 * _mvdigamma(nu / 2, p=p)
            + nu * p / 2
        )

    @property
    def _natural_params(self):
        p = self._event_shape[-1]
        return -self.precision_matrix / 2, (self.df - p - 1) / 2

    def _log_normalizer(self, x, y):
        p = self._event_shape[-1]
        log_det = -torch.linalg.slogdet(-2 * x).logabsdet + _LOG_2 * p
        return (y + (p + 1) / 2) * log_det + torch.mvlgamma(y + (p + 1) / 2, p=p)
