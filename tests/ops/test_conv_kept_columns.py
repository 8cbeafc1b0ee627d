"""Forward columns kept for the weight gradient (Note [Kept forward columns]): the same
gradients as columns built again, kept only under grad mode, taken once, dropped with their
input, bounded in all, and reused as the next forward's buffers."""

from __future__ import annotations

import gc

import numpy as np
import pytest

import numtorch
from numtorch.ops.nn import conv_kept_columns, conv_kernels

CASES = [
    # (input shape, weight shape, stride, padding, dilation, groups, bias)
    ((1, 4, 9, 8), (6, 4, 3, 3), (1, 1), (1, 1), (1, 1), 1, True),  # bias folded into the GEMM
    ((1, 3, 11, 11), (4, 3, 7, 7), (2, 2), (3, 3), (1, 1), 1, False),  # a ResNet stem
    ((2, 4, 9, 8), (6, 2, 3, 2), (2, 1), (0, 2), (1, 2), 2, False),  # two images, groups
    ((1, 2, 10), (3, 2, 3), (1,), (2,), (2,), 1, True),
    ((1, 2, 5, 4, 6), (4, 1, 2, 3, 2), (1, 2, 1), (1, 0, 1), (1, 1, 2), 2, True),
    ((1, 512, 3, 3), (512, 512, 1, 1), (1, 1), (0, 0), (1, 1), 1, False),  # a large result
]


@pytest.fixture(autouse=True)
def empty_cache():
    conv_kept_columns._kept.clear()
    conv_kept_columns._spare.clear()
    conv_kept_columns._size[0] = 0
    yield
    conv_kept_columns._kept.clear()
    conv_kept_columns._spare.clear()
    conv_kept_columns._size[0] = 0


@pytest.mark.parametrize("case", CASES, ids=str)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_weight_grad_from_kept_columns_equals_built_columns(case, dtype):
    x_shape, w_shape, stride, padding, dilation, groups, bias = case
    rng = np.random.default_rng(0)
    x = rng.standard_normal(x_shape).astype(dtype)
    w = rng.standard_normal(w_shape).astype(dtype)
    b = rng.standard_normal(w_shape[0]).astype(dtype) if bias else None
    args = (stride, padding, dilation, groups)
    out = conv_kernels.conv_forward(x, w, b, *args, keep_columns=True)
    assert len(conv_kept_columns._kept) == 1
    g = rng.standard_normal(out.shape).astype(dtype)
    kept = conv_kernels.conv_weight_grad(x, g, w_shape, *args)
    assert not conv_kept_columns._kept  # taken
    built = conv_kernels.conv_weight_grad(x, g, w_shape, *args)
    assert kept.shape == built.shape and kept.dtype == built.dtype and kept.flags.c_contiguous
    tol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(kept, built, rtol=tol, atol=tol * np.abs(built).max())


@pytest.mark.parametrize(
    "x_shape, w_shape, groups",
    [
        ((2, 64, 1, 1), (64, 64, 3, 3), 1),  # a small image's deepest layer: one position
        ((3, 16, 2, 2), (32, 16, 3, 3), 1),
        ((2, 8, 4, 3), (12, 4, 3, 3), 2),
    ],
)
def test_kept_columns_of_several_images_take_one_product_over_all_positions(
    x_shape, w_shape, groups
):
    # as the columns built again (images side by side, one GEMM over all their positions),
    # bit for bit; per-image products summed were (N, C*K, O) outer products at one position
    rng = np.random.default_rng(2)
    x = rng.standard_normal(x_shape).astype(np.float32)
    w = rng.standard_normal(w_shape).astype(np.float32)
    args = ((1, 1), (1, 1), (1, 1), groups)
    out = conv_kernels.conv_forward(x, w, None, *args, keep_columns=True)
    assert len(conv_kept_columns._kept) == 1
    g = rng.standard_normal(out.shape).astype(np.float32)
    kept = conv_kernels.conv_weight_grad(x, g, w_shape, *args)
    assert not conv_kept_columns._kept  # taken
    built = conv_kernels.conv_weight_grad(x, g, w_shape, *args)
    assert kept.flags.c_contiguous
    np.testing.assert_array_equal(kept, built)


@pytest.mark.parametrize("x_shape", [(64, 16, 14, 14), (64, 1, 28, 28), (40, 3, 20, 13)])
def test_batches_copied_through_the_cache_keep_their_shifted_rows(x_shape):
    # not the columns (9x the input), but the shifted rows they are copied from (3x); the
    # weight gradient copies its columns from them, the same columns bit for bit
    rng = np.random.default_rng(2)
    x = rng.standard_normal(x_shape).astype(np.float32)
    w = rng.standard_normal((8, x_shape[1], 3, 3)).astype(np.float32)
    args = ((1, 1), (1, 1), (1, 1), 1)
    out = conv_kernels.conv_forward(x, w, None, *args, keep_columns=True)
    ((key, (_, rows)),) = conv_kept_columns._kept.items()
    assert (
        key[1] == "rows" and rows.size == 3 * np.prod(x_shape[:2]) * (x_shape[2] + 2) * x_shape[3]
    )
    g = rng.standard_normal(out.shape).astype(np.float32)
    from_rows = conv_kernels.conv_weight_grad(x, g, w.shape, *args)
    assert not conv_kept_columns._kept and conv_kept_columns._spare == [rows]  # given back
    built = conv_kernels.conv_weight_grad(x, g, w.shape, *args)
    np.testing.assert_array_equal(from_rows, built)
    again = conv_kernels.conv_forward(x, w, None, *args, keep_columns=True)
    np.testing.assert_array_equal(again, out)
    assert not conv_kept_columns._spare  # the next forward's rows went into the spare buffer


def conv_step(x, w, backward=True, **kwargs):
    y = numtorch.nn.functional.conv2d(x, w, padding=1)
    if backward:
        y.sum().backward(**kwargs)
    return y


def test_training_step_matches_torch_and_leaves_only_spare_buffers():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(1)
    x = rng.standard_normal((1, 3, 12, 12)).astype(np.float32)
    w = rng.standard_normal((5, 3, 3, 3)).astype(np.float32)
    ours = numtorch.tensor(w, requires_grad=True)
    theirs = torch.tensor(w, requires_grad=True)
    for _ in range(2):  # the second step writes its columns into the first one's buffer
        ours.grad = None
        conv_step(numtorch.tensor(x), ours)
        assert not conv_kept_columns._kept and len(conv_kept_columns._spare) == 1
    torch.nn.functional.conv2d(torch.tensor(x), theirs, padding=1).sum().backward()
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-5, atol=1e-4)


def test_no_grad_keeps_nothing():
    w = numtorch.randn(5, 3, 3, 3, requires_grad=True)
    with numtorch.no_grad():
        conv_step(numtorch.randn(1, 3, 8, 8), w, backward=False)
    assert not conv_kept_columns._kept


def test_columns_are_taken_once_and_dropped_with_their_input():
    w = numtorch.randn(5, 3, 3, 3, requires_grad=True)
    x = numtorch.randn(1, 3, 8, 8)
    conv_step(x, w, retain_graph=True)
    first = w.grad.clone()
    w.grad = None
    y = conv_step(x, w, backward=False)
    y.sum().backward(retain_graph=True)
    y.sum().backward()  # the second backward builds its columns again
    np.testing.assert_allclose(w.grad.numpy(), 2 * first.numpy(), rtol=1e-5, atol=1e-5)
    conv_step(x, w, backward=False)
    assert len(conv_kept_columns._kept) == 1
    del x
    gc.collect()
    assert not conv_kept_columns._kept


def test_input_changed_in_place_is_refused_as_torch_does():
    w = numtorch.randn(5, 3, 3, 3, requires_grad=True)
    x = numtorch.randn(1, 3, 8, 8)
    y = conv_step(x, w, backward=False)
    x.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def test_kept_columns_stay_within_the_budget(monkeypatch):
    inputs = [numtorch.randn(1, 3, 8, 8) for _ in range(5)]
    w = numtorch.randn(5, 3, 3, 3, requires_grad=True)

    def gradient():
        w.grad = None
        graphs = [conv_step(x, w, backward=False) for x in inputs]  # all alive, no backward
        kept = len(conv_kept_columns._kept)
        assert conv_kept_columns._size[0] <= conv_kept_columns.KEPT_BUDGET
        for y in graphs:
            y.sum().backward()
        return kept, w.grad.numpy().copy()

    monkeypatch.setattr(conv_kept_columns, "KEPT_BUDGET", 0)
    nothing_kept, reference = gradient()
    assert nothing_kept == 0
    monkeypatch.setattr(conv_kept_columns, "KEPT_BUDGET", 3 * 27 * 64)  # three layers' columns
    kept, grad = gradient()
    assert kept == 3  # the two oldest were dropped, and their columns built again
    np.testing.assert_allclose(grad, reference, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("stacked", [0, float("inf")])
def test_the_input_gradients_scratch_comes_from_and_goes_back_to_the_spares(stacked, monkeypatch):
    # the stride-1 input gradient by rows writes its columns into a spare buffer of the
    # forward's columns' size (or, with the rows stacked, its stack of 3x the gradient),
    # and hands it back: a second call allocates no new scratch
    monkeypatch.setattr(conv_kernels, "STACKED_WEIGHT", stacked)
    rng = np.random.default_rng(5)
    x = rng.standard_normal((1, 8, 7, 7)).astype(np.float32)
    w = rng.standard_normal((8, 8, 3, 3)).astype(np.float32)
    g = rng.standard_normal((1, 8, 7, 7)).astype(np.float32)
    args = ((1, 1), (1, 1), (1, 1), 1)
    first = conv_kernels.conv_input_grad(g, w, x.shape, *args)

    def spares():
        return sorted(a.__array_interface__["data"][0] for a in conv_kept_columns._spare)

    before = spares()
    assert (8 * 3 * 49 if stacked else 8 * 9 * 49) in [a.size for a in conv_kept_columns._spare]
    second = conv_kernels.conv_input_grad(g, w, x.shape, *args)
    assert spares() == before  # the same two buffers, taken and handed back
    np.testing.assert_array_equal(first, second)
