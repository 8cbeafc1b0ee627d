"""Dropout functions of ``numtorch.nn.functional``.

``training`` is an explicit argument (it defaults to True, as in torch): pass
``self.training`` from a module, or dropout stays on in evaluation.
"""

from __future__ import annotations

import math
import warnings

from ... import _creation
from ..._core.dispatch import require_tensor
from ..._core.observers import composite
from ..._core.tensor import Tensor
from ...backend import xp


def _check_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _mask(shape, p, dtype, like=None):
    """Bernoulli(1 - p) samples scaled by 1 / (1 - p) (zeros when p == 1), drawn in the
    memory order of the input's array ``like`` when given."""
    if p == 1.0:
        return Tensor._make(xp.zeros(shape, dtype))
    keep = _creation.bernoulli_mask(shape, 1.0 - p, like)
    return Tensor._make(keep.astype(dtype) * _inverse_keep(p, dtype))


def _inverse_keep(p, dtype):
    # torch divides the noise by the scalar 1 - p as a multiplication by its reciprocal,
    # computed in the tensor's dtype
    return dtype.type(1.0) / dtype.type(1.0 - p)


def _check_floating(input, p):
    # the scaled mask is floating; torch cannot write it back into an integer result
    if p < 1.0 and not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise RuntimeError(
            f"result type Float can't be cast to the desired output type {input.dtype.scalar_name}"
        )


def _apply(input, mask, inplace):
    return input.mul_(mask) if inplace else input * mask


@composite("aten::dropout", schema_args=3)  # (input, p, train)
def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False):
    """Zero each element with probability ``p`` and scale the rest by ``1 / (1 - p)``;
    the identity when ``training`` is False.

    Example:
        >>> import numtorch as torch
        >>> x = torch.ones(4)
        >>> torch.nn.functional.dropout(x, 0.5, training=False) is x
        True
    """
    require_tensor("dropout", "input", 1, input)
    _check_p(p)
    if input.is_nested and training and p != 0.0:  # on the buffer (numtorch.nested)
        return input._on_buffer(lambda buffer: dropout(buffer, p, training, inplace))
    if not training or p == 0.0 or input.numel() == 0:  # torch's _dropout_impl: input itself
        return input
    _check_floating(input, p)
    return _apply(input, _mask(input.shape, p, input._data.dtype, input._data), inplace)


def _feature_dropout(input, p, training, inplace, batched_ndim, name):
    _check_p(p)
    if input.ndim not in (batched_ndim - 1, batched_ndim):
        warnings.warn(
            f"{name}: Received a {input.ndim}-D input to {name}, which is deprecated and will "
            f"result in an error in a future release. To retain the behavior and silence this "
            f"warning, please use dropout instead.",
            stacklevel=3,
        )
    if name == "dropout2d" and input.ndim == 3:
        warnings.warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D "
            "dropout behavior is desired - input is interpreted as shape (N, C, L), where C is "
            "the channel dim. This behavior will change in a future release to interpret the "
            "input as one without a batch dimension, i.e. shape (C, H, W). To maintain the 1D "
            "channel-wise dropout behavior, please switch to using dropout1d instead.",
            stacklevel=3,
        )
    if name == "dropout2d" or input.ndim == batched_ndim:
        return _drop_channels(input, p, training, inplace)
    # torch's dropout1d and dropout3d give any other input a batch dim for the kernel and
    # squeeze it off after, dropping or not (SqueezeBackward1; in place: unsqueeze_, squeeze_)
    batched = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    result = _drop_channels(batched, p, training, inplace)
    return result.squeeze_(0) if inplace else result.squeeze(0)


def _drop_channels(input, p, training, inplace):
    """ATen's feature dropout: dim 0 is the batch and dim 1 the channel; ``input`` itself
    when nothing is dropped."""
    if not training or p == 0.0 or input.numel() == 0:
        return input
    _check_floating(input, p)
    if input.ndim < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    shape = tuple(input.shape[:2]) + (1,) * (input.ndim - 2)
    return _apply(input, _mask(shape, p, input._data.dtype), inplace)


def dropout1d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False):
    """Zero whole channels of (N, C, L) inputs."""
    if input.ndim not in (2, 3):
        raise RuntimeError(
            f"dropout1d: Expected 2D or 3D input, but received a {input.ndim}D input. Note "
            "that dropout1d exists to provide channel-wise dropout on inputs with 1 spatial "
            "dimension, a channel dimension, and an optional batch dimension (i.e. 2D or 3D "
            "inputs)."
        )
    return _feature_dropout(input, p, training, inplace, 3, "dropout1d")


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False):
    """Zero whole channels of (N, C, H, W) inputs."""
    return _feature_dropout(input, p, training, inplace, 4, "dropout2d")


def dropout3d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False):
    return _feature_dropout(input, p, training, inplace, 5, "dropout3d")


# torch's SELU constants: alpha * scale, the negative saturation value of selu
_SELU_NEGATIVE = 1.7580993408473766


def dropout_impl(input: Tensor, p: float, train: bool, *, alpha: bool, feature: bool, inplace):
    """ATen's ``_dropout_impl``: plain or alpha dropout, of elements or of whole channels.

    Alpha dropout keeps the mean and variance of SELU activations: dropped elements become
    ``-_SELU_NEGATIVE``, then ``a * x + b`` restores the moments."""
    if not 0.0 <= p <= 1.0:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not train or input.numel() == 0:
        return input
    if p == 1:
        zero = Tensor._make(xp.zeros((), input._data.dtype))
        return input.mul_(zero) if inplace else input * zero
    if feature:
        if input.ndim < 2:
            raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
        shape = tuple(input.shape[:2]) + (1,) * (input.ndim - 2)
    else:
        shape = tuple(input.shape)
    dtype = input._data.dtype
    like = None if feature else input._data  # the noise is empty_like(input) there
    keep = _creation.bernoulli_mask(shape, 1.0 - p, like).astype(dtype)
    if not alpha:
        noise = Tensor._make(keep * _inverse_keep(p, dtype))
        return input.mul_(noise) if inplace else input * noise
    a = 1.0 / math.sqrt((_SELU_NEGATIVE**2 * p + 1) * (1 - p))
    shift = Tensor._make(((keep - 1) * (_SELU_NEGATIVE * a) + _SELU_NEGATIVE * a * p).astype(dtype))
    noise = Tensor._make((keep * a).astype(dtype))
    if inplace:
        return input.mul_(noise).add_(shift)
    return input * noise + shift


def alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False):
    """Dropout for SELU networks: dropped elements take SELU's saturation value and the
    result is rescaled to keep zero mean and unit variance."""
    _check_p(p)
    return dropout_impl(input, p, training, alpha=True, feature=False, inplace=inplace)


def feature_alpha_dropout(
    input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False
):
    """Alpha dropout of whole channels (dim 1)."""
    _check_p(p)
    return dropout_impl(input, p, training, alpha=True, feature=True, inplace=inplace)
