"""The fast paths of a training step give torch's numbers and layouts: product gradients
computed on arrays when no graph is recorded, and the fused recurrent layer."""

import threading

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")


def _linear_grads(lib, x, w, b, g):
    weight = lib.tensor(w, requires_grad=True)
    bias = lib.tensor(b, requires_grad=True)
    inp = lib.tensor(x, requires_grad=True)
    lib.nn.functional.linear(inp, weight, bias).backward(lib.tensor(g))
    return inp.grad, weight.grad, bias.grad


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_linear_gradients_match_torch_and_land_contiguous(dtype):
    rng = np.random.default_rng(0)
    x, w, b, g = (rng.standard_normal(s).astype(dtype) for s in [(5, 7), (3, 7), (3,), (5, 3)])
    ours = _linear_grads(numtorch, x, w, b, g)
    theirs = _linear_grads(torch, x, w, b, g)
    for a, t in zip(ours, theirs):
        np.testing.assert_allclose(a.numpy(), t.numpy(), rtol=1e-5, atol=1e-6)
        assert a.numpy().flags.c_contiguous
        assert a.stride() == t.stride()


def test_addmm_scaled_gradients_match_torch():
    rng = np.random.default_rng(1)
    a, m1, m2 = (rng.standard_normal(s) for s in [(4, 2), (4, 3), (3, 2)])
    results = []
    for lib in (numtorch, torch):
        ts = [lib.tensor(v, requires_grad=True) for v in (a, m1, m2)]
        lib.addmm(ts[0], ts[1], ts[2].t().contiguous().t(), beta=0.5, alpha=-2.0).sum().backward()
        results.append([t.grad.numpy() for t in ts])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-12)


@pytest.mark.parametrize("beta, alpha", [(1, 1), (0.5, -2.0), (1, 3.0)])
@pytest.mark.parametrize("bias_2d", [False, True])
@pytest.mark.parametrize(
    "rows, inner, columns, blocks",
    [(16, 128, 256, 0), (32, 256, 256, 8), (128, 784, 64, 8), (128, 128, 512, None)],
    ids=str,
)
def test_transposed_products_match_torch(beta, alpha, bias_2d, rows, inner, columns, blocks):
    # float32 x W^T with few rows of x and many of W is computed as (W x^T)^T, W in row blocks
    # where they make small products (Note [Transposed products]): torch's values, gradients
    # and row-major strides
    from numtorch.ops import linalg

    rng = np.random.default_rng(2)
    shapes = [(rows, columns) if bias_2d else (columns,), (rows, inner), (columns, inner)]
    b, x, w = (rng.standard_normal(s).astype(np.float32) for s in shapes)
    g = rng.standard_normal((rows, columns)).astype(np.float32)
    assert linalg._transposed_product_faster(b, x, w.T) == (blocks is not None)
    assert linalg._row_block(w, x.T) == (blocks or 0)
    results = []
    for lib in (numtorch, torch):
        ts = [lib.tensor(v, requires_grad=True) for v in (b, x, w)]
        out = lib.addmm(ts[0], ts[1], ts[2].t(), beta=beta, alpha=alpha)
        out.backward(lib.tensor(g))
        assert out.stride() == (columns, 1)
        results.append([out.detach().numpy()] + [t.grad.numpy() for t in ts])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=2e-4)


# -- the fused LSTM layer (torch's float32 oneDNN path) ----------------------------------------
LSTM_CONFIGS = [
    {},
    {"num_layers": 2},
    {"bidirectional": True},
    {"batch_first": True},
    {"bias": False},
    {"num_layers": 2, "bidirectional": True, "batch_first": True},
]


def _lstm_run(lib, config, state, x, h0, c0, double=False):
    model = lib.nn.LSTM(4, 5, **config)
    model.load_state_dict({k: lib.tensor(v) for k, v in state.items()})
    inp, h, c = (lib.tensor(a, requires_grad=True) for a in (x, h0, c0))
    out, (hn, cn) = model(inp, (h, c))
    loss = (out * out).sum() + (hn * 3).sum() + cn.sum()
    if double:
        (gx,) = lib.autograd.grad(loss, inp, create_graph=True)
        (gx * gx).sum().backward()
    else:
        loss.backward()
    names = (type(out.grad_fn).__name__, type(hn.grad_fn).__name__, type(cn.grad_fn).__name__)
    grads = [inp.grad, h.grad, c.grad] + [p.grad for p in model.parameters()]
    return [out, hn, cn, *grads], names


def _lstm_inputs(config, seed=0):
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    state = {k: v.numpy() for k, v in torch.nn.LSTM(4, 5, **config).state_dict().items()}
    layers = config.get("num_layers", 1) * (2 if config.get("bidirectional") else 1)
    shape = (2, 3, 4) if config.get("batch_first") else (3, 2, 4)
    x = rng.standard_normal(shape).astype(np.float32)
    h0, c0 = (rng.standard_normal((layers, 2, 5)).astype(np.float32) for _ in range(2))
    return state, x, h0, c0


@pytest.mark.parametrize("config", LSTM_CONFIGS, ids=str)
def test_lstm_float32_matches_torch_values_gradients_and_nodes(config):
    args = _lstm_inputs(config)
    ours, our_names = _lstm_run(numtorch, config, *args)
    theirs, their_names = _lstm_run(torch, config, *args)
    assert our_names == their_names
    for a, t in zip(ours, theirs):
        np.testing.assert_allclose(a.detach().numpy(), t.detach().numpy(), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("config", LSTM_CONFIGS[:3], ids=str)
def test_lstm_double_backward_matches_torch(config):
    args = _lstm_inputs(config, seed=1)
    ours, _ = _lstm_run(numtorch, config, *args, double=True)
    theirs, _ = _lstm_run(torch, config, *args, double=True)
    for a, t in zip(ours[3:], theirs[3:]):
        np.testing.assert_allclose(a.numpy(), t.numpy(), rtol=1e-3, atol=1e-4)


@pytest.mark.parametrize("config", LSTM_CONFIGS, ids=str)
def test_fused_and_composed_lstm_agree(config, monkeypatch):
    from numtorch.ops.nn import rnn_fused

    args = _lstm_inputs(config, seed=2)
    fused, _ = _lstm_run(numtorch, config, *args)
    monkeypatch.setattr(rnn_fused, "enabled", False)
    composed, _ = _lstm_run(numtorch, config, *args)
    for a, b in zip(fused, composed):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-5, atol=1e-6)


def test_lstm_layer_node_edges_follow_torch():
    for lib in (numtorch, torch):
        model = lib.nn.LSTM(3, 2, bias=False)
        out, _ = model(lib.zeros(4, 1, 3))
        edges = [None if f is None else type(f).__name__ for f, _ in out.grad_fn.next_functions]
        assert edges == [None, "AccumulateGrad", "AccumulateGrad", None, None, None, None]


@pytest.mark.parametrize("batch", [1, 16])
def test_lstm_layers_alive_together_keep_their_own_results(batch):
    # the layer's kernels keep scratch arrays between calls (Note [Kernel scratch]): a second
    # forward while the first graph lives must change neither its outputs nor its workspace
    rng = np.random.default_rng(3)
    numtorch.manual_seed(0)
    model = numtorch.nn.LSTM(8, 8)
    xs = [numtorch.tensor(rng.standard_normal((5, batch, 8)).astype(np.float32)) for _ in range(2)]
    alone = []
    for x in xs:
        out, (_, c) = model(x)
        (out.sum() + c.sum()).backward()
        alone.append(
            [out.detach().numpy().copy()] + [p.grad.numpy().copy() for p in model.parameters()]
        )
        model.zero_grad()
    outs = [model(x) for x in xs]  # both graphs alive
    for (out, (_, c)), expected in zip(outs, alone):
        model.zero_grad()
        (out.sum() + c.sum()).backward()
        found = [out.detach().numpy()] + [p.grad.numpy() for p in model.parameters()]
        for a, b in zip(found, expected):
            np.testing.assert_array_equal(a, b)


def test_lstm_layer_keeps_no_scratch_above_its_bound(monkeypatch):
    # arrays above _MOST_KEPT bytes are made afresh each call (Note [Kernel scratch]); the
    # values are those of the kept path
    from numtorch.ops.nn import rnn_fused

    x = np.random.default_rng(4).standard_normal((6, 5, 8)).astype(np.float32)
    found = []
    for bound in (rnn_fused._MOST_KEPT, 1000):
        monkeypatch.setattr(rnn_fused, "_MOST_KEPT", bound)
        monkeypatch.setattr(rnn_fused, "_scratch", threading.local())
        numtorch.manual_seed(0)
        model = numtorch.nn.LSTM(8, 8)
        out, (_, c) = model(numtorch.tensor(x))
        (out.sum() + c.sum()).backward()
        found.append([out.detach().numpy()] + [p.grad.numpy() for p in model.parameters()])
        kept = rnn_fused._scratch.__dict__.values()
        assert all(a.nbytes <= bound for a in kept) and len(kept) >= 2
    for a, b in zip(*found):
        np.testing.assert_array_equal(a, b)


def test_lstm_layer_frees_saved_values_and_runs_batched_gradients():
    model = numtorch.nn.LSTM(3, 2)
    x = numtorch.randn(4, 2, 3, requires_grad=True)
    out, _ = model(x)
    basis = numtorch.eye(out.numel()).reshape(out.numel(), *out.shape)
    (jacobian,) = numtorch.autograd.grad(out, x, basis, retain_graph=True, is_grads_batched=True)
    rows = [numtorch.autograd.grad(out, x, b, retain_graph=True)[0] for b in basis]
    np.testing.assert_allclose(jacobian.numpy(), numtorch.stack(rows).numpy(), atol=1e-6)
    out.sum().backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        out.sum().backward()


# -- einsum's path planning ----------------------------------------------------------------
@pytest.mark.parametrize(
    "equation,shapes",
    [
        ("bij,bjk->bik", [(4, 40, 30), (4, 30, 50)]),
        ("...ij,...jk->...ik", [(2, 3, 40, 30), (3, 30, 50)]),
        ("bhqd,bhkd->bhqk", [(2, 2, 30, 16), (2, 2, 40, 16)]),
        ("ij,ij->i", [(60, 70), (60, 70)]),
        ("i,j->ij", [(200,), (300,)]),
        ("ij,jk,kl->il", [(5, 6), (6, 7), (7, 8)]),
    ],
)
def test_einsum_matches_torch_forward_and_backward(equation, shapes):
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s) for s in shapes]
    results = []
    for lib in (numtorch, torch):
        ts = [lib.tensor(a, requires_grad=True) for a in arrays]
        out = lib.einsum(equation, *ts)
        out.backward(lib.ones_like(out))
        results.append([out.detach().numpy()] + [t.grad.numpy() for t in ts])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-10)


def test_einsum_plans_only_products_that_reach_blas():
    from numtorch.ops.linalg import _plans_pay

    big = np.zeros((64, 64))
    assert _plans_pay("ij,jk->ik", [big, big])
    assert not _plans_pay("ij,jk->ik", [big[:4, :4], big[:4, :4]])  # too small to pay
    assert not _plans_pay("ij,ij->i", [big, big])  # elementwise, then a sum
    assert not _plans_pay("i,j->ij", [big[0], big[0]])  # nothing contracted
    assert not _plans_pay("ij->j", [big])
    assert _plans_pay("i,ij,j->", [big[0], big, big[0]])


@pytest.mark.parametrize("config", [{}, {"bidirectional": True, "batch_first": True}], ids=str)
def test_lstm_weight_gradients_when_the_input_needs_none(config):
    state, x, h0, c0 = _lstm_inputs(config, seed=3)
    results = []
    for lib in (numtorch, torch):
        model = lib.nn.LSTM(4, 5, **config)
        model.load_state_dict({k: lib.tensor(v) for k, v in state.items()})
        out, _ = model(lib.tensor(x))
        out.pow(2).sum().backward()
        results.append([p.grad.numpy() for p in model.parameters()])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-5)


# -- batch norm's gradients in one sweep -------------------------------------------------------
@pytest.mark.parametrize("shape", [(4, 3), (2, 3, 5), (2, 3, 4, 5)])
@pytest.mark.parametrize("affine", [True, False])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_training_batch_norm_gradients_match_torch(shape, affine, dtype):
    rng = np.random.default_rng(4)
    x = (rng.standard_normal(shape) * 3 + 1).astype(dtype)
    g = rng.standard_normal(shape).astype(dtype)
    results = []
    for lib in (numtorch, torch):
        layer = lib.nn.BatchNorm1d(3, affine=affine) if len(shape) < 4 else None
        layer = layer or lib.nn.BatchNorm2d(3, affine=affine)
        layer = layer.to(getattr(lib, np.dtype(dtype).name))
        if affine:
            with lib.no_grad():
                layer.weight.copy_(lib.tensor([0.5, -1.5, 2.0]))
                layer.bias.copy_(lib.tensor([0.1, 0.2, -0.3]))
        inp = lib.tensor(x, requires_grad=True)
        layer(inp).backward(lib.tensor(g))
        results.append([inp.grad] + [p.grad for p in layer.parameters()])
    tol = 1e-4 if dtype == np.float32 else 1e-10
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=tol, atol=tol)


def test_batch_norm_sweep_agrees_with_the_composite_formulas():
    from numtorch.autograd import grad as autograd_grad

    rng = np.random.default_rng(5)
    layer = numtorch.nn.BatchNorm2d(3).double()
    x = numtorch.tensor(rng.standard_normal((2, 3, 4, 4)), requires_grad=True)
    g = numtorch.tensor(rng.standard_normal((2, 3, 4, 4)))
    out = layer(x)
    swept = autograd_grad(out, [x, *layer.parameters()], g, retain_graph=True)
    # create_graph runs the per-input formulas (NativeBatchNormBackwardBackward0)
    composite = autograd_grad(out, [x, *layer.parameters()], g, create_graph=True)
    assert composite[0].grad_fn is not None
    for a, b in zip(swept, composite):
        np.testing.assert_allclose(a.numpy(), b.detach().numpy(), rtol=1e-12, atol=1e-12)


def _lstm_one_loss(lib, sizes, loss_of, options):
    input_size, hidden, seq, batch = sizes
    torch.manual_seed(0)
    state = torch.nn.LSTM(input_size, hidden, **options).state_dict()
    model = lib.nn.LSTM(input_size, hidden, **options)
    model.load_state_dict({k: lib.tensor(v.numpy()) for k, v in state.items()})
    shape = (batch, seq, input_size) if options["batch_first"] else (seq, batch, input_size)
    x = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    inp = lib.tensor(x, requires_grad=True)
    out, (h, c) = model(inp)
    {"output": out.sum(), "h_n": (h * h).sum(), "c_n": (c * 3).sum()}[loss_of].backward()
    grads = [p.grad for p in model.parameters()]
    return [out, h, c, inp.grad] + [np.zeros(1) if g is None else g for g in grads]


@pytest.mark.parametrize("sizes", [(1, 1, 1, 1), (3, 1, 4, 1), (2, 5, 1, 3)], ids=str)
@pytest.mark.parametrize("loss_of", ["output", "h_n", "c_n"])
@pytest.mark.parametrize("both_ways", [False, True])
def test_lstm_layer_edge_shapes_match_torch(sizes, loss_of, both_ways):
    # one step, one sample or one hidden unit: the fused layer's transposed (hidden, batch)
    # states and its gate blocks degenerate to single rows or columns
    options = {"bidirectional": both_ways, "batch_first": both_ways}
    ours = _lstm_one_loss(numtorch, sizes, loss_of, options)
    theirs = _lstm_one_loss(torch, sizes, loss_of, options)
    for a, t in zip(ours, theirs):
        a, t = (v if isinstance(v, np.ndarray) else v.detach().numpy() for v in (a, t))
        np.testing.assert_allclose(a, t, rtol=1e-4, atol=1e-5)


# -- the LSTM layer's recurrent products as stacks of small ones --------------------------------
def test_lstm_recurrent_products_split_into_small_blocks():
    from numtorch.ops.nn.rnn_fused import _row_blocks

    assert _row_blocks(np.zeros((512, 128)), 16).shape == (2, 256, 128)  # 2^20 multiply-adds
    assert _row_blocks(np.zeros((128, 512)), 16).shape == (2, 64, 512)  # the backward's W^T
    assert _row_blocks(np.zeros((1024, 256)), 16).shape == (8, 128, 256)
    assert _row_blocks(np.zeros((256, 64)), 16).shape == (1, 256, 64)  # small already
    assert _row_blocks(np.zeros((4 * 257, 257)), 16).shape == (1, 4 * 257, 257)  # no even split


@pytest.mark.parametrize("config", [{}, {"bidirectional": True, "batch_first": True}], ids=str)
def test_lstm_with_split_recurrent_products_matches_torch(config):
    # hidden 128 at batch 16: the recurrent products run as two row blocks each way
    torch.manual_seed(5)
    state = {k: v.numpy() for k, v in torch.nn.LSTM(8, 128, **config).state_dict().items()}
    shape = (16, 3, 8) if config else (3, 16, 8)
    x = np.random.default_rng(5).standard_normal(shape).astype(np.float32)
    results = []
    for lib in (numtorch, torch):
        model = lib.nn.LSTM(8, 128, **config)
        model.load_state_dict({k: lib.tensor(v) for k, v in state.items()})
        inp = lib.tensor(x, requires_grad=True)
        out, (hn, cn) = model(inp)
        ((out * out).sum() + hn.sum() + (cn * 2).sum()).backward()
        grads = [inp.grad] + [p.grad for p in model.parameters()]
        results.append([t.detach().numpy() for t in (out, hn, cn, *grads)])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-5)


# -- the LSTM layer's input taken into each step's product (Note [One product per step]) ------
@pytest.mark.parametrize(
    "sizes, in_step",
    [((6, 5, 4, 3), True), ((12, 5, 4, 3), False), ((6, 5, 2, 3), False), ((6, 5, 1, 3), False)],
    ids=str,
)
@pytest.mark.parametrize("config", [{}, {"bias": False}, {"bidirectional": True}], ids=str)
def test_lstm_input_in_step_product_matches_torch(sizes, in_step, config):
    # (input, hidden, batch, seq): batch 4 with an input at most twice the hidden size takes
    # the input into each step's product, a wider input or batch 1 and 2 the projection GEMM
    from numtorch.ops.nn.rnn_fused import _input_in_step

    input_size, hidden, batch, seq = sizes
    assert _input_in_step(batch, hidden, input_size, True) is in_step
    torch.manual_seed(7)
    state = {
        k: v.numpy() for k, v in torch.nn.LSTM(input_size, hidden, **config).state_dict().items()
    }
    rng = np.random.default_rng(7)
    x = rng.standard_normal((seq, batch, input_size)).astype(np.float32)
    layers = 2 if config.get("bidirectional") else 1
    h0, c0 = (rng.standard_normal((layers, batch, hidden)).astype(np.float32) for _ in range(2))
    results = []
    for lib in (numtorch, torch):
        model = lib.nn.LSTM(input_size, hidden, **config)
        model.load_state_dict({k: lib.tensor(v) for k, v in state.items()})
        inp, h, c = (lib.tensor(a, requires_grad=True) for a in (x, h0, c0))
        out, (hn, cn) = model(inp, (h, c))
        ((out * out).sum() + (hn * 3).sum() + cn.sum()).backward()
        grads = [inp.grad, h.grad, c.grad] + [p.grad for p in model.parameters()]
        results.append([t.detach().numpy() for t in (out, hn, cn, *grads)])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-5)


def test_lstm_weight_gradients_by_row_blocks_match_torch():
    # 16 steps of batch 16, input 32, hidden 64: the weight gradients (256 x 256)(256 x 32)
    # and (256 x 256)(256 x 64) run as stacks of small products (Note [Row blocks])
    from numtorch.ops.linalg import _row_block

    gates = np.zeros((256, 256), np.float32)
    assert _row_block(gates, np.zeros((256, 32), np.float32)) == 8
    assert _row_block(gates, np.zeros((256, 64), np.float32)) == 8
    torch.manual_seed(3)
    state = {k: v.numpy() for k, v in torch.nn.LSTM(32, 64).state_dict().items()}
    x = np.random.default_rng(3).standard_normal((16, 16, 32)).astype(np.float32)
    results = []
    for lib in (numtorch, torch):
        model = lib.nn.LSTM(32, 64)
        model.load_state_dict({k: lib.tensor(v) for k, v in state.items()})
        out, _ = model(lib.tensor(x))
        (out * out).sum().backward()
        results.append([p.grad.numpy() for p in model.parameters()])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-4)


# -- softmax over short rows (the maximum from a transposed copy) -----------------------------
@pytest.mark.parametrize("shape", [(128, 10), (16, 64), (4, 6, 10), (3, 10)])
@pytest.mark.parametrize("op", ["log_softmax", "softmax"])
def test_short_row_softmax_matches_torch_with_nonfinite_rows(shape, op):
    rng = np.random.default_rng(2)
    x = (rng.standard_normal(shape) * 4).astype(np.float32)
    rows = x.reshape(-1, shape[-1])
    rows[0, 3], rows[1, :] = np.inf, -np.inf
    rows[2, 5] = np.nan
    ours = getattr(numtorch, op)(numtorch.tensor(x), -1).numpy()
    theirs = getattr(torch, op)(torch.tensor(x), -1).numpy()
    np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-6)
    np.testing.assert_array_equal(np.isnan(ours), np.isnan(theirs))


def test_short_row_cross_entropy_gradient_matches_torch():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((128, 10)).astype(np.float32)
    y = rng.integers(0, 10, 128)
    grads = []
    for lib in (numtorch, torch):
        logits = lib.tensor(x, requires_grad=True)
        loss = lib.nn.functional.cross_entropy(logits, lib.tensor(y))
        loss.backward()
        grads.append((loss.item(), logits.grad.numpy()))
    assert grads[0][0] == pytest.approx(grads[1][0], rel=1e-6)
    np.testing.assert_allclose(grads[0][1], grads[1][1], rtol=1e-5, atol=1e-8)


# -- ReLU against a same-shape array of zeros (small contiguous inputs) -----------------------
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.uint8])
@pytest.mark.parametrize("shape", [(128, 512), (3, 5), (300, 300)])
def test_relu_matches_torch_bitwise(dtype, shape):
    rng = np.random.default_rng(4)
    x = (rng.standard_normal(shape) * 5).astype(dtype)
    if x.dtype.kind == "f":
        x.flat[:4] = [np.nan, -0.0, np.inf, -np.inf]
    ours = numtorch.relu(numtorch.tensor(x)).numpy()
    theirs = torch.relu(torch.tensor(x)).numpy()
    assert ours.dtype == theirs.dtype
    np.testing.assert_array_equal(ours, theirs)
    # bit for bit: torch's clamp at 0 keeps -0.0 in its vector and scalar loops (x86's max
    # gives its second operand, the input, between equal zeros)
    np.testing.assert_array_equal(np.signbit(ours), np.signbit(theirs))
    assert ours.flags.writeable and ours.flags.c_contiguous


def test_relu_of_a_transpose_keeps_torch_strides():
    x = np.random.default_rng(5).standard_normal((6, 4)).astype(np.float32)
    ours = numtorch.relu(numtorch.tensor(x).t())
    theirs = torch.relu(torch.tensor(x).t())
    assert ours.stride() == theirs.stride()
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
