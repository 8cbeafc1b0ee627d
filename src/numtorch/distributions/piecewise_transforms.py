"""Transforms applied piece by piece along a dimension: ``CatTransform`` (consecutive
slices of given lengths) and ``StackTransform`` (one index each)."""

from __future__ import annotations

import numtorch as torch

from . import constraints
from .transform import Transform
from .utils import _sum_rightmost, lazy_property

__all__ = ["CatTransform", "StackTransform"]


def _check_dim(dim, t, what):
    if not -t.dim() <= dim < t.dim():
        raise ValueError(f"dim {dim} out of range for {what} with {t.dim()} dimensions")


def _check_size(dim, t, expected, what):
    if t.size(dim) != expected:
        raise ValueError(f"{what}.size({dim}) = {t.size(dim)} must equal {expected}")


def _all_transforms(tseq):
    if not all(isinstance(t, Transform) for t in tseq):
        raise TypeError("All elements of tseq must be Transform instances")


class CatTransform(Transform):
    """Applies ``tseq[i]`` to the ``i``-th slice (of length ``lengths[i]``) along ``dim``."""

    def __init__(self, tseq, dim: int = 0, lengths=None, cache_size: int = 0):
        _all_transforms(tseq)
        if cache_size:
            tseq = [t.with_cache(cache_size) for t in tseq]
        super().__init__(cache_size=cache_size)
        self.transforms = list(tseq)
        self.lengths = [1] * len(self.transforms) if lengths is None else list(lengths)
        if len(self.lengths) != len(self.transforms):
            raise ValueError(
                f"lengths ({len(self.lengths)}) must match transforms ({len(self.transforms)})"
            )
        self.dim = dim

    @lazy_property
    def event_dim(self):
        return max(t.event_dim for t in self.transforms)

    @lazy_property
    def length(self):
        return sum(self.lengths)

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return CatTransform(self.transforms, self.dim, self.lengths, cache_size)

    def _pieces(self, t, what):
        _check_dim(self.dim, t, what)
        _check_size(self.dim, t, self.length, what)
        start = 0
        for length in self.lengths:
            yield t.narrow(self.dim, start, length)
            start += length

    def _call(self, x):
        parts = [t(s) for t, s in zip(self.transforms, self._pieces(x, "x"))]
        return torch.cat(parts, dim=self.dim)

    def _inverse(self, y):
        parts = [t.inv(s) for t, s in zip(self.transforms, self._pieces(y, "y"))]
        return torch.cat(parts, dim=self.dim)

    def log_abs_det_jacobian(self, x, y):
        terms = []
        for t, xs, ys in zip(self.transforms, self._pieces(x, "x"), self._pieces(y, "y")):
            term = t.log_abs_det_jacobian(xs, ys)
            if t.event_dim < self.event_dim:
                term = _sum_rightmost(term, self.event_dim - t.event_dim)
            terms.append(term)
        dim = self.dim - x.dim() if self.dim >= 0 else self.dim
        dim += self.event_dim
        # the cat dim survives in the Jacobian only if it is a batch dim
        return torch.cat(terms, dim=dim) if dim < 0 else sum(terms)

    @property
    def bijective(self):
        return all(t.bijective for t in self.transforms)

    @constraints.dependent_property
    def domain(self):
        return constraints.cat([t.domain for t in self.transforms], self.dim, self.lengths)

    @constraints.dependent_property
    def codomain(self):
        return constraints.cat([t.codomain for t in self.transforms], self.dim, self.lengths)


class StackTransform(Transform):
    """Applies ``tseq[i]`` to index ``i`` along ``dim``."""

    def __init__(self, tseq, dim: int = 0, cache_size: int = 0):
        _all_transforms(tseq)
        if cache_size:
            tseq = [t.with_cache(cache_size) for t in tseq]
        super().__init__(cache_size=cache_size)
        self.transforms = list(tseq)
        self.dim = dim

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return StackTransform(self.transforms, self.dim, cache_size)

    def _slices(self, z, what):
        _check_dim(self.dim, z, what)
        _check_size(self.dim, z, len(self.transforms), what)
        return [z.select(self.dim, i) for i in range(z.size(self.dim))]

    def _call(self, x):
        parts = [t(s) for s, t in zip(self._slices(x, "x"), self.transforms)]
        return torch.stack(parts, dim=self.dim)

    def _inverse(self, y):
        parts = [t.inv(s) for s, t in zip(self._slices(y, "y"), self.transforms)]
        return torch.stack(parts, dim=self.dim)

    def log_abs_det_jacobian(self, x, y):
        pieces = zip(self._slices(x, "x"), self._slices(y, "y"), self.transforms)
        return torch.stack([t.log_abs_det_jacobian(a, b) for a, b, t in pieces], dim=self.dim)

    @property
    def bijective(self):
        return all(t.bijective for t in self.transforms)

    @constraints.dependent_property
    def domain(self):
        return constraints.stack([t.domain for t in self.transforms], self.dim)

    @constraints.dependent_property
    def codomain(self):
        return constraints.stack([t.codomain for t in self.transforms], self.dim)
