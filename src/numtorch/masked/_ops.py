"""``torch.masked``'s reductions and normalizations of ordinary (strided) tensors under a
``mask=``: masked-out elements are replaced by the operation's identity (0 for sums, 1 for
products, -inf for maxima...) and the ordinary op runs, so values, dtypes, ``grad_fn``
names and gradients are those of the ops composed, as in torch.

Reductions whose identity is undefined (``mean``, ``median``, ``var``, ``std``) give NaN
where every element along ``dim`` is masked out.

Example:
    >>> import numtorch as torch
    >>> x = torch.tensor([[-3.0, -2.0, -1.0], [0.0, 1.0, 2.0]])
    >>> mask = torch.tensor([[True, False, True], [False, False, False]])
    >>> torch.masked.sum(x, 1, mask=mask)
    tensor([-4.,  0.])
    >>> torch.masked.mean(x, 1, mask=mask)
    tensor([-2., nan])
"""

from __future__ import annotations

import math

import numtorch as torch

__all__ = [
    "amax",
    "amin",
    "argmax",
    "argmin",
    "cumprod",
    "cumsum",
    "log_softmax",
    "logaddexp",
    "logsumexp",
    "mean",
    "median",
    "norm",
    "normalize",
    "prod",
    "softmax",
    "softmin",
    "std",
    "sum",
    "var",
]

_SMALL_INTEGERS = (torch.uint8, torch.bool, torch.int8, torch.int16, torch.int32)


def _reduction_identity(op_name: str, input, *args):
    """The value that leaves ``op_name``'s result unchanged, as a 0-d tensor of ``input``'s
    dtype; None where the identity depends on the data (mean, var, std)."""
    dtype = input.dtype
    op_name = op_name.rsplit(".", 1)[-1]
    floating = dtype.is_floating_point
    integral = not floating and not dtype.is_complex and dtype != torch.bool
    if op_name in ("sum", "cumsum"):
        return torch.tensor(0, dtype=dtype)
    if op_name in ("prod", "cumprod"):
        return torch.tensor(1, dtype=dtype)
    if op_name in ("amax", "argmax", "logaddexp", "logsumexp"):
        if floating:
            return torch.tensor(-math.inf, dtype=dtype)
        if op_name == "logsumexp" and dtype.is_complex:
            return torch.tensor(complex(-math.inf, 0), dtype=dtype)
        if integral:
            return torch.tensor(torch.iinfo(dtype).min, dtype=dtype)
    elif op_name in ("amin", "argmin"):
        if floating:
            return torch.tensor(math.inf, dtype=dtype)
        if integral:
            return torch.tensor(torch.iinfo(dtype).max, dtype=dtype)
    elif op_name in ("mean", "var", "std"):
        # the identity of a mean is the mean itself: not one value
        return None
    elif op_name == "norm":
        ord = args[0] if args else 2
        if ord == -math.inf:
            if not floating:
                raise AssertionError(f"input must be floating point, got {dtype}")
            return torch.tensor(math.inf, dtype=dtype)
        return torch.tensor(0, dtype=dtype)
    elif op_name == "median":
        # NaN: the reduction runs as nanmedian, which skips it
        return torch.tensor(math.nan, dtype=dtype if floating else torch.float32)
    raise NotImplementedError(f"identity of {op_name} on {dtype} input")


def _canonical_dim(dim, ndim: int) -> tuple[int, ...]:
    """``dim`` as a sorted tuple of non-negative dims; None and () mean every dim."""
    if dim is None or dim == ():
        return tuple(range(ndim))
    ndim = max(ndim, 1)
    dims: list[int] = []
    for d in (dim,) if isinstance(dim, int) else dim:
        if d in dims:
            raise RuntimeError(f"dim={d} appears multiple times in the list of dims")
        if d >= ndim or d < -ndim:
            raise IndexError(
                f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], "
                f"but got {d})"
            )
        dims.append(d % ndim)
    return tuple(sorted(dims))


def _check_strided(op_name: str, *tensors):
    for t in tensors:
        if t.layout != torch.strided:
            raise ValueError(
                f"masked {op_name} of a {t.layout} tensor is not supported by numtorch "
                "(strided tensors and MaskedTensors are); call .to_dense() first"
            )


def _input_mask(input, *args, mask=None, **kwargs):
    """``mask`` as a boolean strided tensor of ``input``'s shape (broadcast, converted)."""
    if mask is None:
        raise ValueError("_input_mask requires explicit mask")
    if mask.layout != torch.strided:
        mask = mask.to_dense()
    if mask.shape != input.shape:
        if mask.ndim > input.ndim:
            raise IndexError(
                "_input_mask expected broadcastable mask (got mask dimensionality higher "
                "than of the input)"
            )
        mask = torch.broadcast_to(mask.clone(), input.shape)
    return mask.to(dtype=torch.bool)


def _where(mask, input, fill_value):
    return torch.where(mask, input, fill_value)


def _any(input, dim: tuple, keepdim: bool):
    result = input
    for d in reversed(dim):
        result = result.any(dim=d, keepdim=keepdim)
    return result


_REDUCTIONS = frozenset(
    [
        "sum",
        "prod",
        "amax",
        "amin",
        "argmax",
        "argmin",
        "mean",
        "median",
        "norm",
        "var",
        "std",
        "logsumexp",
    ]
)
_NORMALIZATIONS = frozenset(["softmax", "log_softmax", "softmin", "normalize", "cumsum", "cumprod"])


def _output_mask(op, input, *args, **kwargs):
    """Which elements of ``op``'s result are defined: those with a masked-in element."""
    name = getattr(op, "__name__", None)
    if name in _REDUCTIONS:
        if name == "norm" and args:
            args = args[1:]  # ord comes before dim
        dim = args[0] if args else kwargs.get("dim")
        inmask = _input_mask(input, mask=kwargs.get("mask"))
        return _any(inmask, _canonical_dim(dim, input.ndim), bool(kwargs.get("keepdim", False)))
    if name in _NORMALIZATIONS:
        return _input_mask(input, mask=kwargs.get("mask"))
    raise ValueError(f"_output_mask expected masked operation (got {type(op).__name__} object)")


def _is_masked(input) -> bool:
    # a MaskedTensor (masked/maskedtensor.py builds on this module, so it is known by its mask)
    return hasattr(input, "_masked_mask")


class _Combine(torch.autograd.Function):
    """A MaskedTensor's data with its masked-out elements replaced by an identity; the
    gradient passes through unchanged (the MaskedTensor's mask hides what it holds there),
    as torch's does."""

    @staticmethod
    def forward(ctx, data, mask, fill):
        ctx.mark_non_differentiable(mask)
        return torch.where(mask, data, fill)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output, None, None


def _combine_input_and_mask(op, input, mask, *args):
    """``input`` with its masked-out elements replaced by ``op``'s identity."""
    name = op if isinstance(op, str) else op.__name__
    if _is_masked(input):
        data = input.get_data()
        return _Combine.apply(data, input.get_mask(), _reduction_identity(name, data, *args))
    if mask is None:
        return input
    return _where(_input_mask(input, mask=mask), input, _reduction_identity(name, input, *args))


def _widened(input, dtype):
    """The result dtype of a sum or product: small integers and bools accumulate in int64."""
    if dtype is not None:
        return dtype
    return torch.int64 if input.dtype in _SMALL_INTEGERS else input.dtype


def sum(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """Sum of ``input``'s masked-in elements over ``dim`` (every dim when None)."""
    dtype = _widened(input, dtype)
    _check_strided("sum", input)
    dims = _canonical_dim(dim, input.ndim)
    return torch.sum(_combine_input_and_mask(sum, input, mask), dims, bool(keepdim), dtype=dtype)


def prod(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """Product of ``input``'s masked-in elements over ``dim`` (every dim when None)."""
    dtype = _widened(input, dtype)
    _check_strided("prod", input)
    dims = _canonical_dim(dim, input.ndim)
    result = _combine_input_and_mask(prod, input, mask).to(dtype=dtype)
    # one dim at a time, last first, as torch reduces a product over several dims
    for d in reversed(dims):
        result = result.prod(dim=d, keepdim=bool(keepdim))
    return result


def cumsum(input, dim, *, dtype=None, mask=None):
    """Cumulative sum along ``dim``, masked-out elements counting as 0."""
    return _scan(torch.cumsum, sum, input, dim, dtype, mask)


def cumprod(input, dim, *, dtype=None, mask=None):
    """Cumulative product along ``dim``, masked-out elements counting as 1."""
    return _scan(torch.cumprod, prod, input, dim, dtype, mask)


def _scan(scan, reduction, input, dim, dtype, mask):
    # masked-out elements become the identity of ``reduction`` (0 for sum, 1 for prod)
    dtype = input.dtype if dtype is None else dtype
    _check_strided(scan.__name__, input)
    d = _canonical_dim(dim, input.ndim)[0]
    masked = _combine_input_and_mask(reduction, input, mask)
    return scan(masked, d, dtype=dtype).to(dtype=dtype)


def amax(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """Maximum of the masked-in elements; -inf (or the integer minimum) where none is."""
    dtype = input.dtype if dtype is None else dtype
    _check_strided("amax", input)
    masked = _combine_input_and_mask(amax, input, mask)
    return torch.amax(masked, _canonical_dim(dim, masked.ndim), bool(keepdim)).to(dtype=dtype)


def amin(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """Minimum of the masked-in elements; inf (or the integer maximum) where none is."""
    dtype = input.dtype if dtype is None else dtype
    _check_strided("amin", input)
    masked = _combine_input_and_mask(amin, input, mask)
    return torch.amin(masked, _canonical_dim(dim, masked.ndim), bool(keepdim)).to(dtype=dtype)


def argmax(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """Index of the largest masked-in element, in ``input``'s dtype unless ``dtype`` is given
    (torch converts the index so)."""
    dtype = input.dtype if dtype is None else dtype
    _check_strided("argmax", input)
    masked = _combine_input_and_mask(argmax, input, mask)
    return torch.argmax(masked, dim, bool(keepdim)).to(dtype=dtype)


def argmin(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """Index of the smallest masked-in element, in ``input``'s dtype unless ``dtype`` is
    given."""
    dtype = input.dtype if dtype is None else dtype
    _check_strided("argmin", input)
    masked = _combine_input_and_mask(argmin, input, mask)
    return torch.argmin(masked, dim, bool(keepdim)).to(dtype=dtype)


def _floating_dtype(op_name, input, dtype):
    source = "Optional" if dtype is not None else "Input"
    dtype = input.dtype if dtype is None else dtype
    if not (dtype.is_floating_point or dtype.is_complex):
        raise ValueError(
            f"{op_name}(): Could not infer output dtype. {source} dtype must be either "
            f"a floating point or complex dtype. Got: {dtype}"
        )
    return dtype


def _total_and_count(input, dim, keepdim, dtype, mask):
    """The masked sum and the number of masked-in elements over ``dim``."""
    if mask is None:
        ones = torch.ones(input.shape, dtype=torch.int64)
        count = sum(ones, dim, keepdim=keepdim)
        return sum(input, dim, keepdim=keepdim, dtype=dtype), count, None
    inmask = _input_mask(input, mask=mask)
    count = inmask.sum(dim=dim, keepdim=bool(keepdim))
    return sum(input, dim, keepdim=keepdim, dtype=dtype, mask=inmask), count, inmask


def mean(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """Mean of the masked-in elements; NaN where every element along ``dim`` is masked out."""
    dtype = _floating_dtype("mean", input, dtype)
    _check_strided("mean", input)
    total, count, _ = _total_and_count(input, dim, keepdim, dtype, mask)
    return total / count


def median(input, dim=-1, *, keepdim=False, dtype=None, mask=None):
    """Median of the masked-in elements along ``dim`` (the lower of two middles); NaN where
    all are masked out (an error for integer input, which has no NaN)."""
    dtype = input.dtype if dtype is None else dtype
    _check_strided("median", input)
    d = _canonical_dim(dim, input.ndim)[0]
    floating = input.dtype.is_floating_point
    if not floating:
        input = input.to(dtype=torch.float32)
    masked = _combine_input_and_mask(median, input, mask)
    result = torch.nanmedian(masked, d, keepdim).values
    if floating:
        return result
    if torch.isnan(result).any():
        raise ValueError(
            "masked median expects no fully masked out rows if dtype is not floating point"
        )
    return result.to(dtype=dtype)


def logsumexp(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """``log(sum(exp(x)))`` over the masked-in elements; -inf where none is."""
    dtype = input.dtype if dtype is None else dtype
    _check_strided("logsumexp", input)
    dims = _canonical_dim(dim, input.ndim)
    masked = _combine_input_and_mask(logsumexp, input, mask)
    return torch.logsumexp(masked, dims, keepdim=keepdim).to(dtype=dtype)


def logaddexp(input, other, *, dtype=None, input_mask=None, other_mask=None):
    """``log(exp(input) + exp(other))`` with each operand's masked-out elements as -inf.

    Example:
        >>> import numtorch as torch
        >>> mask = torch.tensor([True, False, True])
        >>> torch.masked.logaddexp(torch.tensor([-100.0, -200, -300]),
        ...     torch.tensor([-1.0, -2, -3]), input_mask=mask, other_mask=mask)
        tensor([-1., -inf, -3.])
    """
    dtype = input.dtype if dtype is None else dtype
    if input.layout != torch.strided or other.layout != torch.strided:
        raise ValueError(
            f"masked logaddexp expects strided tensors (got {input.layout} tensor for input, "
            f"{other.layout} for other)"
        )
    masked_input = _combine_input_and_mask(logaddexp, input, input_mask)
    masked_other = _combine_input_and_mask(logaddexp, other, other_mask)
    return torch.logaddexp(masked_input, masked_other).to(dtype=dtype)


def norm(input, ord=2.0, dim=None, *, keepdim=False, dtype=None, mask=None):
    """Vector ``ord``-norm of the masked-in elements (masked-out ones count as 0, or inf for
    ``ord=-inf``)."""
    dtype = input.dtype if dtype is None else dtype
    _check_strided("norm", input)
    masked = _combine_input_and_mask(norm, input, mask, ord)
    dims = _canonical_dim(dim, input.ndim)
    return torch.linalg.vector_norm(masked, ord, dims, bool(keepdim), dtype=dtype)


def _std_var(input, dim, unbiased, correction, keepdim, dtype, mask, take_sqrt):
    if unbiased is not None and correction is not None:
        raise AssertionError("Only one of unbiased and correction may be given")
    if correction is None:
        correction = 1.0 if unbiased is None or unbiased else 0.0
    correction = float(correction)
    if dtype is None:
        dtype = input.dtype
        if not (dtype.is_floating_point or dtype.is_complex):
            dtype = torch.float32
    compute_dtype = dtype
    if not (compute_dtype.is_floating_point or compute_dtype.is_complex):
        compute_dtype = torch.float32
    _check_strided("std/var", input)
    sample_total, count, inmask = _total_and_count(input, dim, True, dtype, mask)
    data = input.get_data() if _is_masked(input) else input
    centred = torch.subtract(data, torch.divide(sample_total, count))
    total = sum(centred * centred.conj(), dim, keepdim=keepdim, dtype=compute_dtype, mask=inmask)
    if not keepdim:
        count = count.reshape(total.shape)
    if correction != 0:
        real_dtype = compute_dtype.to_real() if compute_dtype.is_complex else compute_dtype
        count = torch.subtract(count.to(real_dtype), correction)
        count = torch.maximum(count, count.new_zeros([]))
    result = torch.divide(total, count).to(dtype=dtype)
    return torch.sqrt(result) if take_sqrt else result


def var(input, dim=None, unbiased=None, *, correction=None, keepdim=False, dtype=None, mask=None):
    """Variance of the masked-in elements (``correction`` 1 by default); NaN where fewer
    than ``correction`` + 1 elements are masked in."""
    return _std_var(input, dim, unbiased, correction, keepdim, dtype, mask, take_sqrt=False)


def std(input, dim=None, unbiased=None, *, correction=None, keepdim=False, dtype=None, mask=None):
    """Standard deviation of the masked-in elements: ``sqrt`` of :func:`var`."""
    return _std_var(input, dim, unbiased, correction, keepdim, dtype, mask, take_sqrt=True)


def softmax(input, dim, *, dtype=None, mask=None):
    """Softmax along ``dim`` over the masked-in elements: masked-out ones get 0, and a slice
    with none masked in gets NaN."""
    dtype = input.dtype if dtype is None else dtype
    _check_strided("softmax", input)
    d = _canonical_dim(dim, input.ndim)[0]
    return torch.softmax(_combine_input_and_mask(amax, input, mask), d, dtype=dtype)


def log_softmax(input, dim, *, dtype=None, mask=None):
    """Log-softmax along ``dim`` over the masked-in elements (masked-out ones give -inf)."""
    dtype = input.dtype if dtype is None else dtype
    _check_strided("log_softmax", input)
    d = _canonical_dim(dim, input.ndim)[0]
    return torch.log_softmax(_combine_input_and_mask(amax, input, mask), d, dtype=dtype)


def softmin(input, dim, *, dtype=None, mask=None):
    """Softmin along ``dim`` over the masked-in elements: softmax of ``-input``."""
    dtype = input.dtype if dtype is None else dtype
    _check_strided("softmin", input)
    d = _canonical_dim(dim, input.ndim)[0]
    masked = _combine_input_and_mask(amin, input, mask)
    return torch.softmax(-masked, d, dtype=dtype)


def normalize(input, ord, dim, *, eps=1e-12, dtype=None, mask=None):
    """``input`` divided by its masked ``ord``-norm along ``dim`` (at least ``eps``);
    masked-out elements become 0."""
    dtype = input.dtype if dtype is None else dtype
    _check_strided("normalize", input)
    masked = _combine_input_and_mask(sum, input, mask)
    norms = norm(input, ord, dim, keepdim=True, dtype=dtype, mask=mask)
    return torch.divide(masked, torch.maximum(norms, norms.new_full([], eps)))
