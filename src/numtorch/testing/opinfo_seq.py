"""Op samples for the sequence primitives: recurrences (``torch.lstm``, ``gru``,
``rnn_tanh``, the cells), packing, and scaled dot-product attention.

Part of the op sample table (``opinfo.OP_DB``). A recurrence returns several tensors; the
entries concatenate them so that one output carries every gradient. Masks, batch sizes and
lengths are built inside the entries, so that only float arrays become inputs.
"""

from __future__ import annotations

import numpy as np

from .opinfo import OpInfo, Sample, _n


def _f(t):
    return t.nn.functional


def _flat(t, *tensors):
    return t.cat([x.reshape(-1) for x in tensors])


def _rnn_weights(rng, gates, input_size, hidden, bias=True):
    weights = [_n(rng, gates * hidden, input_size), _n(rng, gates * hidden, hidden)]
    return weights + ([_n(rng, gates * hidden), _n(rng, gates * hidden)] if bias else [])


def _rnn_tanh(t, x, h0, *weights):
    # batch-first: the output is transposed in place (TransposeBackward1)
    out, h = t.rnn_tanh(x, h0, list(weights), True, 1, 0.0, False, False, True)
    return _flat(t, out, h)


def _lstm(t, x, h0, c0, *weights, bias=True, num_layers=1, bidirectional=False):
    options = (bias, num_layers, 0.0, False, bidirectional, False)
    out, h, c = t.lstm(x, (h0, c0), list(weights), *options)
    return _flat(t, out, h, c)


def _lstm_layer(t, x, h0, c0, *weights, reverse=False):
    # numtorch's fused layer op (torch runs it on float32 only) against torch's composed
    # LSTM in float64: the same function, so grad_fn names differ on purpose. On float32 both
    # libraries run the layer through lstm, which hands it contiguous copies of the input
    # and the states, as torch's oneDNN path does. torch's layer takes one dtype only: with
    # mixed dtypes both libraries run lstm, whose composed layers promote as their ops do
    uniform = all(a.dtype == x.dtype for a in (h0, c0, *weights))
    if t.__name__ == "numtorch" and x.dtype != t.float32 and uniform:
        biases = () if len(weights) == 4 else (None, None)
        if len(weights) == 4:
            # the fused node saves the biases (torch's float32 one does too), the composed
            # layer only adds them: an in-place change of a bias after the call must not
            # stale the stand-in's backward where torch's composed one has nothing to check
            weights = (*weights[:2], *(b.clone() for b in weights[2:]))
        options = (reverse, [x.shape[0]], 2, h0.shape[-1], 1, len(weights) == 4, False, False)
        out, h, c, _ = t.mkldnn_rnn_layer(x, *weights, *biases, h0, c0, *options, True)
        return _flat(t, out, h, c)
    if reverse:
        x = x.flip(0)
    options = (len(weights) == 4, 1, 0.0, True, False, False)
    out, h, c = t.lstm(x, (h0[None], c0[None]), list(weights), *options)
    return _flat(t, out.flip(0) if reverse else out, h, c)


def _lstm_layer_samples(rng):
    return [
        Sample((_n(rng, 3, 2, 2), _n(rng, 2, 2), _n(rng, 2, 2), *_rnn_weights(rng, 4, 2, 2))),
        Sample(
            (_n(rng, 2, 3, 3), _n(rng, 3, 2), _n(rng, 3, 2), *_rnn_weights(rng, 4, 3, 2, False)),
            {"reverse": True},
        ),
    ]


def _gru_packed(t, data, h0, *weights):
    batch_sizes = t.tensor(np.array([3, 2, 1], dtype=np.int64))
    out, h = t.gru(data, batch_sizes, h0, list(weights), True, 1, 0.0, False, True)
    return _flat(t, out, h)


def _lstm_samples(rng):
    projected = [_n(rng, 12, 2), _n(rng, 12, 2), _n(rng, 2, 3)]  # hidden 3, proj_size 2
    return [
        Sample((_n(rng, 3, 2, 2), _n(rng, 1, 2, 2), _n(rng, 1, 2, 2), *_rnn_weights(rng, 4, 2, 2))),
        Sample((_n(rng, 2, 2, 2), _n(rng, 1, 2, 2), _n(rng, 1, 2, 3), *projected), {"bias": False}),
    ]


def _stacked_lstm_samples(rng):
    # two bidirectional layers of hidden size 1: the second reads both directions (input 2)
    weights = [w for _ in range(4) for w in _rnn_weights(rng, 4, 2, 1, bias=False)]
    return [Sample((_n(rng, 3, 1, 2), _n(rng, 4, 1, 1), _n(rng, 4, 1, 1), *weights))]


def _gru_samples(rng):
    forward, backward = _rnn_weights(rng, 3, 2, 2), _rnn_weights(rng, 3, 2, 2)
    return [Sample((_n(rng, 6, 2), _n(rng, 2, 3, 2), *forward, *backward))]


def _pack(t, x):
    packed = t.nn.utils.rnn.pack_padded_sequence(x, [3, 2, 2], batch_first=True)
    padded, _ = t.nn.utils.rnn.pad_packed_sequence(packed, total_length=4)
    return _flat(t, packed.data, padded)


# -- attention -------------------------------------------------------------------------------
def _mask(t, shape, seed=0):
    keep = np.random.default_rng(seed).random(shape) > 0.3
    keep[..., 0] = True
    return t.tensor(keep)


def _sdpa(t, q, k, v, mask=None, **kwargs):
    attn_mask = None
    if mask == "bool":
        attn_mask = _mask(t, (q.shape[-2], k.shape[-2]))
    elif mask == "float":
        values = np.random.default_rng(1).standard_normal((q.shape[-2], k.shape[-2]))
        attn_mask = t.tensor(values, dtype=q.dtype)
    return _f(t).scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, **kwargs)


def _sdpa_masked_row(t, q, k, v):
    # a query row that may attend to no key: zeros, by _safe_softmax (math path: 3-D)
    keep = np.ones((q.shape[-2], k.shape[-2]), dtype=bool)
    keep[1] = False
    return _f(t).scaled_dot_product_attention(q, k, v, attn_mask=t.tensor(keep))


SEQUENCE = [
    OpInfo(
        "rnn_tanh",
        _rnn_tanh,
        lambda rng: [Sample((_n(rng, 2, 3, 2), _n(rng, 1, 2, 2), *_rnn_weights(rng, 1, 2, 2)))],
    ),
    OpInfo("lstm", _lstm, _lstm_samples),
    # double backward is exercised by the one-layer samples; these are gradchecked only
    OpInfo(
        "lstm_stacked_bidirectional",
        lambda t, *args: _lstm(t, *args, bias=False, num_layers=2, bidirectional=True),
        _stacked_lstm_samples,
        gradgrad=False,
    ),
    OpInfo("gru_packed", _gru_packed, _gru_samples, gradgrad=False),
    OpInfo("mkldnn_rnn_layer", _lstm_layer, _lstm_layer_samples, torch_grad_fn=False),
    OpInfo(
        "rnn_relu_cell",
        lambda t, x, h, *w: t.rnn_relu_cell(x, h, *w),
        lambda rng: [Sample((_n(rng, 2, 3), _n(rng, 2, 2), *_rnn_weights(rng, 1, 3, 2)))],
    ),
    OpInfo(
        "lstm_cell",
        lambda t, x, h, c, *w: _flat(t, *t.lstm_cell(x, (h, c), *w)),
        lambda rng: [
            Sample((_n(rng, 2, 3), _n(rng, 2, 2), _n(rng, 2, 2), *_rnn_weights(rng, 4, 3, 2)))
        ],
    ),
    OpInfo(
        "gru_cell",
        lambda t, x, h, *w: t.gru_cell(x, h, *w),
        lambda rng: [Sample((_n(rng, 2, 3), _n(rng, 2, 2), *_rnn_weights(rng, 3, 3, 2)))],
    ),
    OpInfo("pack_padded_sequence", _pack, lambda rng: [Sample((_n(rng, 3, 4, 2),))]),
    OpInfo(
        "scaled_dot_product_attention",
        _sdpa,
        lambda rng: [
            Sample((_n(rng, 1, 2, 3, 2), _n(rng, 1, 2, 4, 2), _n(rng, 1, 2, 4, 2))),
            Sample(
                (_n(rng, 2, 1, 3, 2), _n(rng, 2, 1, 3, 2), _n(rng, 2, 1, 3, 2)),
                {"is_causal": True, "scale": 0.7},
            ),
            Sample(
                (_n(rng, 1, 2, 3, 2), _n(rng, 1, 2, 4, 2), _n(rng, 1, 2, 4, 2)), {"mask": "bool"}
            ),
            Sample(
                (_n(rng, 1, 1, 3, 2), _n(rng, 1, 1, 4, 2), _n(rng, 1, 1, 4, 2)), {"mask": "float"}
            ),
            Sample(
                (_n(rng, 1, 4, 2, 2), _n(rng, 1, 2, 3, 2), _n(rng, 1, 2, 3, 2)),
                {"enable_gqa": True},
            ),
        ],
        gradgrad=False,  # the fused CPU kernel's backward has no derivative, as torch's
    ),
    OpInfo(
        "scaled_dot_product_attention_math",
        _sdpa,
        lambda rng: [
            Sample((_n(rng, 2, 3, 2), _n(rng, 2, 4, 2), _n(rng, 2, 4, 3)), {"is_causal": True}),
            Sample((_n(rng, 3, 2), _n(rng, 4, 2), _n(rng, 4, 2)), {"mask": "bool"}),
        ],
    ),
    OpInfo(
        "scaled_dot_product_attention_float_mask",
        lambda t, q, k, v, m: _f(t).scaled_dot_product_attention(q, k, v, attn_mask=m),
        lambda rng: [
            Sample((_n(rng, 1, 2, 3, 2), _n(rng, 1, 2, 4, 2), _n(rng, 1, 2, 4, 2), _n(rng, 3, 4)))
        ],
        gradgrad=False,
    ),
    OpInfo(
        "scaled_dot_product_attention_masked_row",
        _sdpa_masked_row,
        lambda rng: [Sample((_n(rng, 2, 3, 2), _n(rng, 2, 4, 2), _n(rng, 2, 4, 2)))],
    ),
]
