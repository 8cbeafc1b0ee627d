"""Tensor methods that make new tensors (``new_zeros``...) or refill them randomly."""

from __future__ import annotations

from .. import _creation, _dtypes
from .._tensor import Tensor
from .shape import shape_arg


def _dtype(self, dtype):
    return self.dtype if dtype is None else _dtypes.to_dtype(dtype)


def new_zeros(self, *size, dtype=None, device=None, requires_grad=False, **_):
    return _creation.zeros(shape_arg(size), dtype=_dtype(self, dtype), requires_grad=requires_grad)


def new_ones(self, *size, dtype=None, device=None, requires_grad=False, **_):
    return _creation.ones(shape_arg(size), dtype=_dtype(self, dtype), requires_grad=requires_grad)


def new_empty(self, *size, dtype=None, device=None, requires_grad=False, **_):
    return _creation.empty(shape_arg(size), dtype=_dtype(self, dtype), requires_grad=requires_grad)


def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False, **_):
    return _creation.full(size, fill_value, dtype=_dtype(self, dtype), requires_grad=requires_grad)


def new_tensor(self, data, *, dtype=None, device=None, requires_grad=False, **_):
    return _creation.tensor(data, dtype=_dtype(self, dtype), requires_grad=requires_grad)


def uniform_(self, a=0.0, b=1.0, *, generator=None):
    return _creation.random_fill_(self, "uniform", a, b, generator)


def normal_(self, mean=0.0, std=1.0, *, generator=None):
    return _creation.random_fill_(self, "normal", mean, std, generator)


def bernoulli_(self, p=0.5, *, generator=None):
    return _creation.random_fill_(self, "bernoulli", p, None, generator)


def exponential_(self, lambd=1.0, *, generator=None):
    return _creation.random_fill_(self, "exponential", lambd, None, generator)


def random_(self, from_=0, to=None, *, generator=None):
    if to is None:
        from_, to = 0, from_ if from_ else 2**24
    return _creation.random_fill_(self, "random", from_, to, generator)


def bernoulli(self, p=None, *, generator=None):
    return _creation.bernoulli(self, p, generator=generator)


def multinomial(self, num_samples, replacement=False, *, generator=None):
    return _creation.multinomial(self, num_samples, replacement, generator=generator)


for _fn in (
    new_zeros,
    new_ones,
    new_empty,
    new_full,
    new_tensor,
    uniform_,
    normal_,
    bernoulli_,
    exponential_,
    random_,
    bernoulli,
    multinomial,
):
    setattr(Tensor, _fn.__name__, _fn)
