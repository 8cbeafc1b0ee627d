"""Helpers shared by the distributions: broadcasting parameters, probs <-> logits, lazy
parameters, and the vec <-> lower-triangular conversions."""

from __future__ import annotations

import functools
import numbers

import numtorch as torch
import numtorch.nn.functional as F

__all__ = [
    "broadcast_all",
    "clamp_probs",
    "lazy_property",
    "logits_to_probs",
    "probs_to_logits",
    "tril_matrix_to_vec",
    "vec_to_tril_matrix",
]

euler_constant = 0.57721566490153286060


def broadcast_all(*values):
    """Broadcasts tensors and numbers together; numbers take the first tensor's dtype
    (the default dtype when there is none)."""
    if not all(isinstance(v, (torch.Tensor, numbers.Number)) for v in values):
        raise ValueError(
            "Input arguments must all be instances of Number, "
            "torch.Tensor or objects implementing __torch_function__."
        )
    if not all(isinstance(v, torch.Tensor) for v in values):
        dtype = next(
            (v.dtype for v in values if isinstance(v, torch.Tensor)), torch.get_default_dtype()
        )
        values = [
            v if isinstance(v, torch.Tensor) else torch.tensor(v, dtype=dtype) for v in values
        ]
    return torch.broadcast_tensors(*values)


def _standard_normal(shape, dtype):
    return torch.randn(tuple(shape), dtype=dtype)


def _sum_rightmost(value, dim: int):
    """Sums the rightmost ``dim`` dimensions of ``value``."""
    if dim == 0:
        return value
    return value.reshape(tuple(value.shape[:-dim]) + (-1,)).sum(-1)


def _expand_given(dist, shape, **extra):
    """``probs`` and/or ``logits`` (whichever the distribution holds) expanded to ``shape``,
    for ``expand``; ``_param`` follows them where the distribution keeps one."""
    given = {k: dist.__dict__[k].expand(shape) for k in ("probs", "logits") if k in dist.__dict__}
    if "_param" in dist.__dict__:
        given["_param"] = given.get("logits", given.get("probs"))
    return {**given, **extra}


def logits_to_probs(logits, is_binary: bool = False):
    """Sigmoid of binary logits, softmax over the last dimension otherwise."""
    if is_binary:
        return torch.sigmoid(logits)
    return F.softmax(logits, dim=-1)


def clamp_probs(probs):
    """Clamps into ``[eps, 1 - eps]`` so that logs stay finite."""
    eps = torch.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs, is_binary: bool = False):
    """Log-odds of binary probabilities, log of categorical ones (after clamping)."""
    clamped = clamp_probs(probs)
    if is_binary:
        return torch.log(clamped) - torch.log1p(-clamped)
    return torch.log(clamped)


class lazy_property:
    """A parameter computed on first access and then stored on the instance (so that,
    say, ``logits`` of a Bernoulli built from ``probs`` is computed once, with grad)."""

    def __init__(self, wrapped):
        self.wrapped = wrapped
        functools.update_wrapper(self, wrapped)

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        with torch.enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


def _tril_mask(n: int, diag: int):
    rows = torch.arange(n)
    return rows < rows.view(-1, 1) + (diag + 1)


def tril_matrix_to_vec(mat, diag: int = 0):
    """The lower-triangular entries (below diagonal ``diag``) of ``mat``, row by row."""
    n = mat.shape[-1]
    if diag < -n or diag >= n:
        raise ValueError(f"diag ({diag}) provided is outside [{-n}, {n - 1}].")
    return mat[..., _tril_mask(n, diag)]


def vec_to_tril_matrix(vec, diag: int = 0):
    """The inverse of :func:`tril_matrix_to_vec`: a lower-triangular matrix from its entries."""
    # the size n solves n (n + 1) / 2 + diag-dependent offset = vec.shape[-1]
    root = ((1 + 2 * diag) ** 2 + 8 * vec.shape[-1] + 4 * abs(diag) * (diag + 1)) ** 0.5
    n = (-(1 + 2 * diag) + root) / 2
    if round(n) - n > torch.finfo(vec.dtype).eps:
        raise ValueError(
            f"The size of last dimension is {vec.shape[-1]} which cannot be expressed as "
            "the lower triangular part of a square D x D matrix."
        )
    n = round(n)
    mat = vec.new_zeros(tuple(vec.shape[:-1]) + (n, n))
    mat[..., _tril_mask(n, diag)] = vec
    return mat
