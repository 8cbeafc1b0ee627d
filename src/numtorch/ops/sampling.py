"""Random sampling with torch's overloads and checks: ``torch.normal`` (four forms),
``torch.bernoulli``, ``torch.poisson``, ``torch.binomial``, and the in-place samplers
``cauchy_``, ``log_normal_``, ``geometric_``, ``exponential_``, ``bernoulli_``.

``normal``, ``bernoulli``, ``poisson``, ``binomial`` and the in-place samplers give torch's
numbers for the same seed (``_random_kernels.py``, ``_serial_samplers.py``). Samples do not
depend differentiably on their parameters: as in torch, a sample from a tensor of parameters
that requires grad gets a node (``NormalBackward1``...) whose gradient is zero.
"""

from __future__ import annotations

import math
import numbers

from .. import _creation
from .. import _random_kernels as kernels
from .. import _serial_samplers as serial
from .._core import batch_rules
from .._core import dtypes as _dtypes
from .._core.dispatch import broadcast_shape
from .._core.kernel_dtypes import FLOATING, kernel
from .._core.op import defop, export, not_implemented
from .._core.tensor import Tensor
from .._generator import generator_or_default
from ..autograd.forward_grad import not_implemented_jvp
from ..backend import xp


def _zero(grad):
    # torch's formula is zeros (a constant): the gradient never requires grad itself
    return _creation.zeros_like(grad)


def _not_implemented(kernel: str, t: Tensor) -> NotImplementedError:
    return NotImplementedError(f"\"{kernel}\" not implemented for '{t.dtype.scalar_name}'")


# -- normal ----------------------------------------------------------------------------------
# the draws are constants of the parameters here (torch's derivatives are zeros)
@defop(name="normal_tensor_float", node="NormalBackward1", mean=_zero, jvp="elementwise")
def _normal_tensor_float(mean, std, noise):
    return (mean + noise * std).astype(mean.dtype, copy=False)


@defop(name="normal_float_tensor", node="NormalBackward2", std=_zero, jvp="elementwise")
def _normal_float_tensor(mean, std, noise):
    return (noise * std + mean).astype(std.dtype, copy=False)


@defop(
    name="normal_tensor_tensor",
    node="NormalBackward3",
    mean=_zero,
    std=_zero,
    jvp="elementwise",
)
def _normal_tensor_tensor(mean, std, noise):
    return (mean + noise * std).astype(mean.dtype, copy=False)


def _noise(shape, dtype, generator, mean=0.0, std=1.0):
    gen = generator_or_default(generator)
    shape = tuple(shape)
    if dtype.is_complex:  # torch fills the real view, each part with variance std**2 / 2
        real = kernels.normal(gen, 2 * math.prod(shape), dtype.to_real().np, mean, std / 2**0.5)
        return real.reshape(shape + (2,)).view(dtype.np)[..., 0]
    return kernels.normal(gen, math.prod(shape), dtype.np, mean, std).reshape(shape)


def _check_float(t: Tensor) -> None:
    if t._data.dtype.kind not in "fcV":
        raise _not_implemented("normal_kernel_cpu", t)


@export(method=False)
def normal(mean=0.0, std=1.0, size=None, *, generator=None, dtype=None, out=None, **options):
    """Normal samples: ``normal(mean_tensor, std=1.0)``, ``normal(mean, std_tensor)``,
    ``normal(mean_tensor, std_tensor)`` (broadcast), or ``normal(mean, std, size)``.

    Example:
        >>> import numtorch as torch
        >>> torch.normal(torch.zeros(2, 3), 1.0).shape
        torch.Size([2, 3])
    """
    for key in options:
        if key not in ("device", "requires_grad", "layout", "pin_memory"):
            raise TypeError(f"normal() got an unexpected keyword argument '{key}'")
    _creation.check_device(options.get("device"))
    mean_t, std_t = isinstance(mean, Tensor), isinstance(std, Tensor)
    if (mean_t or std_t) and size is not None or not (mean_t or std_t) and size is None:
        kinds = ", ".join(
            type(v).__name__ if not isinstance(v, Tensor) else "Tensor"
            for v in (mean, std, size)
            if v is not None
        )
        raise TypeError(f"normal() received an invalid combination of arguments - got ({kinds})")
    if std_t and std._data.dtype.kind == "c":
        raise RuntimeError("normal expects standard deviation to be non-complex")
    if mean_t and std_t:
        _check_float(mean)
        if (std._data < 0).any():
            raise RuntimeError("normal expects all elements of std >= 0.0")
        shape = broadcast_shape(mean.shape, std.shape)
        return _normal_tensor_tensor(mean, std, _noise(shape, mean.dtype, generator))
    if mean_t:
        _check_float(mean)
        if std < 0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
        return _normal_tensor_float(mean, std, _noise(mean.shape, mean.dtype, generator))
    if std_t:
        _check_float(std)
        if (std._data < 0).any():
            raise RuntimeError("normal expects all elements of std >= 0.0")
        return _normal_float_tensor(mean, std, _noise(std.shape, std.dtype, generator))
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
    dt = _dtypes.get_default_dtype() if dtype is None else _dtypes.to_dtype(dtype)
    shape = _creation.shape_arg((size,), "normal")
    if dt.np.kind not in "fcV":
        raise NotImplementedError(f"\"normal_kernel_cpu\" not implemented for '{dt.scalar_name}'")
    data = _noise(shape, dt, generator, mean, std)
    return _creation._finish(data.astype(dt.np), options.get("requires_grad", False), "normal()")


# -- bernoulli and poisson -------------------------------------------------------------------
@defop(
    batch=batch_rules.pointwise,
    name="bernoulli",
    node="BernoulliBackward0",
    input=_zero,
    jvp="elementwise",
)
def _bernoulli(input, draw):
    return (draw < input).astype(input.dtype)


def _check_p(p) -> None:
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p}")


@export
def bernoulli(input, p=None, *, generator=None, out=None) -> Tensor:
    """0/1 samples: each element is 1 with probability ``input`` (or ``p`` for every element),
    in ``input``'s dtype.

    Example:
        >>> import numtorch as torch
        >>> torch.bernoulli(torch.tensor([0.0, 1.0]))
        tensor([0., 1.])
    """
    gen = generator_or_default(generator)
    if p is not None:
        if isinstance(p, Tensor):
            raise TypeError(
                "bernoulli() received an invalid combination of arguments - got (Tensor, p=Tensor)"
            )
        _check_p(p)
        keep = kernels.bernoulli_scalar(gen, input._data.size, p).reshape(input._data.shape)
        return Tensor._make(keep.astype(input._data.dtype))
    data = input._data
    if data.dtype.kind in "fV" and not ((data >= 0) & (data <= 1)).all():
        raise RuntimeError(
            "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error "
            "message be improved?  If so, please report an enhancement request to PyTorch.)"
        )
    # torch compares a double uniform with double probabilities, a float one otherwise
    kind = xp.float64 if data.dtype == xp.float64 else xp.float32
    draw = kernels.unit_float(gen, data.size, kind).reshape(data.shape)
    return _bernoulli(input, draw)


@defop(
    batch=batch_rules.pointwise,
    name="poisson",
    input=_zero,
    jvp="elementwise",
)
def _poisson(input, generator):
    return serial.poisson(generator_or_default(generator), xp.asarray(input))


@export(method=False)
def poisson(input, generator=None) -> Tensor:
    """Poisson samples with rates ``input`` (a float tensor), in ``input``'s dtype.

    Example:
        >>> import numtorch as torch
        >>> torch.poisson(torch.zeros(3))
        tensor([0., 0., 0.])
    """
    if input._data.dtype.kind not in "fV":
        raise _not_implemented("poisson_cpu", input)
    if (input._data < 0).any():
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    return _poisson(input, generator)


@defop(
    batch=batch_rules.pointwise,
    name="binomial",
    dtypes=kernel("binomial_cpu", FLOATING),
    node="NotImplemented",
    count=not_implemented("binomial"),
    prob=not_implemented("binomial"),
    jvp=not_implemented_jvp("binomial"),
)
def _binomial(count, prob, generator):
    draws = serial.binomial(generator_or_default(generator), xp.asarray(count), xp.asarray(prob))
    return draws.astype(count.dtype, copy=False)


@export(method=False)
def binomial(count, prob, generator=None) -> Tensor:
    """Binomial samples: successes in ``count`` trials of probability ``prob`` each."""
    if count._data.dtype.kind not in "fV":
        raise ValueError(
            "binomial only supports floating-point dtypes for count, got: "
            f"{count.dtype.scalar_name}"
        )
    return _binomial(count, prob, generator)


# -- in-place samplers -----------------------------------------------------------------------
def _fill_(t: Tensor, values, name: str) -> Tensor:
    from .._core.inplace import check_inplace

    if t._batched:  # vmap(randomness="same"): one sample's draws, written into every sample
        return t.copy_(Tensor._make(xp.asarray(values, dtype=t._data.dtype)))
    check_inplace(t, name)
    t._data[...] = values
    t._bump_version()
    return t


def _continuous(t: Tensor, name: str, label: str, c_name: bool = True) -> None:
    if t._data.dtype.kind not in "fcV":
        spelled = t.dtype.c_name if c_name else t.dtype.scalar_name
        raise RuntimeError(
            f"{label} distribution is a continuous probability distribution. dtype must be a "
            f"floating point but you specified {spelled}"
        )


def cauchy_(self, median=0.0, sigma=1.0, *, generator=None) -> Tensor:
    """Fill with Cauchy samples: ``median + sigma * tan(pi (u - 1/2))``."""
    _continuous(self, "cauchy_", "Cauchy")
    if not sigma > 0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={sigma}")
    gen, exact = generator_or_default(generator), self._data.dtype == xp.float64
    values = kernels.cauchy(gen, self._data.size, median, sigma, exact)
    return _fill_(self, values.reshape(self._data.shape), "cauchy_")


def log_normal_(self, mean=1.0, std=2.0, *, generator=None) -> Tensor:
    """Fill with ``exp(N(mean, std^2))`` samples."""
    if self._data.dtype.kind not in "fcV":
        raise _not_implemented("log_normal_cpu", self)
    if not std > 0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={std}")
    gen, exact = generator_or_default(generator), self._data.dtype == xp.float64
    values = kernels.log_normal(gen, self._data.size, mean, std, exact)
    return _fill_(self, values.reshape(self._data.shape), "log_normal_")


def geometric_(self, p, *, generator=None) -> Tensor:
    """Fill with the number of Bernoulli(p) trials up to the first success (1, 2, ...)."""
    if self._data.dtype == xp.bool_:
        raise _not_implemented("geometric_cpu", self)
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p}")
    gen, exact = generator_or_default(generator), self._data.dtype == xp.float64
    values = kernels.geometric(gen, self._data.size, p, exact)
    return _fill_(self, values.reshape(self._data.shape), "geometric_")


def exponential_(self, lambd=1.0, *, generator=None) -> Tensor:
    """Fill with Exponential(lambd) samples (mean ``1 / lambd``)."""
    _continuous(self, "exponential_", "Exponential", c_name=False)
    if not lambd > 0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={lambd}")
    return _creation.random_fill_(self, "exponential", lambd, None, generator)


def bernoulli_(self, p=0.5, *, generator=None) -> Tensor:
    """Fill with 0/1 samples, 1 with probability ``p`` (a number or a tensor of them)."""
    if isinstance(p, numbers.Number):
        _check_p(p)
    return _creation.random_fill_(self, "bernoulli", p, None, generator)


for _fn in (cauchy_, log_normal_, geometric_, exponential_, bernoulli_):
    setattr(Tensor, _fn.__name__, _fn)
