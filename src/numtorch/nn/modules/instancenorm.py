"""InstanceNorm1d/2d/3d: per-sample, per-channel normalization over the spatial positions.

Instance statistics normalize in training and (unless ``track_running_stats``) in eval too;
with ``track_running_stats`` the running statistics are updated in training and used in eval.
"""

from __future__ import annotations

import warnings

from .. import functional as F
from .batchnorm import _BatchNorm


class _InstanceNorm(_BatchNorm):
    _no_batch_dim = 2

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float = 0.1,
        affine: bool = False,
        track_running_stats: bool = False,
        device=None,
        dtype=None,
        *,
        bias: bool = True,
    ):
        super().__init__(
            num_features, eps, momentum, affine, track_running_stats, device, dtype, bias=bias
        )

    def _check_input_dim(self, input) -> None:
        dims = (self._no_batch_dim, self._no_batch_dim + 1)
        if input.ndim not in dims:
            raise ValueError(f"expected {dims[0]}D or {dims[1]}D input (got {input.ndim}D input)")

    def _apply_instance_norm(self, input):
        return F.instance_norm(
            input,
            self.running_mean,
            self.running_var,
            self.weight,
            self.bias,
            self.training or not self.track_running_stats,
            self.momentum if self.momentum is not None else 0.0,
            self.eps,
        )

    def forward(self, input):
        self._check_input_dim(input)
        feature_dim = input.ndim - self._no_batch_dim
        if input.shape[feature_dim] != self.num_features:
            if self.affine:
                raise ValueError(
                    f"expected input's size at dim={feature_dim} to match num_features"
                    f" ({self.num_features}), but got: {input.shape[feature_dim]}."
                )
            warnings.warn(
                f"input's size at dim={feature_dim} does not match num_features. You can silence "
                "this warning by not passing in num_features, which is not used because "
                "affine=False",
                stacklevel=2,
            )
        if input.ndim == self._no_batch_dim:
            return self._apply_instance_norm(input.unsqueeze(0)).squeeze(0)
        return self._apply_instance_norm(input)


class InstanceNorm1d(_InstanceNorm):
    """Instance norm over (N, C, L) or (C, L) inputs.

    Example:
        >>> import numtorch as torch
        >>> torch.nn.InstanceNorm1d(3)(torch.tensor([[[1.0, 3.0]]] * 3).transpose(0, 1)).shape
        torch.Size([1, 3, 2])
    """


class InstanceNorm2d(_InstanceNorm):
    """Instance norm over (N, C, H, W) or (C, H, W) inputs."""

    _no_batch_dim = 3


class InstanceNorm3d(_InstanceNorm):
    """Instance norm over (N, C, D, H, W) or (C, D, H, W) inputs."""

    _no_batch_dim = 4
