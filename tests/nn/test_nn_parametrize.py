"""nn.utils.parametrize and the weight/spectral-norm utilities (parametrized and legacy):
parameter names, state-dict keys, values and gradients against torch with the same weights."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from nn_parity import assert_same_error, copy_state

import numtorch

torch = pytest.importorskip("torch")


def _both(make):
    theirs = make(torch)
    ours = make(numtorch)
    return ours, theirs


def _run(module, lib, x, steps=2):
    """Output and gradients (input, then every parameter) after ``steps`` forward calls."""
    x = lib.tensor(x, requires_grad=True)
    for _ in range(steps):
        y = module(x)
    (y * y).sum().backward()
    grads = [x.grad] + [p.grad for p in module.parameters()]
    return y, grads


def _legacy(fn):
    def make(lib):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn(lib)

    return make


MODULES = [
    ("weight-norm", lambda m: m.nn.utils.parametrizations.weight_norm(m.nn.Linear(4, 3)), (2, 4)),
    (
        "weight-norm-conv-dim1",
        lambda m: m.nn.utils.parametrizations.weight_norm(m.nn.Conv1d(2, 3, 2), dim=1),
        (2, 2, 5),
    ),
    (
        "weight-norm-none",
        lambda m: m.nn.utils.parametrizations.weight_norm(m.nn.Linear(4, 3), dim=None),
        (2, 4),
    ),
    (
        "spectral-norm",
        lambda m: m.nn.utils.parametrizations.spectral_norm(m.nn.Linear(4, 3)),
        (2, 4),
    ),
    (
        "spectral-norm-convT",
        lambda m: m.nn.utils.parametrizations.spectral_norm(
            m.nn.ConvTranspose2d(2, 3, 2), n_power_iterations=3
        ),
        (1, 2, 3, 3),
    ),
    ("legacy-weight-norm", _legacy(lambda m: m.nn.utils.weight_norm(m.nn.Linear(4, 3))), (2, 4)),
    (
        "legacy-weight-norm-conv",
        _legacy(lambda m: m.nn.utils.weight_norm(m.nn.Conv2d(2, 3, 2), dim=None)),
        (1, 2, 3, 3),
    ),
    ("legacy-spectral-norm", lambda m: m.nn.utils.spectral_norm(m.nn.Linear(4, 3)), (2, 4)),
    (
        "legacy-spectral-norm-conv",
        lambda m: m.nn.utils.spectral_norm(m.nn.Conv2d(2, 3, 2), dim=1),
        (1, 2, 3, 3),
    ),
]


@pytest.mark.parametrize("make, shape", [m[1:] for m in MODULES], ids=[m[0] for m in MODULES])
@pytest.mark.parametrize("train", [True, False])
def test_matches_torch(make, shape, train):
    ours, theirs = _both(make)
    theirs.double()
    ours.double()
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert repr(ours) == repr(theirs)
    copy_state(theirs, ours, numtorch)
    ours.train(train)
    theirs.train(train)
    x = np.random.default_rng(0).standard_normal(shape)
    y, grads = _run(ours, numtorch, x)
    y_ref, grads_ref = _run(theirs, torch, x)
    np.testing.assert_allclose(y.detach().numpy(), y_ref.detach().numpy(), rtol=1e-10)
    assert type(ours.weight.grad_fn).__name__ == type(theirs.weight.grad_fn).__name__
    for a, b in zip(grads, grads_ref):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-9, atol=1e-12)
    # the power iteration's buffers move the same way
    for (name, a), (_, b) in zip(ours.named_buffers(), theirs.named_buffers()):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-10, err_msg=name)


def test_weight_norm_over_a_middle_dim_gradgradcheck():
    v = numtorch.randn(2, 3, 4, dtype=numtorch.float64, requires_grad=True)
    g = numtorch.randn(1, 3, 1, dtype=numtorch.float64, requires_grad=True)
    assert numtorch.autograd.gradgradcheck(lambda v, g: numtorch._weight_norm(v, g, 1), (v, g))


@pytest.mark.parametrize(
    "v_shape, g_shape, dim", [((3, 4), (1, 4), 1), ((3, 4), (3, 1), 0), ((3,), (3,), 0)]
)
def test_fused_weight_norm_second_order_matches_torch(v_shape, g_shape, dim):
    # torch's fused node holds its norms constant in double backward (Note [Weight norm's
    # double backward]): the second order is torch's, not the derivative of the first
    rng = np.random.default_rng(0)
    arrays = rng.standard_normal(v_shape), rng.standard_normal(g_shape)
    weights = rng.standard_normal(v_shape)
    found = []
    for lib in (numtorch, torch):
        v, g = (lib.tensor(a, requires_grad=True) for a in arrays)
        w = lib._weight_norm(v, g, dim)
        gv, gg = lib.autograd.grad((w * lib.tensor(weights)).sum(), (v, g), create_graph=True)
        assert type(gg.grad_fn).__name__ == "DivBackward0"
        found.append(lib.autograd.grad(gv.sin().sum() + gg.sin().sum(), (v, g)))
    for a, b in zip(*found):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-10, atol=1e-12)


def test_legacy_weight_norm_checkpoint_loads_into_parametrization():
    legacy = _legacy(lambda m: m.nn.utils.weight_norm(m.nn.Linear(3, 2)))(torch)
    model = numtorch.nn.utils.parametrizations.weight_norm(numtorch.nn.Linear(3, 2))
    copy_state(legacy, model, numtorch)
    np.testing.assert_allclose(
        model.weight.detach().numpy(), legacy.weight.detach().numpy(), rtol=1e-6
    )


def test_register_keeps_parameter_identity_and_assignment_runs_right_inverse():
    class Scale(numtorch.nn.Module):
        def forward(self, x):
            return 2 * x

        def right_inverse(self, x):
            return x / 2

    linear = numtorch.nn.Linear(2, 2)
    weight = linear.weight
    numtorch.nn.utils.parametrize.register_parametrization(linear, "weight", Scale())
    assert linear.parametrizations.weight.original is weight
    linear.weight = numtorch.ones(2, 2)
    np.testing.assert_allclose(weight.detach().numpy(), 0.5)
    np.testing.assert_allclose(linear.weight.detach().numpy(), 1.0)
    # another Linear is untouched: the property lives on this instance's own class
    assert type(numtorch.nn.Linear(2, 2)) is numtorch.nn.Linear
    numtorch.nn.utils.parametrize.remove_parametrizations(linear, "weight")
    assert type(linear) is numtorch.nn.Linear and linear.weight is weight


ERRORS = [
    lambda m: m.nn.utils.parametrize.remove_parametrizations(m.nn.Linear(2, 2), "weight"),
    lambda m: m.nn.utils.parametrizations.spectral_norm(m.nn.Linear(2, 2), "foo"),
    lambda m: m.nn.utils.parametrizations.spectral_norm(m.nn.Linear(2, 2), n_power_iterations=0),
    lambda m: m.nn.utils.parametrizations.spectral_norm(m.nn.Linear(2, 2), dim=3),
    lambda m: m.nn.utils.remove_spectral_norm(m.nn.Linear(2, 2)),
    lambda m: m.nn.utils.spectral_norm(m.nn.utils.spectral_norm(m.nn.Linear(2, 2))),
]


@pytest.mark.parametrize("fn", ERRORS)
def test_errors_match_torch(fn):
    assert_same_error(fn, torch)


@pytest.mark.parametrize("orthogonal_map", ["matrix_exp", "cayley"])
@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (5, 3)])
def test_orthogonal_matches_torch(orthogonal_map, shape):
    weight = np.random.default_rng(1).standard_normal(shape)
    results = []
    for lib in (numtorch, torch):
        layer = lib.nn.Linear(shape[1], shape[0], bias=False).double()
        with lib.no_grad():
            layer.weight.copy_(lib.tensor(weight))
        lib.nn.utils.parametrizations.orthogonal(layer, orthogonal_map=orthogonal_map)
        q = layer.weight
        (q * lib.arange(float(q.numel()), dtype=q.dtype).reshape(q.shape)).sum().backward()
        grad = layer.parametrizations.weight.original.grad
        results.append((q.detach().numpy(), grad.numpy(), list(layer.state_dict())))
    (q, grad, keys), (q_ref, grad_ref, keys_ref) = results
    assert keys == keys_ref
    if shape[0] == shape[1]:  # otherwise right_inverse completes the basis with random columns
        np.testing.assert_allclose(q, q_ref, atol=1e-10)
        np.testing.assert_allclose(grad, grad_ref, atol=1e-9)
    small = q if shape[0] >= shape[1] else q.T
    np.testing.assert_allclose(small.T @ small, np.eye(min(shape)), atol=1e-10)
