"""Normalization, resampling, padding and adaptive pooling layers: parity with torch
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
    ("upsample-nearest", lambda m: m.nn.Upsample(scale_factor=2), (1, 2, 3, 2)),
    ("upsample-nearest-size", lambda m: m.nn.Upsample(size=(5, 3)), (1, 2, 3, 2)),
    ("upsample-nearest-exact", lambda m: m.nn.Upsample(size=5, mode="nearest-exact"), (1, 2, 3)),
    ("upsample-linear", lambda m: m.nn.Upsample(scale_factor=1.5, mode="linear"), (2, 2, 4)),
    (
        "upsample-bilinear-corners",
        lambda m: m.nn.Upsample(size=(4, 5), mode="bilinear", align_corners=True),
        (1, 2, 3, 3),
    ),
    (
        "upsample-bicubic",
        lambda m: m.nn.Upsample(scale_factor=(2, 1.5), mode="bicubic"),
        (1, 1, 3, 4),
    ),
    (
        "upsample-trilinear",
        lambda m: m.nn.Upsample(scale_factor=2, mode="trilinear"),
        (1, 1, 2, 2, 3),
    ),
    (
        "upsample-recompute",
        lambda m: m.nn.Upsample(scale_factor=1.7, mode="bilinear", recompute_scale_factor=True),
        (1, 1, 3, 4),
    ),
    ("upsample-area", lambda m: m.nn.Upsample(size=(2, 3), mode="area"), (1, 2, 5, 4)),
    ("upsampling-nearest2d", lambda m: m.nn.UpsamplingNearest2d(scale_factor=3), (1, 1, 2, 2)),
    ("upsampling-bilinear2d", lambda m: m.nn.UpsamplingBilinear2d(size=(3, 4)), (1, 1, 2, 2)),
    ("pixel-shuffle", lambda m: m.nn.PixelShuffle(2), (2, 8, 3, 2)),
    ("pixel-unshuffle", lambda m: m.nn.PixelUnshuffle(3), (1, 2, 3, 6)),
    ("unfold", lambda m: m.nn.Unfold((2, 3), dilation=(2, 1), padding=1, stride=2), (2, 2, 5, 6)),
    ("fold", lambda m: m.nn.Fold((4, 5), 2, padding=(1, 0), stride=(1, 2)), (2, 8, 10)),
    ("zero-pad1d", lambda m: m.nn.ZeroPad1d((1, 2)), (2, 3)),
    ("zero-pad2d", lambda m: m.nn.ZeroPad2d((1, 0, 2, -1)), (1, 2, 3, 3)),
    ("zero-pad3d", lambda m: m.nn.ZeroPad3d(1), (1, 1, 2, 2, 2)),
    ("constant-pad1d", lambda m: m.nn.ConstantPad1d(2, 3.5), (2, 3)),
    ("constant-pad2d", lambda m: m.nn.ConstantPad2d((1, 2, 0, 1), -1.0), (1, 2, 3, 3)),
    ("constant-pad3d", lambda m: m.nn.ConstantPad3d((1, 0, 0, 1, 1, 1), 0.5), (1, 2, 2, 2)),
    ("reflection-pad1d", lambda m: m.nn.ReflectionPad1d((2, 1)), (2, 2, 4)),
    ("reflection-pad2d", lambda m: m.nn.ReflectionPad2d(1), (1, 2, 3, 3)),
    ("reflection-pad3d", lambda m: m.nn.ReflectionPad3d((1, 0, 1, 1, 0, 1)), (1, 1, 2, 3, 3)),
    ("replication-pad1d", lambda m: m.nn.ReplicationPad1d(2), (2, 3)),
    ("replication-pad2d", lambda m: m.nn.ReplicationPad2d((0, 1, 2, 1)), (1, 2, 3, 3)),
    ("replication-pad3d", lambda m: m.nn.ReplicationPad3d(1), (1, 1, 2, 2, 2)),
    ("circular-pad2d", lambda m: m.nn.CircularPad2d((1, 0, 1, 2)), (1, 2, 3, 3)),
    ("adaptive-max-pool1d", lambda m: m.nn.AdaptiveMaxPool1d(3), (2, 2, 7)),
    ("adaptive-max-pool2d", lambda m: m.nn.AdaptiveMaxPool2d((3, None)), (1, 2, 5, 4)),
    ("adaptive-max-pool2d-even", lambda m: m.nn.AdaptiveMaxPool2d(2), (2, 3, 4, 6)),
    ("adaptive-max-pool3d", lambda m: m.nn.AdaptiveMaxPool3d((2, 1, 3)), (1, 2, 3, 2, 4)),
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
    "rms-norm-0d": lambda t: t.nn.functional.rms_norm(t.tensor(1.0), (3,)),
    # torch checks the weight before the input's rank, and names the rank it needs
    "rms-norm-0d-bad-weight": lambda t: t.nn.functional.rms_norm(
        t.tensor(1.0), (3, 2), _x(t, 0, 2)
    ),
    "rms-norm-low-rank": lambda t: t.nn.functional.rms_norm(_x(t, 2), (1, 2)),
    "rms-norm-int-shape": lambda t: t.nn.functional.rms_norm(_x(t, 2, 3, 4), 4),
    "rms-norm-empty-shape": lambda t: t.nn.functional.rms_norm(_x(t, 2, 3, 4), ()),
    "rms-norm-integer": lambda t: t.nn.functional.rms_norm(t.ones(2, 3, dtype=t.long), (3,)),
    "local-response-norm-dims": lambda t: t.nn.functional.local_response_norm(_x(t, 2, 3), 2),
    "interpolate-size-and-scale": lambda t: _interp(t, size=2, scale_factor=2),
    "interpolate-neither": lambda t: _interp(t),
    "interpolate-corners-nearest": lambda t: _interp(t, size=2, align_corners=True),
    "interpolate-size-length": lambda t: _interp(t, size=(2, 2, 2)),
    "interpolate-scale-length": lambda t: _interp(t, scale_factor=(2, 2, 2)),
    "interpolate-size-type": lambda t: _interp(t, size=(2.5, 2)),
    "interpolate-recompute-size": lambda t: _interp(t, size=2, recompute_scale_factor=True),
    "interpolate-size-zero": lambda t: _interp(t, size=0),
    "interpolate-scale-small": lambda t: _interp(t, scale_factor=0.1),
    "interpolate-1d-size-zero": lambda t: t.nn.functional.interpolate(_x(t, 1, 1, 4), size=0),
    "interpolate-bilinear-3d": lambda t: t.nn.functional.interpolate(
        _x(t, 1, 2, 4), size=2, mode="bilinear"
    ),
    "interpolate-linear-4d": lambda t: _interp(t, size=2, mode="linear"),
    "interpolate-trilinear-4d": lambda t: _interp(t, size=2, mode="trilinear"),
    "interpolate-bicubic-5d": lambda t: t.nn.functional.interpolate(
        _x(t, 1, 1, 2, 2, 2), size=2, mode="bicubic"
    ),
    "interpolate-mode": lambda t: _interp(t, size=2, mode="cubic"),
    "interpolate-2d": lambda t: t.nn.functional.interpolate(_x(t, 2, 4), size=2),
    "interpolate-antialias-nearest": lambda t: _interp(t, size=2, antialias=True),
    "interpolate-integer": lambda t: t.nn.functional.interpolate(
        t.ones(1, 1, 4, dtype=t.long), size=2
    ),
    "interpolate-integer-linear": lambda t: t.nn.functional.interpolate(
        t.ones(1, 1, 4, dtype=t.long), size=2, mode="linear"
    ),
    "pixel-shuffle-channels": lambda t: t.nn.functional.pixel_shuffle(_x(t, 1, 3, 2, 2), 2),
    "pixel-shuffle-dims": lambda t: t.nn.functional.pixel_shuffle(_x(t, 4, 2), 2),
    "pixel-shuffle-factor": lambda t: t.nn.functional.pixel_shuffle(_x(t, 1, 4, 2, 2), 0),
    "pixel-unshuffle-height": lambda t: t.nn.functional.pixel_unshuffle(_x(t, 1, 1, 3, 4), 2),
    "pixel-unshuffle-width": lambda t: t.nn.functional.pixel_unshuffle(_x(t, 1, 1, 4, 3), 2),
    "pixel-unshuffle-dims": lambda t: t.nn.functional.pixel_unshuffle(_x(t, 4, 2), 2),
    "unfold-dims": lambda t: t.nn.functional.unfold(_x(t, 1, 2, 3, 4, 4), 2),
    "unfold-too-large": lambda t: t.nn.functional.unfold(_x(t, 1, 2, 4, 4), 5),
    "unfold-kernel": lambda t: t.nn.functional.unfold(_x(t, 1, 2, 4, 4), 0),
    "unfold-stride": lambda t: t.nn.functional.unfold(_x(t, 1, 2, 4, 4), 2, stride=0),
    "unfold-padding": lambda t: t.nn.functional.unfold(_x(t, 1, 2, 4, 4), 2, padding=-1),
    "unfold-dilation": lambda t: t.nn.functional.unfold(_x(t, 1, 2, 4, 4), 2, dilation=0),
    "unfold-kernel-length": lambda t: t.nn.functional.unfold(_x(t, 1, 2, 4, 4), (2, 2, 2)),
    "fold-columns": lambda t: t.nn.functional.fold(_x(t, 1, 5, 9), 4, 2),
    "fold-blocks": lambda t: t.nn.functional.fold(_x(t, 1, 4, 8), 4, 2),
    "fold-dims": lambda t: t.nn.functional.fold(_x(t, 1, 4, 9, 1), 4, 2),
    "adaptive-max-dims": lambda t: t.nn.functional.adaptive_max_pool2d(_x(t, 2, 4), 2),
    "adaptive-max-size": lambda t: t.nn.functional.adaptive_max_pool2d(
        _x(t, 1, 2, 4, 4), (2, 2, 2)
    ),
    "adaptive-max1d-dims": lambda t: t.nn.functional.adaptive_max_pool1d(_x(t, 1, 2, 4, 4), 2),
    "adaptive-max-empty": lambda t: t.nn.functional.adaptive_max_pool2d(_x(t, 1, 2, 0, 4), 2),
    "adaptive-max-integer": lambda t: t.nn.functional.adaptive_max_pool2d(
        t.ones(1, 1, 4, 4, dtype=t.long), 2
    ),
    "reflection-pad1d-dims": lambda t: t.nn.ReflectionPad1d(1)(_x(t, 2, 2, 2, 2)),
    "zero-pad2d-dims": lambda t: t.nn.ZeroPad2d(1)(_x(t, 2)),
    "circular-pad2d-dims": lambda t: t.nn.CircularPad2d(1)(_x(t, 2, 2)),
}


def _interp(t, **kwargs):
    return t.nn.functional.interpolate(_x(t, 1, 2, 4, 4), **kwargs)


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


def test_adaptive_max_pool_returns_torch_indices():
    torch = pytest.importorskip("torch")
    x = np.random.default_rng(3).standard_normal((2, 3, 7, 5)).round(1)  # ties too
    for size in [(3, 2), (7, 1), 1, (None, 5)]:
        ours = numtorch.nn.AdaptiveMaxPool2d(size, return_indices=True)(numtorch.tensor(x))
        theirs = torch.nn.AdaptiveMaxPool2d(size, return_indices=True)(torch.tensor(x))
        for a, b in zip(ours, theirs):
            np.testing.assert_array_equal(a.numpy(), b.numpy())
        assert ours[1].dtype == numtorch.int64


def test_upsample_keeps_torch_attributes():
    up = numtorch.nn.Upsample(scale_factor=(2, 3))
    assert up.scale_factor == (2.0, 3.0) and up.size is None and up.name == "Upsample"
    assert isinstance(numtorch.nn.ZeroPad2d(1), numtorch.nn.ConstantPad2d)


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


@pytest.mark.parametrize("dims", [1, 2, 3])
@pytest.mark.parametrize("size, scale", [(2, 1.3), (3, 1.1), (2, 2.1), (5, 2.1), (5, 1.3)])
def test_nearest_scale_factor_goes_by_the_scale_where_torch_does(dims, size, scale):
    # an axis whose size is kept (or doubled) by a scale factor other than 1 (or 2): torch's
    # 2-D forward and every backward copy (or halve) the index, its 1-D and 3-D forwards go
    # by the scale
    torch = pytest.importorskip("torch")
    found = []
    for lib in (numtorch, torch):
        for axis in range(dims):
            shape, factors = [1, 1] + [1] * dims, [1.0] * dims
            shape[2 + axis], factors[axis] = size, scale
            x = lib.arange(float(size)).reshape(shape).requires_grad_()
            y = lib.nn.functional.interpolate(x, scale_factor=tuple(factors), mode="nearest")
            y.backward(lib.arange(1.0, 1.0 + y.numel()).reshape(y.shape))
            found.append((y.flatten().tolist(), x.grad.flatten().tolist()))
    assert found[:dims] == found[dims:]
