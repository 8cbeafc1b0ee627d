"""Sampling from distributions parametrised by tensors: ``poisson`` and ``binomial`` (NumPy's
generators seeded by ``manual_seed``: the draws differ from torch's, their laws do not)."""

from __future__ import annotations

from .. import _creation, _dtypes
from .._creation import zeros_like
from ..backend import xp
from .registry import defop, export


def _floats_only(kernel, array):
    if array.dtype.kind != "f":
        name = _dtypes.from_numpy_dtype(array.dtype).scalar_name
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{name}'")


# a sample is flat in its rate almost everywhere: torch's derivative is 0
@defop(name="poisson", input=lambda grad: zeros_like(grad))
def _poisson(input, rng):
    _floats_only("poisson_cpu", input)
    if (input < 0).any():
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    return rng.poisson(input).astype(input.dtype)


@export(method=False)
def poisson(input, generator=None):
    """Poisson draws with rates ``input`` (same shape and dtype)."""
    return _poisson(input, _creation._rng(generator))


def _no_binomial_derivative(grad):
    raise RuntimeError("derivative for aten::binomial is not implemented")


@defop(
    name="binomial",
    node="NotImplemented",
    count=_no_binomial_derivative,
    prob=_no_binomial_derivative,
)
def _binomial(count, prob, rng):
    if count.dtype.kind != "f":
        name = _dtypes.from_numpy_dtype(count.dtype).scalar_name
        raise ValueError(f"binomial only supports floating-point dtypes for count, got: {name}")
    draws = rng.binomial(xp.asarray(count, xp.int64), xp.clip(prob, 0, 1))
    return draws.astype(count.dtype)


@export(method=False)
def binomial(count, prob, generator=None):
    """Binomial draws: successes in ``count`` trials of probability ``prob`` each."""
    return _binomial(count, prob, _creation._rng(generator))
