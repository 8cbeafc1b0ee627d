"""Op samples for the scaled-and-added products (addmv, addr, baddbmm, addbmm, their in-place
forms), chain_matmul and einsum over repeated letters (part of the op sample table in
``opinfo.py``)."""

from __future__ import annotations

import numpy as np

from .opinfo import OpInfo, Sample, _n


def _inplace(name):
    # the in-place form on a fresh non-leaf copy of the input
    return lambda t, c, *args, **k: getattr(c * 1, name)(*args, **k)


def _scaled(product):
    return lambda c, *args, beta=1, alpha=1: beta * c + alpha * product(*args)


_SCALES = ({}, {"beta": 0.5, "alpha": 2.0}, {"beta": 0, "alpha": -1.5})


def _addmv_samples(rng):
    out = [Sample((_n(rng, 3), _n(rng, 3, 4), _n(rng, 4)), k) for k in _SCALES]
    return out + [Sample((_n(rng, 1), _n(rng, 3, 4), _n(rng, 4)))]


def _addr_samples(rng):
    out = [Sample((_n(rng, 3, 2), _n(rng, 3), _n(rng, 2)), k) for k in _SCALES]
    return out + [Sample((_n(rng, 2), _n(rng, 3), _n(rng, 2)), {"alpha": 0.5})]


def _baddbmm_samples(rng):
    out = [Sample((_n(rng, 2, 3, 2), _n(rng, 2, 3, 4), _n(rng, 2, 4, 2)), k) for k in _SCALES]
    return out + [Sample((_n(rng, 3, 1), _n(rng, 2, 3, 4), _n(rng, 2, 4, 2)))]


def _addbmm_samples(rng):
    out = [Sample((_n(rng, 3, 2), _n(rng, 2, 3, 4), _n(rng, 2, 4, 2)), k) for k in _SCALES]
    return out + [Sample((_n(rng, 2), _n(rng, 3, 3, 4), _n(rng, 3, 4, 2)), {"beta": 2})]


def _same_shape(samples):
    # in-place forms keep the input's shape: only samples whose input is the full result
    def pick(rng):
        out = []
        for s in samples(rng):
            c, a, b = s.args
            full = c.shape == np.broadcast_shapes(c.shape, _product_shape(a, b))
            if full:
                out.append(s)
        return out

    return pick


def _product_shape(a, b):
    if a.ndim == 1 and b.ndim == 1:
        return (a.shape[0], b.shape[0])
    if a.ndim == 2 and b.ndim == 1:
        return (a.shape[0],)
    if a.ndim == 3 and b.ndim == 3:
        return (a.shape[0], a.shape[1], b.shape[2])
    return (a.shape[1], b.shape[2])


_mv = np.matmul
_outer = np.multiply.outer
_bmm = np.matmul


def _bmm_sum(a, b):
    return np.matmul(a, b).sum(0)


PRODUCTS_ADD = [
    OpInfo("addmv", lambda t, *a, **k: t.addmv(*a, **k), _addmv_samples, _scaled(_mv)),
    OpInfo("addr", lambda t, *a, **k: t.addr(*a, **k), _addr_samples, _scaled(_outer)),
    OpInfo("baddbmm", lambda t, *a, **k: t.baddbmm(*a, **k), _baddbmm_samples, _scaled(_bmm)),
    OpInfo("addbmm", lambda t, *a, **k: t.addbmm(*a, **k), _addbmm_samples, _scaled(_bmm_sum)),
    OpInfo(
        "addmm_",
        _inplace("addmm_"),
        lambda rng: [Sample((_n(rng, 2, 4), _n(rng, 2, 3), _n(rng, 3, 4)), {"beta": 0.5})],
        _scaled(np.matmul),
    ),
    OpInfo("addmv_", _inplace("addmv_"), _same_shape(_addmv_samples), _scaled(_mv)),
    OpInfo("addr_", _inplace("addr_"), _same_shape(_addr_samples), _scaled(_outer)),
    OpInfo("baddbmm_", _inplace("baddbmm_"), _same_shape(_baddbmm_samples), _scaled(_bmm)),
    OpInfo("addbmm_", _inplace("addbmm_"), _same_shape(_addbmm_samples), _scaled(_bmm_sum)),
    OpInfo(
        "chain_matmul",
        lambda t, *m: t.chain_matmul(*m),
        lambda rng: [
            Sample((_n(rng, 3, 4),)),
            Sample((_n(rng, 3, 4), _n(rng, 4, 2))),
            Sample((_n(rng, 3, 4), _n(rng, 4, 2), _n(rng, 2, 5), _n(rng, 5, 1))),
        ],
        lambda *m: np.linalg.multi_dot(m) if len(m) > 1 else m[0],
    ),
    # einsum with a letter repeated in one operand reads a diagonal; its gradient writes one
    OpInfo(
        "einsum_diagonal",
        lambda t, a, b: t.einsum("ii,jkk->ij", a, b),
        lambda rng: [Sample((_n(rng, 3, 3), _n(rng, 2, 4, 4)))],
        lambda a, b: np.einsum("ii,jkk->ij", a, b),
        torch_grad_fn=False,
    ),
    OpInfo(
        "einsum_repeated_product",
        lambda t, a, b: t.einsum("ij,jj,iji->i", a, b, a.unsqueeze(-1).expand(3, 3, 3) * 1),
        lambda rng: [Sample((_n(rng, 3, 3), _n(rng, 3, 3)))],
        lambda a, b: np.einsum("ij,jj,iji->i", a, b, np.broadcast_to(a[..., None], (3, 3, 3))),
        torch_grad_fn=False,
    ),
]
