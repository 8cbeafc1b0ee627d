"""Pooling functions of ``numtorch.nn.functional``: checks with torch's messages, then the
primitives of ``numtorch.ops.nn.pooling``.

1-D pooling runs as 2-D pooling over a unit height, as torch does (its grad_fn is
``SqueezeBackward1``). Without a gradient to track, max pooling skips the winner bookkeeping.
"""

from __future__ import annotations

from ..._core import grad_mode
from ..._core.dispatch import require_tensor
from ..._core.observers import composite
from ..._core.tensor import Tensor, _read_dim
from ...ops.nn import adaptive_pooling as AP
from ...ops.nn import pooling as P
from ...ops.nn import unpool as U


def _tuple(value, n: int, name: str, what: str, allow_none=False):
    if value is None and allow_none:
        return None
    if isinstance(value, int):
        return (value,) * n
    value = tuple(value)
    if len(value) == 1:
        return value * n
    if len(value) != n:
        raise RuntimeError(f"{name}: {what}")
    return value


def _pool_args(name, kernel_size, stride, padding, dilation, dims=2):
    what = {1: "a single int", 2: "a single int, or a tuple of two ints"}.get(
        dims, "a single int, or a tuple of three ints"
    )
    kernel = _tuple(kernel_size, dims, name, f"kernel_size must either be {what}")
    if stride is None or (not isinstance(stride, int) and len(stride) == 0):
        stride = kernel
    else:
        stride = _tuple(stride, dims, name, f"stride must either be omitted, {what}")
    padding = _tuple(padding, dims, name, f"padding must either be {what}")
    dilation = _tuple(dilation, dims, name, f"dilation must be either {what}")
    if any(s == 0 for s in stride):
        raise RuntimeError("stride should not be zero")
    if any(k <= 0 for k in kernel):
        sizes = " ".join(f"k{a}: {k}" for a, k in zip("HW", kernel))
        raise RuntimeError(f"kernel size should be greater than zero, but got {sizes}")
    if any(d <= 0 for d in dilation):
        sizes = " ".join(f"dilation{a}: {d}" for a, d in zip("HW", dilation))
        raise RuntimeError(f"dilation should be greater than zero, but got {sizes}")
    for k, p, d in zip(kernel, padding, dilation):
        if p > (d * (k - 1) + 1) // 2:
            raise RuntimeError(
                "pad should be at most half of effective kernel size, but got "
                f"pad={p}, kernel_size={k} and dilation={d}"
            )
    return kernel, stride, padding, dilation


def _check_not_empty(input, dims: int, name: str) -> None:
    """torch's refusal of an empty channel or spatial dim (an empty batch is fine), checked
    after the pooling arguments and before the output size."""
    if 0 not in input.shape[-dims - 1 :]:
        return
    if dims == 3:  # (torch names dimension 0 whichever is empty)
        raise RuntimeError(
            f"{name}(): Expected input's non-batch dimensions to have positive length, but "
            f"input has a shape of {list(input.shape)} and non-batch dimension 0 has length "
            "zero!"
        )
    raise RuntimeError(
        "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, "
        f"but got:{list(input.shape)}"
    )


def _check_output(input, geo):
    if any(o < 1 for o in geo.out):
        channels = input.shape[-len(geo.out) - 1]
        given = "x".join(map(str, (channels, *geo.spatial)))
        calculated = "x".join(map(str, (channels, *geo.out)))
        raise RuntimeError(
            f"Given input size: ({given}). Calculated output size: ({calculated}). Output size "
            "is too small"
        )


def _max_pool(input, kernel, stride, padding, dilation, ceil_mode, return_indices, dims):
    require_tensor(f"max_pool{dims}d", "input", 1, input)
    _check_not_empty(input, dims, "max_pool3d_with_indices_out_cpu_template")
    geo = P.PoolGeometry(input.shape, kernel, stride, padding, dilation, ceil_mode)
    _check_output(input, geo)
    args = (kernel, stride, padding, dilation, ceil_mode)
    recorded = input.requires_grad and grad_mode.is_grad_enabled()
    if not return_indices and not recorded and input._fw_grads is None:  # no tangent either
        return P.max_pool_values_op(input, *args)
    op = P.max_pool2d_op if dims == 2 else P.max_pool3d_op
    values, winners = op(input, *args)
    if not return_indices:
        return values
    return values, _pool_indices(winners, input.shape, args)


def _pool_indices(winners, input_shape, args):
    """torch's indices from the winning offsets; under vmap, from the physical winners
    (their batch dim kept before the pooled dims)."""
    if winners._batched:
        value, bdim = winners._value, winners._bdim
        if bdim >= value.ndim - len(args[0]):
            value, bdim = value.movedim(bdim, 0), 0
        return type(winners)._wrap(_pool_indices(value, input_shape, args), bdim, winners._level)
    return Tensor._make(P.max_pool_indices(winners._data, input_shape, *args))


@composite("aten::max_pool2d", schema_args=6)  # return_indices is not in the schema
def max_pool2d(
    input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False
):
    """2-D max pooling over (N, C, H, W) or (C, H, W) inputs.

    Example:
        >>> import numtorch as torch
        >>> x = torch.arange(16.0).reshape(1, 1, 4, 4)
        >>> torch.nn.functional.max_pool2d(x, 2)
        tensor([[[[ 5.,  7.],
                  [13., 15.]]]])
    """
    if input.ndim not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    kernel, stride, padding, dilation = _pool_args(
        "max_pool2d", kernel_size, stride, padding, dilation
    )
    return _max_pool(input, kernel, stride, padding, dilation, ceil_mode, return_indices, 2)


def max_pool3d(
    input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False
):
    if input.ndim not in (4, 5):
        raise RuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    kernel, stride, padding, dilation = _pool_args(
        "max_pool3d", kernel_size, stride, padding, dilation, 3
    )
    return _max_pool(input, kernel, stride, padding, dilation, ceil_mode, return_indices, 3)


def _one_d(value, name):
    return (1, _tuple(value, 1, name, "a single int")[0])


def max_pool1d(
    input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False
):
    """1-D max pooling over (N, C, L) or (C, L) inputs."""
    if input.ndim not in (2, 3):
        raise RuntimeError(
            "max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size "
            f"for input, but got:{list(input.shape)}"
        )
    if 0 in input.shape[-2:]:  # an empty batch is fine
        raise RuntimeError(
            "max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size "
            f"for input, but got:{list(input.shape)}"
        )
    if not return_indices and input._data.dtype.kind not in "fcV":
        # without indices torch runs a float-only 1-D kernel
        raise NotImplementedError(
            f"\"max_pool1d_impl\" not implemented for '{input.dtype.scalar_name}'"
        )
    stride = kernel_size if stride is None else stride
    out = max_pool2d(
        input.unsqueeze(-2),
        _one_d(kernel_size, "max_pool1d"),
        _one_d(stride, "max_pool1d"),
        (0, _tuple(padding, 1, "max_pool1d", "")[0]),
        (1, _tuple(dilation, 1, "max_pool1d", "")[0]),
        ceil_mode,
        return_indices,
    )
    if return_indices:
        return out[0].squeeze(-2), out[1].squeeze(-2)
    if (input._requires_grad and grad_mode.is_grad_enabled()) or input._fw_grads is not None:
        return out.squeeze(-2)  # torch takes the indices path then: a view of its result
    # with no gradient to record torch runs its own 1-D kernel: a fresh tensor, whose
    # in-place changes record their own node (not a view's AsStridedBackward0)
    return out.squeeze(-2).clone()


def avg_pool2d(
    input,
    kernel_size,
    stride=None,
    padding=0,
    ceil_mode=False,
    count_include_pad=True,
    divisor_override=None,
):
    """2-D average pooling.

    Example:
        >>> import numtorch as torch
        >>> torch.nn.functional.avg_pool2d(torch.ones(1, 1, 4, 4), 2).shape
        torch.Size([1, 1, 2, 2])
    """
    _read_dim(input.ndim, -3)  # torch reads the channel count first
    if input.ndim not in (3, 4):
        raise RuntimeError(
            "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, "
            f"but got:{list(input.shape)}"
        )
    return _avg_pool(
        input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, 2
    )


def avg_pool3d(
    input,
    kernel_size,
    stride=None,
    padding=0,
    ceil_mode=False,
    count_include_pad=True,
    divisor_override=None,
):
    if input.ndim not in (4, 5):
        raise RuntimeError(
            "Expected 4D or 5D (batch mode) tensor with optional 0 dim batch size for input, "
            f"but got:{list(input.shape)}"
        )
    return _avg_pool(
        input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, 3
    )


def _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor, dims):
    name = f"avg_pool{dims}d"
    kernel, stride, padding, _ = _pool_args(name, kernel_size, stride, padding, 1, dims)
    if divisor is not None and divisor == 0:
        raise RuntimeError("divisor must be not zero")
    _check_not_empty(input, dims, name)
    if dims == 3 and any(i < k for i, k in zip(input.shape[-3:], kernel)):
        # torch's 3-D average pooling (unlike 2-D) wants the unpadded input to hold a window
        sizes = " ".join(f"{n}: {i}" for n, i in zip("THW", input.shape[-3:]))
        kernels = " ".join(f"k{n}: {k}" for n, k in zip("THW", kernel))
        raise RuntimeError(f"input image ({sizes}) smaller than kernel size ({kernels})")
    geo = P.PoolGeometry(input.shape, kernel, stride, padding, (1,) * dims, ceil_mode)
    _check_output(input, geo)
    op = P.avg_pool2d_op if dims == 2 else P.avg_pool3d_op
    return op(input, kernel, stride, padding, ceil_mode, count_include_pad, divisor)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    """1-D average pooling over (N, C, L) or (C, L) inputs."""
    if input.ndim not in (2, 3):
        raise RuntimeError(
            "avg_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size "
            f"for input, but got:{list(input.shape)}"
        )
    stride = kernel_size if stride is None else stride
    out = avg_pool2d(
        input.unsqueeze(-2),
        _one_d(kernel_size, "avg_pool1d"),
        _one_d(stride, "avg_pool1d"),
        (0, _tuple(padding, 1, "avg_pool1d", "")[0]),
        ceil_mode,
        count_include_pad,
    )
    return out.squeeze(-2)


def _check_nonempty(name, input, first):
    # torch checks dims ``first``.. (adaptive_avg_pool2d: the two spatial dims; the others:
    # every dim after the first), before any division by their sizes
    for d in range(first % input.ndim, input.ndim):
        if input.shape[d] == 0:
            raise RuntimeError(
                f"{name}(): Expected input to have non-zero size for non-batch dimensions, but "
                f"input has sizes {list(input.shape)} with dimension {d} being empty"
            )


def _adaptive(input, output_size, dims):
    name = f"adaptive_avg_pool{dims}d"
    output_size = _list_with_default(output_size, input.shape)
    ones = (output_size,) * dims if isinstance(output_size, int) else tuple(output_size)
    if len(ones) == dims and all(o == 1 for o in ones):
        # torch takes the mean before any check of the input: any rank, empty dims allowed,
        # and too few dims raise the mean's IndexError
        return input.mean(tuple(range(-1, -dims - 1, -1)), keepdim=True)  # MeanBackward1
    if input.ndim not in (dims + 1, dims + 2):
        raise RuntimeError(
            f"{name}(): Expected {dims + 1}D or {dims + 2}D tensor, but got {list(input.shape)}"
        )
    _check_nonempty(name, input, -2 if dims == 2 else 1)
    if isinstance(output_size, int):
        output_size = (output_size,) * dims
    output_size = tuple(output_size)
    if len(output_size) != dims:
        raise RuntimeError(f"{name}: output_size must be {dims}")
    spatial = input.shape[-dims:]
    output_size = tuple(s if o is None else int(o) for o, s in zip(output_size, spatial))
    if all(o == 1 for o in output_size):
        return input.mean(tuple(range(-dims, 0)), keepdim=True)  # as torch: MeanBackward1
    op = AP.adaptive_avg_pool2d_op if dims == 2 else AP.adaptive_avg_pool3d_op
    return op(input, output_size)


@composite("aten::adaptive_avg_pool2d")
def adaptive_avg_pool2d(input, output_size):
    """Average pooling to a given output size, windows chosen as torch does.

    Example:
        >>> import numtorch as torch
        >>> torch.nn.functional.adaptive_avg_pool2d(torch.ones(1, 3, 7, 5), (2, 2)).shape
        torch.Size([1, 3, 2, 2])
    """
    return _adaptive(input, output_size, 2)


def adaptive_avg_pool3d(input, output_size):
    return _adaptive(input, output_size, 3)


def _ints_argument(name, output_size):
    """The 1-D adaptive poolings take ints only (no None to keep a size), checked first as
    torch's argument parser does."""
    if output_size is None:
        raise TypeError(
            f"{name}(): argument 'output_size' (position 2) must be tuple of ints, not NoneType"
        )
    if isinstance(output_size, (tuple, list)):
        for pos, v in enumerate(output_size):
            if v is None:
                raise TypeError(
                    f"{name}(): argument 'output_size' (position 2) must be tuple of ints, but "
                    f"found element of type NoneType at pos {pos}"
                )


def adaptive_avg_pool1d(input, output_size):
    """1-D adaptive average pooling over (N, C, L) or (C, L) inputs."""
    _ints_argument("adaptive_avg_pool1d", output_size)
    if input.ndim not in (2, 3):
        raise RuntimeError(
            f"adaptive_avg_pool1d(): Expected 2D or 3D tensor, but got {list(input.shape)}"
        )
    size = _tuple(output_size, 1, "adaptive_avg_pool1d", "output_size must be 1")[0]
    return _adaptive(input.unsqueeze(-2), (1, size), 2).squeeze(-2)


def _list_with_default(output_size, defaults):
    if isinstance(output_size, int):
        return output_size
    if len(defaults) <= len(output_size):
        raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
    return [d if v is None else v for v, d in zip(output_size, defaults[-len(output_size) :])]


def _adaptive_max(input, output_size, return_indices, dims):
    name = f"adaptive_max_pool{dims}d"
    # torch fills the None sizes in before its kernel checks the rank: a size list longer
    # than the input's rank raises the filler's ValueError first
    output_size = _list_with_default(output_size, input.shape)
    if input.ndim not in (dims + 1, dims + 2):
        raise RuntimeError(
            f"{name}(): Expected {dims + 1}D or {dims + 2}D tensor, but got: {list(input.shape)}"
        )
    if isinstance(output_size, int):
        output_size = (output_size,) * dims
    if len(output_size) != dims:
        raise RuntimeError(f"{name}(): internal error: output_size.size() must be {dims}")
    _check_nonempty(name, input, 1)
    op = AP.adaptive_max_pool2d_op if dims == 2 else AP.adaptive_max_pool3d_op
    values, indices = op(input, tuple(int(o) for o in output_size))
    return (values, indices) if return_indices else values


def adaptive_max_pool2d(input, output_size, return_indices: bool = False):
    """Max over torch's adaptive windows to a given output size (``None`` keeps a dim).

    Example:
        >>> import numtorch as torch
        >>> x = torch.arange(16.0).reshape(1, 1, 4, 4)
        >>> torch.nn.functional.adaptive_max_pool2d(x, 2)
        tensor([[[[ 5.,  7.],
                  [13., 15.]]]])
    """
    return _adaptive_max(input, output_size, return_indices, 2)


def adaptive_max_pool3d(input, output_size, return_indices: bool = False):
    return _adaptive_max(input, output_size, return_indices, 3)


def adaptive_max_pool1d(input, output_size, return_indices: bool = False):
    """1-D adaptive max pooling over (N, C, L) or (C, L) inputs (via the 2-D op, as torch)."""
    _ints_argument("adaptive_max_pool1d", output_size)
    if input.ndim not in (2, 3):
        raise RuntimeError(
            f"Expected 2 to 3 dimensions, but got {input.ndim}-dimensional tensor for argument "
            "#1 'self' (while checking arguments for adaptive_max_pool1d)"
        )
    if not isinstance(output_size, int):
        if len(output_size) != 1:
            raise RuntimeError(
                "adaptive_max_pool1d() argument 'output_size' should contain one int (got "
                f"{len(output_size)})"
            )
        output_size = output_size[0]
    _check_nonempty("adaptive_max_pool1d", input, 1)
    values, indices = _adaptive_max(input.unsqueeze(-2), (1, output_size), True, 2)
    if return_indices:
        return values.squeeze(-2), indices.squeeze(-2)
    return values.squeeze(-2)


def _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, dims):
    max_pool = (max_pool1d, max_pool2d, max_pool3d)[dims - 1]
    avg_pool = (avg_pool1d, avg_pool2d, avg_pool3d)[dims - 1]
    if norm_type == float("inf"):
        return max_pool(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if norm_type == -float("inf"):
        return -max_pool(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if stride is not None:
        out = avg_pool(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    if dims == 1:  # torch multiplies by kernel_size itself: a tuple is mul's TypeError
        window = kernel_size
    else:
        window = 1
        for k in (kernel_size,) * dims if isinstance(kernel_size, int) else kernel_size:
            window *= k
    # (sum x^p)^(1/p) = (window * mean x^p)^(1/p); sign * relu(abs) keeps torch's gradient at 0
    return (out.sign() * out.abs().relu()).mul(window).pow(1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """Power-average pooling: ``(sum over the window of x**p) ** (1/p)``.

    Example:
        >>> import numtorch as torch
        >>> torch.nn.functional.lp_pool1d(torch.tensor([[[3.0, 4.0]]]), 2, 2)
        tensor([[[5.]]])
    """
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 1)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """2-D power-average pooling over (kH, kW) windows."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 2)


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """3-D power-average pooling over (kD, kH, kW) windows."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 3)


def _unpool_output_size(input, kernel_size, stride, padding, output_size):
    default = [
        (input.size()[-len(kernel_size) + d] - 1) * stride[d] + kernel_size[d] - 2 * padding[d]
        for d in range(len(kernel_size))
    ]
    if output_size is None:
        size = default
    else:
        if len(output_size) == len(kernel_size) + 2:
            output_size = output_size[2:]
        if len(output_size) != len(kernel_size):
            raise ValueError(
                f"output_size should be a sequence containing {len(kernel_size)} or "
                f"{len(kernel_size) + 2} elements, but it has a length of '{len(output_size)}'"
            )
        for d in range(len(kernel_size)):
            low, high = default[d] - stride[d], default[d] + stride[d]
            if not (low < output_size[d] < high):
                raise ValueError(
                    f'invalid output_size "{output_size}" (dim {d} must be between {low} and '
                    f"{high})"
                )
        size = output_size
    for d, s in enumerate(size):
        if s < 0:
            raise ValueError(
                "max_unpooling: output_size must contain non-negative spatial dimensions, "
                f"but got output_size[{d}]={s}"
            )
    return size


def _max_unpool(input, indices, kernel_size, stride, padding, output_size, dims):
    kernel = _tuple(kernel_size, dims, "max_unpool", "bad kernel_size")
    stride = kernel if stride is None else _tuple(stride, dims, "max_unpool", "bad stride")
    padding = _tuple(padding, dims, "max_unpool", "bad padding")
    size = _unpool_output_size(input, kernel, stride, padding, output_size)
    if indices.dtype._tag != "LongTensor":
        raise RuntimeError(
            f"elements in indices should be type int64 but got: {indices.dtype._tag[:-6]}"
        )
    if tuple(indices.shape) != tuple(input.shape):
        raise RuntimeError(
            "Expected shape of indices to be same as that of the input tensor "
            f"({list(input.shape)}) but got indices tensor with shape: {list(indices.shape)}"
        )
    if input.ndim not in (dims + 1, dims + 2):
        raise RuntimeError(
            f"Input to max_unpooling{dims}d should be a {dims + 1}d or {dims + 2}d Tensor, "
            f"but got a tensor with {input.ndim} dimensions."
        )
    op = U.max_unpool2d_op if dims == 2 else U.max_unpool3d_op
    return op(input, indices, tuple(size))


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Inverse of ``max_pool1d``: each value goes back to the position its index names,
    zeros elsewhere."""
    kernel = _tuple(kernel_size, 1, "max_unpool1d", "bad kernel_size")
    stride = kernel if stride is None else _tuple(stride, 1, "max_unpool1d", "bad stride")
    padding = _tuple(padding, 1, "max_unpool1d", "bad padding")
    size = _unpool_output_size(input, kernel, stride, padding, output_size)
    # as torch: 2-D unpooling over a unit width (grad_fn SqueezeBackward1)
    return _max_unpool(
        input.unsqueeze(-1),
        indices.unsqueeze(-1),
        kernel + (1,),
        stride + (1,),
        padding + (0,),
        list(size) + [1],
        2,
    ).squeeze(-1)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Inverse of ``max_pool2d`` with ``return_indices=True``.

    Example:
        >>> import numtorch as torch
        >>> F = torch.nn.functional
        >>> x = torch.tensor([[[[1.0, 2.0], [4.0, 3.0]]]])
        >>> pooled, indices = F.max_pool2d(x, 2, return_indices=True)
        >>> F.max_unpool2d(pooled, indices, 2)
        tensor([[[[0., 0.],
                  [4., 0.]]]])
    """
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 2)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Inverse of ``max_pool3d`` with ``return_indices=True``."""
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 3)
