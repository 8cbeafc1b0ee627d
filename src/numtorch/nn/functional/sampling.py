"""``grid_sample`` and ``affine_grid`` of ``numtorch.nn.functional``: spatial transformers."""

from __future__ import annotations

import warnings

from ..._core.tensor import Tensor, _read_dim
from ...ops.nn.grid_sample import (
    MODES,
    PADDING_MODES,
    affine_grid_op,
    check_sampler,
    grid_sampler_2d,
    grid_sampler_3d,
)

_ALIGN_CORNERS_WARNING = (
    "Default grid_sample and affine_grid behavior has changed to align_corners=False since "
    "1.3.0. Please specify align_corners=True if the old behavior is desired. See the "
    "documentation of grid_sample for details."
)


def grid_sample(
    input: Tensor,
    grid: Tensor,
    mode: str = "bilinear",
    padding_mode: str = "zeros",
    align_corners: bool | None = None,
) -> Tensor:
    """Sample ``input`` (N, C, H, W) at the locations ``grid`` (N, H_out, W_out, 2) holds,
    in [-1, 1] coordinates (x along W first); 5-D inputs take (N, D, H, W, 3) grids.

    Example:
        >>> import numtorch as torch
        >>> image = torch.arange(4.0).reshape(1, 1, 2, 2)
        >>> grid = torch.tensor([[[[0.0, 0.0], [-1.0, -1.0]]]])
        >>> torch.nn.functional.grid_sample(image, grid, align_corners=True)
        tensor([[[[1.5000, 0.0000]]]])
    """
    if mode not in MODES:
        raise ValueError(
            "nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or "
            f"'bicubic', but got: '{mode}'"
        )
    if padding_mode not in PADDING_MODES:
        raise ValueError(
            "nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
            f"'reflection', but got: '{padding_mode}'"
        )
    if align_corners is None:
        warnings.warn(_ALIGN_CORNERS_WARNING, stacklevel=2)
        align_corners = False
    if 0 in (input.ndim, grid.ndim):  # torch reads a size of each first
        _read_dim(0, 0)
    if input.ndim not in (4, 5) or input.ndim != grid.ndim:
        expected = f"{input.ndim}D" if input.ndim in (4, 5) else "4D or 5D"
        raise RuntimeError(
            f"grid_sampler(): expected {expected} input and grid with same number of dimensions, "
            f"but got input with sizes {list(input.shape)} and grid with sizes "
            f"{list(grid.shape)}"
        )
    check_sampler(input, grid)
    if mode == "bicubic" and input.ndim == 5:
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    sampler = grid_sampler_2d if input.ndim == 4 else grid_sampler_3d
    return sampler(input, grid, MODES[mode], PADDING_MODES[padding_mode], bool(align_corners))


def affine_grid(theta: Tensor, size, align_corners: bool | None = None) -> Tensor:
    """The sampling grid (N, H, W, 2) (or (N, D, H, W, 3)) of the affine maps ``theta``
    (N, 2, 3) (or (N, 3, 4)) over an output of ``size``, for ``grid_sample``.

    Example:
        >>> import numtorch as torch
        >>> theta = torch.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
        >>> torch.nn.functional.affine_grid(theta, [1, 1, 1, 2], align_corners=False)
        tensor([[[[-0.5000,  0.0000],
                  [ 0.5000,  0.0000]]]])
    """
    if align_corners is None:
        warnings.warn(_ALIGN_CORNERS_WARNING, stacklevel=2)
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    size = list(size)
    if len(size) == 4:
        if theta.dim() != 3 or theta.shape[-2] != 2 or theta.shape[-1] != 3:
            raise ValueError(
                f"Expected a batch of 2D affine matrices of shape Nx2x3 for size {size}. "
                f"Got {theta.shape}."
            )
        spatial = size[-2:]
    elif len(size) == 5:
        if theta.dim() != 3 or theta.shape[-2] != 3 or theta.shape[-1] != 4:
            raise ValueError(
                f"Expected a batch of 3D affine matrices of shape Nx3x4 for size {size}. "
                f"Got {theta.shape}."
            )
        spatial = size[-3:]
    else:
        raise NotImplementedError(
            "affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
            f"respectively. Got size {size}."
        )
    if align_corners and min(spatial) == 1:
        warnings.warn(
            "Since version 1.3.0, affine_grid behavior has changed for unit-size grids when "
            "align_corners=True. This is not an intended use case of affine_grid. See the "
            "documentation of affine_grid for details.",
            stacklevel=2,
        )
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    if theta.shape[0] != size[0]:
        raise RuntimeError(
            f"Expected theta to have the batch size of the output, {size[0]}, "
            f"but got {theta.shape[0]}"
        )
    return affine_grid_op(theta, tuple(size), bool(align_corners))
