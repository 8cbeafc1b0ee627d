"""Op samples for nested tensors (``torch.nested``, part of the op sample table in
``opinfo.py``): the samples are the constituents, joined by ``as_nested_tensor`` (which
keeps their history), and results are read back as one padded tensor, so gradcheck and
torch parity check the gradients that reach each constituent through the op's one node."""

from __future__ import annotations

import warnings

from .opinfo import OpInfo, Sample, _n


def _nested(t, *parts):
    with warnings.catch_warnings():  # torch and numtorch warn that nested tensors are a prototype
        warnings.simplefilter("ignore", UserWarning)
        return t.nested.as_nested_tensor(list(parts))


def _parts(rng, *extra):
    """Two constituents of different lengths (3 and 2 rows of 4), then ``extra`` shapes."""
    return [Sample((_n(rng, 3, 4), _n(rng, 2, 4), *(_n(rng, *shape) for shape in extra)))]


def _nested_op(name, fn, *extra, **kw):
    """``fn(t, nested, *others)`` padded with zeros into one tensor."""
    return OpInfo(
        f"nested_{name}",
        lambda t, a, b, *others: fn(t, _nested(t, a, b), *others).to_padded_tensor(0.0),
        lambda rng: _parts(rng, *extra),
        **kw,
    )


NESTED_OPS = [
    _nested_op("as_nested_tensor", lambda t, nt: nt),
    _nested_op("elementwise", lambda t, nt: nt.sin() * nt - nt / 2 + 1),
    _nested_op("unary", lambda t, nt: (nt * nt + 1).sqrt() + nt.cos() - nt.abs().neg()),
    _nested_op("gelu_silu", lambda t, nt: t.nn.functional.gelu(nt) + t.nn.functional.silu(nt)),
    _nested_op("softmax", lambda t, nt: t.nn.functional.softmax(nt, -1)),
    _nested_op("linear", lambda t, nt, w, bias: t.nn.functional.linear(nt, w, bias), (5, 4), (5,)),
    _nested_op("matmul", lambda t, nt: nt @ nt.transpose(1, 2)),
    _nested_op("bmm", lambda t, nt: t.bmm(nt, nt.transpose(1, 2))),
    _nested_op(
        "scaled_dot_product_attention",
        lambda t, nt: t.nn.functional.scaled_dot_product_attention(*[nt.unsqueeze(1)] * 3),
    ),
    _nested_op("sum", lambda t, nt: nt.sum(-1, keepdim=True)),
    # torch pads only contiguous nested tensors
    _nested_op("transpose", lambda t, nt: nt.transpose(1, 2).contiguous()),
    _nested_op("view", lambda t, nt: nt.clone().view(2, -1, 1, 4)),
    _nested_op("reshape", lambda t, nt: nt.reshape(2, -1, 2, 2)),
    _nested_op("unsqueeze", lambda t, nt: nt.unsqueeze(-1) * 2),
    _nested_op("masked_fill", lambda t, nt: nt.masked_fill(nt > 0.5, -1.0)),
    OpInfo(
        "nested_to_padded_tensor_size",
        lambda t, a, b: _nested(t, a, b).to_padded_tensor(-1.0, (2, 4, 5)),
        _parts,
    ),
    OpInfo(
        "nested_unbind",
        lambda t, a, b: t.cat([p.flatten() for p in (_nested(t, a, b) * 3).unbind()]),
        _parts,
    ),
    OpInfo(
        "nested_select",
        lambda t, a, b: _nested(t, a, b).sin()[1],
        _parts,
    ),
]
