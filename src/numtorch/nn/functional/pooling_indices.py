"""The ``*_with_indices`` spellings of the max poolings: the same pools, always returning
``(values, indices)`` whatever ``return_indices`` says (as torch's)."""

from __future__ import annotations

from .pooling import (
    adaptive_max_pool1d,
    adaptive_max_pool2d,
    adaptive_max_pool3d,
    max_pool1d,
    max_pool2d,
    max_pool3d,
)


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=False):  # fmt: skip
    return max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=False):  # fmt: skip
    """``max_pool2d`` returning ``(values, indices)``.

    Example:
        >>> import numtorch as torch
        >>> x = torch.arange(16.0).reshape(1, 1, 4, 4)
        >>> torch.nn.functional.max_pool2d_with_indices(x, 2)[1]
        tensor([[[[ 5,  7],
                  [13, 15]]]])
    """
    return max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=False):  # fmt: skip
    return max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    return adaptive_max_pool1d(input, output_size, True)


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    return adaptive_max_pool2d(input, output_size, True)


def adaptive_max_pool3d_with_indices(input, output_size, return_indices=False):
    return adaptive_max_pool3d(input, output_size, True)
