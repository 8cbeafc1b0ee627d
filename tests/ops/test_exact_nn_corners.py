"""nn functions at torch's corners (empty states, zero vectors), with torch's errors and
values."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch as nt


def _gru_weights(layers):
    nt.manual_seed(0)
    shapes = [(6, 2), (6, 2), (6,), (6,)] * layers
    return [nt.randn(*shape) for shape in shapes]


@pytest.mark.parametrize("h0_shape", [(0,), (0, 3, 2), (1, 3, 2)])
@pytest.mark.parametrize("packed", [True, False])
def test_rnn_with_too_few_initial_states_raises_torchs_error(h0_shape, packed):
    # two layers need two initial states; torch counts them before running any layer
    weights = _gru_weights(2)
    h0 = nt.zeros(*h0_shape)
    with pytest.raises(RuntimeError, match="Expected more hidden states in stacked_rnn"):
        if packed:
            nt.gru(nt.randn(6, 2), nt.tensor([3, 2, 1]), h0, weights, True, 2, 0.0, False, False)
        else:
            nt.gru(nt.randn(3, 2, 2), h0, weights, True, 2, 0.0, False, False, False)


def test_rnn_tanh_with_an_empty_initial_state_raises_torchs_error():
    weights = [nt.randn(2, 2), nt.randn(2, 2)]
    with pytest.raises(RuntimeError, match="Expected more hidden states"):
        nt.rnn_tanh(nt.randn(6, 2), nt.tensor([3, 2, 1]), nt.zeros(0), weights, False, 1, 0.0,
                    False, False)  # fmt: skip


@pytest.mark.parametrize("target", [1.0, -1.0])
def test_cosine_embedding_loss_at_a_zero_vector_uses_torchs_float32_epsilon(target):
    # torch adds a C++ float 1e-12 (9.99999996e-13) to each squared norm: at a zero vector
    # the gradient is x2 / sqrt(eps * |x2|^2), which shows which epsilon was added
    x1 = nt.zeros(1, 2, dtype=nt.float64, requires_grad=True)
    x2 = nt.ones(1, 2, dtype=nt.float64)
    loss = nt.nn.functional.cosine_embedding_loss(x1, x2, nt.tensor([target]), reduction="sum")
    loss.backward()
    eps = 9.999999960041972e-13
    expected = -target / (eps * (2 + eps)) ** 0.5
    assert x1.grad.tolist()[0] == pytest.approx([expected, expected], rel=1e-12)


@pytest.mark.parametrize("mode", ["sum", "mean"])
def test_embedding_bag_skips_padding_rows_holding_nan_and_inf(mode):
    # torch skips padding entries in both directions: a NaN/inf row at padding_idx adds
    # nothing to its bag, and a NaN bag gradient does not reach the padding row
    nan, inf = float("nan"), float("inf")
    weight = nt.tensor([[1.0, 2.0], [nan, inf], [inf, -inf]], requires_grad=True)
    indices, offsets = nt.tensor([0, 2, 1, 2]), nt.tensor([0, 2])
    out = nt.nn.functional.embedding_bag(indices, weight, offsets, mode=mode, padding_idx=2)
    assert out.tolist()[0] == [1.0, 2.0]
    out.backward(nt.tensor([[nan, 1.0], [1.0, 1.0]]))
    assert weight.grad.tolist()[2] == [0.0, 0.0]


def test_embedding_bag_max_sends_nothing_from_an_empty_bag():
    weight = nt.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    out = nt.nn.functional.embedding_bag(
        nt.tensor([1, 0]), weight, nt.tensor([0, 0]), mode="max"
    )  # bag 0 is empty
    out.backward(nt.tensor([[float("nan"), 1.0], [1.0, 1.0]]))
    assert weight.grad.tolist() == [[0.0, 0.0], [1.0, 1.0]]


def test_instance_norm_weight_gradient_records_torchs_repeat_backward():
    # instance norm repeats its weight over the batch; under create_graph torch's repeat
    # backward sums the repeated axis (SumBackward1), and passes a gradient repeated once
    # through untouched
    x = nt.randn(2, 3, 4)
    weight = nt.ones(3, requires_grad=True)
    out = nt.nn.functional.instance_norm(x, weight=weight)
    (g,) = nt.autograd.grad((out * out).sum(), weight, create_graph=True)
    assert g.grad_fn.name() == "SumBackward1"
    w = nt.tensor([1.0, 2.0], requires_grad=True)
    (g,) = nt.autograd.grad((w.repeat(1) * w).sum(), w, create_graph=True)
    assert g.grad_fn.name() == "AddBackward0"


@pytest.mark.parametrize("create_graph", [False, True])
def test_batch_norm_input_gradient_with_an_infinite_weight_is_infinite(create_graph):
    # torch scales the centred gradient by the weight: the inf stays inf (taking the weight
    # into the gradient before centring would give inf - inf = NaN)
    x = nt.tensor([[[0.5, -1.0, 2.0, 0.3]], [[1.0, 2.0, -0.5, 0.1]]], requires_grad=True)
    weight = nt.tensor([float("inf")], requires_grad=True)
    out = nt.nn.functional.batch_norm(x, None, None, weight, None, training=True)
    loss = (out * nt.tensor([1.0, 2.0, 3.0, 4.0])).sum()
    (g,) = nt.autograd.grad(loss, x, create_graph=create_graph)
    inf = float("inf")
    assert g.tolist() == [[[-inf, -inf, inf, inf]], [[-inf, -inf, inf, inf]]]


def _lstm_layer_args(lib, dtype):
    gen = np.random.default_rng(5)
    x, state = gen.standard_normal((3, 2, 2)), gen.standard_normal((2, 2))
    weights = [gen.standard_normal(s) for s in ((8, 2), (8, 2), (8,), (8,))]
    return (
        lib.tensor(x, dtype=dtype),
        lib.tensor(state, dtype=dtype, requires_grad=True),
        [lib.tensor(w, dtype=dtype) for w in weights],
    )


def test_mkldnn_rnn_layer_refuses_a_bias_of_another_dtype_as_the_composed_lstm_does():
    x, state, weights = _lstm_layer_args(nt, nt.float64)
    weights[3] = weights[3].float()
    with pytest.raises(RuntimeError, match="dtype"):
        nt.mkldnn_rnn_layer(x, *weights, state, state, False, [3], 2, 2, 1, True, False, False,
                            True)  # fmt: skip


def test_mkldnn_rnn_layer_create_graph_gradient_of_one_tensor_passed_as_hx_and_cx():
    # each argument gets its own gradient (summed once into the shared tensor)
    torch = pytest.importorskip("torch")
    grads = []
    for lib in (nt, torch):
        x, state, weights = _lstm_layer_args(lib, lib.float64)
        if lib is nt:
            options = (False, [3], 2, 2, 1, True, False, False, True)
            out, h, c, _ = nt.mkldnn_rnn_layer(x, *weights, state, state, *options)
        else:
            out, h, c = torch.lstm(x, (state[None], state[None]), weights, True, 1, 0.0, True,
                                     False, False)  # fmt: skip
        loss = out.sum() + (h * 2).sum() + (c * 3).sum()
        (g,) = lib.autograd.grad(loss, state, create_graph=True)
        grads.append(g.detach().numpy())
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-10)


def test_rnn_tanh_with_an_empty_initial_state_requiring_grad_raises_torchs_error():
    # the empty state is unbound into no layers' states before the count is checked
    weights = [nt.randn(2, 2), nt.randn(2, 2)]
    h0 = nt.zeros(0, 2, 2, requires_grad=True)
    with pytest.raises(RuntimeError, match="Expected more hidden states in stacked_rnn"):
        nt.rnn_tanh(nt.randn(3, 2, 2), h0, weights, False, 1, 0.0, False, False, True)


@pytest.mark.parametrize("scale_grad_by_freq", [False, True])
def test_embedding_padding_row_gradient_is_plus_zero_whatever_reached_it(scale_grad_by_freq):
    # torch skips the padding index's lookups: no -0.0 from a negative gradient, no NaN
    torch = pytest.importorskip("torch")
    found = []
    for lib in (nt, torch):
        w = lib.ones(3, 2, requires_grad=True)
        y = lib.nn.functional.embedding(
            lib.tensor([0, 2, 0, 1]), w, padding_idx=0, scale_grad_by_freq=scale_grad_by_freq
        )
        g = [[-1.0, float("nan")], [2.0, -3.0], [-0.5, 1.0], [float("inf"), -1.0]]
        (grad,) = lib.autograd.grad((y * lib.tensor(g)).sum(), w)
        found.append((grad.tolist(), lib.signbit(grad).tolist()))
    assert str(found[0]) == str(found[1])


@pytest.mark.parametrize("batch", [3, 4])
def test_lstm_gate_sums_overflow_as_torchs(batch):
    # torch's float32 LSTM layer sums the input's and the state's products in full: an input
    # product past half the float range overflows to inf there, and meets the state's -inf
    # as NaN. Halving the sigmoid gates' rows (which saves a pass) would keep it finite
    torch = pytest.importorskip("torch")
    big = np.float32(3.4028235e38)
    x = np.full((2, batch, 3), 0.5, np.float32)
    x[0, 1, 1] = big
    h0 = np.full((batch, 2), 0.25, np.float32)
    h0[1, 1] = -np.inf
    rng = np.random.RandomState(0)
    w_ih = rng.uniform(1.2, 1.8, (8, 3)).astype(np.float32)
    w_ih[4:6, 1] = 0.1  # the cell gate's sum stays finite: the sigmoid gates make the NaN
    w_hh = rng.uniform(1.0, 2.0, (8, 2)).astype(np.float32)
    c0 = np.zeros((batch, 2), np.float32)

    def run(lib):
        weights = [lib.tensor(w_ih), lib.tensor(w_hh)]
        states = (lib.tensor(h0)[None], lib.tensor(c0)[None])
        out, h, c = lib.lstm(lib.tensor(x), states, weights, False, 1, 0.0, True, False, False)
        return [t.numpy() for t in (out, h, c)]

    for ours, theirs in zip(run(nt), run(torch)):
        np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)
