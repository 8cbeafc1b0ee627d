"""Numerical integration (trapezoid, cumulative_trapezoid), covariance and correlation,
histograms, and ``renorm``, composed from differentiable ops as torch composes them."""

from __future__ import annotations

import math
import warnings

from .._core import dtypes as _dtypes
from .._core.kernel_dtypes import FLOATING, kernel
from .._core.op import defop, export
from .._core.tensor import Tensor, _wrap_dim
from .._creation import linspace, zeros
from ..autograd.forward_grad import batch_shift, batched, not_implemented_jvp
from ..backend import xp
from .complex import complex_
from .concatenation import cat
from .indexing import narrow_slice
from .normal import _mul_scalar
from .norms import _norm_backward
from .pointwise import _conj, _div_scalar, where
from .return_types import structseq


# -- trapezoid rule --------------------------------------------------------------------------
def _spacing(y, x, dim):
    """Differences of the sample points ``x``, shaped to broadcast against ``y``'s."""
    if x.ndim == 1:
        if x.shape[0] != y.shape[dim]:
            raise RuntimeError("trapezoid: There must be one `x` value for each sample point")
        shape = [1] * y.ndim
        shape[dim] = x.shape[0]
        x = x.view(shape)
    elif x.ndim < y.ndim:
        x = x.view((1,) * (y.ndim - x.ndim) + tuple(x.shape))
    return narrow_slice(x, dim, 1, x.shape[dim]) - narrow_slice(x, dim, 0, x.shape[dim] - 1)


def _as_float(y):
    """Integers as the default float dtype (torch's Scalar arithmetic promotes them); floats
    and complex numbers as they are."""
    if y.dtype.is_floating_point or y.dtype.is_complex:
        return y
    return y.to(_dtypes.get_default_dtype())


def _check_trapezoid(y, name):
    if y._data.dtype == xp.bool_:
        raise RuntimeError(f"{name}: received a bool input for `y`, but bool is not supported")


@export(method=False)
def trapezoid(y, x=None, *, dx=None, dim=-1) -> Tensor:
    """The trapezoid rule along ``dim``: sample points ``x`` (a tensor) or spacing ``dx``.

    Example:
        >>> import numtorch as torch
        >>> torch.trapezoid(torch.tensor([1.0, 2.0, 3.0]))
        tensor(4.)
    """
    if x is not None and not isinstance(x, Tensor):
        raise TypeError(
            "trapezoid() received an invalid combination of arguments - got (Tensor, "
            f"{type(x).__name__}), but expected one of:\n * (Tensor y, Tensor x, *, int dim = -1)"
            "\n * (Tensor y, *, Number dx = 1, int dim = -1)\n"
        )
    dim = _wrap_dim(dim, y.ndim)
    if y.shape[dim] == 0:
        shape = [s for d, s in enumerate(y.shape) if d != dim]
        return zeros(shape, dtype=y.dtype)
    _check_trapezoid(y, "trapezoid")
    y = _as_float(y)
    if isinstance(x, Tensor):
        left, right = narrow_slice(y, dim, 0, y.shape[dim] - 1), narrow_slice(y, dim, 1, None)
        return _div_scalar((_spacing(y, x, dim) * (right + left)).sum(dim), 2.0)
    step = 1 if dx is None else dx
    # constant spacing simplifies to dx * (sum - (first + last) / 2)
    ends = _mul_scalar(y.select(dim, 0) + y.select(dim, -1), 0.5)
    return _mul_scalar(y.sum(dim) - ends, step)


@export(method=False)
def trapz(y, x=None, *, dx=None, dim=-1) -> Tensor:
    """Alias of :func:`trapezoid`."""
    return trapezoid(y, x, dx=dx, dim=dim)


@export(method=False)
def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1) -> Tensor:
    """Running trapezoid-rule integral along ``dim`` (one element shorter than ``y``)."""
    dim = _wrap_dim(dim, y.ndim)
    _check_trapezoid(y, "cumulative_trapezoid")
    y = _as_float(y)
    left, right = narrow_slice(y, dim, 0, y.shape[dim] - 1), narrow_slice(y, dim, 1, None)
    if isinstance(x, Tensor):
        return _div_scalar((_spacing(y, x, dim) * (left + right)).cumsum(dim), 2.0)
    step = 1 if dx is None else dx
    return _mul_scalar(left + right, step / 2.0).cumsum(dim)


# -- gradient (finite differences) ----------------------------------------------------------
def _edges_and_center(y, d, step, edge_order):
    """torch's second-order central differences inside, one-sided ones at both ends, for a
    uniform ``step`` (a number) along dim ``d``."""

    def part(start, end=None):  # y[..., start:end] along d; negative positions count back
        return narrow_slice(y, d, start, end)

    center = _div_scalar(_div_scalar(part(2) - part(0, -2), step), 2)
    if edge_order == 1:
        first = _div_scalar(part(1, 2) - part(0, 1), step)
        last = _div_scalar(part(-1) - part(-2, -1), step)
    else:
        first = _div_scalar(-1.5 * part(0, 1) + 2 * part(1, 2) - 0.5 * part(2, 3), step)
        last = _div_scalar(0.5 * part(-3, -2) - 2 * part(-2, -1) + 1.5 * part(-1), step)
    return cat([first, center, last], d)


def _edges_and_center_at(y, d, coordinates, edge_order):
    """The same for sample ``coordinates`` along dim ``d`` (non-uniform spacing)."""

    def part(start, end=None):  # y[..., start:end] along d; negative positions count back
        return narrow_slice(y, d, start, end)

    shape = [1] * y.ndim
    shape[d] = -1
    dx = coordinates.diff()
    dx1, dx2 = dx[:-1], dx[1:]
    a = (-dx2 / (dx1 * (dx1 + dx2))).reshape(shape)
    b = ((dx2 - dx1) / (dx1 * dx2)).reshape(shape)
    c = (dx1 / (dx2 * (dx1 + dx2))).reshape(shape)
    center = a * part(0, -2) + b * part(1, -1) + c * part(2)
    if edge_order == 1:
        first = (part(1, 2) - part(0, 1)) / dx[0]
        last = (part(-1) - part(-2, -1)) / dx[-1]
    else:
        first_a = -(2 * dx[0] + dx[1]) / (dx[0] * (dx[0] + dx[1]))
        first_b = (dx[0] + dx[1]) / (dx[0] * dx[1])
        first_c = -dx[0] / (dx[1] * (dx[0] + dx[1]))
        first = first_a * part(0, 1) + first_b * part(1, 2) + first_c * part(2, 3)
        last_a = dx[-1] / (dx[-2] * (dx[-1] + dx[-2]))
        last_b = -(dx[-1] + dx[-2]) / (dx[-1] * dx[-2])
        last_c = (2 * dx[-1] + dx[-2]) / (dx[-1] * (dx[-1] + dx[-2]))
        last = last_a * part(-3, -2) + last_b * part(-2, -1) + last_c * part(-1)
    return cat([first, center, last], d)


@export(method=False)
def gradient(input, *, spacing=1, dim=None, edge_order=1):
    """Finite-difference estimates of the derivative along each of ``dim`` (all dims by
    default): central differences inside, one-sided at the ends; ``spacing`` is a step
    (number), one step per dim, or the sample coordinates (tensors), one per dim.

    Example:
        >>> import numtorch as torch
        >>> torch.gradient(torch.tensor([1.0, 4.0, 9.0, 16.0]))
        (tensor([3., 4., 6., 7.]),)
    """
    if edge_order not in (1, 2):
        raise RuntimeError(
            f"torch.gradient only supports edge_order=1 and edge_order=2, but got {edge_order}."
        )
    dims = list(range(input.ndim)) if dim is None else [dim] if isinstance(dim, int) else list(dim)
    dims = [_wrap_dim(d, input.ndim) for d in dims]
    steps = list(spacing) if isinstance(spacing, (list, tuple)) else [spacing] * len(dims)
    if len(steps) != len(dims):
        raise RuntimeError(
            "torch.gradient expected spacing to be unspecified, a scalar or it's spacing and "
            f"dim arguments to have the same length, but got a spacing argument of length "
            f"{len(steps)} and a dim argument of length {len(dims)}."
        )
    for d in dims:
        if input.shape[d] < edge_order + 1:
            raise RuntimeError(
                "torch.gradient expected each dimension size to be at least edge_order+1"
            )
    y = _as_float(input)
    return tuple(
        _edges_and_center_at(y, d, step, edge_order)
        if isinstance(step, Tensor)
        else _edges_and_center(y, d, step.item() if isinstance(step, Tensor) else step, edge_order)
        for d, step in zip(dims, steps)
    )


# -- covariance and correlation --------------------------------------------------------------
def _check_weights(w, name, kind, observations):
    if w.ndim > 1:
        raise RuntimeError(
            f"cov(): expected {name} to have one or fewer dimensions but got {name} with "
            f"{w.ndim} dimensions"
        )
    if w._data.dtype.kind not in kind:
        what = "integral" if kind == "iu" else "floating point"
        raise RuntimeError(
            f"cov(): expected {name} to have {what} dtype but got {name} with "
            f"{w.dtype.scalar_name} dtype"
        )
    if w.numel() != observations:
        raise RuntimeError(
            f"cov(): expected {name} to have the same numel as there are observations in the "
            f"input but got {w.numel()} != {observations}"
        )
    # torch checks all(w >= 0): a NaN weight is refused as a negative one
    if observations and not (w._data >= 0).all():
        raise RuntimeError(f"cov(): {name} cannot be negative")


@export
def cov(input, *, correction=1, fweights=None, aweights=None) -> Tensor:
    """Covariance of the rows (variables) over the columns (observations), optionally
    weighted by frequencies and importance weights.

    Example:
        >>> import numtorch as torch
        >>> torch.cov(torch.tensor([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]]))
        tensor([[ 1., -1.],
                [-1.,  1.]])
    """
    if input.ndim > 2:
        raise RuntimeError(
            "cov(): expected input to have two or fewer dimensions but got an input with "
            f"{input.ndim} dimensions"
        )
    if input._data.dtype == xp.bool_:
        raise RuntimeError("cov(): bool dtype is not supported for input")
    x = input.view(1, -1) if input.ndim < 2 else input
    observations = x.shape[1]
    w = None
    if fweights is not None:
        _check_weights(fweights, "fweights", "iu", observations)
        w = fweights
    if aweights is not None:
        _check_weights(aweights, "aweights", "fV", observations)
        w = aweights if w is None else w * aweights
    w_sum = w.sum() if w is not None else Tensor._make(xp.asarray(observations, xp.int64))
    if w is not None and not w_sum.item():
        raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    avg = (x * w if w is not None else x).sum(1) / w_sum
    if w is not None and aweights is not None and correction != 0:
        norm_factor = w_sum - correction * (w * aweights).sum() / w_sum
    else:
        norm_factor = w_sum - correction
    if norm_factor.item() <= 0:
        warnings.warn(
            "cov(): degrees of freedom is <= 0. Correction should be strictly less than the "
            "number of observations.",
            UserWarning,
            stacklevel=2,
        )
        norm_factor = norm_factor * 0
    x = x - avg.unsqueeze(1)
    other = (x * w if w is not None else x).t()
    # the covariance of complex variables conjugates the second factor: E[(x - mu)(y - nu)*]
    c = x.mm(other.conj() if other.is_complex() else other)
    return (c / norm_factor).squeeze()


@export
def corrcoef(input) -> Tensor:
    """Pearson correlation coefficients of the rows, clipped to ``[-1, 1]``."""
    if input.ndim > 2:
        raise RuntimeError(
            "corrcoef(): expected input to have two or fewer dimensions but got an input with "
            f"{input.ndim} dimensions"
        )
    c = cov(input)
    if c.ndim == 0:  # one variable: 1, or NaN when its variance is 0, inf or NaN
        return c / c
    stddev = c.diagonal().sqrt()
    c = c / stddev.view(-1, 1)
    c = c / stddev.view(1, -1)
    if c.is_complex():  # clip has no complex form: torch clips the two parts
        return complex_(c.real.clip(-1, 1), c.imag.clip(-1, 1))
    return c.clip(-1, 1)


# -- histogram -------------------------------------------------------------------------------
histogram_type = structseq("histogram", ("hist", "bin_edges"))


@export
def histogram(input, bins=100, *, range=None, weight=None, density=False):
    """Counts (or weight sums) of ``input``'s elements in ``bins`` equal bins (100 unless
    given, as torch's) over ``range`` (default: the data's min to max), or between the
    edges in a ``bins`` tensor.

    Example:
        >>> import numtorch as torch
        >>> torch.histogram(torch.tensor([1.0, 2.0, 1.0]), bins=2, range=(0.0, 2.0))
        torch.return_types.histogram(
        hist=tensor([0., 3.]),
        bin_edges=tensor([0., 1., 2.]))
    """
    data = input._data
    if data.dtype.kind not in "fV":
        name = _dtypes.from_numpy_dtype(data.dtype).scalar_name
        raise NotImplementedError(f"\"histogramdd\" not implemented for '{name}'")
    if isinstance(bins, Tensor):
        if bins._data.dtype != data.dtype:
            raise RuntimeError(
                "torch.histogramdd: input tensor and bins tensors should have the same dtype, "
                f"but got input with dtype {input.dtype.scalar_name} and bins for dimension 0 "
                f"with dtype {bins.dtype.scalar_name}"
            )
        edges = bins.detach().clone()
    else:
        if range is not None:
            low, high = float(range[0]), float(range[1])
        elif data.size:
            low, high = float(data.min()), float(data.max())
        else:
            low, high = 0.0, 1.0
        if not (math.isfinite(low) and math.isfinite(high)):
            raise RuntimeError(
                f"torch.histogramdd: dimension 0's range [{low:g}, {high:g}] is not finite"
            )
        if low > high:
            raise RuntimeError(
                f"torch.histogramdd: min should not exceed max, but got min {low:g} max "
                f"{high:g} for dimension 0"
            )
        if low == high:  # one point: a unit-wide range centred on it
            low, high = low - 0.5, high + 0.5
        edges = linspace(low, high, int(bins) + 1, dtype=input.dtype)
    if weight is not None and weight._data.dtype != data.dtype:
        raise RuntimeError(
            "torch.histogramdd: if weight tensor is provided, input tensor and weight tensor "
            f"should have the same dtype, but got input({input.dtype.scalar_name}), and "
            f"weight({weight.dtype.scalar_name})"
        )
    if weight is not None and weight._data.shape != data.shape:
        raise RuntimeError(
            "torch.histogramdd: if weight tensor is provided it should have the same shape as "
            "the input tensor excluding its innermost dimension"
        )
    weights = None if weight is None else weight._data.reshape(-1)
    hist = _bin_sums(data.reshape(-1), edges._data, weights).astype(data.dtype)
    if density:
        widths = edges._data[1:] - edges._data[:-1]
        hist = hist / (hist.sum() * widths)
    return _histogram_outputs(input, hist, edges._data)


def _bin_sums(values, edges, weights):
    """Each bin's count or weight sum, the last bin closed on the right. Each weight is added
    into its bin, as torch's kernel does: NumPy's histogram subtracts running sums of the
    sorted weights, so one infinite weight made every later bin inf - inf = NaN."""
    index = xp.searchsorted(edges, values, side="right") - 1
    index[values == edges[-1]] = edges.size - 2
    inside = (index >= 0) & (index < edges.size - 1)  # NaN sorts last: outside
    weights = None if weights is None else weights[inside]
    return xp.bincount(index[inside], weights=weights, minlength=edges.size - 1)


def _no_histogram_derivative(grads):
    raise RuntimeError("derivative for aten::histogram is not implemented")


# torch records a node that refuses backward (grad_fn=<NotImplemented>) on both outputs
@defop(
    name="histogram",
    dtypes=kernel("histogramdd", FLOATING),
    node="NotImplemented",
    outputs=2,
    returns=histogram_type,
    input=_no_histogram_derivative,
    jvp=not_implemented_jvp("histogram"),
)
def _histogram_outputs(input, hist, edges):
    return hist, edges.copy()


# -- histogramdd -----------------------------------------------------------------------------
histogramdd_type = structseq("histogramdd", ("hist", "bin_edges"))


def _histogramdd_edges(input, data, bins, range):
    """One edge tensor per dim of the innermost axis, as torch.histogram makes them."""
    D = data.shape[-1]
    if isinstance(bins, int):
        bins = [bins] * D
    if len(bins) != D:
        raise RuntimeError(
            "histogramdd: The size of bins must be equal to the innermost dimension of the input."
        )
    if range is not None and len(range) != 2 * D:
        raise RuntimeError(
            f"torch.histogramdd: for a {D}-dimensional histogram range should have {2 * D} "
            f"elements, but got {len(range)}"
        )
    edges = []
    for d, b in enumerate(bins):
        if isinstance(b, Tensor):
            if b._data.dtype != data.dtype:
                raise RuntimeError(
                    "torch.histogramdd: input tensor and bins tensors should have the same "
                    f"dtype, but got input with dtype {input.dtype.scalar_name} and bins for "
                    f"dimension {d} with dtype {b.dtype.scalar_name}"
                )
            edges.append(b._data.copy())
            continue
        column = data[..., d]
        if range is not None:
            low, high = float(range[2 * d]), float(range[2 * d + 1])
        elif column.size:
            low, high = float(column.min()), float(column.max())
        else:
            low, high = 0.0, 1.0
        if not (math.isfinite(low) and math.isfinite(high)):
            raise RuntimeError(
                f"torch.histogramdd: dimension {d}'s range [{low:g}, {high:g}] is not finite"
            )
        if low > high:
            raise RuntimeError(
                f"torch.histogramdd: min should not exceed max, but got min {low:g} max "
                f"{high:g} for dimension {d}"
            )
        if low == high:  # one point: a unit-wide range centred on it
            low, high = low - 0.5, high + 0.5
        edges.append(linspace(low, high, int(b) + 1, dtype=input.dtype)._data)
    for d, e in enumerate(edges):
        if e.ndim != 1:
            raise RuntimeError(
                f"torch.histogramdd: bins tensor should have one dimension, but got {e.ndim} "
                f"dimensions in the bins tensor for dimension {d}"
            )
        if not e.size:
            raise RuntimeError(
                "torch.histogramdd: bins tensor should have at least 1 element, but got 0 "
                f"elements in the bins tensor for dimension {d}"
            )
    for d, e in enumerate(edges):
        if e.size == 1:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got 0 for dimension {d}")
    return edges


@export(method=False)  # torch has no Tensor.histogramdd
def histogramdd(input, bins, *, range=None, weight=None, density=False):
    """The D-dimensional histogram of the points in ``input`` (..., D): counts (or weight
    sums, or densities) per cell, and each dim's bin edges.

    Example:
        >>> import numtorch as torch
        >>> torch.histogramdd(torch.tensor([[0.0, 1.0], [1.0, 1.0]]), bins=[2, 1]).hist
        tensor([[1.],
                [1.]])
    """
    data = input._data
    if data.dtype.kind not in "fV":
        name = _dtypes.from_numpy_dtype(data.dtype).scalar_name
        raise NotImplementedError(f"\"histogramdd\" not implemented for '{name}'")
    if data.ndim < 2:
        raise RuntimeError("torch.histogramdd: input tensor should have at least 2 dimensions")
    edges = _histogramdd_edges(input, data, bins, range)
    if weight is not None:
        if weight._data.dtype != data.dtype:
            raise RuntimeError(
                "torch.histogramdd: if weight tensor is provided, input tensor and weight "
                f"tensor should have the same dtype, but got input({input.dtype.scalar_name}), "
                f"and weight({weight.dtype.scalar_name})"
            )
        if weight._data.shape != data.shape[:-1]:
            raise RuntimeError(
                "torch.histogramdd: if weight tensor is provided it should have the same shape "
                "as the input tensor excluding its innermost dimension"
            )
    hist, *edges = _histogramdd(input, weight, tuple(edges), bool(density))
    return histogramdd_type(hist, tuple(edges))


def _upper_bound(edges, values):
    """Per value, C++'s std::upper_bound over ``edges`` (torch's bin search): the same binary
    search steps even when the edges are not sorted, where NumPy's searchsorted differs."""
    first = xp.zeros(values.shape, dtype=xp.intp)
    count = xp.full(values.shape, len(edges), dtype=xp.intp)
    while count.any():
        step = count // 2
        probe = xp.minimum(first + step, len(edges) - 1)
        with xp.errstate(invalid="ignore"):
            right = (count > 0) & ~(values < edges[probe])
        first = xp.where(right, first + step + 1, first)
        count = xp.where(right, count - step - 1, step)
    return first


def _histogramdd_counts(input, weight, edges):
    """Bin the points as torch does, whatever the edges: a point lies in the histogram when
    each coordinate is within its dim's first and last edges (a NaN edge, as a float32 range
    overflowing in linspace gives, keeps every point out), and falls in the last bin whose left
    edge it reaches (the last edge closes the last bin). NumPy's histogramdd refuses edges that
    are not increasing instead."""
    points = input.reshape(-1, input.shape[-1])
    keep = xp.ones(points.shape[0], dtype=bool)
    cells = []
    for d, e in enumerate(edges):
        column = points[:, d]
        with xp.errstate(invalid="ignore"):
            keep &= (column >= e[0]) & (column <= e[-1])
        cells.append(xp.minimum(_upper_bound(e, column) - 1, len(e) - 2))
    shape = tuple(len(e) - 1 for e in edges)
    flat = xp.ravel_multi_index(tuple(c[keep] for c in cells), shape)
    weights = None if weight is None else weight.reshape(-1)[keep]
    counts = xp.bincount(flat, weights=weights, minlength=math.prod(shape))
    return counts.reshape(shape).astype(input.dtype)


def _no_histogramdd_derivative(grads):
    raise RuntimeError("derivative for aten::_histogramdd_from_bin_cts is not implemented")


# torch records a node that refuses backward (grad_fn=<NotImplemented>) on every output
@defop(
    name="histogramdd",
    dtypes=kernel("histogramdd", FLOATING),
    aten="_histogramdd_from_bin_cts",
    schema_args=5,
    node="NotImplemented",
    outputs="many",
    input=_no_histogramdd_derivative,
    weight=_no_histogramdd_derivative,
    jvp=not_implemented_jvp("_histogramdd_bin_edges"),
)
def _histogramdd(input, weight, edges, density):
    hist = _histogramdd_counts(input, weight, edges)
    if density:
        volume = xp.ones((), input.dtype)
        for d, e in enumerate(edges):
            shape = [1] * len(edges)
            shape[d] = -1
            volume = volume * (e[1:] - e[:-1]).reshape(shape)
        hist = hist / (hist.sum() * volume)
    return (hist, *(e.copy() for e in edges))


# -- renorm ----------------------------------------------------------------------------------
_RENORM_EPS = 1e-7


def _renorm_parts(input, p, dim, maxnorm):
    """The slice norms and the scale torch applies: ``maxnorm / (norm + 1e-7)`` where a
    slice's norm exceeds ``maxnorm``, else 1."""
    dims = tuple(d for d in range(input.ndim) if d != dim)
    norm = input.abs().pow(p).sum(dims, keepdim=True).pow(1.0 / p)
    factor = where(norm > maxnorm, maxnorm / (norm + _RENORM_EPS), 1.0)
    return dims, norm, factor


def _renorm_backward(grad, input, p, dim, maxnorm):
    # torch's renorm_backward: with f = maxnorm / (norm + eps), d(x f) = f grad - f/(norm + eps)
    # times the norm's gradient of <x, grad>; slices left as they were (a norm not above
    # maxnorm, or NaN) pass grad through untouched
    dims, norm, _ = _renorm_parts(input, p, dim, maxnorm)
    along = _conj(input) * grad
    if along.is_complex():  # the norm is real: the real part of <x, grad> moves it
        along = along.real
    along = along.sum(dims, keepdim=True)
    norm_grad = _norm_backward(along, input, norm, p, dims, True)
    inverse = (norm + _RENORM_EPS).reciprocal()
    factor = inverse * maxnorm
    return where(norm > maxnorm, grad * factor + norm_grad * (-factor * inverse), grad)


@batched
def _renorm_jvp(input_t, input, p, dim, maxnorm):
    # d(x f(|x|_p)) = f dx + x f'(norm) dnorm, dnorm = sum(sign(x) |x / norm|**(p-1) dx)
    dims, norm, factor = _renorm_parts(input, p, dim, maxnorm)
    shift = batch_shift(input_t, input)
    dfactor = where(norm > maxnorm, -maxnorm / (norm + _RENORM_EPS) ** 2, 0.0)
    slope = input.sign() * (input.abs() / norm).pow(p - 1)
    dnorm = (slope * input_t).sum(tuple(d + shift for d in dims), keepdim=True)
    return input_t * factor + input * dfactor * dnorm


@defop(
    name="renorm",
    input=lambda grad, input, p, dim, maxnorm: _renorm_backward(grad, input, p, dim, maxnorm),
    jvp=_renorm_jvp,
)
def _renorm(input, p, dim, maxnorm):
    dims = tuple(d for d in range(input.ndim) if d != dim)
    norm = (xp.abs(input) ** p).sum(dims, keepdims=True) ** (1.0 / p)
    with xp.errstate(divide="ignore"):
        factor = xp.where(norm > maxnorm, maxnorm / (norm + _RENORM_EPS), 1.0)
    return (input * factor).astype(input.dtype, copy=False)


@export(inplace=True)
def renorm(input, p, dim, maxnorm) -> Tensor:
    """Rescale each slice along ``dim`` whose ``p``-norm exceeds ``maxnorm`` to norm
    ``maxnorm``."""
    if input._data.dtype.kind not in "fcV":
        raise RuntimeError(
            "linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
            f"{input.dtype.scalar_name}"
        )
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm:g}")
    if input.ndim <= 1:
        raise RuntimeError(
            f"renorm: input needs at least 2 dimensions, got {input.ndim} dimensions"
        )
    return _renorm(input, float(p), _wrap_dim(dim, input.ndim), float(maxnorm))
