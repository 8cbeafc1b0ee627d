"""Sampling an image at given points: ``grid_sampler`` (grad_fn ``GridSampler2DBackward0`` /
``GridSampler3DBackward0``) and ``affine_grid_generator`` (``AffineGridGeneratorBackward0``).

A grid point (x, y[, z]) in [-1, 1] names a location in the input's (W, H[, D]) pixels.
Bilinear (trilinear) sampling mixes the 2**d surrounding pixels with weights that are
products of the fractional offsets ``frac`` and ``1 - frac``; pixels outside the input read
as 0 (``padding_mode="zeros"``), or the location is first clamped (``"border"``) or
reflected (``"reflection"``) into the input. Bicubic sampling (2-D) mixes 4x4 taps with
Keys' cubic weights (A = -0.75) and pads each tap, not the location, as torch does.

The output is linear in the input, so its input gradient scatters ``grad * weight`` back to
the corners; its grid gradient is the sum over channels of ``grad * d out / d location``,
times the derivative of the location in the grid value (scale, clamp or reflection).
Both are written in numtorch ops on the same corner plan, so the node can be
differentiated again (with respect to input, grid and grad).
"""

from __future__ import annotations

import itertools
import math

from ..._core import grad_mode
from ..._core.op import defop
from ..._core.tensor import Tensor
from ...autograd.forward_grad import no_forward_derivative
from ...backend import xp
from .composite_backward import tensors_of, vjp

MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
PADDING_MODES = {"zeros": 0, "border": 1, "reflection": 2}


def _reflect(x, twice_low: int, twice_high: int):
    # torch's reflect_coordinates: fold x into [low, high] by mirror images
    if twice_low == twice_high:
        return x * 0
    low = twice_low / 2
    span = (twice_high - twice_low) / 2
    x = (x - low).abs()
    extra = x.fmod(span)
    flips = Tensor._make(xp.floor(x._data / span))
    even = Tensor._make(flips._data % 2 == 0)
    return (extra + low).where(even, span - extra + low)


def _location(coord, size: int, padding_mode: int, align_corners: bool):
    """Pixel coordinate (a differentiable Tensor) of the normalized grid coordinate."""
    if align_corners:
        x = (coord + 1) * ((size - 1) / 2)
    else:
        x = ((coord + 1) * size - 1) / 2
    if padding_mode == 0:
        return x
    with grad_mode.no_grad():
        if padding_mode == 2:
            if align_corners:
                x = _reflect(x, 0, 2 * (size - 1))
            else:
                x = _reflect(x, -1, 2 * size - 1)
        # torch's clip takes a NaN location (a NaN or infinite grid value) to 0
        x = x.clamp(0, size - 1).nan_to_num(0.0)
    # torch's kernels multiply the gradient by the location's slope, 0 where a clamp is
    # active: a NaN gradient stays NaN there (a clamp's backward would select 0); an
    # infinite grid value adds no inf - inf to the location
    slope = Tensor._make(_location_slope(coord._data, size, padding_mode, align_corners))
    finite = Tensor._make(xp.isfinite(coord._data))
    step = (coord - coord.detach()).where(finite, 0.0)
    return x + step * slope


def _location_slope(coord, size: int, padding_mode: int, align_corners: bool):
    """d location / d coord as torch's kernels compute it: zero where a clamp is active
    (boundaries included), -1 on mirrored stretches of a reflection."""
    scale = (size - 1) / 2 if align_corners else size / 2
    x = (coord + 1) * ((size - 1) / 2) if align_corners else ((coord + 1) * size - 1) / 2
    slope = xp.full(coord.shape, scale, coord.dtype)
    if padding_mode == 2:
        twice_low, twice_high = (0, 2 * (size - 1)) if align_corners else (-1, 2 * size - 1)
        if twice_low == twice_high:
            return slope * 0
        low, span = twice_low / 2, (twice_high - twice_low) / 2
        x = x - low
        sign = xp.where(x < 0, -1.0, 1.0)
        x = xp.abs(x)
        flips = xp.floor(x / span)
        odd = flips % 2 == 1
        slope = slope * xp.where(odd, -sign, sign)
        x = xp.where(odd, span - xp.fmod(x, span), xp.fmod(x, span)) + low
    if padding_mode in (1, 2):
        slope = xp.where((x <= 0) | (x >= size - 1), 0.0, slope)
    return slope.astype(coord.dtype)


_A = -0.75  # the cubic convolution constant torch uses


def _cubic_factor(t, tap: int):
    """Weight of tap -1, 0, 1, 2 (``tap`` 0..3) at fractional offset ``t`` (Keys' kernel)."""
    if tap == 0:
        x = t + 1
        return ((_A * x - 5 * _A) * x + 8 * _A) * x - 4 * _A
    if tap == 3:
        x = 2 - t
        return ((_A * x - 5 * _A) * x + 8 * _A) * x - 4 * _A
    x = t if tap == 1 else 1 - t
    return ((_A + 2) * x - (_A + 3)) * x * x + 1


def _cubic_slope(t, tap: int):
    """d/dt of ``_cubic_factor``."""
    if tap in (0, 3):
        x = t + 1 if tap == 0 else 2 - t
        slope = (3 * _A * x - 10 * _A) * x + 8 * _A
    else:
        x = t if tap == 1 else 1 - t
        slope = (3 * (_A + 2) * x - 2 * (_A + 3)) * x
    return slope if tap in (0, 1) else -slope


def _pad_tap(pixel, size: int, padding_mode: int, align_corners: bool):
    # bicubic taps are moved into the input one by one (the location itself is not)
    if padding_mode == 0:
        return pixel
    if padding_mode == 2:
        low, high = (0, 2 * (size - 1)) if align_corners else (-1, 2 * size - 1)
        pixel = _reflect(Tensor._make(pixel), low, high)._data
    return xp.clip(pixel, 0, size - 1)


class _Plan:
    """The sampling plan of one call: for each corner (bicubic: each of 4**d taps), flat
    pixel index, in-bounds mask and its per-axis offsets; for bilinear and bicubic, the
    per-axis fractions too, from which ``weight`` and ``slope`` are built."""

    def __init__(self, grid, sizes, mode, padding_mode, align_corners):
        n, d = grid.shape[0], grid.shape[-1]
        flat = grid.reshape(n, math.prod(grid.shape[1:-1]), d)
        self.cubic = mode == 2
        # axis k of the grid (x, y, z) addresses spatial dim d-1-k (W, H, D)
        locations = [
            _location(
                flat[..., k], sizes[d - 1 - k], 0 if self.cubic else padding_mode, align_corners
            )
            for k in range(d)
        ]
        strides = [int(xp.prod(sizes[d - k :])) for k in range(d)]
        self.corners = []
        if mode == 1:
            index, valid = 0, True
            for k, location in enumerate(locations):
                pixel = xp.round(location._data).astype(xp.int64)
                valid = valid & (pixel >= 0) & (pixel < sizes[d - 1 - k])
                index = index + pixel * strides[k]
            self.corners.append((index, valid, None))
            return
        bases = [xp.floor(location._data) for location in locations]
        self.fractions = [loc - Tensor._make(base) for loc, base in zip(locations, bases)]
        self.clamped = []  # each corner's index with its pixels clamped into the input
        for bits in itertools.product(range(4) if self.cubic else (0, 1), repeat=d):
            index, valid, clamped = 0, True, 0
            for k, bit in enumerate(bits):
                size = sizes[d - 1 - k]
                if self.cubic:
                    tap = _pad_tap(bases[k] + (bit - 1), size, padding_mode, align_corners)
                    pixel = tap.astype(xp.int64)
                else:
                    pixel = bases[k].astype(xp.int64) + bit
                valid = valid & (pixel >= 0) & (pixel < size)
                index = index + pixel * strides[k]
                clamped = clamped + xp.clip(pixel, 0, size - 1) * strides[k]
            self.corners.append((index, valid, bits))
            self.clamped.append(clamped)

    def factor(self, k, bit):
        if self.cubic:
            return _cubic_factor(self.fractions[k], bit)
        return self.fractions[k] if bit else 1 - self.fractions[k]

    def slope(self, k, bit):
        """d factor / d location along axis k."""
        if self.cubic:
            return _cubic_slope(self.fractions[k], bit)
        return 1 if bit else -1

    def weight(self, bits, skip=None):
        """Product of the per-axis factors of a corner (leaving out axis ``skip``)."""
        weight = None
        for k, bit in enumerate(bits):
            if k == skip:
                continue
            factor = self.factor(k, bit)
            weight = factor if weight is None else weight * factor
        return weight


def _index(index, valid, channels):
    # out-of-bounds corners read pixel 0 and are masked to zero afterwards
    safe = xp.where(valid, index, 0)
    return Tensor._make(xp.broadcast_to(safe[:, None, :], (safe.shape[0], channels, safe.shape[1])))


def _corner_values(input_flat, index, valid):
    outside = Tensor._make(
        xp.broadcast_to(
            ~valid[:, None, :], (valid.shape[0], *input_flat.shape[1:2], valid.shape[1])
        )
    )
    return input_flat.gather(2, _index(index, valid, input_flat.shape[1])).masked_fill(outside, 0)


def _sample(input, grid, mode, padding_mode, align_corners):
    n, c = input.shape[:2]
    plan = _Plan(grid, input.shape[2:], mode, padding_mode, align_corners)
    input_flat = input.reshape(n, c, math.prod(input.shape[2:]))
    out = None
    for index, valid, bits in plan.corners:
        term = _corner_values(input_flat, index, valid)
        if bits is not None:
            term = term * plan.weight(bits).unsqueeze(1)
        out = term if out is None else out + term
    return out.reshape(n, c, *grid.shape[1:-1])


def _grad_input(grad, grid, input_shape, mode, padding_mode, align_corners):
    n, c = input_shape[:2]
    plan = _Plan(grid, input_shape[2:], mode, padding_mode, align_corners)
    grad_flat = grad.reshape(n, c, math.prod(grad.shape[2:]))
    result = grad.new_zeros((n, c, int(xp.prod(input_shape[2:]))))
    for index, valid, bits in plan.corners:
        term = grad_flat
        if bits is not None:
            term = term * plan.weight(bits).unsqueeze(1)
        # an out-of-bounds corner adds nothing, as torch skips it (a NaN gradient times a
        # zero mask would land on pixel 0)
        outside = Tensor._make(xp.broadcast_to(~valid[:, None, :], term.shape))
        # in grad's dtype: a grid of another dtype meets it only where the output is empty,
        # and there torch's input gradient (and its double backward) is grad's
        term = term.masked_fill(outside, 0).to(result.dtype)
        result = result.scatter_add(2, _index(index, valid, c), term)
    return result.reshape(input_shape)


def _grad_grid(grad, input, grid, mode, padding_mode, align_corners):
    if mode == 1:  # nearest: piecewise constant in the grid
        return grid.new_zeros(grid.shape)
    n, c = input.shape[:2]
    d = grid.shape[-1]
    flat = grid.reshape(n, math.prod(grid.shape[1:-1]), d)
    plan = _Plan(grid, input.shape[2:], mode, padding_mode, align_corners)
    input_flat = input.reshape(n, c, math.prod(input.shape[2:]))
    grad_flat = grad.reshape(n, c, math.prod(grad.shape[2:]))
    values = [
        (bits, _corner_values(input_flat, index, valid)) for index, valid, bits in plan.corners
    ]
    parts = []
    for k in range(d):
        # chain rule through the location: the scale, clamp or reflection of grid value k
        # (bicubic pads its taps, not the location: only the scale applies)
        size = input.shape[2 + d - 1 - k]
        padding = 0 if plan.cubic else padding_mode
        scale = Tensor._make(_location_slope(flat[..., k]._data, size, padding, align_corners))
        if plan.cubic:
            parts.append(_cubic_grad_location(plan, values, grad_flat, k) * scale)
            continue
        if d == 3:
            parts.append(_trilinear_grad_location(plan, values, grad_flat, k) * scale)
            continue
        # d out / d location_k: the factor's slope on axis k times the other axes' factors
        slope = None
        for bits, value in values:
            other = plan.weight(bits, skip=k)
            term = value if other is None else value * other.unsqueeze(1)
            factor_slope = plan.slope(k, bits[k])
            if isinstance(factor_slope, Tensor):
                term = term * factor_slope.unsqueeze(1)
            elif factor_slope < 0:
                term = -term
            slope = term if slope is None else slope + term
        parts.append((grad_flat * slope).sum(1) * scale)
    return _stack(parts).reshape(grid.shape)


def _trilinear_grad_location(plan, values, grad_flat, k):
    """d loss / d location_k of trilinear sampling as torch's 3-D kernel sums it: one term
    value * (the other axes' factors) * grad per in-bounds corner and channel, added or
    subtracted by the slope's sign, so that an infinite gradient meeting values of both
    signs is NaN, as there (a corner outside the input adds nothing, not 0 * grad)."""
    total = None
    for (_, valid, bits), (_, value) in zip(plan.corners, values):
        term = value * plan.weight(bits, skip=k).unsqueeze(1) * grad_flat
        term = term.masked_fill(Tensor._make(xp.broadcast_to(~valid[:, None, :], term.shape)), 0)
        if plan.slope(k, bits[k]) < 0:
            term = -term
        total = term if total is None else total + term
    return total.sum(1)


def _cubic_grad_location(plan, values, grad_flat, k):
    """d loss / d location_k of bicubic sampling as torch's kernel sums it: one term
    value * grad * (per-axis factors, the slope on axis k) per tap and channel, so that an
    infinite gradient meeting a zero value or factor is NaN, as there."""
    total = None
    for bits, value in values:
        term = value * grad_flat
        for axis, bit in enumerate(bits):
            factor = plan.slope(axis, bit) if axis == k else plan.factor(axis, bit)
            term = term * factor.unsqueeze(1)
        total = term if total is None else total + term
    return total.sum(1)


def _stack(parts):
    from ..concatenation import stack

    return stack(parts, -1)


def check_sampler(input, grid):
    """torch's errors for mismatched input and grid shapes and dtypes."""
    for dim in range(2, input.ndim):
        if input.shape[dim] == 0:
            raise RuntimeError(
                "grid_sampler(): expected input to have non-empty spatial dimensions, but "
                f"input has sizes {list(input.shape)} with dimension {dim} being empty"
            )
    if not input.is_floating_point():
        raise NotImplementedError(
            f'"grid_sampler_{input.ndim - 2}d_cpu_kernel_impl" not implemented for '
            f"'{input.dtype._tag[:-6]}'"
        )
    # torch's kernel meets the dtypes only when it has an output element to compute
    empty = input.shape[0] * input.shape[1] * math.prod(grid.shape[1:-1]) == 0
    if input.dtype != grid.dtype and not empty:
        raise RuntimeError(
            f"expected scalar type {input.dtype._tag[:-6]} but found {grid.dtype._tag[:-6]}"
        )
    if input.shape[0] != grid.shape[0]:
        raise RuntimeError(
            "grid_sampler(): expected grid and input to have same batch size, but got input "
            f"with sizes {list(input.shape)} and grid with sizes {list(grid.shape)}"
        )
    d = input.ndim - 2
    if grid.shape[-1] != d:
        raise RuntimeError(
            f"grid_sampler(): expected grid to have size {d} in last dimension, but got grid "
            f"with sizes {list(grid.shape)}"
        )


def _forward(input, grid, mode, padding_mode, align_corners):
    # the dtypes match, but where the output is empty (check_sampler): it has the input's
    out = _sample(Tensor._make(input), Tensor._make(grid), mode, padding_mode, align_corners)
    return out._data.astype(input.dtype, copy=False)


# Note [grid_sampler's backward is one op]
# torch runs both gradients as one differentiable op, grid_sampler_<d>d_backward, whose edges
# are (grad_output, input, grid) even where a gradient does not depend on one of them: the
# first-order gradients require grad under create_graph=True and name its node
# (GridSampler2DBackwardBackward0). Here each gradient (``which``) is one op with that node;
# its derivatives are vector-Jacobian products of the same composite (composite_backward.py).
def _backward_composite(grad_output, input, grid, mode, padding_mode, align_corners, which):
    if which == "input":
        return _grad_input(grad_output, grid, input.shape, mode, padding_mode, align_corners)
    return _grad_grid(grad_output, input, grid, mode, padding_mode, align_corners)


def _double(k):
    def formula(grad, grad_output, input, grid, mode, padding_mode, align_corners, which):
        if which == "grid" and mode == 2 and 0 in grid.shape[1:-1]:
            # torch's bicubic double backward views its 16 taps per output point first
            raise RuntimeError(
                "cannot reshape tensor of 0 elements into shape "
                f"{[-1, *grid.shape[1:-1], 16]} because the unspecified dimension size -1 "
                "can be any value and is ambiguous"
            )
        wider = xp.result_type(input._data, grid._data) != input._data.dtype
        if which == "grid" and k == 1 and mode != 1 and wider:
            # torch scatters the grid gradient's input derivative, in the dtypes' promotion,
            # into zeros of the input's dtype (they differ only where the output is empty)
            raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")

        def composite(*tensors):
            return _backward_composite(*tensors, mode, padding_mode, align_corners, which)

        if grid.shape[-1] == 2 and which == "grid" and mode == 0:
            part = _BILINEAR_PARTS[k]  # Note [Bilinear double backward]
            return part(grad, grad_output, input, grid, padding_mode, align_corners)
        if grid.shape[-1] == 2 and which == "input" and k == 2:
            # the input gradient's grid derivative is the grid gradient of sampling grad,
            # which torch computes with its kernel
            return _grad_grid(grad_output, grad, grid, mode, padding_mode, align_corners)
        result = vjp(composite, (grad_output, input, grid), k, grad)
        if result is None and k == 2 and which == "input":
            # torch's formula for the input gradient's grid derivative is defined (zeros)
            # also where nothing depends on the grid (nearest)
            return grid.new_zeros(grid.shape)
        return result

    return formula


# Note [Bilinear double backward]
# torch differentiates bilinear 2-D sampling's grid gradient with its own formulas, not
# through the kernel: per output point it reads the four corner values (a corner outside
# the input at its clamped pixel, times 0) and each corner weight's slopes along x and y,
# dW/dx = [-(1-ty), 1-ty, -ty, ty] and dW/dy = [-(1-tx), -tx, 1-tx, tx] over the corners
# (y0 x0), (y0 x1), (y1 x0), (y1 x1), and g = (grad_x * slope_x, grad_y * slope_y) of the
# incoming grid gradient. Where an infinity meets them, which products are formed decides
# inf against NaN, so the three derivatives below form torch's products in torch's order.
_TORCH_CORNERS = ((0, 0), (1, 0), (0, 1), (1, 1))  # (x bit, y bit) in torch's order


class _Bilinear:
    def __init__(self, grad, input, grid, padding_mode, align_corners):
        n, c = input.shape[:2]
        self.n, self.c, self.points = n, c, math.prod(grid.shape[1:-1])
        self.plan = plan = _Plan(grid, input.shape[2:], 0, padding_mode, align_corners)
        clamped = dict(zip((bits for _, _, bits in plan.corners), plan.clamped))
        valid = {bits: v for _, v, bits in plan.corners}
        # (n, points, 4) in torch's corner order
        self.index = xp.stack([clamped[b] for b in _TORCH_CORNERS], -1)
        self.inside = xp.stack([valid[b] for b in _TORCH_CORNERS], -1)
        tx, ty = plan.fractions
        one_x, one_y = 1 - tx, 1 - ty
        self.dx = _stack4([-one_y, one_y, -ty, ty])
        self.dy = _stack4([-one_x, -tx, one_x, tx])
        flat = grid.detach().reshape(n, self.points, 2)._data
        self.slopes = [
            Tensor._make(
                _location_slope(flat[..., k], input.shape[3 - k], padding_mode, align_corners)
            )
            for k in range(2)
        ]
        wanted = grad.reshape(n, self.points, 2)
        self.g = [wanted[..., k] * self.slopes[k] for k in range(2)]

    def mask(self, dtype):
        return Tensor._make(self.inside[:, None].astype(dtype))

    def values(self, input):
        """(n, c, points, 4): the corner values, outside ones times 0."""
        n, c, points = self.n, self.c, self.points
        index = self.index.reshape(n, 1, points * 4)
        index = Tensor._make(xp.broadcast_to(index, (n, c, points * 4)))
        gathered = (
            input.reshape(n, c, math.prod(input.shape[2:]))
            .gather(2, index)
            .reshape(n, c, points, 4)
        )
        return gathered * self.mask(input._data.dtype)


def _stack4(parts):
    from ..concatenation import stack

    return stack(parts, -1)


def _bilinear_grad_output_part(grad, grad_output, input, grid, padding_mode, align_corners):
    """d <grad, grid gradient> / d grad_output: sum over corners of value * dW/dx times g_x,
    plus the same along y."""
    parts = _Bilinear(grad, input, grid, padding_mode, align_corners)
    values = parts.values(input)
    along_x = (values * parts.dx.unsqueeze(1)).sum(-1) * parts.g[0].unsqueeze(1)
    along_y = (values * parts.dy.unsqueeze(1)).sum(-1) * parts.g[1].unsqueeze(1)
    return (along_x + along_y).reshape(grad_output.shape)


def _bilinear_input_part(grad, grad_output, input, grid, padding_mode, align_corners):
    """d <grad, grid gradient> / d input: grad_output times each corner's weight
    g_x dW/dx + g_y dW/dy, times 0 outside, scattered to the corners' pixels at once."""
    parts = _Bilinear(grad, input, grid, padding_mode, align_corners)
    n, c, points = parts.n, parts.c, parts.points
    weight = parts.g[0].unsqueeze(-1) * parts.dx + parts.g[1].unsqueeze(-1) * parts.dy
    terms = grad_output.reshape(n, c, points, 1) * weight.unsqueeze(1)
    terms = (terms * parts.mask(terms._data.dtype)).reshape(n, c, points * 4)
    index = Tensor._make(xp.broadcast_to(parts.index.reshape(n, 1, points * 4), (n, c, points * 4)))
    result = input.new_zeros((n, c, math.prod(input.shape[2:])))
    return result.scatter_add(2, index, terms.to(result.dtype)).reshape(input.shape)


def _bilinear_grid_part(grad, grad_output, input, grid, padding_mode, align_corners):
    """d <grad, grid gradient> / d grid: each location's factors are linear in it, so only
    the mixed derivative is left, the same for both axes, S = sum over channels of
    grad_output * (v00 - v01 - v10 + v11). Axis x gets slope_x * g_y * S and y its mirror;
    the diagonal terms are not formed (an infinite S meets a zero grad only across axes)."""
    with grad_mode.no_grad():
        parts = _Bilinear(grad.detach(), input.detach(), grid.detach(), padding_mode, align_corners)
    parts.g = [grad.reshape(parts.n, parts.points, 2)[..., k] * parts.slopes[k] for k in range(2)]
    values = parts.values(input)
    v = [values[..., j] for j in range(4)]
    mixed = v[0] - v[1] - v[2] + v[3]
    total = (grad_output.reshape(parts.n, parts.c, parts.points) * mixed).sum(1)
    x = parts.slopes[0] * parts.g[1] * total
    y = parts.slopes[1] * parts.g[0] * total
    return _stack([x, y]).reshape(grid.shape)


_BILINEAR_PARTS = (_bilinear_grad_output_part, _bilinear_input_part, _bilinear_grid_part)


def _register(dims: int):
    @defop(
        name=f"grid_sampler_{dims}d_backward",
        node=f"GridSampler{dims}DBackwardBackward0",
        grad_output=_double(0),
        input=_double(1),
        grid=_double(2),
        jvp=no_forward_derivative(f"grid_sampler_{dims}d_backward"),
    )
    def backward(grad_output, input, grid, mode, padding_mode, align_corners, which):
        # each gradient has its input's dtype (they differ only where the output is empty)
        dtype = (input if which == "input" else grid).dtype
        arrays = (a.astype(dtype, copy=False) for a in (grad_output, input, grid))
        with grad_mode.no_grad():
            out = _backward_composite(
                *tensors_of(*arrays), mode, padding_mode, align_corners, which
            )
        return out._data

    @defop(
        name=f"grid_sampler_{dims}d",
        node=f"GridSampler{dims}DBackward0",
        input=lambda grad, input, grid, mode, padding_mode, align_corners: backward(
            grad, input, grid, mode, padding_mode, align_corners, "input"
        ),
        grid=lambda grad, input, grid, mode, padding_mode, align_corners: backward(
            grad, input, grid, mode, padding_mode, align_corners, "grid"
        ),
        jvp=no_forward_derivative(f"grid_sampler_{dims}d"),
    )
    def grid_sampler(input, grid, mode=0, padding_mode=0, align_corners=False):
        with grad_mode.no_grad():
            return _forward(input, grid, mode, padding_mode, align_corners)

    return grid_sampler


grid_sampler_2d = _register(2)
grid_sampler_3d = _register(3)


def _base_grid(size, align_corners, dtype):
    """(prod(spatial), d + 1) rows [x, y(, z), 1] of the pixel centres, x varying fastest."""
    spatial = size[2:]
    axes = []
    for n in spatial:
        if n == 1:
            axes.append(xp.zeros(1, dtype))
        else:
            steps = xp.linspace(-1, 1, n, dtype=dtype)
            axes.append(steps if align_corners else steps * (n - 1) / n)
    mesh = xp.meshgrid(*axes, indexing="ij")
    coords = [m.reshape(-1) for m in reversed(mesh)]  # x (last dim) first
    return xp.stack(coords + [xp.ones_like(coords[0])], axis=1)


def _affine_grad(grad, theta_shape, size, align_corners):
    base = Tensor._make(_base_grid(size, align_corners, grad._data.dtype))
    n, d = theta_shape[0], theta_shape[1]
    # grid = base @ theta^T, so dtheta = grad^T @ base
    return grad.reshape(n, -1, d).transpose(1, 2) @ base


@defop(
    name="affine_grid_generator",
    node="AffineGridGeneratorBackward0",
    theta=lambda grad, theta_shape, size, align_corners: _affine_grad(
        grad, theta_shape, size, align_corners
    ),
    jvp="linear",
)
def affine_grid_op(theta, size, align_corners):
    base = _base_grid(size, align_corners, theta.dtype)
    grid = xp.matmul(base, theta.transpose(0, 2, 1))
    return grid.reshape(size[0], *size[2:], theta.shape[1])
