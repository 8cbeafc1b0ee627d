"""native_batch_norm as torch's CPU kernels compute it: dense layouts fold the affine map
into ``x * alpha + beta`` (so an infinite weight or bias meets inf - inf there), other layouts
compute ``((x - mean) * invstd) * weight + bias``; per-channel tensors of another size and
inputs without a channel dim are refused."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

inf = float("inf")
rng = np.random.default_rng(0)
X3, X4 = rng.standard_normal((3, 2, 2)), rng.standard_normal((2, 2, 2, 2))

LAYOUTS = {
    "contiguous": lambda t: t.tensor(X3),
    "transposed": lambda t: t.tensor(X3).transpose(0, 2).contiguous().transpose(0, 2),
    "channels-last": lambda t: t.tensor(X4).contiguous(memory_format=t.channels_last),
    "strided-4d": lambda t: t.tensor(X4).transpose(2, 3),
}


def _normalize(t, layout, training):
    weight = t.tensor([inf, 1.0], dtype=t.float64)
    bias = t.tensor([0.0, -inf], dtype=t.float64)
    stats = t.tensor([0.1, -0.2], dtype=t.float64), t.tensor([0.5, 2.0], dtype=t.float64)
    return t.native_batch_norm(LAYOUTS[layout](t), weight, bias, *stats, training, 0.1, 1e-5)


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_infinite_affine_parameters_follow_torchs_kernel_per_layout(layout, training):
    ours, theirs = _normalize(numtorch, layout, training), _normalize(torch, layout, training)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-12)


@pytest.mark.parametrize("name", ["weight", "bias", "running_mean", "running_var"])
def test_per_channel_tensors_must_have_one_element_per_channel(name):
    tensors = {k: numtorch.ones(2) for k in ("weight", "bias", "running_mean", "running_var")}
    tensors[name] = numtorch.ones(1)
    with pytest.raises(RuntimeError, match=f"{name} should contain 2 elements not 1"):
        numtorch.native_batch_norm(numtorch.ones(3, 2, 2), *tensors.values(), False, 0.1, 1e-5)


def test_an_input_without_a_channel_dim_raises_torchs_error():
    for lib in (numtorch, torch):
        with pytest.raises(IndexError, match="Dimension out of range"):
            lib.native_batch_norm(lib.ones(3), None, None, None, None, True, 0.1, 1e-5)
        with pytest.raises(RuntimeError):
            lib.native_batch_norm(lib.tensor(1.0), None, None, None, None, True, 0.1, 1e-5)


@pytest.mark.parametrize("layout", ["contiguous", "expanded"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_a_constant_channel_keeps_the_rounding_of_the_fused_affine_map(layout, dtype):
    # a channel of equal values: x - mean is 0, but the dense kernel's fma(x, alpha, beta)
    # leaves the rounding of beta = bias - mean alpha (~1e17 here); float32 statistics and
    # invstd are accumulated in double (invstd 316.22775, not float32's 316.22778)
    x = np.float32(2.6838442e11)
    w = np.array([4.0208364e11, 1.8021007], dtype=np.float32)
    b = np.array([2.6838442e11, 2.6838442e11], dtype=np.float32)
    results = []
    for t in (numtorch, torch):
        input = t.tensor(x, dtype=getattr(t, dtype)).expand(3, 2, 2)
        if layout == "contiguous":
            input = input.contiguous()
        weight, bias = (t.tensor(a, dtype=getattr(t, dtype)) for a in (w, b))
        out = t.nn.functional.batch_norm(input, None, None, weight, bias, training=True)
        results.append(out.numpy())
    np.testing.assert_array_equal(*results)


def _gradients_of_an_overflowing_channel(lib, create_graph):
    big = float(np.finfo(np.float32).max)
    x = lib.tensor([[[big, 1.0, 2.0, 0.5], [0.5, 0.7, 0.1, 0.2]]], requires_grad=True)
    weight = lib.tensor([1.5, 0.5], requires_grad=True)
    bias = lib.tensor([0.1, 0.2], requires_grad=True)
    out = lib.nn.functional.batch_norm(x, None, None, weight, bias, training=True)
    upstream = lib.arange(8.0).reshape(1, 2, 4)
    grads = lib.autograd.grad((out * upstream).sum(), (x, weight, bias), create_graph=create_graph)
    return [g.detach().numpy() for g in grads]


@pytest.mark.parametrize("create_graph", [False, True])
def test_training_gradients_take_the_kernels_arithmetic_under_create_graph_too(create_graph):
    # the float32 variance of a channel holding float32's largest value overflows only past
    # the double accumulation: invstd is tiny, its square 0, and torch's kernel meets an
    # infinite dot product there (NaN); the input gradient is the same under create_graph
    ours = _gradients_of_an_overflowing_channel(numtorch, create_graph)
    theirs = _gradients_of_an_overflowing_channel(torch, create_graph)
    assert np.isnan(ours[0][0, 0]).all()
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-5)
