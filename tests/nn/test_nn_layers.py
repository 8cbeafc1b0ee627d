"""Every layer: forward/backward parity with torch (same weights), grad_fn names, repr, and
gradcheck in float64 over the input and all parameters."""

from __future__ import annotations

import numpy as np
import pytest
from nn_parity import grad_fn_name, pair

import numtorch

pytestmark = pytest.mark.filterwarnings("ignore:Using padding='same':UserWarning")

# (id, constructor taking the library, input shape, integer input)
LAYERS = [
    ("linear", lambda m: m.nn.Linear(4, 3), (2, 4), False),
    ("linear-no-bias", lambda m: m.nn.Linear(4, 3, bias=False), (2, 4), False),
    ("linear-1d", lambda m: m.nn.Linear(4, 3), (4,), False),
    ("linear-3d", lambda m: m.nn.Linear(4, 3), (2, 2, 4), False),
    ("conv1d", lambda m: m.nn.Conv1d(2, 3, 3, stride=2, padding=1), (2, 2, 7), False),
    ("conv2d", lambda m: m.nn.Conv2d(2, 3, 3, padding=1), (2, 2, 5, 4), False),
    (
        "conv2d-groups-dilation",
        lambda m: m.nn.Conv2d(4, 2, (3, 2), stride=(2, 1), padding=(2, 1), dilation=2, groups=2),
        (1, 4, 6, 5),
        False,
    ),
    ("conv2d-no-bias", lambda m: m.nn.Conv2d(2, 2, 2, bias=False), (1, 2, 4, 3), False),
    ("conv2d-same", lambda m: m.nn.Conv2d(2, 2, 4, padding="same"), (1, 2, 5, 4), False),
    ("conv2d-valid", lambda m: m.nn.Conv2d(2, 2, 3, padding="valid"), (1, 2, 4, 4), False),
    (
        "conv2d-reflect",
        lambda m: m.nn.Conv2d(2, 2, 3, padding=1, padding_mode="reflect"),
        (1, 2, 4, 4),
        False,
    ),
    (
        "conv2d-replicate",
        lambda m: m.nn.Conv2d(2, 2, 3, padding=(1, 2), padding_mode="replicate"),
        (1, 2, 4, 3),
        False,
    ),
    (
        "conv2d-circular",
        lambda m: m.nn.Conv2d(2, 2, 3, padding=1, padding_mode="circular"),
        (1, 2, 4, 3),
        False,
    ),
    ("conv2d-unbatched", lambda m: m.nn.Conv2d(2, 2, 3), (2, 4, 4), False),
    ("conv3d", lambda m: m.nn.Conv3d(2, 2, 2, stride=(1, 2, 1)), (1, 2, 3, 4, 3), False),
    (
        "conv-transpose2d",
        lambda m: m.nn.ConvTranspose2d(2, 4, 3, stride=2, padding=1, output_padding=1, groups=2),
        (1, 2, 3, 2),
        False,
    ),
    (
        "conv-transpose2d-dilation",
        lambda m: m.nn.ConvTranspose2d(2, 3, 2, dilation=2, bias=False),
        (2, 2, 2, 3),
        False,
    ),
    ("conv-transpose1d", lambda m: m.nn.ConvTranspose1d(2, 2, 3, stride=2), (2, 2, 4), False),
    ("max-pool2d", lambda m: m.nn.MaxPool2d(2), (2, 2, 4, 6), False),
    ("max-pool2d-overlap", lambda m: m.nn.MaxPool2d(3, 2, 1), (1, 2, 5, 5), False),
    (
        "max-pool2d-ceil-dilation",
        lambda m: m.nn.MaxPool2d(2, 2, dilation=2, ceil_mode=True),
        (1, 2, 6, 7),
        False,
    ),
    ("max-pool2d-unbatched", lambda m: m.nn.MaxPool2d(2, 1), (2, 3, 3), False),
    ("max-pool1d", lambda m: m.nn.MaxPool1d(3, 2, 1), (2, 2, 7), False),
    ("avg-pool2d", lambda m: m.nn.AvgPool2d(2), (2, 2, 4, 4), False),
    (
        "avg-pool2d-ceil-exclude-pad",
        lambda m: m.nn.AvgPool2d(3, 2, 1, ceil_mode=True, count_include_pad=False),
        (1, 2, 6, 5),
        False,
    ),
    ("avg-pool2d-divisor", lambda m: m.nn.AvgPool2d(2, 1, divisor_override=3), (1, 1, 3, 4), False),
    ("avg-pool1d", lambda m: m.nn.AvgPool1d(3, 2, 1), (2, 2, 7), False),
    ("adaptive-avg-pool2d", lambda m: m.nn.AdaptiveAvgPool2d((3, 2)), (1, 2, 5, 7), False),
    ("adaptive-avg-pool2d-global", lambda m: m.nn.AdaptiveAvgPool2d(1), (2, 3, 3, 3), False),
    ("adaptive-avg-pool2d-none", lambda m: m.nn.AdaptiveAvgPool2d((None, 2)), (1, 2, 3, 5), False),
    ("adaptive-avg-pool1d", lambda m: m.nn.AdaptiveAvgPool1d(3), (2, 2, 7), False),
    ("batch-norm1d", lambda m: m.nn.BatchNorm1d(3), (4, 3), False),
    ("batch-norm1d-3d", lambda m: m.nn.BatchNorm1d(2, momentum=None), (3, 2, 4), False),
    ("batch-norm2d", lambda m: m.nn.BatchNorm2d(2), (3, 2, 2, 3), False),
    ("batch-norm2d-no-affine", lambda m: m.nn.BatchNorm2d(2, affine=False), (3, 2, 2, 2), False),
    (
        "batch-norm2d-no-stats",
        lambda m: m.nn.BatchNorm2d(2, track_running_stats=False),
        (2, 2, 2, 2),
        False,
    ),
    ("batch-norm3d", lambda m: m.nn.BatchNorm3d(2), (2, 2, 2, 2, 2), False),
    ("layer-norm", lambda m: m.nn.LayerNorm(4), (3, 4), False),
    ("layer-norm-2d", lambda m: m.nn.LayerNorm((2, 3)), (2, 2, 3), False),
    ("layer-norm-no-affine", lambda m: m.nn.LayerNorm(3, elementwise_affine=False), (2, 3), False),
    ("group-norm", lambda m: m.nn.GroupNorm(2, 4), (2, 4, 3), False),
    ("group-norm-4d", lambda m: m.nn.GroupNorm(1, 2, affine=False), (2, 2, 2, 2), False),
    ("embedding", lambda m: m.nn.Embedding(5, 3), (2, 3), True),
    ("embedding-padding", lambda m: m.nn.Embedding(5, 2, padding_idx=1), (2, 4), True),
    ("relu", lambda m: m.nn.ReLU(), (3, 4), False),
    ("leaky-relu", lambda m: m.nn.LeakyReLU(0.2), (3, 4), False),
    ("gelu", lambda m: m.nn.GELU(), (3, 4), False),
    ("gelu-tanh", lambda m: m.nn.GELU("tanh"), (3, 4), False),
    ("silu", lambda m: m.nn.SiLU(), (3, 4), False),
    ("sigmoid", lambda m: m.nn.Sigmoid(), (3, 4), False),
    ("tanh", lambda m: m.nn.Tanh(), (3, 4), False),
    ("relu6", lambda m: m.nn.ReLU6(), (3, 4), False),
    ("hardtanh", lambda m: m.nn.Hardtanh(-0.5, 0.5), (3, 4), False),
    ("softplus", lambda m: m.nn.Softplus(beta=2.0, threshold=1.0), (3, 4), False),
    ("softmax", lambda m: m.nn.Softmax(dim=1), (3, 4), False),
    ("log-softmax", lambda m: m.nn.LogSoftmax(dim=0), (3, 4), False),
    ("flatten", lambda m: m.nn.Flatten(), (2, 3, 2), False),
    ("unflatten", lambda m: m.nn.Unflatten(1, (2, 3)), (2, 6), False),
    ("identity", lambda m: m.nn.Identity(3, bias=True), (2, 3), False),
    ("dropout-eval", lambda m: m.nn.Dropout(0.5).eval(), (2, 3), False),
    (
        "sequential",
        lambda m: m.nn.Sequential(m.nn.Linear(3, 4), m.nn.ReLU(), m.nn.Linear(4, 2)),
        (2, 3),
        False,
    ),
]
IDS = [case[0] for case in LAYERS]


def _inputs(shape, integer, rng):
    if integer:
        return rng.integers(0, 5, shape)
    return rng.standard_normal(shape)


@pytest.mark.parametrize("name, make, shape, integer", LAYERS, ids=IDS)
def test_layer_matches_torch(name, make, shape, integer):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    ours, theirs = pair(make, torch)
    x = _inputs(shape, integer, rng)
    if not integer:
        x = x.astype(np.float32)
    nx = numtorch.tensor(x, requires_grad=not integer)
    tx = torch.tensor(x, requires_grad=not integer)
    ny, ty = ours(nx), theirs(tx)
    np.testing.assert_allclose(ny.detach().numpy(), ty.detach().numpy(), rtol=1e-5, atol=1e-5)
    assert grad_fn_name(ny) == grad_fn_name(ty)
    assert repr(ours) == repr(theirs)
    if ty.grad_fn is None:
        return
    g = rng.standard_normal(ty.shape).astype(np.float32)
    ny.backward(numtorch.tensor(g))
    ty.backward(torch.tensor(g))
    if not integer:
        np.testing.assert_allclose(nx.grad.numpy(), tx.grad.numpy(), rtol=1e-4, atol=1e-5)
    for (key, p), q in zip(ours.named_parameters(), theirs.parameters()):
        np.testing.assert_allclose(
            p.grad.numpy(), q.grad.numpy(), rtol=1e-4, atol=1e-5, err_msg=key
        )
    for (key, b), c in zip(ours.named_buffers(), theirs.buffers()):
        np.testing.assert_allclose(b.numpy(), c.numpy(), rtol=1e-5, atol=1e-6, err_msg=key)


@pytest.mark.parametrize("name, make, shape, integer", LAYERS, ids=IDS)
def test_layer_gradcheck(name, make, shape, integer):
    numtorch.manual_seed(0)
    module = make(numtorch).double()
    params = [p for p in module.parameters() if p.requires_grad]
    rng = np.random.default_rng(1)
    x = numtorch.tensor(_inputs(shape, integer, rng), requires_grad=not integer)
    if integer:
        assert numtorch.autograd.gradcheck(lambda *ps: module(x), tuple(params))
        return
    inputs = (x, *params)
    assert numtorch.autograd.gradcheck(lambda x, *ps: module(x), inputs)


def test_bilinear_matches_torch_and_gradchecks():
    torch = pytest.importorskip("torch")
    ours, theirs = pair(lambda m: m.nn.Bilinear(3, 2, 4), torch)
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((5, 3)).astype(np.float32), rng.standard_normal((5, 2))
    b = b.astype(np.float32)
    ny = ours(numtorch.tensor(a), numtorch.tensor(b))
    ty = theirs(torch.tensor(a), torch.tensor(b))
    np.testing.assert_allclose(ny.detach().numpy(), ty.detach().numpy(), rtol=1e-5, atol=1e-5)
    assert repr(ours) == repr(theirs)
    module = ours.double()
    x1 = numtorch.randn(2, 3, dtype=numtorch.float64, requires_grad=True)
    x2 = numtorch.randn(2, 2, dtype=numtorch.float64, requires_grad=True)
    params = tuple(module.parameters())
    assert numtorch.autograd.gradcheck(lambda x1, x2, *ps: module(x1, x2), (x1, x2, *params))


def test_convolution_double_backward():
    conv = numtorch.nn.Conv2d(2, 2, 3, stride=2, padding=1, groups=2).double()
    x = numtorch.randn(1, 2, 4, 3, dtype=numtorch.float64, requires_grad=True)
    inputs = (x, conv.weight, conv.bias)
    assert numtorch.autograd.gradgradcheck(lambda x, *ps: conv(x), inputs)
    up = numtorch.nn.ConvTranspose2d(2, 1, 2, stride=2).double()
    inputs = (x, up.weight)
    assert numtorch.autograd.gradgradcheck(lambda x, *ps: up(x), inputs)


@pytest.mark.parametrize(
    "make, shape",
    [
        (lambda m: m.nn.MaxPool2d(3, 2, 1), (1, 1, 4, 4)),
        (lambda m: m.nn.AvgPool2d(2, 1, 1, count_include_pad=False), (1, 1, 3, 3)),
        (lambda m: m.nn.AdaptiveAvgPool2d(2), (1, 1, 3, 5)),
        (lambda m: m.nn.BatchNorm2d(2), (2, 2, 2, 2)),
        (lambda m: m.nn.LayerNorm(3), (2, 3)),
        (lambda m: m.nn.GroupNorm(2, 4), (1, 4, 2)),
        (lambda m: m.nn.GELU(), (2, 3)),
        (lambda m: m.nn.GELU("tanh"), (2, 3)),
        (lambda m: m.nn.SiLU(), (2, 3)),
        (lambda m: m.nn.LeakyReLU(0.3), (2, 3)),
    ],
)
def test_layer_gradgradcheck(make, shape):
    module = make(numtorch).double()
    x = numtorch.randn(*shape, dtype=numtorch.float64, requires_grad=True)
    assert numtorch.autograd.gradgradcheck(lambda x, *ps: module(x), (x, *module.parameters()))
