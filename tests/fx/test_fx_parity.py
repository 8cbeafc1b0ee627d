"""Symbolic tracing against torch's: the same model code traced under both libraries gives the
same generated code, graph text, nodes, outputs and gradients."""

from __future__ import annotations

import importlib
import math
import operator

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.parity


def _libs(lib):
    return (
        lib,
        importlib.import_module(f"{lib.__name__}.nn"),
        importlib.import_module(f"{lib.__name__}.nn.functional"),
    )


# each builder makes (module or function, inputs) from (torch, nn, F)
def conv_net(torch, nn, F):
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 4, 3)
            self.bn = nn.BatchNorm2d(4)
            self.fc = nn.Linear(4 * 3 * 3, 5)

        def forward(self, x):
            x = F.max_pool2d(F.relu(self.bn(self.conv1(x))), 2)
            x = torch.flatten(x, 1)
            return F.log_softmax(self.fc(x), dim=1)

    return Net().eval(), (torch.randn(2, 1, 8, 8),)


def mlp_with_params(torch, nn, F):
    class MLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(torch.randn(4, 3))
            self.layers = nn.Sequential(nn.Linear(3, 6), nn.ReLU(), nn.Linear(6, 2))
            self.register_buffer("scale", torch.tensor(2.0))

        def forward(self, x, y=None):
            h = x @ self.w
            h = self.layers(h.t()) * 0.5
            return {"out": h.sum(dim=-1, keepdim=True), "shape": h.shape[0], "neg": -h}

    return MLP(), (torch.randn(3, 4),)


def residual_block(torch, nn, F):
    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(2, 2, 3, padding=1)
            self.norm = nn.GroupNorm(1, 2)

        def forward(self, x):
            return F.gelu(self.norm(self.conv(x))) + x

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = nn.ModuleList([Block(), Block()])
            self.head = nn.AdaptiveAvgPool2d(1)

        def forward(self, x):
            for block in self.blocks:
                x = block(x)
            return self.head(x).view(x.size(0), -1)

    return Net(), (torch.randn(2, 2, 5, 5),)


def attention(torch, nn, F):
    class Attention(nn.Module):
        def __init__(self):
            super().__init__()
            self.qkv = nn.Linear(8, 24)
            self.proj = nn.Linear(8, 8)
            self.dropout = nn.Dropout(0.0)

        def forward(self, x):
            B, T, C = x.shape
            q, k, v = self.qkv(x).split(8, dim=2)
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(8))
            att = F.softmax(att, dim=-1)
            y = self.dropout(att) @ v
            return self.proj(y.contiguous().view(B, T, C))

    return Attention(), (torch.randn(2, 3, 8),)


def functions(torch, nn, F):
    def f(a, b, *, alpha=2.0):
        c = torch.cat([a, b], 0).relu_() if False else torch.cat([a, b], 0)
        d = torch.where(c > 0, c, torch.zeros_like(c))
        e = c.clamp(min=-1.0, max=1.0).pow(2) / (d.abs() + 1)
        return e.mean(0), torch.stack((a, b)).amax(dim=0), a[1:, None].squeeze(1) ** alpha

    return f, (torch.randn(2, 3), torch.randn(2, 3))


def activations(torch, nn, F):
    class Acts(nn.Module):
        def forward(self, x):
            return (
                F.leaky_relu(x, 0.1) + F.elu(x) + F.silu(x) + torch.tanh(x) + torch.sigmoid(x),
                F.dropout(x, 0.5, training=False),
                F.cosine_similarity(x, x + 1),
                F.pad(x, (1, 1)),
                F.layer_norm(x, (3,)),
            )

    return Acts(), (torch.randn(2, 3),)


def embedding_lstm(torch, nn, F):
    class Tagger(nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(10, 4)
            self.lstm = nn.LSTM(4, 5, batch_first=True)
            self.out = nn.Linear(5, 3)

        def forward(self, idx):
            h, _ = self.lstm(self.emb(idx))
            return F.log_softmax(self.out(h), dim=-1)

    return Tagger(), (torch.tensor([[1, 2, 3], [4, 5, 6]]),)


def constants_and_methods(torch, nn, F):
    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("mask", torch.tril(torch.ones(3, 3)))
            self.plain = torch.arange(3.0)

        def forward(self, x):
            y = x.masked_fill(self.mask == 0, float("-inf"))
            z = self.plain * x + torch.ones(3)
            return y.softmax(-1).to(torch.float64), z.view(-1).float(), x.size(), x.dim()

    return M(), (torch.randn(3, 3),)


def linear_as_root(torch, nn, F):
    return nn.Linear(3, 2), (torch.randn(4, 3),)


def bilinear_as_root(torch, nn, F):
    return nn.Bilinear(2, 3, 4), (torch.randn(5, 2), torch.randn(5, 3))


BUILDERS = [
    linear_as_root,
    bilinear_as_root,
    conv_net,
    mlp_with_params,
    residual_block,
    attention,
    functions,
    activations,
    embedding_lstm,
    constants_and_methods,
]


def _trace(lib, builder):
    lib.manual_seed(0)
    root, inputs = builder(*_libs(lib))
    return lib.fx.symbolic_trace(root), inputs


def _nodes(gm):
    def target(t):
        if isinstance(t, str):
            return t
        return gm.graph.nodes.__iter__().__next__()._pretty_print_target(t)

    return [
        (n.op, n.name, target(n.target), str(n.args), str(n.kwargs), len(n.users))
        for n in gm.graph.nodes
    ]


def _values(lib, value):
    if isinstance(value, lib.Tensor):
        return value.detach().numpy()
    if isinstance(value, (tuple, list)):
        return [_values(lib, v) for v in value]
    if isinstance(value, dict):
        return {k: _values(lib, v) for k, v in value.items()}
    return value


def _assert_close(ours, theirs):
    if isinstance(theirs, np.ndarray):
        np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)
    elif isinstance(theirs, list):
        assert len(ours) == len(theirs)
        for a, b in zip(ours, theirs):
            _assert_close(a, b)
    elif isinstance(theirs, dict):
        assert ours.keys() == theirs.keys()
        for k in theirs:
            _assert_close(ours[k], theirs[k])
    else:
        assert ours == theirs


@pytest.mark.parametrize("builder", BUILDERS, ids=lambda b: b.__name__)
def test_traced_graph_and_code_match_torch(builder):
    ours, _ = _trace(numtorch, builder)
    theirs, _ = _trace(torch, builder)
    assert ours.code == theirs.code
    assert str(ours.graph) == str(theirs.graph)
    assert _nodes(ours) == _nodes(theirs)
    assert type(ours).__name__ == type(theirs).__name__
    assert str(ours).replace("numtorch", "torch") == str(theirs)


def _first_tensor(out):
    if isinstance(out, dict):
        return next(iter(out.values()))
    return out[0] if isinstance(out, tuple) else out


@pytest.mark.parametrize("builder", BUILDERS, ids=lambda b: b.__name__)
def test_traced_module_computes_what_the_original_does(builder):
    results = []
    for lib in (numtorch, torch):
        gm, inputs = _trace(lib, builder)
        lib.manual_seed(0)
        original, _ = builder(*_libs(lib))  # the same seed: the same weights
        out = gm(*inputs)
        _assert_close(_values(lib, out), _values(lib, original(*inputs)))
        grads = None
        params = [p for p in gm.parameters() if p.requires_grad]
        first = _first_tensor(out)
        if params and first.requires_grad:
            first.sum().backward()
            grads = [None if p.grad is None else p.grad.numpy().copy() for p in params]
        results.append((_values(lib, out), grads))
    (ours, our_grads), (theirs, their_grads) = results
    _assert_close(ours, theirs)
    assert (our_grads is None) == (their_grads is None)
    if their_grads is not None:
        _assert_close(our_grads, their_grads)


def test_node_api_matches_torch():
    for lib in (numtorch, torch):

        def f(x):
            return lib.relu(x) + 1

        gm = lib.fx.symbolic_trace(f)
        x, relu, add, output = gm.graph.nodes
        assert [n.op for n in gm.graph.nodes] == [
            "placeholder",
            "call_function",
            "call_function",
            "output",
        ]
        assert relu.all_input_nodes == [x] and list(x.users) == [relu]
        assert add.target is operator.add and relu.next is add and add.prev is relu
        assert repr(relu) == "relu" and output.args == (add,)
        assert relu.format_node() == (
            "%relu : [num_users=1] = call_function[target=torch.relu](args = (%x,), kwargs = {})"
        )


def test_tracer_errors_are_torchs():
    def control_flow(x):
        if x.sum() > 0:
            return x
        return -x

    def loop(x):
        return [y for y in x]

    def length(x):
        return len(x)

    for fn, err, text in [
        (
            control_flow,
            "TraceError",
            "symbolically traced variables cannot be used as inputs to control flow",
        ),
        (loop, "TraceError", "Proxy object cannot be iterated"),
        (length, "RuntimeError", "'len' is not supported in symbolic tracing by default"),
    ]:
        for lib in (numtorch, torch):
            with pytest.raises(Exception) as info:
                lib.fx.symbolic_trace(fn)
            assert type(info.value).__name__ == err and text in str(info.value)
    assert issubclass(numtorch.fx.proxy.TraceError, ValueError)


def test_concrete_args_specialise_as_torchs():
    def f(x, flag):
        return x + 1 if flag else x - 1

    codes = [
        lib.fx.symbolic_trace(f, concrete_args={"flag": True}).code for lib in (numtorch, torch)
    ]
    assert codes[0] == codes[1]
    gm = numtorch.fx.symbolic_trace(f, concrete_args={"flag": True})
    assert gm(numtorch.ones(1), True).tolist() == [2.0]


def test_graph_built_by_hand_names_functional_calls_as_torch():
    texts = []
    for lib in (numtorch, torch):
        F = lib.nn.functional
        graph = lib.fx.Graph()
        x = graph.placeholder("x")
        y = graph.call_function(F.gelu, (x,))
        z = graph.call_function(F.relu, (y,), {"inplace": False})
        graph.output(graph.call_function(lib.arctan, (z,)))
        texts.append((str(graph), lib.fx.GraphModule(lib.nn.Module(), graph).code))
    assert texts[0] == texts[1]
