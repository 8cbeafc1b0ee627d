"""Normalization, resampling and padding layers added beyond the core ones: parity with torch
(repr, values, grad_fn, input and parameter gradients, running statistics) and torch's errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from nn_parity import assert_same_error, grad_fn_name, pair

import numtorch

# (id, constructor taking the library, input shape, steps: forward calls, train/eval in turn)
LAYERS = [
    ("instance-norm1d", lambda m: m.nn.InstanceNorm1d(3), (2, 3, 5)),
    ("instance-norm1d-unbatched", lambda m: m.nn.InstanceNorm1d(3, affine=True), (3, 5)),
    ("instance-norm2d-affine", lambda m: m.nn.InstanceNorm2d(3, affine=True), (2, 3, 4, 3)),
    (
        "instance-norm2d-stats",
        lambda m: m.nn.InstanceNorm2d(2, momentum=0.3, affine=True, track_running_stats=True),
        (3, 2, 3, 3),
    ),
    (
        "instance-norm3d-stats-eval",
        lambda m: m.nn.InstanceNorm3d(2, track_running_stats=True).eval(),
        (2, 2, 2, 3, 2),
    ),
    ("rms-norm", lambda m: m.nn.RMSNorm(4), (2, 3, 4)),
    ("rms-norm-2d-eps", lambda m: m.nn.RMSNorm((3, 4), eps=1e-3), (2, 3, 4)),
    ("rms-norm-no-affine", lambda m: m.nn.RMSNorm(4, elementwise_affine=False), (3, 4)),
    ("local-response-norm", lambda m: m.nn.LocalResponseNorm(3), (2, 5, 4)),
    ("local-response-norm-4d", lambda m: m.nn.LocalResponseNorm(2, 0.1, 0.5, 2.0), (2, 4, 3, 3)),
]


def _check_layer(make, shape, torch, steps=2):
    ours, theirs = pair(make, torch)
    assert repr(ours) == repr(theirs)
    rng = np.random.default_rng(0)
    for _ in range(steps):
        x = rng.standard_normal(shape).astype(np.float32)
        nx = numtorch.tensor(x, requires_grad=True)
        tx = torch.tensor(x, requires_grad=True)
        ny, ty = ours(nx), theirs(tx)
        np.testing.assert_allclose(ny.detach().numpy(), ty.detach().numpy(), rtol=1e-5, atol=1e-5)
        assert grad_fn_name(ny) == grad_fn_name(ty)
        g = rng.standard_normal(ty.shape).astype(np.float32)
        ny.backward(numtorch.tensor(g))
        ty.backward(torch.tensor(g))
        np.testing.assert_allclose(nx.grad.numpy(), tx.grad.numpy(), rtol=1e-4, atol=1e-5)
    for (key, p), q in zip(ours.named_parameters(), theirs.parameters()):
        np.testing.assert_allclose(
            p.grad.numpy(), q.grad.numpy(), rtol=1e-4, atol=1e-5, err_msg=key
        )
    for (key, b), c in zip(ours.named_buffers(), theirs.buffers()):
        np.testing.assert_allclose(b.numpy(), c.numpy(), rtol=1e-5, atol=1e-6, err_msg=key)
    assert list(ours.state_dict()) == list(theirs.state_dict())


@pytest.mark.parametrize("name, make, shape", LAYERS, ids=[c[0] for c in LAYERS])
def test_layer_matches_torch(name, make, shape):
    _check_layer(make, shape, pytest.importorskip("torch"))


@pytest.mark.parametrize("name, make, shape", LAYERS, ids=[c[0] for c in LAYERS])
def test_layer_gradcheck(name, make, shape):
    module = make(numtorch).double()
    x = numtorch.randn(*shape, dtype=numtorch.float64, requires_grad=True)
    params = tuple(p for p in module.parameters())
    assert numtorch.autograd.gradcheck(lambda x, *ps: module(x), (x, *params))


def _x(t, *shape):
    return t.ones(*shape)


ERRORS = {
    "instance-norm-spatial": lambda t: t.nn.functional.instance_norm(_x(t, 2, 3, 1)),
    "instance-norm-2d": lambda t: t.nn.functional.instance_norm(_x(t, 2, 3)),
    "instance-norm-no-stats": lambda t: t.nn.functional.instance_norm(
        _x(t, 2, 3, 4), use_input_stats=False
    ),
    "instance-norm-weight": lambda t: t.nn.functional.instance_norm(
        _x(t, 2, 3, 4), weight=_x(t, 2)
    ),
    "instance-norm-running-mean": lambda t: t.nn.functional.instance_norm(
        _x(t, 2, 3, 4), _x(t, 2), _x(t, 2)
    ),
    "instance-norm1d-dims": lambda t: t.nn.InstanceNorm1d(3)(_x(t, 2, 3, 4, 5)),
    "instance-norm3d-dims": lambda t: t.nn.InstanceNorm3d(3)(_x(t, 2, 3, 4)),
    "instance-norm-affine-features": lambda t: t.nn.InstanceNorm1d(4, affine=True)(_x(t, 2, 3, 4)),
    "rms-norm-shape": lambda t: t.nn.functional.rms_norm(_x(t, 2, 3, 4), (5,)),
    "rms-norm-weight": lambda t: t.nn.functional.rms_norm(_x(t, 2, 3, 4), (4,), _x(t, 3)),
    "rms-norm-int-shape": lambda t: t.nn.functional.rms_norm(_x(t, 2, 3, 4), 4),
    "rms-norm-empty-shape": lambda t: t.nn.functional.rms_norm(_x(t, 2, 3, 4), ()),
    "rms-norm-integer": lambda t: t.nn.functional.rms_norm(t.ones(2, 3, dtype=t.long), (3,)),
    "local-response-norm-dims": lambda t: t.nn.functional.local_response_norm(_x(t, 2, 3), 2),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_error_matches_torch(name):
    assert_same_error(ERRORS[name], pytest.importorskip("torch"))


def test_instance_norm_warns_when_features_do_not_match_without_affine():
    torch = pytest.importorskip("torch")
    messages = []
    for lib in (numtorch, torch):
        with pytest.warns(UserWarning) as record:
            lib.nn.InstanceNorm1d(4)(lib.ones(2, 3, 4))
        messages.append(str(record[0].message))
    assert messages[0] == messages[1]


def test_local_response_norm_of_an_empty_input_is_the_input():
    x = numtorch.ones(0, 3, 4)
    assert numtorch.nn.functional.local_response_norm(x, 2) is x


def test_rms_norm_default_eps_is_the_dtype_epsilon():
    x = numtorch.zeros(2, 3, dtype=numtorch.float64)
    x[0, 0] = 1e-9
    y = numtorch.nn.functional.rms_norm(x, (3,))
    expected = 1e-9 / np.sqrt(1e-18 / 3 + np.finfo(np.float64).eps)
    np.testing.assert_allclose(y[0, 0].item(), expected)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        numtorch.nn.RMSNorm(3)(x.float())
