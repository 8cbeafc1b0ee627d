"""Recurrent layers and packed sequences: parity with torch (torch's weights loaded through
state_dict, float64, outputs and input/state/parameter gradients, grad_fn names, repr),
gradcheck, dropout between layers, init, and torch's errors for bad inputs."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from nn_parity import assert_runs_match, assert_same_error, pair, run_both

import numtorch

R = np.random.default_rng(0)


def _n(*shape):
    return R.standard_normal(shape)


# (id, constructor taking the library, inputs)
CASES = [
    ("rnn", lambda m: m.nn.RNN(3, 4), [_n(5, 2, 3)]),
    ("rnn-relu-2-layers-h0", lambda m: m.nn.RNN(3, 4, 2, "relu"), [_n(4, 2, 3), _n(2, 2, 4)]),
    (
        "rnn-batch-first-no-bias",
        lambda m: m.nn.RNN(3, 4, bias=False, batch_first=True),
        [_n(2, 5, 3)],
    ),
    ("rnn-bidirectional-unbatched", lambda m: m.nn.RNN(3, 2, bidirectional=True), [_n(4, 3)]),
    ("lstm", lambda m: m.nn.LSTM(3, 4), [_n(5, 2, 3)]),
    (
        "lstm-2-layers-bidirectional",
        lambda m: m.nn.LSTM(3, 4, num_layers=2, bidirectional=True),
        [_n(4, 2, 3)],
    ),
    (
        "lstm-proj-batch-first",
        lambda m: m.nn.LSTM(3, 4, proj_size=2, batch_first=True),
        [_n(2, 4, 3)],
    ),
    ("lstm-unbatched", lambda m: m.nn.LSTM(3, 4, bias=False), [_n(4, 3)]),
    ("gru", lambda m: m.nn.GRU(3, 4), [_n(5, 2, 3)]),
    (
        "gru-2-layers-bidirectional-batch-first",
        lambda m: m.nn.GRU(3, 2, 2, batch_first=True, bidirectional=True),
        [_n(2, 4, 3), _n(4, 2, 2)],
    ),
    ("rnn-cell", lambda m: m.nn.RNNCell(3, 4), [_n(2, 3), _n(2, 4)]),
    ("rnn-cell-relu-no-bias", lambda m: m.nn.RNNCell(3, 4, False, "relu"), [_n(2, 3)]),
    ("rnn-cell-unbatched", lambda m: m.nn.RNNCell(3, 4), [_n(3), _n(4)]),
    ("lstm-cell", lambda m: m.nn.LSTMCell(3, 4), [_n(2, 3)]),
    ("gru-cell", lambda m: m.nn.GRUCell(3, 4), [_n(2, 3), _n(2, 4)]),
    ("gru-cell-unbatched", lambda m: m.nn.GRUCell(3, 4, bias=False), [_n(3)]),
]
IDS = [case[0] for case in CASES]


@pytest.mark.parametrize("name, make, inputs", CASES, ids=IDS)
def test_matches_torch(name, make, inputs):
    torch = pytest.importorskip("torch")
    results = run_both(make, torch, inputs)
    assert_runs_match(results)
    ours, theirs = results["numtorch"][4], results["torch"][4]
    assert repr(ours) == repr(theirs)
    assert list(ours.state_dict()) == list(theirs.state_dict())


def test_lstm_initial_state_gradients_match_torch():
    torch = pytest.importorskip("torch")
    make = lambda m: m.nn.LSTM(3, 4, 2, proj_size=2, bidirectional=True)
    call = lambda mod, x, h, c: mod(x, (h, c))
    results = run_both(make, torch, [_n(3, 2, 3), _n(4, 2, 2), _n(4, 2, 4)], call=call)
    assert_runs_match(results)


def test_float32_lstm_matches_torch():
    # both run float32 LSTM layers as one op (grad_fn MkldnnRnnLayerBackward0)
    torch = pytest.importorskip("torch")
    results = run_both(lambda m: m.nn.LSTM(3, 4, 2), torch, [_n(5, 2, 3)], dtype="float32")
    assert_runs_match(results, rtol=1e-4, atol=1e-5)


def test_float32_lstm_selects_its_initial_states_as_torch():
    # oneDNN's layers take each layer's initial states by select (SelectBackward0), where the
    # composed layers unbind them; a permuted state is first copied (CloneBackward0)
    torch = pytest.importorskip("torch")

    def names(fn, depth=0):
        if fn is None or depth > 3:
            return []
        found = [(depth, fn.name())]
        for child, _ in fn.next_functions:
            found += names(child, depth + 1)
        return found

    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s).astype(np.float32) for s in ((5, 2, 3), (4, 2, 2), (2, 2, 4))]
    graphs = []
    for lib in (numtorch, torch):
        lib.manual_seed(0)
        x, h_base, c = (lib.tensor(a, requires_grad=True) for a in arrays)
        out, (h_n, c_n) = lib.nn.LSTM(3, 4, 2)(x, (h_base.permute(2, 1, 0), c))
        graphs.append(names(h_n.grad_fn) + names(out.grad_fn))
    assert graphs[0] == graphs[1]
    assert (2, "SelectBackward0") in graphs[0]


@pytest.mark.parametrize(
    "make, batch_first",
    [
        (lambda m: m.nn.LSTM(3, 4, 2, bidirectional=True), False),
        (lambda m: m.nn.GRU(3, 4, batch_first=True, bidirectional=True), True),
        (lambda m: m.nn.RNN(3, 4), False),
    ],
)
def test_packed_sequences_match_torch(make, batch_first):
    torch = pytest.importorskip("torch")
    lengths = [2, 5, 3]
    x = _n(3, 5, 3) if batch_first else _n(5, 3, 3)

    def call(mod, x):
        lib = numtorch if isinstance(x, numtorch.Tensor) else torch
        rnn = lib.nn.utils.rnn
        packed = rnn.pack_padded_sequence(x, lengths, batch_first, enforce_sorted=False)
        out, hidden = mod(packed)
        padded, out_lengths = rnn.pad_packed_sequence(out, batch_first, total_length=6)
        assert out_lengths.tolist() == lengths
        return padded, hidden, out.data

    results = run_both(make, torch, [x], call=call)
    assert_runs_match(results)


def test_pad_sequence_and_packing_helpers_match_torch():
    torch = pytest.importorskip("torch")
    seqs = [_n(3, 2), _n(1, 2), _n(4, 2)]
    for batch_first in (False, True):
        for side in ("right", "left"):
            outs = []
            for lib in (numtorch, torch):
                ts = [lib.tensor(s, requires_grad=True) for s in seqs]
                out = lib.nn.utils.rnn.pad_sequence(ts, batch_first, -1.0, side)
                out.backward(lib.tensor(np.arange(out.numel()).reshape(tuple(out.shape)) * 1.0))
                outs.append(
                    (out.detach().numpy(), [t.grad.numpy() for t in ts], out.grad_fn.name())
                )
            np.testing.assert_array_equal(outs[0][0], outs[1][0])
            for a, b in zip(outs[0][1], outs[1][1]):
                np.testing.assert_array_equal(a, b)
            assert outs[0][2] == outs[1][2]
    for lib in (numtorch, torch):
        packed = lib.nn.utils.rnn.pack_sequence([lib.tensor(s) for s in seqs], enforce_sorted=False)
        assert [u.shape[0] for u in lib.nn.utils.rnn.unpack_sequence(packed)] == [3, 1, 4]
    ours = numtorch.nn.utils.rnn.pack_sequence([numtorch.tensor(s) for s in seqs], False)
    theirs = torch.nn.utils.rnn.pack_sequence([torch.tensor(s) for s in seqs], False)
    for a, b in zip(ours, theirs):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert isinstance(ours, tuple) and ours._fields == theirs._fields
    assert type(ours).__name__ == "PackedSequence"
    assert ours.double().data.dtype == numtorch.float64


@pytest.mark.parametrize("lengths", [[3], [3, 3], [3, 2]])
def test_pad_packed_sequence_graph_matches_torch(lengths):
    # torch narrows the output for each run of equal batch sizes (and slices the data): a
    # CopySlices over SliceBackward0 even where one run covers the whole output
    torch = pytest.importorskip("torch")
    graphs = []
    for lib in (numtorch, torch):
        x = lib.tensor(_n(3, len(lengths), 2), requires_grad=True)
        packed = lib.nn.utils.rnn.pack_padded_sequence(x, lengths)
        node, names = lib.nn.utils.rnn.pad_packed_sequence(packed)[0].grad_fn, []
        while node is not None:
            names.append(node.name())
            node = node.next_functions[-1][0] if node.next_functions else None
        graphs.append(names)
    assert graphs[0] == graphs[1]


def test_dropout_between_layers_only_in_training():
    torch = pytest.importorskip("torch")
    x = _n(4, 2, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        make = lambda m: m.nn.LSTM(3, 4, 2, dropout=1.0)
        # dropout 1 zeroes the first layer's output: deterministic in both libraries
        assert_runs_match(run_both(make, torch, [x], train=True))
        assert_runs_match(run_both(make, torch, [x], train=False))
    numtorch.manual_seed(0)
    lstm = numtorch.nn.LSTM(3, 4, 3, dropout=0.5).double()
    a, b = lstm(numtorch.tensor(x))[0], lstm(numtorch.tensor(x))[0]
    assert not np.allclose(a.detach().numpy(), b.detach().numpy())
    lstm.eval()
    with numtorch.no_grad():
        np.testing.assert_array_equal(lstm(numtorch.tensor(x))[0], lstm(numtorch.tensor(x))[0])


@pytest.mark.parametrize(
    "make, shape",
    [
        (lambda m: m.nn.LSTM(2, 2, 2, bidirectional=True, proj_size=1), (3, 1, 2)),
        (lambda m: m.nn.GRU(2, 2, batch_first=True), (1, 3, 2)),
        (lambda m: m.nn.RNN(2, 3, nonlinearity="relu"), (3, 2)),
    ],
)
def test_gradcheck(make, shape):
    numtorch.manual_seed(0)
    module = make(numtorch).double()
    x = numtorch.randn(*shape, dtype=numtorch.float64, requires_grad=True)

    def fn(x, *params):
        out, hidden = module(x)
        hidden = hidden if isinstance(hidden, tuple) else (hidden,)
        return (out, *hidden)

    assert numtorch.autograd.gradcheck(fn, (x, *module.parameters()))


def test_gradgradcheck_lstm_cell():
    numtorch.manual_seed(0)
    cell = numtorch.nn.LSTMCell(2, 2).double()
    x = numtorch.randn(2, 2, dtype=numtorch.float64, requires_grad=True)
    h = numtorch.randn(2, 2, dtype=numtorch.float64, requires_grad=True)
    c = numtorch.randn(2, 2, dtype=numtorch.float64, requires_grad=True)
    fn = lambda x, h, c, *p: cell(x, (h, c))
    assert numtorch.autograd.gradgradcheck(fn, (x, h, c, *cell.parameters()))


def test_hooks_and_weights_see_the_module():
    lstm = numtorch.nn.LSTM(3, 4, 2)
    seen = []
    lstm.register_forward_hook(lambda m, args, out: seen.append(type(out[1]).__name__))
    lstm.register_full_backward_hook(lambda m, gin, gout: seen.append(len(gout)))
    x = numtorch.randn(5, 2, 3, requires_grad=True)
    out, (h, c) = lstm(x)
    (out.sum() + h.sum()).backward()
    assert seen == ["tuple", 2]
    assert [len(w) for w in lstm.all_weights] == [4, 4]
    assert lstm._flat_weights[0] is lstm.weight_ih_l0
    lstm.flatten_parameters()


def test_flat_weights_read_a_weight_that_is_no_parameter():
    # the weights are read from the parameters' dict; a name not there by attribute
    lstm = numtorch.nn.LSTM(3, 4)
    w = lstm.weight_hh_l0.detach() * 2
    del lstm.weight_hh_l0
    lstm.weight_hh_l0 = w
    assert lstm._flat_weights[1] is w
    assert lstm._flat_weights[0] is lstm.weight_ih_l0


def test_init_is_uniform_in_one_over_sqrt_hidden():
    numtorch.manual_seed(0)
    for module in (numtorch.nn.GRU(8, 16, 2), numtorch.nn.LSTMCell(8, 16)):
        for p in module.parameters():
            values = p.detach().numpy()
            assert np.abs(values).max() <= 0.25
            assert abs(values.std() - 0.25 / np.sqrt(3)) < 0.03


def test_torch_state_dict_loads():
    torch = pytest.importorskip("torch")
    ours, theirs = pair(lambda m: m.nn.LSTM(3, 4, 2, proj_size=2, bidirectional=True), torch)
    for (name, p), (tname, q) in zip(ours.state_dict().items(), theirs.state_dict().items()):
        assert name == tname and tuple(p.shape) == tuple(q.shape)


def _x(t, *shape):
    return t.ones(*shape)


ERRORS = {
    "lstm-empty": lambda t: t.nn.LSTM(3, 4)(_x(t, 0, 2, 3)),
    "lstm-dtype": lambda t: t.nn.LSTM(3, 4)(_x(t, 5, 2, 3).double()),
    "lstm-input-size": lambda t: t.nn.LSTM(3, 4)(_x(t, 5, 2, 2)),
    "lstm-h0-batch": lambda t: t.nn.LSTM(3, 4)(_x(t, 5, 2, 3), (_x(t, 1, 3, 4), _x(t, 1, 2, 4))),
    "lstm-c0-size": lambda t: t.nn.LSTM(3, 4)(_x(t, 5, 2, 3), (_x(t, 1, 2, 4), _x(t, 1, 2, 5))),
    "lstm-hx-rank": lambda t: t.nn.LSTM(3, 4)(_x(t, 5, 2, 3), (_x(t, 2, 4), _x(t, 1, 2, 4))),
    "lstm-unbatched-hx-rank": lambda t: t.nn.LSTM(3, 4)(_x(t, 5, 3), (_x(t, 1, 2, 4),) * 2),
    "lstm-input-rank": lambda t: t.nn.LSTM(3, 4)(_x(t, 5, 2, 3, 1)),
    "gru-h0-batch": lambda t: t.nn.GRU(3, 4)(_x(t, 5, 2, 3), _x(t, 1, 3, 4)),
    "gru-h0-rank": lambda t: t.nn.GRU(3, 4)(_x(t, 5, 2, 3), _x(t, 3, 4)),
    "gru-unbatched-h0-rank": lambda t: t.nn.GRU(3, 4)(_x(t, 5, 3), _x(t, 1, 2, 4)),
    "gru-input-rank": lambda t: t.nn.GRU(3, 4)(_x(t, 5, 2, 3, 2)),
    "rnn-input-rank": lambda t: t.nn.RNN(3, 4)(_x(t, 5, 2, 3, 2)),
    "rnn-nonlinearity": lambda t: t.nn.RNN(3, 4, nonlinearity="sigmoid"),
    "gru-proj": lambda t: t.nn.GRU(3, 4, proj_size=2),
    "lstm-proj-too-large": lambda t: t.nn.LSTM(3, 4, proj_size=4),
    "lstm-dropout": lambda t: t.nn.LSTM(3, 4, dropout=1.5),
    "lstm-hidden-zero": lambda t: t.nn.LSTM(3, 0),
    "lstm-layers-zero": lambda t: t.nn.LSTM(3, 4, num_layers=0),
    "lstm-bias-type": lambda t: t.nn.LSTM(3, 4, bias=1),
    "lstm-cell-input-size": lambda t: t.nn.LSTMCell(3, 4)(_x(t, 2, 5)),
    "lstm-cell-h-batch": lambda t: t.nn.LSTMCell(3, 4)(_x(t, 2, 3), (_x(t, 3, 4), _x(t, 2, 4))),
    "lstm-cell-c-size": lambda t: t.nn.LSTMCell(3, 4)(_x(t, 2, 3), (_x(t, 2, 4), _x(t, 2, 5))),
    "lstm-cell-rank": lambda t: t.nn.LSTMCell(3, 4)(_x(t, 2, 3, 1)),
    "lstm-cell-unbatched-hx": lambda t: t.nn.LSTMCell(3, 4)(_x(t, 3), (_x(t, 2, 4),) * 2),
    "gru-cell-h-batch": lambda t: t.nn.GRUCell(3, 4)(_x(t, 2, 3), _x(t, 3, 4)),
    "gru-cell-h-size": lambda t: t.nn.GRUCell(3, 4)(_x(t, 2, 3), _x(t, 2, 5)),
    "gru-cell-h-rank": lambda t: t.nn.GRUCell(3, 4)(_x(t, 2, 3), _x(t, 2, 4, 1)),
    "rnn-cell-nonlinearity": lambda t: t.nn.RNNCell(3, 4, nonlinearity="foo")(_x(t, 2, 3)),
    "pack-unsorted": lambda t: t.nn.utils.rnn.pack_padded_sequence(_x(t, 3, 2), [1, 3]),
    "pack-zero-length": lambda t: t.nn.utils.rnn.pack_padded_sequence(_x(t, 3, 2), [3, 0]),
    "pack-lengths-count": lambda t: t.nn.utils.rnn.pack_padded_sequence(_x(t, 3, 2), [1]),
    "pad-packed-total-length": lambda t: t.nn.utils.rnn.pad_packed_sequence(
        t.nn.utils.rnn.pack_sequence([_x(t, 3), _x(t, 2)]), total_length=2
    ),
    "pad-sequence-empty": lambda t: t.nn.utils.rnn.pad_sequence([]),
    "pad-sequence-side": lambda t: t.nn.utils.rnn.pad_sequence([_x(t, 2)], padding_side="up"),
    "pad-sequence-trailing": lambda t: t.nn.utils.rnn.pad_sequence([_x(t, 2, 3), _x(t, 2, 4)]),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_error_matches_torch(name):
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same_error(ERRORS[name], torch)


def _lstm_layer(t, weight_dtype, hx_shape=(2, 2)):
    weights = t.ones(8, 2, dtype=weight_dtype), t.ones(8, 2), t.ones(8), t.ones(8)
    state = t.ones(hx_shape), t.ones(2, 2)
    options = False, [3], 2, 2, 1, True, False, False, True
    return t.mkldnn_rnn_layer(t.ones(3, 2, 2), *weights, *state, *options)


def test_lstm_layer_refuses_mixed_dtypes_and_misfit_states():
    # oneDNN's layer takes one dtype (torch: "get_mkldnn_dtype: unsupported data type");
    # numtorch's message names the dtypes
    torch = pytest.importorskip("torch")
    assert_same_error(lambda t: _lstm_layer(t, t.float64), torch, exact=False)
    with pytest.raises(RuntimeError, match="expected hx of shape"):
        _lstm_layer(numtorch, numtorch.float32, hx_shape=())


@pytest.mark.parametrize("bias_shape", [(), (2,)])
def test_recurrence_promotes_a_bias_of_another_dtype_as_torch(bias_shape):
    # addmm promotes its bias: only weights and states must have the input's dtype
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s) for s in ((2, 3, 2), (1, 2, 2), (2, 2), (2, 2), (2,))]
    found = []
    for lib in (numtorch, torch):
        x, h, w_ih, w_hh, b_hh = (lib.tensor(a) for a in arrays)
        b_ih = lib.tensor(np.full(bias_shape, 0.5))
        b_ih = b_ih.to(lib.float32)
        out, _ = lib.rnn_tanh(x, h, [w_ih, w_hh, b_ih, b_hh], True, 1, 0.0, False, False, True)
        found.append(out)
    assert found[0].dtype == numtorch.float64
    np.testing.assert_allclose(found[0].numpy(), found[1].numpy(), rtol=1e-12)


def test_dropout_with_one_layer_warns_like_torch():
    with pytest.warns(UserWarning, match="non-zero dropout expects num_layers greater than 1"):
        numtorch.nn.GRU(3, 4, dropout=0.2)


def test_lstm_picks_its_layers_by_the_input_dtype_as_torch():
    # a float64 input whose states and recurrent weight are float32 ends in float32 through
    # torch's composed layers (each step's projection is added in place into the float32
    # hidden product); oneDNN's layer is torch's path for a float32 input only
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s) for s in ((2, 3, 3), (1, 3, 2), (1, 3, 2), (8, 3), (8, 2))]
    dtypes = ("float64", "float32", "float32", "float64", "float32")
    found = []
    for lib in (numtorch, torch):
        x, h, c, w_ih, w_hh = (
            lib.tensor(a, dtype=getattr(lib, d), requires_grad=True) for a, d in zip(arrays, dtypes)
        )
        out, h_n, c_n = lib.lstm(x, (h, c), [w_ih, w_hh], False, 1, 0.0, True, False, False)
        (out.sum() + c_n.sum()).backward()
        found.append((out, x.grad))
    (ours, ours_grad), (theirs, theirs_grad) = found
    assert ours.dtype == numtorch.float32 and ours.grad_fn.name() == theirs.grad_fn.name()
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-5)
    np.testing.assert_allclose(ours_grad.numpy(), theirs_grad.numpy(), rtol=1e-5, atol=1e-6)
