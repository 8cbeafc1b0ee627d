"""Sums and means add in torch's order (Note [Summation order]): the last bit agrees."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch
from numtorch.backend.summation import GRAIN, torch_sum

torch = pytest.importorskip("torch")

SHAPES = [
    (5,),
    (8,),
    (18,),
    (33,),
    (100,),
    (1000,),
    (20000,),
    (3, 5),
    (4, 18),
    (18, 4),
    (40, 7),
    (7, 40),
    (33, 33),
    (64, 10),
    (3, 100, 9),
    (5, 6, 7),
    (2, 3, 70, 5),
    (128, 1),
    (1, 128),
    (0, 3),
    (),
]


def _dims(ndim):
    """None, every single dim and every run of consecutive dims."""
    runs = [tuple(range(i, j)) for i in range(ndim) for j in range(i + 2, ndim + 1)]
    return [None] + [(d,) for d in range(ndim)] + runs


def _pair(shape, dtype, seed):
    gen = torch.Generator().manual_seed(seed)
    t = (torch.randn(shape, dtype=dtype, generator=gen) * 3).exp()
    return t, numtorch.tensor(t.numpy())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_sum_and_mean_bits_match_torch(shape, dtype):
    for seed in range(3):
        t, n = _pair(shape, getattr(torch, dtype), seed)
        for dims in _dims(len(shape)):
            for keepdim in (False, True):
                for name in ("sum", "mean", "nansum"):
                    ours = getattr(n, name)(dims, keepdim=keepdim).numpy()
                    theirs = getattr(t, name)(dims, keepdim=keepdim).numpy()
                    assert ours.shape == theirs.shape and ours.dtype == theirs.dtype
                    np.testing.assert_array_equal(ours, theirs, err_msg=f"{name} {dims}")
        assert n.sum().item() == t.sum().item()
        assert n.mean().item() == pytest.approx(t.mean().item(), nan_ok=True, abs=0, rel=0)


def test_nansum_skips_nan_in_sum_order():
    t = torch.randn(3, 50)
    t[0, 3] = t[2, 40] = float("nan")
    n = numtorch.tensor(t.numpy())
    np.testing.assert_array_equal(n.nansum(1).numpy(), t.nansum(1).numpy())
    np.testing.assert_array_equal(n.nansum().numpy(), t.nansum().numpy())


def test_broadcast_gradients_sum_in_torch_order():
    """A bias gradient is the incoming gradient summed over the batch (torch's sum_to)."""
    gen = torch.Generator().manual_seed(0)
    for rows, cols in [(1, 5), (7, 3), (64, 10), (200, 40), (33, 1)]:
        x = torch.randn(rows, 6, generator=gen)
        g = torch.randn(rows, cols, generator=gen)
        lin = torch.nn.Linear(6, cols)
        ours = numtorch.nn.Linear(6, cols)
        with numtorch.no_grad():
            ours.weight.copy_(numtorch.tensor(lin.weight.detach().numpy()))
            ours.bias.copy_(numtorch.tensor(lin.bias.detach().numpy()))
        lin(x).backward(g)
        ours(numtorch.tensor(x.numpy())).backward(numtorch.tensor(g.numpy()))
        np.testing.assert_array_equal(ours.bias.grad.numpy(), lin.bias.grad.numpy())
        scale = torch.ones(1, cols, requires_grad=True)
        our_scale = numtorch.ones(1, cols, requires_grad=True)
        (x[:, :1] * scale).backward(g)
        (numtorch.tensor(x.numpy()[:, :1]) * our_scale).backward(numtorch.tensor(g.numpy()))
        np.testing.assert_array_equal(our_scale.grad.numpy(), scale.grad.numpy())


def test_signed_zero_and_nonfinite():
    for values in ([-0.0], [-0.0] * 20, [1.0, float("inf"), -float("inf")] * 4, [float("nan")]):
        t = torch.tensor(values)
        n = numtorch.tensor(values)
        np.testing.assert_array_equal(n.sum().numpy(), t.sum().numpy())
        assert np.signbit(n.sum().numpy()) == np.signbit(t.sum().numpy())


def test_other_layouts_and_sizes_keep_a_plain_sum():
    """Large, strided or split reductions fall back to NumPy's sum, within rounding."""
    a = np.random.default_rng(0).random((GRAIN + 5,), dtype=np.float32)
    np.testing.assert_allclose(torch_sum(a), a.sum(dtype=np.float64), rtol=1e-6)
    b = np.random.default_rng(1).random((6, 40), dtype=np.float32).T
    np.testing.assert_allclose(torch_sum(b, 0), b.sum(0), rtol=1e-6)
    c = np.random.default_rng(2).random((4, 5, 6), dtype=np.float32)
    np.testing.assert_allclose(torch_sum(c, (0, 2)), c.sum((0, 2)), rtol=1e-6)
    assert torch_sum(np.arange(6).reshape(2, 3), 1).tolist() == [3, 12]


@pytest.mark.parametrize("name", ["mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss"])
@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_elementwise_losses_reduce_in_torch_order(name, reduction):
    gen = torch.Generator().manual_seed(3)
    for n in (7, 64, 300, 2000):
        a, b = torch.randn(n, generator=gen), torch.randn(n, generator=gen)
        theirs = getattr(torch.nn.functional, name)(a, b, reduction=reduction)
        ours = getattr(numtorch.nn.functional, name)(
            numtorch.tensor(a.numpy()), numtorch.tensor(b.numpy()), reduction=reduction
        )
        assert ours.item() == theirs.item()


def test_strided_and_permuted_sums_match_torch():
    """Full sums of transposed and sliced tensors, and row sums of sliced rows: torch
    reorders dims by stride and drops size-1 dims, so these have a known order too."""
    gen = torch.Generator().manual_seed(4)
    for rows, cols in [(1, 1), (1, 9), (9, 1), (7, 3), (40, 33), (60, 17), (2, 100)]:
        y = (torch.randn(rows, cols, generator=gen) * 3).exp()
        half = max(1, cols // 2)
        cases = [(y[::2], None), (y[:, :half], None), (y.T, None), (y[:, 1:], 1), (y[::3], 1)]
        cases.append((y.unsqueeze(1).permute(2, 1, 0), None))
        for view, dim in cases:
            theirs = view.sum() if dim is None else view.sum(dim)
            ours = _same_view(numtorch.tensor(y.numpy()), view, y)
            mine = ours.sum() if dim is None else ours.sum(dim)
            np.testing.assert_array_equal(mine.numpy(), theirs.numpy())
            if dim is None:
                assert mine.item() == theirs.item()


def _same_view(ours, view, base):
    """``ours`` viewed with ``view``'s offset and strides over ``base``'s storage."""
    offset = view.storage_offset() - base.storage_offset()
    return ours.as_strided(tuple(view.shape), view.stride(), offset)
