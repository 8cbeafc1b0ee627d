"""Dropout functions of ``numtorch.nn.functional``.

``training`` is an explicit argument (it defaults to True, as in torch): pass
``self.training`` from a module, or dropout stays on in evaluation.
"""

from __future__ import annotations

import warnings

from ... import _creation
from ..._tensor import Tensor
from ...backend import xp


def _check_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _mask(shape, p, dtype):
    """Bernoulli(1 - p) samples scaled by 1 / (1 - p) (zeros when p == 1)."""
    if p == 1.0:
        return Tensor._make(xp.zeros(shape, dtype))
    draw = _creation._rng(None).random(shape, dtype=xp.float32)
    keep = draw >= p
    return Tensor._make(keep.astype(dtype) * dtype.type(1.0 / (1.0 - p)))


def _apply(input, mask, inplace):
    return input.mul_(mask) if inplace else input * mask


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False):
    """Zero each element with probability ``p`` and scale the rest by ``1 / (1 - p)``;
    the identity when ``training`` is False.

    Example:
        >>> import numtorch as torch
        >>> x = torch.ones(4)
        >>> torch.nn.functional.dropout(x, 0.5, training=False) is x
        True
    """
    _check_p(p)
    if not training or p == 0.0:
        return input
    return _apply(input, _mask(input.shape, p, input._data.dtype), inplace)


def _feature_dropout(input, p, training, inplace, batched_ndim, name):
    _check_p(p)
    if not training or p == 0.0:
        return input
    if input.ndim not in (batched_ndim - 1, batched_ndim):
        warnings.warn(
            f"{name}: Received a {input.ndim}-D input to {name}, which is deprecated and will "
            f"result in an error in a future release. To retain the behavior and silence this "
            f"warning, please use dropout instead.",
            stacklevel=3,
        )
    batched = input.ndim == batched_ndim or input.ndim > batched_ndim
    lead = 2 if batched else 1
    shape = tuple(input.shape[:lead]) + (1,) * (input.ndim - lead)
    return _apply(input, _mask(shape, p, input._data.dtype), inplace)


def dropout1d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False):
    """Zero whole channels of (N, C, L) inputs."""
    return _feature_dropout(input, p, training, inplace, 3, "dropout1d")


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False):
    """Zero whole channels of (N, C, H, W) inputs."""
    return _feature_dropout(input, p, training, inplace, 4, "dropout2d")


def dropout3d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False):
    return _feature_dropout(input, p, training, inplace, 5, "dropout3d")
