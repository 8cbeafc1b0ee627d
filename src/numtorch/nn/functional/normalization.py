"""Normalization functions of ``numtorch.nn.functional``: batch, layer, group, instance, RMS
and local response norm, and ``normalize``."""

from __future__ import annotations

import math

from ..._core.dispatch import require_tensor
from ..._core.dtypes import bfloat16, finfo, float16, float32
from ..._core.grad_mode import no_grad
from ..._core.observers import composite
from ..._core.tensor import Tensor, _read_dim
from ...ops.nn import normalization as N
from ...ops.pointwise import _add_scalar
from .padding import pad
from .pooling import avg_pool2d, avg_pool3d


def _check_running(name, stat, channels):
    if stat is not None and stat.numel() != channels:
        raise RuntimeError(f"{name} should contain {channels} elements not {stat.numel()}")


def _check_dtypes(input, kernel, *parameters):
    """torch's CPU rule for norm kernels: parameters share the input's dtype, except that a
    half or bfloat16 input may have float32 parameters; integer inputs have no kernel."""
    dtypes = {t.dtype for t in parameters if t is not None}
    if dtypes and dtypes != {input.dtype}:
        if any(d is not float32 for d in dtypes):
            raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float")
        if input.dtype not in (float16, bfloat16):
            raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")
    if not input.is_floating_point():
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{input.dtype.scalar_name}'")


@composite("aten::batch_norm", order=(0, 3, 4, 1, 2, 5, 6, 7), schema_args=9)  # + cudnn_enabled
def batch_norm(
    input: Tensor,
    running_mean,
    running_var,
    weight=None,
    bias=None,
    training: bool = False,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """Normalize each channel (dim 1) by its batch statistics when ``training``, else by the
    running statistics; training updates the running statistics in place:
    ``running = (1 - momentum) * running + momentum * batch`` (unbiased batch variance).

    Example:
        >>> import numtorch as torch
        >>> x = torch.tensor([[1.0], [3.0]])
        >>> torch.nn.functional.batch_norm(x, None, None, training=True)
        tensor([[-1.0000],
                [ 1.0000]])
    """
    if training:
        size = input.shape
        if size[0] * math.prod(size[2:]) == 1:  # torch's _verify_batch_size
            raise ValueError(
                f"Expected more than 1 value per channel when training, got input size {size}"
            )
    if momentum is None:  # (the layers give 0.0 for their cumulative average)
        raise TypeError(
            "batch_norm(): argument 'momentum' (position 7) must be float, not NoneType"
        )
    return batch_norm_unchecked(
        input, weight, bias, running_mean, running_var, training, momentum, eps
    )


def batch_norm_unchecked(
    input, weight, bias, running_mean, running_var, training, momentum, eps
) -> Tensor:
    """ATen's batch_norm (``torch.batch_norm``): without F's batch-size check."""
    if not training and (running_mean is None or running_var is None):
        raise RuntimeError("running_mean and running_var must be defined in evaluation mode")
    if input.numel() == 0:
        # torch's _batch_norm_impl_index: an empty batch leaves the running statistics
        # alone and returns a fresh tensor still linked to weight and bias (of any dtype:
        # no kernel runs)
        out = input.clone()
        if weight is not None:
            out = out * weight[0]
        if bias is not None:
            out = out + bias[0]
        return out
    _check_dtypes(input, "batch_norm", weight, bias, running_mean, running_var)
    channels = input.shape[1] if input.ndim > 1 else 0  # torch counts 0 features below 2-D
    _check_running("running_mean", running_mean, channels)
    _check_running("running_var", running_var, channels)
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and t.numel() != channels:
            raise RuntimeError(f"{name} should contain {channels} elements not {t.numel()}")
    if input.ndim < 2:  # then the kernel reads the channel dim
        if input.ndim == 0:  # of no dims: torch's buffer of -1 sizes
            raise RuntimeError(
                "SmallVector unable to grow. Requested capacity (18446744073709551615) is "
                "larger than maximum value for size type (4294967295)"
            )
        _read_dim(input.ndim, 1)
    results = N.native_batch_norm_op(
        input, weight, bias, running_mean, running_var, training, momentum, eps
    )
    if training:
        for stat in (running_mean, running_var):
            if stat is not None:
                stat._bump_version()  # updated in place by the kernel
    return results[0]


@composite("aten::layer_norm", schema_args=6)  # + cudnn_enable
def layer_norm(input: Tensor, normalized_shape, weight=None, bias=None, eps: float = 1e-5):
    """Normalize over the trailing ``normalized_shape`` dims, then scale and shift.

    Example:
        >>> import numtorch as torch
        >>> torch.nn.functional.layer_norm(torch.tensor([[1.0, 3.0]]), (2,))
        tensor([[-1.0000,  1.0000]])
    """
    require_tensor("layer_norm", "input", 1, input)
    normalized_shape = check_layer_norm(input, normalized_shape, weight, bias)
    return N.native_layer_norm_op(input, normalized_shape, weight, bias, eps)[0]


def check_layer_norm(input: Tensor, normalized_shape, weight, bias) -> tuple:
    """torch's layer_norm checks; returns ``normalized_shape`` as a tuple."""
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    normalized_shape = tuple(normalized_shape)
    count = len(normalized_shape)
    if count == 0 or tuple(input.shape[-count:]) != normalized_shape or input.ndim < count:
        expected = ", ".join(str(s) for s in normalized_shape)
        raise RuntimeError(
            f"Given normalized_shape={list(normalized_shape)}, expected input with shape "
            f"[*, {expected}], but got input of size{list(input.shape)}"
        )
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and tuple(t.shape) != normalized_shape:
            raise RuntimeError(
                f"Expected {name} to be of same shape as normalized_shape, but got {name} of "
                f"shape {list(t.shape)} and normalized_shape = {list(normalized_shape)}"
            )
    _check_dtypes(input, "LayerNormKernelImpl", weight, bias)
    return normalized_shape


@composite("aten::group_norm", schema_args=6)  # + cudnn_enabled
def group_norm(input: Tensor, num_groups: int, weight=None, bias=None, eps: float = 1e-5):
    """Normalize over groups of channels (and all spatial positions) of each sample."""
    if input.ndim < 2:
        raise RuntimeError(
            f"Expected at least 2 dimensions for input tensor but received {input.ndim}"
        )
    n, c = input.shape[0], input.shape[1]
    grouped = [n * c // num_groups, num_groups, *input.shape[2:]]  # torch's _verify_batch_size
    if grouped[0] * math.prod(grouped[2:]) == 1:
        raise ValueError(
            f"Expected more than 1 value per channel when training, got input size {grouped}"
        )
    if c % num_groups:
        raise RuntimeError(
            "Expected number of channels in input to be divisible by num_groups, but got "
            f"input of shape {list(input.shape)} and num_groups={num_groups}"
        )
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.ndim != 1 or t.numel() != c):
            raise RuntimeError(
                f"Expected {name} to be a vector of size equal to the number of channels in "
                f"input, but got {name} of shape {list(t.shape)} and input of shape "
                f"{list(input.shape)}"
            )
    _check_dtypes(input, "GroupNormKernelImpl", weight, bias)
    hxw = input.numel() // max(n * c, 1)
    # torch normalizes contiguous copies of a strided input, weight and bias (an expand, a
    # transpose): the node keeps those copies, so a later in-place change of the original
    # does not break backward
    input = input.contiguous()
    weight = None if weight is None else weight.contiguous()
    bias = None if bias is None else bias.contiguous()
    return N.native_group_norm_op(input, weight, bias, n, c, hxw, num_groups, eps)[0]


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12) -> Tensor:
    """``input / max(||input||_p, eps)`` along ``dim``."""
    norm = input.norm(p, dim, keepdim=True).clamp_min(eps)
    return input / norm.expand_as(input)


def instance_norm(
    input: Tensor,
    running_mean=None,
    running_var=None,
    weight=None,
    bias=None,
    use_input_stats: bool = True,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """Normalize each channel of each sample over its spatial positions.

    Composed as torch does: batch norm over the input viewed as one sample of N * C
    channels (grad_fn ``ViewBackward0``); running statistics, when given, are updated with
    the mean over the batch of the per-instance statistics.

    Example:
        >>> import numtorch as torch
        >>> torch.nn.functional.instance_norm(torch.tensor([[[1.0, 3.0]]]))
        tensor([[[-1.0000,  1.0000]]])
    """
    if use_input_stats and math.prod(input.shape[2:]) == 1:
        raise ValueError(
            f"Expected more than 1 spatial element when training, got input size {input.shape}"
        )
    return instance_norm_unchecked(
        input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps
    )


def instance_norm_unchecked(
    input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps
) -> Tensor:
    """ATen's instance_norm (``torch.instance_norm``): without F's batch-size check."""
    if not use_input_stats and (running_mean is None or running_var is None):
        raise RuntimeError(
            "Expected running_mean and running_var to be defined when use_input_stats is false"
        )
    b, c = input.shape[0], input.shape[1]
    repeated = [None if t is None else t.repeat(b) for t in (weight, bias)]
    with no_grad():
        stats = [None if t is None else t.repeat(b) for t in (running_mean, running_var)]
    shape = (1, b * c, *input.shape[2:])
    out = batch_norm_unchecked(
        input.contiguous().view(shape), *repeated, *stats, use_input_stats, momentum, eps
    )
    if use_input_stats:  # evaluation reads the statistics: an empty batch leaves them be
        with no_grad():
            for stat, updated in zip((running_mean, running_var), stats):
                if stat is not None:
                    stat.copy_(updated.view(b, c).mean(0))
    return out.view(input.shape)


def rms_norm(input: Tensor, normalized_shape, weight=None, eps=None) -> Tensor:
    """``input / sqrt(mean(input^2) + eps)`` over the trailing ``normalized_shape`` dims,
    times ``weight``; ``eps`` defaults to the dtype's machine epsilon.

    Example:
        >>> import numtorch as torch
        >>> torch.nn.functional.rms_norm(torch.tensor([[3.0, 4.0]]), (2,), eps=0.0)
        tensor([[0.8485, 1.1314]])
    """
    if isinstance(normalized_shape, int):
        raise TypeError(
            "rms_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not int"
        )
    normalized_shape = tuple(normalized_shape)
    count = len(normalized_shape)
    if count == 0:
        raise RuntimeError(
            "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least "
            "one element, but got normalized_shape = []"
        )
    # torch's order: the weight, then the input's rank, then its trailing sizes
    if weight is not None and tuple(weight.shape) != normalized_shape:
        raise RuntimeError(
            "Expected weight to be of same shape as normalized_shape, but got weight of shape "
            f"{list(weight.shape)} and normalized_shape = {list(normalized_shape)}"
        )
    if input.ndim < count:
        raise ValueError(
            f"Input tensor must have at least {count} dimensions, but got {input.ndim}"
        )
    if tuple(input.shape[-count:]) != normalized_shape:
        expected = ", ".join(str(s) for s in normalized_shape)
        raise RuntimeError(
            f"Given normalized_shape={list(normalized_shape)}, expected input with shape "
            f"[*{expected}], but got input of size{list(input.shape)}"
        )
    if not input.is_floating_point():
        raise NotImplementedError(f"\"rms_norm\" not implemented for '{input.dtype.scalar_name}'")
    if eps is None:
        eps = finfo(input.dtype).eps
    dims = tuple(range(input.ndim - count, input.ndim))
    # eps is added as a Scalar in torch's composite (AddBackward1)
    result = input * _add_scalar(input.pow(2).mean(dims, keepdim=True), eps).rsqrt()
    # torch's composite returns a contiguous result: one that keeps a permuted input's
    # layout (the weight's product keeps it too, in torch) is copied (CloneBackward0)
    permuted = not result.is_contiguous()
    if weight is not None:
        result = (result * weight).type_as(result)  # the input's dtype, as torch
    if not permuted:
        return result
    return result.contiguous() if not result.is_contiguous() else result.clone()


def local_response_norm(
    input: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0
) -> Tensor:
    """Divide each element by ``(k + alpha / size * sum of squares over size neighbouring
    channels) ** beta``."""
    dim = input.ndim
    if dim < 3:
        raise ValueError(
            "Expected 3D or higher dimensionality                          input "
            f"(got {dim} dimensions)"
        )
    if input.numel() == 0:
        return input
    div = input.mul(input)
    if dim == 3:
        div = pad(div.unsqueeze(1), (0, 0, size // 2, (size - 1) // 2))
        div = avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input.shape
        div = div.view(sizes[0], 1, sizes[1], sizes[2], -1)
        div = pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        div = avg_pool3d(div, (size, 1, 1), stride=1).squeeze(1).view(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div
