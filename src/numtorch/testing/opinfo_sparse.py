"""Op samples for sparse COO tensors (part of the op sample table in ``opinfo.py``): the
samples are the values of a fixed sparse pattern, and results are read back dense, so
gradcheck and torch parity check the gradients of the values and of dense operands."""

from __future__ import annotations

from .opinfo import OpInfo, Sample, _n

# a 3 x 4 pattern with a duplicate entry (0, 1), so coalescing sums two values
_ROWS = [0, 1, 2, 0, 2, 0]
_COLS = [1, 3, 0, 2, 3, 1]


def _sparse(t, values, size=(3, 4)):
    return t.sparse_coo_tensor(t.tensor([_ROWS, _COLS]), values, size)


def _values(rng):
    return _n(rng, len(_ROWS))


def _sparse_op(name, fn, extra=()):
    """``fn(t, sparse, *others)`` with the sparse tensor built from sampled values. Not
    twice differentiable: torch reads the values' gradient off the sparse gradient without
    a graph (it never requires grad), so second order through the values is zero."""
    return OpInfo(
        name,
        lambda t, v, *others: fn(t, _sparse(t, v), *others),
        lambda rng: [Sample((_values(rng), *(make(rng) for make in extra)))],
        gradgrad=False,
    )


SPARSE_OPS = [
    _sparse_op("sparse.softmax", lambda t, s: t.sparse.softmax(s, 1).to_dense()),
    _sparse_op("sparse.softmax_dim0", lambda t, s: t.sparse.softmax(s, 0).to_dense()),
    _sparse_op("sparse.log_softmax", lambda t, s: t.sparse.log_softmax(s, 1).to_dense()),
    OpInfo(
        "sparse.softmax_dense_dim",
        lambda t, v: t.sparse.log_softmax(
            t.sparse_coo_tensor(t.tensor([[0, 2]]), v, (3, 4)), 1
        ).to_dense(),
        lambda rng: [Sample((_n(rng, 2, 4),))],
        gradgrad=False,  # as _sparse_op: torch's values gradient has no graph
    ),
    _sparse_op("sparse_coo_tensor", lambda t, s: s.to_dense()),
    _sparse_op("sparse.mm", lambda t, s, d: t.sparse.mm(s, d), [lambda rng: _n(rng, 4, 2)]),
    _sparse_op(
        "sparse.addmm",
        lambda t, s, m, d: t.sparse.addmm(m, s, d, beta=0.5, alpha=2.0),
        [lambda rng: _n(rng, 3, 1), lambda rng: _n(rng, 4, 2)],
    ),
    _sparse_op("sparse_matmul", lambda t, s, d: s @ d, [lambda rng: _n(rng, 4, 2)]),
    _sparse_op("sparse_mv", lambda t, s, x: t.mv(s, x), [lambda rng: _n(rng, 4)]),
    _sparse_op("dense_sparse_mm", lambda t, s, d: t.mm(d, s), [lambda rng: _n(rng, 2, 3)]),
    _sparse_op("sparse_coalesce", lambda t, s: s.coalesce().values()),
    _sparse_op("sparse.sum", lambda t, s: t.sparse.sum(s, 1).to_dense()),
    _sparse_op("sparse_t", lambda t, s: s.t().to_dense()),
    _sparse_op("sparse_transpose", lambda t, s: s.transpose(0, 1).to_dense()),
    _sparse_op(
        "sparse_add", lambda t, s, w: (s + _sparse(t, w)).to_dense(), [lambda rng: _values(rng)]
    ),
    OpInfo(
        "to_sparse",
        lambda t, x: (x.to_sparse() * 2).to_dense(),
        lambda rng: [Sample((_n(rng, 3, 4),))],
        lambda x: 2 * x,
    ),
    # the conversions, each recorded under torch's node (ToSparseBackward0, ToSparseCsr...)
    *(
        OpInfo(
            f"to_sparse_{name}",
            lambda t, x, convert=convert: convert(x).to_dense(),
            lambda rng: [Sample((_n(rng, 4, 4),))],
            lambda x: x,
        )
        for name, convert in (
            ("dims", lambda x: x.to_sparse(1)),
            ("csr", lambda x: x.to_sparse_csr()),
            ("csc", lambda x: x.to_sparse_csc()),
            ("bsr", lambda x: x.to_sparse_bsr((2, 2))),
            ("bsc", lambda x: x.to_sparse_bsc((2, 2))),
            ("csr_coo", lambda x: x.to_sparse_csr().to_sparse()),
            ("coo_csc", lambda x: x.to_sparse().to_sparse_csc()),
            ("coo_bsr", lambda x: x.to_sparse().to_sparse_bsr((2, 2))),
            ("coo_bsc", lambda x: x.to_sparse().to_sparse_bsc((2, 2))),
        )
    ),
    OpInfo(
        "sparse_compressed_tensor",
        lambda t, v: t.sparse_csc_tensor(
            t.tensor([0, 2, 3]), t.tensor([0, 2, 1]), v, (3, 2)
        ).to_dense(),
        lambda rng: [Sample((_n(rng, 3),))],
    ),
    *(
        _sparse_op(
            f"sparse.mm_reduce_{reduce}",
            lambda t, s, d, reduce=reduce: t.sparse.mm(s.coalesce().to_sparse_csr(), d, reduce),
            [lambda rng: _n(rng, 4, 2)],
        )
        for reduce in ("sum", "mean", "amax", "amin")
    ),
    OpInfo(
        "sparse_mask",
        lambda t, x: x.sparse_mask(_sparse(t, t.ones(len(_ROWS), dtype=x.dtype))).to_dense(),
        lambda rng: [Sample((_n(rng, 3, 4),))],
        gradgrad=False,  # torch's gradient comes from _sparse_mask_projection: no derivative
    ),
    OpInfo(
        "sparse.spdiags",
        # (detached: torch records NotImplemented, so backward refuses it; the forward is
        # compared, and tests/ops/test_sparse_spdiags.py compares the refusal)
        lambda t, d: t.sparse.spdiags(d.detach(), t.tensor([0, -1]), (3, 3)).to_dense(),
        lambda rng: [Sample((_n(rng, 2, 3),))],
        grad=False,
    ),
]
