"""The public convolution functions (conv1d/2d/3d, conv_transpose1d/2d/3d and
``torch.convolution``) and torch's checks of their arguments, in front of the one
``convolution`` primitive of conv.py.
"""

from __future__ import annotations

import warnings

from ..._core.observers import composite
from ..._core.op import export
from ..._core.tensor import Tensor
from ..._runtime import typename
from .conv import convolution_op
from .conv_kernels import Geometry

# -- argument checks with torch's messages ---------------------------------------------------
_TYPE_NAMES = {"float32": "float", "float64": "double", "int64": "long int", "float16": "half"}


def _expand(value, n: int, name: str) -> tuple:
    if isinstance(value, int):
        return (value,) * n
    value = tuple(int(v) for v in value)
    if len(value) == 1:
        return value * n
    if len(value) != n:
        raise RuntimeError(
            f"expected {name} to be a single integer value or a list of {n} values to match the "
            f"convolution dimensions, but got {name}={list(value)}"
        )
    return value


def _dims_message(input, dims: int, name: str) -> RuntimeError:
    return RuntimeError(
        f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input to {name}, but got "
        f"input of size: {list(input.shape)}"
    )


def _check(input, weight, bias, stride, padding, dilation, groups, transposed, output_padding):
    if stride and min(stride) <= 0:
        raise RuntimeError("non-positive stride is not supported")
    if padding and min(padding) < 0:
        raise RuntimeError("negative padding is not supported")
    if dilation and min(dilation) <= 0:
        raise RuntimeError("non-positive dilation is not supported")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    x, w = input._data, weight._data
    if x.dtype != w.dtype and x.shape[0]:  # (torch meets the dtypes only with images to read)
        raise RuntimeError(
            f"expected scalar type {input.dtype._tag[:-6]} but found {weight.dtype._tag[:-6]}"
        )
    kernel = w.shape[2:]
    # torch convolves integers too, but not bools, and transposes floats and int64 only
    # (1-D runs as 2-D)
    if x.dtype.kind not in "fiuV" or (
        transposed and x.dtype.kind in "iu" and x.dtype.name != "int64"
    ):
        spatial = max(x.ndim - 2, 2)
        kernel_name = "compute_columns3d" if spatial == 3 else "slow_conv2d_cpu"
        if transposed:
            kernel_name = f"slow_conv_transpose{spatial}d_out_cpu"
        raise NotImplementedError(
            f"\"{kernel_name}\" not implemented for '{input.dtype.scalar_name}'"
        )
    if w.shape[0] < groups:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be at least {groups} at dimension 0, "
            f"but got weight of size {list(w.shape)} instead"
        )
    if w.shape[0] % groups:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, "
            f"but got weight of size [{list(w.shape)}] instead"
        )
    expected = w.shape[0] if transposed else w.shape[1] * groups
    if x.shape[1] != expected:
        which = f"transposed=1, weight of size {list(w.shape)}, expected input"
        if not transposed:
            which = f"groups={groups}, weight of size {list(w.shape)}, expected input"
        raise RuntimeError(
            f"Given {which}{list(x.shape)} to have {expected} channels, but got {x.shape[1]} "
            "channels instead"
        )
    if bias is not None:
        out_channels = w.shape[1] * groups if transposed else w.shape[0]
        if bias._data.ndim != 1 or bias._data.shape[0] != out_channels:
            raise RuntimeError(
                f"Given {'transposed=1, ' * transposed}weight of size {list(w.shape)}, expected "
                "bias to be 1-dimensional with "
                f"{out_channels} elements, but got bias of size {list(bias.shape)} instead"
            )
        if bias._data.dtype != x.dtype and transposed:
            # torch's slow transposed kernels: 1-D and 2-D add the bias in the input's dtype,
            # 3-D checks it first
            if len(kernel) == 3 and x.shape[0]:
                raise RuntimeError(
                    f"expected scalar type {input.dtype._tag[:-6]} but found {bias.dtype._tag[:-6]}"
                )
        elif bias._data.dtype != x.dtype:
            raise RuntimeError(
                f"Input type ({_TYPE_NAMES.get(x.dtype.name, x.dtype.name)}) and bias type "
                f"({_TYPE_NAMES.get(bias._data.dtype.name, bias._data.dtype.name)}) should be "
                "the same"
            )
    if transposed:
        _check_backend(x, w, transposed)  # (its kernel checks the output padding)
        for op, s, d in zip(output_padding, stride, dilation):
            if op >= s and op >= d:
                names = ("height", "width") if len(stride) == 2 else ("depth", "height", "width")
                names = names[-len(stride) :] if len(stride) <= 3 else names
                parts = [f"output_padding_{n}: {v}" for n, v in zip(names, output_padding)]
                parts += [f"stride_{n}: {v}" for n, v in zip(names, stride)]
                parts += [f"dilation_{n}: {v}" for n, v in zip(names, dilation)]
                raise RuntimeError(
                    "output padding must be smaller than either stride or dilation, but got "
                    + " ".join(parts)
                )
        _check_transposed_output(x, w, groups, stride, padding, dilation, output_padding)
        return
    geo = Geometry(x.shape, w.shape, stride, padding, dilation, groups)
    effective = tuple(d * (k - 1) + 1 for k, d in zip(geo.kernel, geo.dilation))
    if any(e > p for e, p in zip(effective, geo.padded)):
        raise RuntimeError(
            f"Calculated padded input size per channel: ({' x '.join(map(str, geo.padded))}). "
            f"Kernel size: ({' x '.join(map(str, effective))}). Kernel size can't be greater "
            "than actual input size"
        )
    _check_backend(x, w, transposed)


def _check_transposed_output(x, w, groups, stride, padding, dilation, output_padding):
    """torch's refusal of a transposed convolution whose output has no size: an input with
    images names the sizes (1-D as 2-D with a unit height); an empty batch fails on the
    negative shape."""
    spatial = x.shape[2:]
    out = tuple(
        (i - 1) * s - 2 * p + d * (k - 1) + op + 1
        for i, s, p, d, k, op in zip(
            spatial, stride, padding, dilation, w.shape[2:], output_padding
        )
    )
    if not x.shape[1]:  # (torch's path for an input without channels reads no sizes)
        return
    if not x.shape[0]:
        if min(out) < 0:
            shape = [0, w.shape[1] * groups, *out]
            index = next(i for i, v in enumerate(shape) if v < 0)
            raise RuntimeError(
                f"invalid shape dimension {shape[index]} at index {index} of shape {shape}"
            )
        return
    if min(out) < 1:
        if len(out) == 1:
            spatial, out = (1, *spatial), (1, *out)
        raise RuntimeError(
            f"Given input size per channel: ({' x '.join(map(str, spatial))}). Calculated output "
            f"size per channel: ({' x '.join(map(str, out))}). Output size is too small"
        )


def _check_backend(x, w, transposed):
    # torch's checks past the shapes, where it picks the kernel: an input without images or
    # channels takes its "empty" path, which reads the weight's first element (an IndexError
    # from select when there is none, but for an input without channels, whose result
    # reads no weight); any other input needs images and a kernel of positive sizes
    if not x.shape[0] or not x.shape[1]:
        if w.size == 0 and (transposed or x.shape[1]):
            raise IndexError("select(): index 0 out of range for tensor of size [0] at dimension 0")
        return
    if x.size == 0:  # an empty spatial dim the padding fills
        shape = list(x.shape)
        if len(shape) == 3:  # torch runs 1-d as 2-d with a unit height
            shape.insert(2, 1)
        raise RuntimeError(
            f"Only zero batch or zero channel inputs are supported, but got input shape: {shape}"
        )
    kernel = w.shape[2:]
    if 0 in kernel:  # (before any division by the kernel's size)
        if len(kernel) == 3:
            sizes = f": {' x '.join(map(str, kernel))} (TxHxW)"
        else:
            height, width = (1,) * (2 - len(kernel)) + tuple(kernel)
            sizes = f" kernel_height: {height} kernel_width: {width}"
        raise RuntimeError(f"kernel size should be greater than zero, but got{sizes}")
    if transposed and w.size == 0:  # no output channels: torch's slow kernels' shape check
        shape = list(w.shape)
        if len(shape) == 5:
            raise RuntimeError(
                "non-empty 5D (n_output_plane x n_input_plane x kernel_depth x kernel_height "
                f"x kernel_width) tensor expected for weight, but got: {shape}"
            )
        if len(shape) == 3:  # torch runs 1-d as 2-d with a unit height
            shape.insert(2, 1)
        raise RuntimeError(f"non-empty 2D or 4D weight tensor expected, but got: {shape}")


def _same_padding(input, weight, stride, dilation):
    """Resolve padding='same': symmetric padding, plus a one-sided pad where the total is odd."""
    if any(s != 1 for s in stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    dims = len(stride)
    left, extra = [], [0] * (2 * dims)
    for i in range(dims):
        total = dilation[i] * (weight.shape[i + 2] - 1)
        left.append(total // 2)
        if total % 2:
            extra[2 * (dims - 1 - i) + 1] = 1  # F.pad order: last dim first
    if any(extra):
        from .padding import constant_pad_nd

        warnings.warn(
            "Using padding='same' with even kernel lengths and odd dilation may require a "
            "zero-padded copy of the input be created",
            UserWarning,
            stacklevel=4,
        )
        input = constant_pad_nd(input, extra, 0)
    return input, tuple(left)


def _conv(input, weight, bias, stride, padding, dilation, groups, dims, name):
    if not isinstance(input, Tensor) or not isinstance(weight, Tensor):
        raise TypeError(
            f"{name}() received an invalid combination of arguments - got "
            f"({typename(input)}, {typename(weight)}, ...)"
        )
    if input.ndim not in (dims + 1, dims + 2):
        raise _dims_message(input, dims, name)
    if weight.ndim != dims + 2:
        raise RuntimeError(
            f"weight should have {dims + 2} dimensions for {name}, but got weight of size "
            f"{list(weight.shape)}"
        )
    batched = input.ndim == dims + 2
    if not batched:
        input = input.unsqueeze(0)
    stride = _expand(stride, dims, "stride")
    dilation = _expand(dilation, dims, "dilation")
    if isinstance(padding, str):
        if padding == "valid":
            padding = (0,) * dims
        elif padding == "same":
            input, padding = _same_padding(input, weight, stride, dilation)
        else:
            raise ValueError(
                f"Invalid padding string '{padding}', should be one of {{'valid', 'same'}}"
            )
    else:
        padding = _expand(padding, dims, "padding")
    _check(input, weight, bias, stride, padding, dilation, groups, False, ())
    out = convolution_op(input, weight, bias, stride, padding, dilation, False, (0,) * dims, groups)
    return out if batched else out.squeeze(0)


def _conv_transpose(
    input, weight, bias, stride, padding, output_padding, groups, dilation, dims, name
):
    if input.ndim not in (dims + 1, dims + 2):
        raise _dims_message(input, dims, name)
    if weight.ndim < 3:  # torch's convolution reads the weight's channel and kernel dims
        raise RuntimeError("weight should have at least three dimensions")
    batched = input.ndim == dims + 2
    if not batched:
        input = input.unsqueeze(0)
    stride = _expand(stride, dims, "stride")
    padding = _expand(padding, dims, "padding")
    dilation = _expand(dilation, dims, "dilation")
    output_padding = _expand(output_padding, dims, "output_padding")
    _check(input, weight, bias, stride, padding, dilation, groups, True, output_padding)
    out = convolution_op(
        input, weight, bias, stride, padding, dilation, True, output_padding, groups
    )
    return out if batched else out.squeeze(0)


@export(method=False)
@composite("aten::conv1d")
def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1) -> Tensor:
    """1-D convolution over (N, C, L) inputs (see ``conv2d``)."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d")


@export(method=False)
@composite("aten::conv2d")
def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1) -> Tensor:
    """2-D convolution (cross-correlation) of (N, C, H, W) with weight (O, C/groups, kH, kW).

    ``padding`` may be an int, a pair, ``'valid'`` or ``'same'``.

    Example:
        >>> import numtorch as torch
        >>> x = torch.ones(1, 1, 3, 3)
        >>> torch.conv2d(x, torch.ones(1, 1, 2, 2))
        tensor([[[[4., 4.],
                  [4., 4.]]]])
    """
    return _conv(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d")


@export(method=False)
@composite("aten::conv3d")
def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1) -> Tensor:
    """3-D convolution over (N, C, D, H, W) inputs (see ``conv2d``)."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 3, "conv3d")


@export(method=False)
def conv_transpose1d(
    input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1
) -> Tensor:
    """1-D transposed convolution (the gradient of conv1d w.r.t. its input)."""
    return _conv_transpose(
        input,
        weight,
        bias,
        stride,
        padding,
        output_padding,
        groups,
        dilation,
        1,
        "conv_transpose1d",
    )


@export(method=False)
def conv_transpose2d(
    input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1
) -> Tensor:
    """2-D transposed convolution with weight (C_in, C_out/groups, kH, kW).

    Example:
        >>> import numtorch as torch
        >>> torch.conv_transpose2d(torch.ones(1, 1, 2, 2), torch.ones(1, 1, 2, 2)).shape
        torch.Size([1, 1, 3, 3])
    """
    return _conv_transpose(
        input,
        weight,
        bias,
        stride,
        padding,
        output_padding,
        groups,
        dilation,
        2,
        "conv_transpose2d",
    )


@export(method=False)
def conv_transpose3d(
    input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1
) -> Tensor:
    """3-D transposed convolution."""
    return _conv_transpose(
        input,
        weight,
        bias,
        stride,
        padding,
        output_padding,
        groups,
        dilation,
        3,
        "conv_transpose3d",
    )


@export(method=False)
def convolution(
    input, weight, bias, stride, padding, dilation, transposed, output_padding, groups
) -> Tensor:
    """The convolution primitive with every argument explicit (as ``torch.convolution``)."""
    dims = weight.ndim - 2
    stride, padding = _expand(stride, dims, "stride"), _expand(padding, dims, "padding")
    dilation = _expand(dilation, dims, "dilation")
    output_padding = _expand(output_padding, dims, "output_padding")
    _check(input, weight, bias, stride, padding, dilation, groups, transposed, output_padding)
    return convolution_op(
        input, weight, bias, stride, padding, dilation, transposed, output_padding, groups
    )
