"""torch.nn.grad's convolution gradients against an installed torch."""

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.parity

CASES = [  # dims, input shape, weight shape, keyword arguments
    (1, (2, 3, 9), (4, 3, 2), {"stride": 2}),
    (1, (1, 4, 8), (4, 2, 3), {"padding": 2, "dilation": 2, "groups": 2}),
    (2, (2, 3, 6, 6), (4, 3, 3, 3), {"padding": 1}),
    (2, (1, 2, 7, 5), (6, 1, 2, 3), {"stride": (2, 1), "groups": 2}),
    (3, (1, 2, 4, 5, 4), (3, 2, 2, 2, 2), {"stride": 1, "padding": (1, 0, 1)}),
]


@pytest.mark.parametrize("dims, x_shape, w_shape, kwargs", CASES)
def test_conv_input_and_weight_gradients_match_torch(dims, x_shape, w_shape, kwargs):
    rng = np.random.default_rng(dims)
    x, w = rng.standard_normal(x_shape), rng.standard_normal(w_shape)

    def grads(lib):
        conv = getattr(lib.nn.functional, f"conv{dims}d")
        xt, wt = lib.tensor(x), lib.tensor(w, requires_grad=True)
        go = lib.ones_like(conv(xt, wt, **kwargs)).detach() * 0.5
        gi = getattr(lib.nn.grad, f"conv{dims}d_input")(xt.shape, wt, go, **kwargs)
        gw = getattr(lib.nn.grad, f"conv{dims}d_weight")(xt, w_shape, go, **kwargs)
        return gi, gw

    (oi, ow), (ti, tw) = grads(numtorch), grads(torch)
    np.testing.assert_allclose(oi.detach().numpy(), ti.detach().numpy(), rtol=1e-10)
    np.testing.assert_allclose(ow.numpy(), tw.numpy(), rtol=1e-10)
    # differentiable where the weight is (the input gradient), plain where nothing is
    assert (oi.requires_grad, ow.requires_grad) == (ti.requires_grad, tw.requires_grad)


def test_input_gradient_is_differentiable_in_the_weight():
    def second(lib):
        w = lib.ones(2, 1, 3, dtype=lib.float64, requires_grad=True)
        go = lib.arange(12.0, dtype=lib.float64).reshape(1, 2, 6)
        gi = lib.nn.grad.conv1d_input((1, 1, 8), w, go)
        (gw,) = lib.autograd.grad((gi**2).sum(), w)
        return gw.numpy()

    np.testing.assert_allclose(second(numtorch), second(torch))


def test_grad_output_of_the_wrong_shape_is_refused():
    w = numtorch.ones(4, 3, 3, 3)
    with pytest.raises(RuntimeError, match="grad_output"):
        numtorch.nn.grad.conv2d_input((2, 3, 6, 6), w, numtorch.ones(2, 4, 5, 5), padding=1)
    with pytest.raises(RuntimeError):
        torch.nn.grad.conv2d_input(
            (2, 3, 6, 6), torch.ones(4, 3, 3, 3), torch.ones(2, 4, 5, 5), padding=1
        )
