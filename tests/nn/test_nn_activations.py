"""Activation layers and functions beyond the op table: module reprs and parity with torch,
in-place variants, torch's errors, and RReLU's random slopes."""

from __future__ import annotations

import numpy as np
import pytest
from nn_parity import assert_same_error, grad_fn_name, pair

import numtorch

F = numtorch.nn.functional

MODULES = [
    ("elu", lambda m: m.nn.ELU(0.5)),
    ("elu-inplace", lambda m: m.nn.ELU(inplace=True)),
    ("selu", lambda m: m.nn.SELU()),
    ("selu-inplace", lambda m: m.nn.SELU(True)),
    ("celu", lambda m: m.nn.CELU(2.0)),
    ("celu-inplace", lambda m: m.nn.CELU(0.5, True)),
    ("hardtanh-inplace", lambda m: m.nn.Hardtanh(-2, 2, True)),
    ("relu6-inplace", lambda m: m.nn.ReLU6(True)),
    ("leaky-relu-inplace", lambda m: m.nn.LeakyReLU(0.2, True)),
    ("logsigmoid", lambda m: m.nn.LogSigmoid()),
    ("mish", lambda m: m.nn.Mish()),
    ("mish-inplace", lambda m: m.nn.Mish(True)),
    ("hardswish", lambda m: m.nn.Hardswish()),
    ("hardswish-inplace", lambda m: m.nn.Hardswish(True)),
    ("hardsigmoid", lambda m: m.nn.Hardsigmoid(True)),
    ("softsign", lambda m: m.nn.Softsign()),
    ("tanhshrink", lambda m: m.nn.Tanhshrink()),
    ("softshrink", lambda m: m.nn.Softshrink(0.3)),
    ("hardshrink", lambda m: m.nn.Hardshrink()),
    ("threshold", lambda m: m.nn.Threshold(0.1, 2.0)),
    ("threshold-inplace", lambda m: m.nn.Threshold(0.1, -2.0, True)),
    ("prelu", lambda m: m.nn.PReLU()),
    ("prelu-channels", lambda m: m.nn.PReLU(3, 0.1)),
    ("glu", lambda m: m.nn.GLU(2)),
    ("rrelu-eval", lambda m: m.nn.RReLU(0.1, 0.3).eval()),
    ("rrelu-inplace-eval", lambda m: m.nn.RReLU(inplace=True).eval()),
    ("softmax2d", lambda m: m.nn.Softmax2d()),
    ("softplus", lambda m: m.nn.Softplus(2, 10)),
]


@pytest.mark.parametrize("name, make", MODULES, ids=[m[0] for m in MODULES])
def test_module_matches_torch(name, make):
    torch = pytest.importorskip("torch")
    ours, theirs = pair(make, torch)
    assert repr(ours) == repr(theirs)
    ours, theirs = ours.double(), theirs.double()
    x = np.random.default_rng(0).standard_normal((2, 3, 4)) * 3
    nx = numtorch.tensor(x, requires_grad=True)
    tx = torch.tensor(x, requires_grad=True)
    ny, ty = ours(nx * 1), theirs(tx * 1)  # in-place layers need a non-leaf
    np.testing.assert_allclose(ny.detach().numpy(), ty.detach().numpy(), rtol=1e-10, atol=1e-12)
    assert grad_fn_name(ny) == grad_fn_name(ty)
    g = np.random.default_rng(1).standard_normal(ty.shape)
    ny.backward(numtorch.tensor(g))
    ty.backward(torch.tensor(g))
    np.testing.assert_allclose(nx.grad.numpy(), tx.grad.numpy(), rtol=1e-10, atol=1e-12)
    for p, q in zip(ours.parameters(), theirs.parameters()):
        np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), rtol=1e-10, atol=1e-12)


def _x(t):
    return t.tensor([[-1.0, 0.5, 2.0], [0.3, -0.2, 4.0]])


ERRORS = {
    "celu-zero-alpha": lambda t: t.nn.functional.celu(_x(t), 0.0),
    "softshrink-negative": lambda t: t.nn.functional.softshrink(_x(t), -1.0),
    "softshrink-negative-double": lambda t: t.nn.functional.softshrink(_x(t).double(), -0.5),
    "rrelu-bounds": lambda t: t.nn.functional.rrelu(_x(t), 0.5, 0.1),
    "glu-odd": lambda t: t.nn.functional.glu(_x(t)),
    "glu-scalar": lambda t: t.nn.functional.glu(t.tensor(1.0)),
    "glu-dim": lambda t: t.nn.functional.glu(_x(t), 3),
    "prelu-channels": lambda t: t.nn.functional.prelu(_x(t), t.ones(2)),
    "prelu-dtype": lambda t: t.nn.functional.prelu(_x(t), t.ones(3).double()),
    "prelu-weight-2d": lambda t: t.nn.functional.prelu(_x(t), t.ones(3, 1)),
    "prelu-scalar-input": lambda t: t.nn.functional.prelu(t.tensor(1.0), t.ones(3)),
    "hardtanh-bounds": lambda t: t.nn.functional.hardtanh(_x(t), 2.0, 1.0),
    "hardtanh-module-bounds": lambda t: t.nn.Hardtanh(1.0, 1.0),
    "softmax2d-dims": lambda t: t.nn.Softmax2d()(_x(t)),
    "elu-integer": lambda t: t.nn.functional.elu(t.tensor([1, 2])),
    "selu-integer": lambda t: t.nn.functional.selu(t.tensor([1, 2])),
    "mish-integer": lambda t: t.nn.functional.mish(t.tensor([1, 2])),
    "hardswish-integer": lambda t: t.nn.functional.hardswish(t.tensor([1, 2])),
    "hardsigmoid-integer": lambda t: t.nn.functional.hardsigmoid(t.tensor([1, 2])),
    "logsigmoid-integer": lambda t: t.nn.functional.logsigmoid(t.tensor([1, 2])),
    "hardshrink-integer": lambda t: t.nn.functional.hardshrink(t.tensor([1, 2])),
    "glu-integer": lambda t: t.nn.functional.glu(t.tensor([1, 2])),
    "rrelu-integer": lambda t: t.nn.functional.rrelu(t.tensor([1, 2])),
    "elu-inplace-negative-alpha": lambda t: _backward(
        lambda x: t.nn.functional.elu(x, -0.5, inplace=True), t
    ),
    "leaky-relu-inplace-negative-slope": lambda t: _backward(
        lambda x: t.nn.functional.leaky_relu(x, -0.5, inplace=True), t
    ),
}


def _backward(fn, t):
    x = _x(t).requires_grad_()
    fn(x * 1).sum().backward()


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_error_matches_torch(name):
    assert_same_error(ERRORS[name], pytest.importorskip("torch"))


def test_rrelu_training_draws_slopes_from_the_global_generator():
    x = numtorch.linspace(-3, 3, 200, dtype=numtorch.float64).requires_grad_()
    numtorch.manual_seed(5)
    y = F.rrelu(x, 0.1, 0.3, training=True)
    assert y.grad_fn.name() == "RreluWithNoiseBackward0"
    slopes = (y / x).detach()[x.detach() < 0]
    assert ((slopes >= 0.1) & (slopes <= 0.3)).all() and len(np.unique(slopes.numpy())) > 50
    np.testing.assert_array_equal(y.detach()[x.detach() > 0], x.detach()[x.detach() > 0])
    (g,) = numtorch.autograd.grad(y.sum(), x)
    np.testing.assert_allclose(g[x.detach() < 0].numpy(), slopes.numpy())
    numtorch.manual_seed(5)
    np.testing.assert_array_equal(F.rrelu(x, 0.1, 0.3, training=True).detach(), y.detach())

    def seeded(x):
        numtorch.manual_seed(3)
        return F.rrelu(x, 0.1, 0.3, training=True)

    assert numtorch.autograd.gradcheck(seeded, (x[::7].detach().contiguous().requires_grad_(),))
    assert numtorch.autograd.gradgradcheck(seeded, (x[::7].detach().contiguous().requires_grad_(),))


def test_rrelu_module_is_random_in_training_only():
    layer = numtorch.nn.RReLU(inplace=True)
    x = -numtorch.ones(50)
    y = layer(x)
    assert y is x and len(np.unique(y.numpy())) > 10
    layer.eval()
    np.testing.assert_allclose(layer(-numtorch.ones(3)).numpy(), -(1 / 8 + 1 / 3) / 2)


def test_prelu_weight_is_a_parameter_with_torch_init():
    layer = numtorch.nn.PReLU(4, init=0.1)
    assert [name for name, _ in layer.named_parameters()] == ["weight"]
    np.testing.assert_allclose(layer.weight.detach().numpy(), np.full(4, 0.1, np.float32))
    x = numtorch.randn(2, 4, 3, dtype=numtorch.float64)
    layer = layer.double()
    assert numtorch.autograd.gradcheck(lambda x, w: layer(x), (x.requires_grad_(), layer.weight))


SPECIAL = [float("nan"), float("inf"), -float("inf"), 0.0, -0.0, 0.1, -1.0, 2.0]


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize(
    "fn", [lambda m, x: m.relu(x), lambda m, x: m.nn.functional.threshold(x, 0.1, -3.0)]
)
def test_relu_and_threshold_backward_with_nan_and_inf_match_torch(fn, dtype):
    # Gradients only (threshold's forward on NaN belongs to the forward tests). torch zeroes
    # the gradient where input <= threshold only: a NaN input passes it on, and an inf or
    # NaN gradient survives where it passes and becomes +0 where it doesn't.
    torch = pytest.importorskip("torch")
    x = np.array([[a for a in SPECIAL] for _ in SPECIAL], dtype=dtype)
    g = x.T.copy()  # every (input, gradient) pair of special values
    results = []
    for lib in (numtorch, torch):
        t = lib.tensor(x, requires_grad=True)
        y = fn(lib, t)
        (grad,) = lib.autograd.grad(y, t, lib.tensor(g), create_graph=True)
        (gradgrad,) = lib.autograd.grad(grad.sum(), t, allow_unused=True, materialize_grads=True)
        results.append((grad.detach().numpy(), grad_fn_name(grad), gradgrad.numpy()))
    (ngrad, nname, ngg), (tgrad, tname, tgg) = results
    assert np.array_equal(np.signbit(ngrad), np.signbit(tgrad))
    np.testing.assert_array_equal(ngrad, tgrad)
    assert nname == tname
    np.testing.assert_array_equal(ngg, tgg)


@pytest.mark.parametrize("name", ["hardswish", "hardsigmoid"])
def test_half_hard_activations_compute_in_float(name):
    # torch's half kernels compute in float and round once: x (x + 3) / 6 does not overflow
    torch = pytest.importorskip("torch")
    x = np.array([6552.0, 13416.0, 30000.0, -2.5, 1.3, 2.99, -3.0, 200.5], dtype=np.float16)
    grad = np.array([1.0, 0.5, 2.0, 3.0, -1.5, 7.0, 1.0, 0.1], dtype=np.float16)
    results = []
    for lib in (numtorch, torch):
        t = lib.tensor(x, requires_grad=True)
        y = getattr(lib.nn.functional, name)(t)
        (g,) = lib.autograd.grad(y, t, lib.tensor(grad))
        results.append((y.detach().numpy(), g.numpy()))
    for ours, theirs in zip(*results):
        np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("x_shape, w_shape", [((2, 3), (1,)), ((2, 3, 2), (3,)), ((4,), ())])
def test_prelu_weight_second_order_is_zeros_not_unused(x_shape, w_shape):
    # torch's double-backward formula for the weight's own gradient gives zeros (its graph
    # reaches the weight), so grad(..., allow_unused=True) returns zeros, not None
    torch = pytest.importorskip("torch")
    found = []
    for lib in (numtorch, torch):
        x = lib.tensor(np.linspace(-2, 2, int(np.prod(x_shape))).reshape(x_shape))
        w = lib.tensor(np.full(w_shape, 0.3), requires_grad=True)
        (g,) = lib.autograd.grad(lib.nn.functional.prelu(x, w).sum(), w, create_graph=True)
        found.append(lib.autograd.grad(g.sum(), w, allow_unused=True)[0])
    assert found[0] is not None
    np.testing.assert_array_equal(found[0].numpy(), found[1].numpy())
