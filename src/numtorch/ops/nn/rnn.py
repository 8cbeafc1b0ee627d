"""The recurrences behind ``nn.RNN``, ``nn.LSTM`` and ``nn.GRU``: torch's ``rnn_tanh``,
``rnn_relu``, ``lstm``, ``gru`` and the ``*_cell`` functions, composed from differentiable
ops the way torch's CPU implementation is (aten/src/ATen/native/RNN.cpp), so backward,
double backward and hooks come from the ops.

A layer projects its whole input sequence with one GEMM (both biases folded in where the
cell allows), then loops over time steps only: one ``addmm`` with the recurrent weight and
the gate arithmetic per step. Step outputs are stacked (``StackBackward0``), the two
directions concatenated (``CatBackward0``), the final states stacked, and a batch-first
output transposed (in place for RNN and GRU: ``TransposeBackward1``), as in torch. (Where
torch runs an LSTM layer through oneDNN, on float32 without projection or packing, the layer
is one op with its grad_fn ``MkldnnRnnLayerBackward0``: rnn_fused.py.) With ``batch_sizes`` (a
packed sequence) the batch shrinks as sequences end and each sequence's final state is
taken at its own last step, as torch's PackedLayer does.

Gates, with ``W x`` short for ``x W^T + b``:
  RNN:  h' = tanh(W_ih x + W_hh h)                           (or relu)
  LSTM: i, f, g, o = chunks of W_ih x + W_hh h; c' = s(f) c + s(i) tanh(g);
        h' = s(o) tanh(c') (times W_hr^T with proj_size)
  GRU:  r = s(W_ir x + W_hr h), z = s(W_iz x + W_hz h), n = tanh(W_in x + r (W_hn h)),
        h' = (h - n) z + n
"""

from __future__ import annotations

from ... import _creation
from ..._core import batch_rules
from ..._core.dtypes import promote_types
from ..._core.observers import dispatch
from ..._core.op import defop, export
from ..._core.tensor import Tensor
from ...autograd.forward_grad import no_forward_derivative
from ...backend import xp
from ..concatenation import cat, stack
from ..linalg import addmm
from ..overload_names import positional_overloads
from . import rnn_fused

# -- one time step ---------------------------------------------------------------------------
# A step takes the projected input ``xw`` (x W_ih^T + bias) of that step, the hidden state
# and ``(w_hh_t, b_hh, w_hr_t)``; ``b_hh`` is None when it is folded into ``xw``.


def _recurrent(xw, h, w_hh_t, b_hh):
    if b_hh is None:
        return addmm(xw, h, w_hh_t)
    return addmm(b_hh, h, w_hh_t) + xw  # torch: linear_hh(h).add_(linear_ih(x))


def _tanh_step(xw, h, weights):
    return _recurrent(xw, h, weights[0], weights[1]).tanh()


def _relu_step(xw, h, weights):
    return _recurrent(xw, h, weights[0], weights[1]).relu()


def _lstm_step(xw, hidden, weights):
    h, c = hidden
    w_hh_t, b_hh, w_hr_t = weights
    i, f, g, o = _recurrent(xw, h, w_hh_t, b_hh).chunk(4, 1)
    c = f.sigmoid() * c + i.sigmoid() * g.tanh()
    h = o.sigmoid() * c.tanh()
    return (h if w_hr_t is None else h.mm(w_hr_t)), c


def _gru_step(xw, h, weights):
    w_hh_t, b_hh, _ = weights
    gh = h.mm(w_hh_t) if b_hh is None else addmm(b_hh, h, w_hh_t)
    i_r, i_z, i_n = xw.chunk(3, 1)
    h_r, h_z, h_n = gh.chunk(3, 1)
    r = (h_r + i_r).sigmoid()
    z = (h_z + i_z).sigmoid()
    n = (i_n + h_n * r).tanh()
    return (h - n) * z + n


_STEPS = {"RNN_TANH": _tanh_step, "RNN_RELU": _relu_step, "LSTM": _lstm_step, "GRU": _gru_step}


def _output(hidden):
    return hidden[0] if isinstance(hidden, tuple) else hidden


def _narrow(hidden, start, end):
    if isinstance(hidden, tuple):
        return tuple(t.narrow(0, start, end - start) for t in hidden)
    return hidden.narrow(0, start, end - start)


def _concat(hiddens):
    if isinstance(hiddens[0], tuple):
        return tuple(cat(list(parts), 0) for parts in zip(*hiddens))
    return cat(hiddens, 0)


# -- one layer in one direction ----------------------------------------------------------------
def _project(mode, input, weights, has_biases, has_proj):
    """``x W_ih^T + b`` for the whole sequence at once, and the step weights."""
    w_ih, w_hh = weights[0], weights[1]
    b_ih, b_hh = (weights[2], weights[3]) if has_biases else (None, None)
    w_hr_t = weights[-1].t() if has_proj else None
    if mode == "GRU" or b_ih is None:
        bias, step_bias = b_ih, b_hh  # GRU: b_hn sits inside r * (W_hn h + b_hn)
    else:
        bias, step_bias = b_ih + b_hh, None
    if input.ndim == 0:  # torch projects with linear, which refuses a 0-d input
        raise RuntimeError(
            f"both arguments to linear need to be at least 1D, but they are 0D and {w_ih.ndim}D"
        )
    flat = input.reshape(-1, input.shape[-1])
    xw = flat.mm(w_ih.t()) if bias is None else addmm(bias, flat, w_ih.t())
    return xw, (w_hh.t(), step_bias, w_hr_t)


def _run(step, xw_steps, hidden, weights, reverse):
    """Every step of a padded sequence: (step outputs in time order, final hidden)."""
    outputs = []
    for xw in reversed(xw_steps) if reverse else xw_steps:
        hidden = step(xw, hidden, weights)
        outputs.append(_output(hidden))
    if reverse:
        outputs.reverse()
    return outputs, hidden


def _run_packed(step, xw_steps, hidden, weights, batch_sizes, reverse):
    """Every step of a packed sequence; a sequence's final hidden is the one after its last
    step (torch's PackedLayer and ReversedPackedLayer)."""
    outputs = []
    if not reverse:
        finished = []
        last = batch_sizes[0]
        for xw, size in zip(xw_steps, batch_sizes):
            if size < last:
                finished.append(_narrow(hidden, size, last))
                hidden = _narrow(hidden, 0, size)
            last = size
            hidden = step(xw, hidden, weights)
            outputs.append(_output(hidden))
        finished.append(hidden)
        finished.reverse()
        return outputs, _concat(finished)
    initial = hidden
    last = batch_sizes[-1]
    hidden = _narrow(initial, 0, last)
    for i in range(len(batch_sizes) - 1, -1, -1):
        size = batch_sizes[i]
        if size > last:
            hidden = _concat([hidden, _narrow(initial, last, size)])
        last = size
        hidden = step(xw_steps[i], hidden, weights)
        outputs.append(_output(hidden))
    outputs.reverse()
    return outputs, hidden


@defop(
    batch=batch_rules.along("dim0", "dim1"),
    name="rnn_transpose_",
    node="TransposeBackward1",
    input=lambda grad, dim0, dim1: grad.transpose(dim0, dim1),
    jvp="linear",
)
def _transpose_output(input, dim0, dim1):
    # torch transposes the fresh output in place; no one else holds this array either
    return xp.swapaxes(input, dim0, dim1)


def _dropout(input, p):
    """Dropout between layers (F.dropout's mask; ops do not import nn)."""
    if p == 1.0:
        return input * 0.0
    keep = _creation.bernoulli_mask(input.shape, 1.0 - p, input._data)
    dtype = input._data.dtype
    return input * Tensor._make(keep.astype(dtype) * (dtype.type(1.0) / dtype.type(1.0 - p)))


# -- the layer stack -------------------------------------------------------------------------
def _stack_layers(
    mode,
    input,
    hx,
    params,
    has_biases,
    num_layers,
    dropout,
    train,
    bidirectional,
    batch_first,
    batch_sizes,
):
    step = _STEPS[mode]
    directions = 2 if bidirectional else 1
    lstm = mode == "LSTM"
    has_proj = lstm and hx[0].shape[-1] != hx[1].shape[-1]
    per_direction = len(params) // (num_layers * directions)
    # torch picks oneDNN's layer by the input's own dtype: a float64 input whose composed
    # layers end in float32 runs composed, in float32
    fused = lstm and rnn_fused.applies(input, has_proj, batch_sizes is not None)
    if fused and hx[0].ndim and hx[1].ndim:
        # oneDNN's layers select their initial states one by one (SelectBackward0), where
        # the composed layers unbind them
        hiddens = None
        count = min(hx[0].shape[0], hx[1].shape[0])
    else:
        hiddens = list(zip(hx[0].unbind(0), hx[1].unbind(0))) if lstm else hx.unbind(0)
        count = len(hiddens)
    if count < num_layers * directions:
        # torch checks the count of initial states before it runs any layer
        raise RuntimeError("Expected more hidden states in stacked_rnn")
    if batch_sizes is None:
        if batch_first:
            input = input.transpose(0, 1)
        if input.shape[0] == 0:
            raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
    finals = []
    if fused:  # torch's oneDNN path runs on contiguous copies of the input and the states
        input = input.contiguous()
        states = [t.contiguous() for t in hx]
    else:
        dtype = _stack_dtype(
            mode, input, hiddens, params, has_biases, has_proj, directions, batch_sizes
        )
        if dtype is not None:  # Note [Recurrence dtypes]
            input, params = input.to(dtype), [p.to(dtype) for p in params]
            hiddens = [tuple(t.to(dtype) for t in h) if lstm else h.to(dtype) for h in hiddens]
    for layer in range(num_layers):
        outputs = []
        for direction in range(directions):
            k = layer * directions + direction
            weights = params[k * per_direction : (k + 1) * per_direction]
            if fused:  # torch's float32 path: one op per layer and direction
                biases = () if has_biases else (None, None)
                out, h, c, _ = rnn_fused.mkldnn_rnn_layer(
                    input, *weights, *biases, states[0].select(0, k), states[1].select(0, k),
                    direction == 1, [input.shape[0]],
                    2, hx[0].shape[-1], num_layers, has_biases, bidirectional, False, train,
                )  # fmt: skip
                outputs.append(out)
                finals.append((h, c))
                continue
            xw, step_weights = _project(mode, input, weights, has_biases, has_proj)
            reverse = direction == 1
            if batch_sizes is None:
                steps = xw.view(input.shape[0], input.shape[1], -1).unbind(0)
                out, final = _run(step, steps, hiddens[k], step_weights, reverse)
                outputs.append(stack(out, 0))
            else:
                steps = xw.split(batch_sizes, 0)
                out, final = _run_packed(
                    step, steps, hiddens[k], step_weights, batch_sizes, reverse
                )
                outputs.append(cat(out, 0))
            finals.append(final)
        input = outputs[0] if directions == 1 else cat(outputs, outputs[0].ndim - 1)
        if dropout != 0 and train and layer < num_layers - 1:
            input = _dropout(input, dropout)
    if batch_sizes is None and batch_first:
        # torch's lstm transposes out of place, rnn and gru in place (TransposeBackward1)
        input = input.transpose(0, 1) if lstm else _transpose_output(input, 0, 1)
    if lstm:
        return input, stack([h for h, _ in finals], 0), stack([c for _, c in finals], 0)
    return input, stack(finals, 0)


def _recurrence(mode: str, name: str):
    def run(input, *args):
        return _dispatch(mode, input, args, packed=isinstance(args[1], Tensor))

    run.__name__ = run.__qualname__ = name
    run.__doc__ = (
        f"torch's ``{name}(input, hx, params, has_biases, num_layers, dropout, train, "
        "bidirectional, batch_first)``, or for a packed sequence ``"
        f"{name}(data, batch_sizes, hx, params, has_biases, num_layers, dropout, train, "
        "bidirectional)``: ``(output, h_n)``."
    )
    return run


def _dispatch(mode, input, args, packed):
    if packed:
        batch_sizes, hx, params, *options = args
        sizes = [int(s) for s in batch_sizes.tolist()]
        return _stack_layers(mode, input, hx, list(params), *options, False, sizes)
    hx, params, *options = args
    return _stack_layers(mode, input, hx, list(params), *options, None)


# Note [Recurrence dtypes]
# torch's composed layers take mixed dtypes as their ops do: the input projection is one
# matmul (an addmm with the bias where the time-major input is contiguous or packed; a
# batch-first input is a transposed view, and its bias is added in place in the input's
# dtype), each step an addmm of the hidden state with W_hh and b_hh (one dtype) into which
# the projection is added in place, so the state keeps its dtype; GRU's new gate and LSTM's
# cell state promote. Where such a stack runs, numtorch computes it in the dtype it ends in;
# oneDNN's layer (rnn_fused) checks its own.
def _stack_dtype(mode, input, hiddens, params, has_biases, has_proj, directions, packed):
    """The dtype torch's composed layers end in, or torch's RuntimeError where one of their
    matmuls meets two dtypes; None when every tensor has the input's dtype."""
    lstm = mode == "LSTM"
    states = [t for h in hiddens for t in (h if lstm else (h,))]
    x = input.dtype
    if all(t.dtype == x for t in (*params, *states)):
        return None
    name = mode.lower()
    per_unit = len(params) // len(hiddens)
    steps = min(len(packed) if packed else input.shape[0], 2)
    bias_promotes = not packed and not input.is_contiguous()
    ends = []
    for layer in range(len(hiddens) // directions):
        outputs = []
        for k in range(layer * directions, (layer + 1) * directions):
            w = params[k * per_unit : (k + 1) * per_unit]
            _same_dtype(name, ("input", x), ("weight_ih", w[0].dtype))
            if has_biases and not bias_promotes:
                _same_dtype(name, ("input", x), ("bias_ih", w[2].dtype))
            h, c = (hiddens[k][0].dtype, hiddens[k][1].dtype) if lstm else (hiddens[k].dtype, None)
            for _ in range(steps):
                _same_dtype(name, ("hidden state", h), ("weight_hh", w[1].dtype))
                if has_biases:
                    _same_dtype(name, ("hidden state", h), ("bias_hh", w[3].dtype))
                if mode == "GRU":
                    h = promote_types(x, h)
                elif lstm:
                    h = c = promote_types(h, c)
                    if has_proj:
                        _same_dtype(name, ("hidden state", h), ("weight_hr", w[-1].dtype))
                        h = w[-1].dtype
            outputs.append(h)
            ends += (h, c) if lstm else (h,)
        x = promote_types(*outputs) if len(outputs) == 2 else outputs[0]
        bias_promotes = False
    end = ends[0]
    for dtype in ends[1:]:
        end = promote_types(end, dtype)
    return end


def _same_dtype(name, first, second):
    if first[1] != second[1]:
        raise RuntimeError(
            f"{name}: the {first[0]} ({first[1]}) and {second[0]} ({second[1]}) meet in one "
            "matmul and must have the same dtype; convert them with .to()"
        )


# torch's schemas: the padded form, then the packed one
_RECURRENCE_ORDERS = (
    ("input", "hx", "params", "has_biases", "num_layers", "dropout", "train",
     "bidirectional", "batch_first"),
    ("data", "batch_sizes", "hx", "params", "has_biases", "num_layers", "dropout", "train",
     "bidirectional"),
)  # fmt: skip
_by_name = positional_overloads(*_RECURRENCE_ORDERS)
rnn_tanh = export(_by_name(_recurrence("RNN_TANH", "rnn_tanh")), method=False)
rnn_relu = export(_by_name(_recurrence("RNN_RELU", "rnn_relu")), method=False)
gru = export(_by_name(_recurrence("GRU", "gru")), method=False)


@export(method=False)
@_by_name
def lstm(input, *args):
    """torch's ``lstm(input, (h0, c0), params, has_biases, num_layers, dropout, train,
    bidirectional, batch_first)`` (or its packed form): ``(output, h_n, c_n)``."""
    packed = isinstance(args[0], Tensor)
    if dispatch.autocast is not None and not packed and not _projected(args[1]):
        # torch runs this LSTM as oneDNN layers (mkldnn_rnn_layer), which autocast casts
        # whole: input, states and weights, so every state stays in the low precision
        input, hx, params = dispatch.autocast.cast_op("mkldnn_rnn_layer", (input, *args[:2]))
        args = (hx, params, *args[2:])
    return _dispatch("LSTM", input, args, packed)


def _projected(params) -> bool:
    w_hh = params[1]
    return w_hh.shape[0] != 4 * w_hh.shape[1]


# -- cells -----------------------------------------------------------------------------------
def _check_gates(w_ih, w_hh, gates, hidden_size):
    for label, weight in (("ih", w_ih), ("hh", w_hh)):
        if weight.size(0) != gates * hidden_size:
            raise RuntimeError(
                f"weight_{label} first dim must be {gates} * hidden_size = "
                f"{gates * hidden_size}, but got {weight.size(0)}"
            )


def _check_input(input, w_ih):
    # input.size(1) is read as torch reads it: IndexError for a 0-d or 1-D input
    input_size = w_ih.size(1)
    if input.size(1) != input_size:
        raise RuntimeError(
            f"input has inconsistent input_size: got {input.shape[1]} expected {input_size}"
        )


def _check_hiddens(input, hiddens, hidden_size):
    for label, hx in enumerate(hiddens):
        if input.shape[0] != hx.shape[0]:
            raise RuntimeError(
                f"Input batch size {input.shape[0]} doesn't match hidden{label} batch size "
                f"{hx.shape[0]}"
            )
        if hx.shape[1] != hidden_size:
            raise RuntimeError(
                f"hidden{label} has inconsistent hidden_size: got {hx.shape[1]}, expected "
                f"{hidden_size}"
            )


def _check_cell(input, hiddens, w_ih, w_hh, gates):
    # Each cell checks in torch's own order (which error a bad call raises depends on it):
    # the RNN cells check the weights against the gates first, lstm_cell the input first,
    # gru_cell the input and the state before the weights (and reads hidden_size last)
    if gates == 3:
        _check_input(input, w_ih)
        hidden_size = w_hh.size(1)
        _check_hiddens(input, hiddens, hidden_size)
        _check_gates(w_ih, w_hh, gates, hidden_size)
        return
    hidden_size = w_hh.size(1)
    if gates == 1:
        _check_gates(w_ih, w_hh, gates, hidden_size)
    _check_input(input, w_ih)
    if gates == 4:
        _check_gates(w_ih, w_hh, gates, hidden_size)
    _check_hiddens(input, hiddens, hidden_size)


def _cell_input(input, w_ih, b_ih, hx=None):
    xw = input.mm(w_ih.t()) if b_ih is None else addmm(b_ih, input, w_ih.t())
    # torch adds the projection into W_hh h in place: the state's dtype stays
    return xw if hx is None or hx.dtype == xw.dtype else xw.to(hx.dtype)


def _simple_cell(step, name):
    def cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
        _check_cell(input, (hx,), w_ih, w_hh, 3 if step is _gru_step else 1)
        xw = _cell_input(input, w_ih, b_ih, None if step is _gru_step else hx)
        return step(xw, hx, (w_hh.t(), b_hh, None))

    cell.__name__ = cell.__qualname__ = name
    cell.__doc__ = "One step on (batch, input_size) inputs and (batch, hidden) states: ``h'``."
    return cell


rnn_tanh_cell = export(_simple_cell(_tanh_step, "rnn_tanh_cell"), method=False)
rnn_relu_cell = export(_simple_cell(_relu_step, "rnn_relu_cell"), method=False)
gru_cell = export(_simple_cell(_gru_step, "gru_cell"), method=False)


@export(method=False)
def lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One LSTM step on (batch, input_size) inputs: ``(h', c')``."""
    _check_cell(input, hx, w_ih, w_hh, 4)
    xw = _cell_input(input, w_ih, b_ih, hx[0])
    return _lstm_step(xw, tuple(hx), (w_hh.t(), b_hh, None))


# -- packing ---------------------------------------------------------------------------------
def _packed_rows(lengths, batch):
    """Rows of the time-major (T * batch, ...) input that form the packed data, and the
    batch size of each time step."""
    sizes = [sum(1 for n in lengths if n > t) for t in range(lengths[0])]
    rows = xp.concatenate([xp.arange(size) + t * batch for t, size in enumerate(sizes)])
    return rows, sizes


def _pack_backward(grad, input_shape, lengths, batch_first):
    steps, batch = (input_shape[1], input_shape[0]) if batch_first else input_shape[:2]
    rows, _ = _packed_rows(lengths, batch)
    rest = tuple(input_shape[2:])
    flat = _creation.zeros((steps * batch, *rest), dtype=grad.dtype)
    padded = flat.index_add(0, Tensor._make(rows), grad).view(steps, batch, *rest)
    return padded.transpose(0, 1) if batch_first else padded


@defop(
    name="_pack_padded_sequence",
    node="PackPaddedSequenceBackward0",
    outputs=2,
    input=lambda grad, input_shape, lengths, batch_first: _pack_backward(
        grad, input_shape, lengths, batch_first
    ),
    jvp=no_forward_derivative("_pack_padded_sequence"),
)
def _pack(input, lengths, batch_first):
    x = xp.swapaxes(input, 0, 1) if batch_first else input
    rows, sizes = _packed_rows(lengths, x.shape[1])
    return x.reshape(-1, *x.shape[2:])[rows], xp.asarray(sizes, dtype=xp.int64)


@export(name="_pack_padded_sequence", method=False)
def pack_padded_sequence(input, lengths, batch_first):
    """``(data, batch_sizes)`` of a padded (T, B, *) batch (``(B, T, *)`` when batch_first)
    whose sequences have the given lengths, sorted longest first."""
    lengths = [int(n) for n in (lengths.tolist() if isinstance(lengths, Tensor) else lengths)]
    batch = input.shape[0] if batch_first else input.shape[1]
    if input.numel() == 0:
        raise RuntimeError("Cannot pack empty tensors.")
    if len(lengths) != batch:
        raise RuntimeError(
            f"Expected `len(lengths)` to be equal to batch_size, but got {len(lengths)} "
            f"(batch_size={batch})"
        )
    if lengths[-1] <= 0:
        raise RuntimeError(
            "Length of all samples has to be greater than 0, but found an element in 'lengths' "
            "that is <= 0"
        )
    if any(a < b for a, b in zip(lengths, lengths[1:])):
        raise RuntimeError(
            "`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. "
            "You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence "
            "to sidestep this requirement if you do not need ONNX exportability."
        )
    data, batch_sizes = _pack(input, tuple(lengths), batch_first)
    return data, batch_sizes
