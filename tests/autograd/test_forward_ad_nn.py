"""Forward-mode AD through the nn primitives, against torch: hessians (forward over reverse,
through the gradient ops of pooling, padding, normalization and losses), batched tangents
(jacfwd) and the ops torch has no forward derivative for, which raise its error."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")


def _network(lib, weight):
    F = lib.nn.functional

    def f(x):
        y = F.pad(x, (1, 1, 1, 1), mode="reflect")
        y = F.max_pool2d(y, 2) + F.avg_pool2d(y, 2, 1)[..., :3, :3]
        y = F.adaptive_avg_pool2d(y, 2) + F.adaptive_max_pool2d(y * y, 2)
        y = F.batch_norm(y.reshape(2, 2, 2), None, None, training=True)
        z = F.layer_norm(y.reshape(2, 4), (4,)) @ weight.T
        loss = F.cross_entropy(lib.tanh(z), lib.tensor([1, 0])) + F.mse_loss(z, z.detach() * 0.5)
        return loss + F.smooth_l1_loss(z, z.detach() * 2) + F.elu(z).sum()

    return f


def test_hessian_through_nn_gradient_ops_matches_torch():
    rng = np.random.default_rng(0)
    x, weight = rng.standard_normal((1, 2, 4, 4)), rng.standard_normal((3, 4))
    ours = numtorch.func.hessian(_network(numtorch, numtorch.tensor(weight)))(numtorch.tensor(x))
    theirs = torch.func.hessian(_network(torch, torch.tensor(weight)))(torch.tensor(x))
    reverse = numtorch.func.jacrev(
        numtorch.func.jacrev(_network(numtorch, numtorch.tensor(weight)))
    )
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(ours.numpy(), reverse(numtorch.tensor(x)).numpy(), atol=1e-12)


def _convolution(lib, x, weight, bias):
    F = lib.nn.functional
    y = F.conv2d(x, weight, bias, padding=1)
    y = F.group_norm(F.interpolate(y, scale_factor=2, mode="bilinear"), 2)
    return F.pixel_shuffle(F.glu(y, 1), 2)


def test_jvp_of_a_convolution_block_matches_torch():
    rng = np.random.default_rng(1)
    primals = [rng.standard_normal(s) for s in ((2, 3, 4, 4), (8, 3, 3, 3), (8,))]
    tangents = [rng.standard_normal(p.shape) for p in primals]

    def run(lib):
        return lib.func.jvp(
            lambda *a: _convolution(lib, *a),
            tuple(lib.tensor(p) for p in primals),
            tuple(lib.tensor(t) for t in tangents),
        )

    (ours, ours_t), (theirs, theirs_t) = run(numtorch), run(torch)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(ours_t.numpy(), theirs_t.numpy(), rtol=1e-9, atol=1e-12)


def test_jacfwd_pushes_batched_tangents_through_nn_ops():
    rng = np.random.default_rng(2)
    x = numtorch.tensor(rng.standard_normal((1, 2, 4, 4)))
    F = numtorch.nn.functional

    def f(x):
        y = F.avg_pool2d(F.pad(x, (1, 0, 0, 1)), 2) + F.interpolate(x, size=(2, 2), mode="nearest")
        return F.layer_norm(F.dropout(y, 0.0), (2, 2)).softmax(-1)

    forward = numtorch.func.jacfwd(f)(x)
    reverse = numtorch.func.jacrev(f)(x)
    np.testing.assert_allclose(forward.numpy(), reverse.numpy(), atol=1e-12)


_TORCH_HAS_NONE = {
    "grid_sampler_2d": lambda lib, x: lib.nn.functional.grid_sample(
        x, lib.zeros(1, 2, 2, 2, dtype=x.dtype), align_corners=False
    ),
    "_embedding_bag": lambda lib, x: lib.nn.functional.embedding_bag(
        lib.tensor([0, 1, 1]), x.reshape(4, 4), lib.tensor([0, 2])
    ),
    "_weight_norm_interface": lambda lib, x: lib._weight_norm(
        x.reshape(4, 4), lib.ones(4, 1, dtype=x.dtype), 0
    ),
    "rrelu_with_noise_": lambda lib, x: lib.nn.functional.rrelu(x * 1, inplace=True),
    "mkldnn_rnn_layer": lambda lib, x: lib.nn.LSTM(4, 2)(x.reshape(4, 1, 4).float())[0],
}


@pytest.mark.parametrize("name", sorted(_TORCH_HAS_NONE))
def test_ops_without_a_forward_derivative_raise_as_torch(name):
    build = _TORCH_HAS_NONE[name]
    for lib in (torch, numtorch):
        x = lib.randn(1, 1, 4, 4, dtype=lib.float64)
        with lib.autograd.forward_ad.dual_level():
            dual = lib.autograd.forward_ad.make_dual(x, lib.ones_like(x))
            with pytest.raises(NotImplementedError, match=f"forward AD with {name} "):
                build(lib, dual)


def test_weight_norm_over_a_middle_dim_composes_and_has_a_forward_derivative():
    rng = np.random.default_rng(3)
    v, g = rng.standard_normal((2, 3, 2)), rng.uniform(1, 2, (1, 3, 1))
    v_t = rng.standard_normal(v.shape)

    def run(lib):
        fn = lambda v: lib._weight_norm(v, lib.tensor(g), 1)
        return lib.func.jvp(fn, (lib.tensor(v),), (lib.tensor(v_t),))[1]

    np.testing.assert_allclose(run(numtorch).numpy(), run(torch).numpy(), rtol=1e-10)
