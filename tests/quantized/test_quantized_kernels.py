"""Fake quantization and the quantized kernels against torch, bit for bit."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.filterwarnings("ignore:torch.quantize_per_tensor:UserWarning")


def _both(array):
    return numtorch.tensor(array), torch.tensor(array)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize(
    "scale, zero_point, low, high", [(0.1, 3, 0, 255), (0.037, -3, -128, 127), (1 / 3, 5, 0, 15)]
)
def test_fake_quantize_per_tensor_bit_for_bit(dtype, scale, zero_point, low, high):
    rng = np.random.default_rng(0)
    values = (rng.standard_normal(20000) * 3).astype(dtype)
    values[:4] = [0.05, 0.15, 0.25, -0.35]
    ours, theirs = _both(values)
    a = numtorch.fake_quantize_per_tensor_affine(ours, scale, zero_point, low, high)
    b = torch.fake_quantize_per_tensor_affine(theirs, scale, zero_point, low, high)
    assert str(a.dtype) == str(b.dtype)
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    a = numtorch.fake_quantize_per_tensor_affine(
        ours, numtorch.tensor(scale), numtorch.tensor(zero_point), low, high
    )
    b = torch.fake_quantize_per_tensor_affine(
        theirs, torch.tensor(scale), torch.tensor(zero_point), low, high
    )
    np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_fake_quantize_per_channel_bit_for_bit():
    rng = np.random.default_rng(1)
    ours, theirs = _both((rng.standard_normal((4, 5000)) * 3).astype(np.float32))
    scales = np.array([0.1, 0.037, 0.2, 1 / 3], dtype=np.float32)
    zeros = np.array([3, -3, 0, 5], dtype=np.int32)
    a = numtorch.fake_quantize_per_channel_affine(
        ours, numtorch.tensor(scales), numtorch.tensor(zeros), 0, -128, 127
    )
    b = torch.fake_quantize_per_channel_affine(
        theirs, torch.tensor(scales), torch.tensor(zeros), 0, -128, 127
    )
    np.testing.assert_array_equal(a.numpy(), b.numpy())


@pytest.mark.parametrize("zero_dtype", ["float32", "float16"])
def test_fake_quantize_per_channel_with_float_zero_points_bit_for_bit(zero_dtype):
    # a float zero point is added before rounding (round(x / scale + zero_point)), maps back
    # in double, and is not range-checked (200 lies outside [-128, 127])
    rng = np.random.default_rng(2)
    data = (rng.standard_normal((3, 4000)) * 3).astype(np.float32)
    data[0, 0] = np.nan
    scales = np.array([0.1, 0.02, 1 / 3], dtype=np.float32)
    zeros = np.array([0.5, -1.25, 200.0], dtype=zero_dtype)
    results = []
    for lib in (numtorch, torch):
        x = lib.tensor(data, requires_grad=True)
        y = lib.fake_quantize_per_channel_affine(
            x, lib.tensor(scales), lib.tensor(zeros), 0, -128, 127
        )
        y.sum().backward()
        results.append((y.detach().numpy(), x.grad.numpy(), type(y.grad_fn).__name__))
    np.testing.assert_array_equal(results[0][0], results[1][0])
    np.testing.assert_array_equal(results[0][1], results[1][1])
    assert results[0][2] == results[1][2]


@pytest.mark.parametrize(
    "call",
    [
        lambda lib, x: lib.fake_quantize_per_tensor_affine(x * 3, 0.1, 0, -10, 10),
        lambda lib, x: lib.fake_quantize_per_tensor_affine(
            x * 3, lib.tensor(0.1), lib.tensor(0), -10, 10
        ),
        lambda lib, x: lib.fake_quantize_per_channel_affine(
            (x * 3).reshape(1, 6), lib.tensor([0.1]), lib.tensor([0], dtype=lib.int32), 0, -10, 10
        ),
    ],
)
def test_straight_through_gradient_and_node_names(call):
    rng = np.random.default_rng(2)
    values = rng.standard_normal(6).astype(np.float32)
    results = []
    for lib in (numtorch, torch):
        x = lib.tensor(values, requires_grad=True)
        y = call(lib, x)
        y.backward(lib.ones_like(y))
        results.append((type(y.grad_fn).__name__, x.grad.numpy().copy(), y.detach().numpy()))
    (name, grad, out), (their_name, their_grad, their_out) = results
    assert name == their_name
    np.testing.assert_array_equal(grad, their_grad)
    np.testing.assert_array_equal(out, their_out)
    assert 0 < grad.sum() < 18  # some values clamp, some pass


@pytest.mark.parametrize(
    "call",
    [
        lambda lib, x: lib.fake_quantize_per_tensor_affine(x, 0.1, 0, 255, 0),
        lambda lib, x: lib.fake_quantize_per_tensor_affine(x, 0.1, 300, 0, 255),
        lambda lib, x: lib.fake_quantize_per_tensor_affine(x, 0.1, 0.5, 0, 255),
        lambda lib, x: lib.fake_quantize_per_tensor_affine(x, 0.1, 0, 0, 255.0),
        lambda lib, x: lib.fake_quantize_per_tensor_affine(x.int(), 0.1, 0, 0, 255),
        lambda lib, x: lib.fake_quantize_per_channel_affine(
            x, lib.tensor([0.1, 0.2]), lib.tensor([0, 1]), 0, 0, 255
        ),
        lambda lib, x: lib.fake_quantize_per_channel_affine(
            x, lib.tensor([0.1, 0.2]).double(), lib.tensor([0, 1], dtype=lib.int32), 0, 0, 255
        ),
        lambda lib, x: lib.fake_quantize_per_channel_affine(
            x, lib.tensor([0.1, 0.2, 0.3]), lib.tensor([0, 1, 0], dtype=lib.int32), 0, 0, 255
        ),
        lambda lib, x: lib.fake_quantize_per_channel_affine(
            x, lib.tensor([0.1, 0.2]), lib.tensor([0, 1], dtype=lib.int32), 2, 0, 255
        ),
        lambda lib, x: lib.fake_quantize_per_channel_affine(
            x, lib.tensor([[0.1, 0.2]]), lib.tensor([0, 1], dtype=lib.int32), 0, 0, 255
        ),
        lambda lib, x: lib.fake_quantize_per_channel_affine(
            x, lib.tensor([0.1, 0.2]), lib.tensor([0, 300], dtype=lib.int32), 0, 0, 255
        ),
        lambda lib, x: lib.quantized_max_pool2d(x.reshape(1, 2, 3), [2, 2]),
        lambda lib, x: lib.quantized_batch_norm(
            x.reshape(1, 2, 3), *[lib.ones(2)] * 4, 1e-5, 0.1, 0
        ),
        lambda lib, x: lib.quantized_max_pool2d(
            lib.quantize_per_tensor(x, 0.1, 0, lib.qint8), [2, 2]
        ),
        lambda lib, x: lib.quantized_max_pool1d(
            lib.quantize_per_tensor(x[0], 0.1, 0, lib.qint8), [2]
        ),
        lambda lib, x: lib.quantized_batch_norm(
            lib.quantize_per_tensor(x, 0.1, 0, lib.qint8), *[lib.ones(2)] * 4, 1e-5, 0.1, 0
        ),
    ],
)
def test_errors_match_torch(call):
    outcomes = []
    for lib in (numtorch, torch):
        x = lib.tensor([[1.0, -2.0, 3.0], [0.5, 0.25, -4.0]])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                call(lib, x)
                outcomes.append("no error")
            except Exception as error:
                outcomes.append(type(error).__name__)
    assert outcomes[0] == outcomes[1] != "no error"


@pytest.mark.parametrize("name", ["quint8", "qint8"])
def test_quantized_batch_norm_bit_for_bit(name):
    rng = np.random.default_rng(3)
    values = (rng.standard_normal((4, 3, 5, 5)) * 2).astype(np.float32)
    stats = [rng.uniform(0.5, 1.5, 3), rng.standard_normal(3), rng.standard_normal(3) * 0.1]
    stats.append(rng.uniform(0.2, 1.2, 3))
    outs = []
    for lib in (numtorch, torch):
        zero = 64 if name == "quint8" else -3
        q = lib.quantize_per_tensor(lib.tensor(values), 0.05, zero, getattr(lib, name))
        w, b, m, v = (lib.tensor(s.astype(np.float32)) for s in stats)
        outs.append(lib.quantized_batch_norm(q, w, b, m, v, 1e-5, 0.07, 10))
    ours, theirs = outs
    np.testing.assert_array_equal(ours.int_repr().numpy(), theirs.int_repr().numpy())
    assert repr(ours) == repr(theirs)


@pytest.mark.parametrize(
    "shape, args",
    [
        ((1, 2, 5, 5), ([2, 2],)),
        ((2, 5, 6), ([3, 3], [2, 2], [1, 1], [1, 1], True)),
        ((1, 2, 7, 7), ([3, 2], [2, 1], [1, 0])),
    ],
)
def test_quantized_max_pool2d_matches_torch(shape, args):
    values = np.random.default_rng(4).standard_normal(shape).astype(np.float32)
    outs = [
        lib.quantized_max_pool2d(
            lib.quantize_per_tensor(lib.tensor(values), 0.1, 3, lib.qint8), *args
        )
        for lib in (numtorch, torch)
    ]
    assert repr(outs[0]) == repr(outs[1])
    np.testing.assert_array_equal(outs[0].int_repr().numpy(), outs[1].int_repr().numpy())


@pytest.mark.parametrize("shape, args", [((2, 5), ([2],)), ((2, 3, 8), ([3], [2], [1]))])
def test_quantized_max_pool1d_matches_torch(shape, args):
    values = np.random.default_rng(5).standard_normal(shape).astype(np.float32)
    outs = [
        lib.quantized_max_pool1d(
            lib.quantize_per_tensor(lib.tensor(values), 0.1, 3, lib.quint8), *args
        )
        for lib in (numtorch, torch)
    ]
    assert repr(outs[0]) == repr(outs[1])


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_fake_quantize_of_values_off_the_grid_follows_torchs_kernels(dtype):
    # NaN, infinities and values beyond int64 after scaling: torch's per-tensor kernel clamps
    # in float (NaN to quant_min), its per-channel one converts to int64 first (x86: quant_min)
    data = [[math.nan, math.inf, -math.inf], [0.3, -0.0, 1e30], [-1e30, 5.0, -7.0]]

    def run(lib):
        x = lib.tensor(data, dtype=getattr(lib, dtype), requires_grad=True)
        scales, zeros = lib.tensor([0.125, 0.25, 0.5]), lib.tensor([0, 1, -2], dtype=lib.int32)
        channel = lib.fake_quantize_per_channel_affine(x, scales, zeros, 1, -8, 7)
        tensor = lib.fake_quantize_per_tensor_affine(x, 0.125, 1, -8, 7)
        (channel.sum() + tensor.sum()).backward()
        return channel.tolist(), tensor.tolist(), x.grad.tolist()

    assert run(numtorch) == run(torch)


def test_fake_quantize_saves_its_mask_not_its_input():
    # torch's cachemask ops save where the values fell in range: an in-place change of the
    # input after the call does not fail the backward (numtorch saved the input and raised)
    def run(lib):
        x = lib.tensor([0.3, -0.9, 5.0, 0.1], requires_grad=True)
        y = x * 1
        scales, zeros = lib.tensor([0.125, 0.25]), lib.tensor([0, 1], dtype=lib.int32)
        a = lib.fake_quantize_per_channel_affine(y.view(2, 2), scales, zeros, 1, -8, 7)
        b = lib.fake_quantize_per_tensor_affine(y, 0.125, 1, -8, 7)
        c = lib.fake_quantize_per_tensor_affine(y, lib.tensor(0.125), lib.tensor(1), -8, 7)
        y.mul_(2)
        (a.sum() + b.sum() + c.sum()).backward()
        return x.grad.tolist(), [t.grad_fn.name() for t in (a, b, c)]

    assert run(numtorch) == run(torch)
