"""Fractional max pooling of ``numtorch.nn.functional``: torch's argument handling (an
output size, or a ratio of the input's), one uniform sample per plane and spatial dim drawn
from the default generator unless given, then ``numtorch.ops.nn.fractional_pool``."""

from __future__ import annotations

from ..._core import dtypes as _dtypes
from ..._core.dispatch import require_tensor
from ..._creation import rand
from ...ops.nn import fractional_pool as FP


def _size(value, n: int):
    return (value,) * n if isinstance(value, int) else tuple(value)


def _fractional(input, kernel_size, output_size, output_ratio, return_indices, samples, dims):
    name = f"fractional_max_pool{dims}d"
    require_tensor(name, "input", 1, input)
    if output_size is None and output_ratio is None:
        raise ValueError(f"{name} requires specifying either an output_size or an output_ratio")
    if output_size is None:
        if dims == 3:  # torch's 3-D form spreads a number over the dims (and reads 3 entries)
            if not isinstance(output_ratio, (tuple, list)):
                output_ratio = (output_ratio,) * 3
        elif len(output_ratio) > dims:  # the 2-D form takes len(): a number is a TypeError
            raise ValueError(
                f"{name} requires output_ratio to either be a single Int or tuple of Ints."
            )
        output_size = [int(input.shape[d - dims] * output_ratio[d]) for d in range(dims)]
    if input.ndim not in (dims + 1, dims + 2):
        raise RuntimeError(
            f"{name}(): Expected {dims + 1}D or {dims + 2}D tensor, but got: {list(input.shape)}"
        )
    where = name if dims == 2 else f"{name}_out"  # the name torch's checks give
    for d in range(1, input.ndim):  # torch's kernel checks from dim 1, whatever dim 0 is
        if input.shape[d] == 0:
            raise RuntimeError(
                f"{where}(): Expected input to have non-zero size for non-batch dimensions, "
                f"but got{list(input.shape)} with dimension {d} being empty."
            )
    batched = input.ndim == dims + 2
    if input._data.dtype.kind != "f" and input.dtype is not _dtypes.bfloat16:
        raise NotImplementedError(
            f"\"{name}_out_frame\" not implemented for '{input.dtype.scalar_name}'"
        )
    if samples is None:
        samples = rand(input.shape[0] if batched else 1, input.shape[-dims - 1], dims,
                       dtype=input.dtype)  # fmt: skip
    kernel_size, output_size = _size(kernel_size, dims), _size(output_size, dims)
    if samples.ndim != 3:
        raise RuntimeError(f"Expect _random_samples to be 3D tensor, got: {samples.ndim}D")
    if samples.shape[2] != dims:
        raise RuntimeError(
            f"Expect _random_samples.size(2) equals to {dims}; got {samples.shape[2]}."
        )
    x = input if batched else input.unsqueeze(0)
    if samples.shape[0] < x.shape[0]:
        raise RuntimeError("Expect _random_samples.size(0) no less then input batch size.")
    if samples.shape[1] != x.shape[1]:
        raise RuntimeError("Expect _random_samples.size(1) equals to input channel size.")
    FP.check_windows_fit(tuple(input.shape), kernel_size, output_size, where)
    op = FP.fractional_max_pool2d_op if dims == 2 else FP.fractional_max_pool3d_op
    values, indices = op(input, kernel_size, output_size, samples.detach()._data[: x.shape[0]])
    return (values, indices) if return_indices else values


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None,
                          return_indices=False, _random_samples=None):  # fmt: skip
    """Max over windows of ``kernel_size`` whose starts advance by pseudo-random steps to
    reach ``output_size`` (or ``output_ratio`` of the input's size).

    Example:
        >>> import numtorch as torch
        >>> x = torch.arange(25.0).reshape(1, 1, 5, 5)
        >>> u = torch.tensor([[[0.5, 0.5]]])
        >>> torch.nn.functional.fractional_max_pool2d(x, 2, output_size=2, _random_samples=u)
        tensor([[[[ 6.,  9.],
                  [21., 24.]]]])
    """
    return _fractional(
        input, kernel_size, output_size, output_ratio, return_indices, _random_samples, 2
    )


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None,
                          return_indices=False, _random_samples=None):  # fmt: skip
    """The 3-D form of ``fractional_max_pool2d`` over (N, C, T, H, W) or (C, T, H, W)."""
    return _fractional(
        input, kernel_size, output_size, output_ratio, return_indices, _random_samples, 3
    )


def fractional_max_pool2d_with_indices(input, kernel_size, output_size=None,
                                       output_ratio=None, return_indices=False,
                                       _random_samples=None):  # fmt: skip
    return _fractional(input, kernel_size, output_size, output_ratio, True, _random_samples, 2)


def fractional_max_pool3d_with_indices(input, kernel_size, output_size=None,
                                       output_ratio=None, return_indices=False,
                                       _random_samples=None):  # fmt: skip
    return _fractional(input, kernel_size, output_size, output_ratio, True, _random_samples, 3)
