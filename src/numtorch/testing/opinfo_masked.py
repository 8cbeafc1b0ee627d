"""Op samples for ``torch.masked``'s reductions and normalizations under a ``mask=`` (part of
the op sample table in ``opinfo.py``). Every sample's mask leaves at least one element of
each reduced slice masked in, where the gradient is defined (a fully masked-out slice gives
NaN or an infinite identity, whose gradient finite differences cannot check)."""

from __future__ import annotations

import numpy as np

from .opinfo import OpInfo, Sample, _distinct, _pos


def _mask(t, x):
    """The same pattern in either library: every third element masked out."""
    return t.arange(x.numel()).reshape(x.shape) % 3 != 1


def _mask_np(x):
    return (np.arange(x.size).reshape(x.shape) % 3) != 1


def _samples(make):
    return lambda rng: [Sample((make(rng, 2, 3),)), Sample((make(rng, 3, 4),))]


def _reduction(name, ref=None, make=_distinct, **kwargs):
    """``torch.masked.<name>`` over dim 1, and over every dim with keepdim."""
    return [
        OpInfo(
            f"masked_{name}",
            lambda t, x: getattr(t.masked, name)(x, 1, mask=_mask(t, x), **kwargs),
            _samples(make),
            ref,
        ),
        OpInfo(
            f"masked_{name}_all",
            lambda t, x: getattr(t.masked, name)(x, None, keepdim=True, mask=_mask(t, x), **kwargs),
            _samples(make),
        ),
    ]


def _where_ref(fill, reduce):
    return lambda x: reduce(np.where(_mask_np(x), x, fill), axis=1)


def _masked_mean_ref(x):
    mask = _mask_np(x)
    return np.where(mask, x, 0).sum(1) / mask.sum(1)


def _normalization(name, **kwargs):
    return OpInfo(
        f"masked_{name}",
        lambda t, x: getattr(t.masked, name)(x, 1, mask=_mask(t, x), **kwargs),
        _samples(_distinct),
    )


MASKED_OPS = [
    *_reduction("sum", _where_ref(0.0, np.sum)),
    *_reduction("prod", _where_ref(1.0, np.prod), make=_pos),
    *_reduction("amax", _where_ref(-np.inf, np.max)),
    *_reduction("amin", _where_ref(np.inf, np.min)),
    *_reduction("mean", _masked_mean_ref),
    *_reduction("logsumexp"),
    *_reduction("var"),
    *_reduction("std"),
    OpInfo(
        "masked_norm",
        lambda t, x: t.masked.norm(x, 2.0, 1, mask=_mask(t, x)),
        _samples(_distinct),
        lambda x: np.sqrt(np.where(_mask_np(x), x * x, 0).sum(1)),
    ),
    OpInfo(
        "masked_norm_1",
        lambda t, x: t.masked.norm(x, 1.0, mask=_mask(t, x)),
        _samples(_distinct),
        gradgrad=False,  # |x|'s second derivative is 0 except at 0, where it is undefined
    ),
    OpInfo(
        "masked_median",
        lambda t, x: t.masked.median(x, 1, mask=_mask(t, x)),
        _samples(_distinct),
    ),
    OpInfo(
        "masked_cumsum",
        lambda t, x: t.masked.cumsum(x, 1, mask=_mask(t, x)),
        _samples(_distinct),
        lambda x: np.cumsum(np.where(_mask_np(x), x, 0), axis=1),
    ),
    OpInfo(
        "masked_cumprod",
        lambda t, x: t.masked.cumprod(x, 1, mask=_mask(t, x)),
        _samples(_pos),
        lambda x: np.cumprod(np.where(_mask_np(x), x, 1), axis=1),
    ),
    _normalization("softmax"),
    # masked-out elements give -inf: zeroed, so that finite differences are defined
    OpInfo(
        "masked_log_softmax",
        lambda t, x: t.masked.log_softmax(x, 1, mask=_mask(t, x)).masked_fill(~_mask(t, x), 0),
        _samples(_distinct),
    ),
    _normalization("softmin"),
    OpInfo(
        "masked_normalize",
        lambda t, x: t.masked.normalize(x, 2.0, 1, mask=_mask(t, x)),
        _samples(_distinct),
    ),
    OpInfo(
        "masked_logaddexp",
        lambda t, x, y: t.masked.logaddexp(
            x, y, input_mask=_mask(t, x), other_mask=_mask(t, y).logical_not()
        ),
        lambda rng: [Sample((_distinct(rng, 2, 3), _distinct(rng, 2, 3)))],
        lambda x, y: np.logaddexp(
            np.where(_mask_np(x), x, -np.inf), np.where(_mask_np(y), -np.inf, y)
        ),
        # the second derivative at a -inf operand is 0 * inf = NaN, in torch as well
        gradgrad=False,
    ),
]
