"""The kernel paths ResNet-sized layers take, against the plain ones: convolution in chunks of
images, max pooling without a padded copy, weight gradients in their final layout; and the
point of the first two, inference memory (no_grad holds no graph)."""

from __future__ import annotations

import gc
import itertools
import tracemalloc

import numpy as np
import pytest

import numtorch
from numtorch.models import resnet18
from numtorch.ops.nn import conv_kernels
from numtorch.ops.nn.pooling import (
    PoolGeometry,
    _max_pool_scatter,
    _max_pool_with_offsets,
    max_pool_indices,
    max_pool_values,
)

pytestmark = pytest.mark.usefixtures("one_blas_thread")


def forward_peak_bytes(model, x, grad: bool) -> int:
    """Peak bytes a forward allocates beyond the parameters and the input (tracemalloc sees
    NumPy's arrays); with grad, the output and its graph are alive when it is read."""
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        with numtorch.set_grad_enabled(grad):
            out = model(x)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    del out
    return peak


def peaks(shape):
    numtorch.manual_seed(0)
    model = resnet18(num_classes=10).eval()
    x = numtorch.randn(*shape)
    # first-call caches (index tables keyed by shape, compiled runners) outside the measurement
    model(x)
    with numtorch.no_grad():
        model(x)
    return forward_peak_bytes(model, x, True), forward_peak_bytes(model, x, False)


def test_no_grad_peak_is_a_third_at_most_small(monkeypatch):
    # The quality bar is ResNet-18 at batch 8, 224x224 (bench/resnet.py: about 160 MiB with
    # grad, 49 MiB without); this is a 1/32 scale of it, the column budget scaled alike.
    monkeypatch.setattr(conv_kernels, "COLUMN_BUDGET", conv_kernels.COLUMN_BUDGET // 32)
    with_grad, without = peaks((4, 3, 64, 64))
    assert without <= with_grad / 3, (with_grad, without)


CONV_CASES = [
    # (input shape, weight shape, stride, padding, dilation, groups, bias)
    ((5, 4, 9, 8), (6, 4, 3, 3), (1, 1), (1, 1), (1, 1), 1, True),  # flat (stride 1) layout
    ((5, 4, 9, 8), (6, 2, 3, 2), (2, 1), (0, 2), (1, 2), 2, False),
    ((3, 3, 11, 11), (4, 3, 7, 7), (2, 2), (3, 3), (1, 1), 1, False),  # a ResNet stem
    ((4, 2, 10), (3, 2, 3), (1,), (2,), (2,), 1, True),
    ((3, 2, 5, 4, 6), (4, 1, 2, 3, 2), (1, 2, 1), (1, 0, 1), (1, 1, 2), 2, True),
    # rows as wide as the input's (shifted whole planes): dilated, and one column wide
    ((2, 2, 6, 7), (3, 2, 3, 3), (1, 1), (2, 2), (2, 2), 1, True),
    ((2, 3, 5, 1), (4, 3, 3, 3), (1, 1), (1, 1), (1, 1), 1, False),
]

# stride-1 2-d geometries of the input gradient by rows: no padding (no offset covers a whole
# dim), more than "same" padding, dilation, a 3 x 5 kernel, groups, offsets that miss the
# input altogether (a 5 x 5 kernel over 2 x 2), one image
ROWS_CASES = [
    ((3, 4, 7, 6), (5, 4, 3, 3), (1, 1), (0, 0), (1, 1), 1, False),
    ((2, 4, 5, 6), (4, 2, 3, 3), (1, 1), (2, 1), (1, 1), 2, False),
    ((2, 3, 8, 9), (4, 3, 3, 5), (1, 1), (2, 1), (2, 1), 1, False),
    ((3, 2, 2, 2), (3, 2, 5, 5), (1, 1), (2, 2), (1, 1), 1, False),
    ((1, 6, 7, 7), (6, 6, 3, 3), (1, 1), (1, 1), (1, 1), 1, False),
]


@pytest.mark.parametrize("case", CONV_CASES, ids=str)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_convolution_in_chunks_of_images_equals_one_product(case, dtype, monkeypatch):
    x_shape, w_shape, stride, padding, dilation, groups, bias = case
    rng = np.random.default_rng(0)
    x = rng.standard_normal(x_shape).astype(dtype)
    w = rng.standard_normal(w_shape).astype(dtype)
    b = rng.standard_normal(w_shape[0]).astype(dtype) if bias else None
    whole = conv_kernels.conv_forward(x, w, b, stride, padding, dilation, groups)
    monkeypatch.setattr(conv_kernels, "COLUMN_BUDGET", 1)  # one image per chunk
    chunked = conv_kernels.conv_forward(x, w, b, stride, padding, dilation, groups)
    assert chunked.dtype == whole.dtype and chunked.flags.c_contiguous
    tolerance = {"rtol": 1e-5, "atol": 1e-5} if dtype == np.float32 else {"rtol": 1e-12}
    np.testing.assert_allclose(chunked, whole, **tolerance)
    monkeypatch.setattr(conv_kernels, "COLUMN_BUDGET", 2 * w_shape[1] * np.prod(w_shape[2:]))
    uneven = conv_kernels.conv_forward(x, w, b, stride, padding, dilation, groups)
    np.testing.assert_allclose(uneven, whole, **tolerance)


@pytest.mark.parametrize("case", CONV_CASES, ids=str)
@pytest.mark.parametrize("tile", [1, 2, 3])
def test_convolution_in_cached_column_tiles_equals_one_product(case, tile, monkeypatch):
    # Note [Columns in the cache]: ``tile`` images' columns per GEMM (an uneven last tile
    # for 3), through one reused buffer whose ones row carries the bias
    x_shape, w_shape, stride, padding, dilation, groups, bias = case
    rng = np.random.default_rng(3)
    x = rng.standard_normal(x_shape).astype(np.float32)
    w = rng.standard_normal(w_shape).astype(np.float32)
    b = rng.standard_normal(w_shape[0]).astype(np.float32) if bias else None
    whole = conv_kernels.conv_forward(x, w, b, stride, padding, dilation, groups)
    rows = w_shape[1] * groups * int(np.prod(w_shape[2:])) + 1
    length = int(np.prod(whole.shape[2:]))
    monkeypatch.setattr(conv_kernels, "COLUMN_TILE", tile * rows * length)
    tiled = conv_kernels.conv_forward(x, w, b, stride, padding, dilation, groups)
    assert tiled.dtype == whole.dtype and tiled.flags.c_contiguous
    np.testing.assert_array_equal(tiled, whole)


@pytest.mark.parametrize("case", CONV_CASES + ROWS_CASES, ids=str)
def test_input_gradient_in_tiles_of_images_equals_one_product(case, monkeypatch):
    x_shape, w_shape, stride, padding, dilation, groups, _ = case
    rng = np.random.default_rng(4)
    w = rng.standard_normal(w_shape)
    g = rng.standard_normal(conv_kernels.conv_forward(np.zeros(x_shape), w, None, *case[2:6]).shape)
    results = []
    for tile in (1 << 60, 1, 3 * x_shape[1] * int(np.prod(w_shape[2:])) * 200):
        monkeypatch.setattr(conv_kernels, "INPUT_GRAD_TILE", tile)  # whole, one image, a few
        gx = conv_kernels.conv_input_grad(g, w, x_shape, stride, padding, dilation, groups)
        assert gx.shape == x_shape and gx.flags.c_contiguous
        results.append(gx)
    for gx in results[1:]:
        np.testing.assert_allclose(gx, results[0], rtol=1e-12, atol=1e-12)


def test_max_pool_values_without_padding_copy_equals_the_indexed_path():
    rng = np.random.default_rng(1)
    checked = 0
    for k, s, p, d, ceil_mode, size in itertools.product(
        [1, 2, 3], [1, 2, 3], [0, 1], [1, 2], [False, True], [5, 8]
    ):
        if p > k // 2 or (k - 1) * d + 1 > size + 2 * p:
            continue
        x = rng.standard_normal((2, 3, size, size + 1))
        x[0, 0, 1, 2] = np.nan
        args = ((k, k), (s, s), (p, p), (d, d), ceil_mode)
        expected, _ = _max_pool_with_offsets(x, *args)
        np.testing.assert_array_equal(max_pool_values(x, *args), expected)
        checked += 1
    assert checked > 50
    x = rng.integers(-5, 5, (2, 3, 5, 6, 7)).astype(np.int64)
    args = ((3, 3, 3), (2, 2, 2), (1, 1, 1), (1, 1, 1), True)
    np.testing.assert_array_equal(max_pool_values(x, *args), _max_pool_with_offsets(x, *args)[0])


@pytest.mark.parametrize("case", CONV_CASES, ids=str)
def test_weight_gradient_layouts_agree(case, monkeypatch):
    x_shape, w_shape, stride, padding, dilation, groups, _ = case
    rng = np.random.default_rng(2)
    x = rng.standard_normal(x_shape)
    w = rng.standard_normal(w_shape)
    g = rng.standard_normal(conv_kernels.conv_forward(x, w, None, *case[2:6]).shape)
    monkeypatch.setattr(conv_kernels, "BY_IMAGE_ROWS", 0)  # all images' positions in a row
    columns = x_shape[1] * int(np.prod(w_shape[2:]) * np.prod(g.shape[2:]))
    results = []
    # every result in place; every result transposed; the whole batch's columns at once, or
    # one or two images' at a time (Note [Columns in the cache]; an uneven last tile)
    for limit, tile in itertools.product((0, 1 << 60), (None, 1, 2)):
        monkeypatch.setattr(conv_kernels, "WEIGHT_GRAD_TRANSPOSE_LIMIT", limit)
        monkeypatch.setattr(conv_kernels, "COLUMN_TILE", (tile or x_shape[0]) * columns)
        gw = conv_kernels.conv_weight_grad(x, g, w_shape, stride, padding, dilation, groups)
        assert gw.shape == w_shape and gw.flags.c_contiguous
        results.append(gw)
    for gw in results[1:]:
        np.testing.assert_allclose(gw, results[0], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("case", CONV_CASES, ids=str)
def test_weight_gradient_column_orders_agree(case, monkeypatch):
    # one product per image summed (thin columns), or one product over all images' positions
    x_shape, w_shape, stride, padding, dilation, groups, _ = case
    rng = np.random.default_rng(3)
    x = rng.standard_normal(x_shape)
    w = rng.standard_normal(w_shape)
    g = rng.standard_normal(conv_kernels.conv_forward(x, w, None, *case[2:6]).shape)

    def grad(images):
        return conv_kernels.conv_weight_grad(
            x[images], g[images], w_shape, stride, padding, dilation, groups
        )

    # the sum of each image's gradient (one image: the flat layout where the stride is 1)
    expected = sum(grad(slice(i, i + 1)) for i in range(x_shape[0]))
    for rows in (0, 1 << 30):
        monkeypatch.setattr(conv_kernels, "BY_IMAGE_ROWS", rows)
        gw = grad(slice(None))
        assert gw.shape == w_shape and gw.flags.c_contiguous
        np.testing.assert_allclose(gw, expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("case", CONV_CASES + ROWS_CASES, ids=str)
@pytest.mark.parametrize("rows_padding", [0, float("inf")])
@pytest.mark.parametrize("stacked", [0, float("inf")])
@pytest.mark.parametrize("nonfinite", [None, "grad", "both"])
def test_input_gradient_layouts_agree(case, rows_padding, stacked, nonfinite, monkeypatch):
    # stride 1: in 2-d by rows (the output positions, the offsets summed in two steps of
    # contiguous adds, or the row offsets in the GEMM over a stack of shifted gradient
    # rows), or all images of a channel in one row (contiguous adds); otherwise, and
    # forced here, the output positions alone scattered per kernel offset
    x_shape, w_shape, stride, padding, dilation, groups, _ = case
    rng = np.random.default_rng(6)
    w = rng.standard_normal(w_shape)
    g = rng.standard_normal(
        conv_kernels.conv_forward(rng.standard_normal(x_shape), w, None, *case[2:6]).shape
    )
    if nonfinite:  # where they meet, NaN; elsewhere inf, as the strided scatter adds them
        g.flat[-1] = -np.inf
    if nonfinite == "both":  # (an inf weight would meet the stack's zero rows)
        w.flat[1] = np.inf
    monkeypatch.setattr(conv_kernels, "ROWS_PADDING", rows_padding)
    monkeypatch.setattr(conv_kernels, "STACKED_WEIGHT", stacked)
    gx = conv_kernels.conv_input_grad(g, w, x_shape, stride, padding, dilation, groups)
    assert gx.shape == x_shape and gx.flags.c_contiguous
    monkeypatch.setattr(conv_kernels, "ROWS_PADDING", float("inf"))
    monkeypatch.setattr(conv_kernels, "STACKED_WEIGHT", 0)
    leave = conv_kernels.Geometry.leave_flat
    monkeypatch.setattr(conv_kernels.Geometry, "exact_columns", lambda geo, *arrays: leave(geo))
    strided = conv_kernels.conv_input_grad(g, w, x_shape, stride, padding, dilation, groups)
    np.testing.assert_allclose(gx, strided, rtol=1e-12, atol=1e-12)


# 2-d, stride 1
STACKED_CASES = [c for c in CONV_CASES + ROWS_CASES if len(c[0]) == 4 and c[2] == (1, 1)]


@pytest.mark.parametrize("case", STACKED_CASES, ids=str)
@pytest.mark.parametrize("tile", [1, 2])
def test_row_stacked_input_gradient_in_tiles_of_images(case, tile, monkeypatch):
    # Note [Row-stacked gradient]: the stack of each tile's shifted gradient rows (an uneven
    # last tile for 2) gives the offsets' scattered sum, in float32 round-off
    x_shape, w_shape, stride, padding, dilation, groups, _ = case
    rng = np.random.default_rng(9)
    w = rng.standard_normal(w_shape).astype(np.float32)
    g = rng.standard_normal(
        conv_kernels.conv_forward(rng.standard_normal(x_shape), w, None, *case[2:6]).shape
    ).astype(np.float32)
    args = (g, w, x_shape, stride, padding, dilation, groups)
    monkeypatch.setattr(conv_kernels, "STACKED_WEIGHT", float("inf"))
    columns = x_shape[1] * int(np.prod(w_shape[2:])) * g[0, 0].size  # one image's
    monkeypatch.setattr(conv_kernels, "INPUT_GRAD_TILE", tile * columns)
    stacks = []
    stack_rows = conv_kernels._stack_rows
    monkeypatch.setattr(
        conv_kernels, "_stack_rows", lambda stack, *a: stacks.append(stack) or stack_rows(stack, *a)
    )
    gx = conv_kernels.conv_input_grad(*args)
    assert gx.dtype == np.float32 and gx.flags.c_contiguous
    assert len(stacks) == -(-x_shape[0] // tile)
    monkeypatch.setattr(conv_kernels, "STACKED_WEIGHT", 0)
    monkeypatch.setattr(conv_kernels, "ROWS_PADDING", float("inf"))
    leave = conv_kernels.Geometry.leave_flat
    monkeypatch.setattr(conv_kernels.Geometry, "exact_columns", lambda geo, *arrays: leave(geo))
    strided = conv_kernels.conv_input_grad(*args)
    np.testing.assert_allclose(gx, strided, rtol=1e-5, atol=1e-5 * np.abs(strided).max())


@pytest.mark.parametrize("case", CONV_CASES, ids=str)
def test_columns_through_shifted_rows_are_the_direct_copy(case, monkeypatch):
    x_shape, w_shape, stride, padding, dilation, groups, bias = case
    rng = np.random.default_rng(7)
    x = rng.standard_normal(x_shape).astype(np.float32)
    w = rng.standard_normal(w_shape).astype(np.float32)
    b = rng.standard_normal(w_shape[0]).astype(np.float32) if bias else None
    g = rng.standard_normal(conv_kernels.conv_forward(x, w, None, *case[2:6]).shape)
    results = []
    for width in (1 << 30, 0):  # every row through the shifted copy; none
        monkeypatch.setattr(conv_kernels, "SHIFTED_ROWS_WIDTH", width)
        y = conv_kernels.conv_forward(x, w, b, stride, padding, dilation, groups)
        results.append((y, conv_kernels.conv_weight_grad(x, g, w_shape, *case[2:6])))
    for shifted, direct in zip(*results):
        np.testing.assert_array_equal(shifted, direct)


@pytest.mark.parametrize(
    "x_shape, kernel, padding, dilation",
    [
        ((2, 3, 14, 14), 3, 1, 1),
        ((1, 2, 5, 8), 5, 2, 1),
        ((2, 2, 6, 7), 3, 2, 2),
        ((2, 1, 4, 2), 5, 2, 1),  # shifts as wide as the rows: whole columns of padding
        ((1, 2, 3, 1), 3, 1, 1),
    ],
)
def test_shifted_planes_are_the_padded_rows_shifted(x_shape, kernel, padding, dilation):
    rng = np.random.default_rng(8)
    x = rng.standard_normal(x_shape[:2] + (x_shape[3], x_shape[2])).astype(np.float32)
    x = x.swapaxes(2, 3)  # not contiguous
    x[0, 0, 0, -1], x[-1, -1, -1, 0] = np.inf, np.nan
    geo = conv_kernels.Geometry(
        x_shape, (4, x_shape[1], 3, kernel), (1, 1), (1, padding), (1, dilation), 1
    )
    geo.leave_flat()
    assert geo.out[-1] == x_shape[-1]
    planes = geo.shifted_rows(x)
    padded = geo._shifted_padded_rows(x, np.empty(geo.shifted_shape, x.dtype))
    np.testing.assert_array_equal(planes, padded)
    assert not np.signbit(planes[planes == 0]).any()


def test_gradients_of_huge_finite_values_are_those_of_float64():
    # the flat layout's discarded positions meet these values (times a zero gradient)
    rng = np.random.default_rng(4)
    x = rng.standard_normal((1, 2, 6, 5)).astype(np.float32)
    x[0, 1, 2, 3] = 3e25
    w = rng.standard_normal((3, 2, 3, 3)).astype(np.float32)
    w[1, 0, 1, 1] = -2e25
    g = rng.standard_normal((1, 3, 6, 5)).astype(np.float32)
    args = ((1, 1), (1, 1), (1, 1), 1)
    gw = conv_kernels.conv_weight_grad(x, g, w.shape, *args)
    gx = conv_kernels.conv_input_grad(g, w, x.shape, *args)
    x64, w64, g64 = (a.astype(np.float64) for a in (x, w, g))
    np.testing.assert_allclose(gw, conv_kernels.conv_weight_grad(x64, g64, w.shape, *args), 1e-5)
    np.testing.assert_allclose(gx, conv_kernels.conv_input_grad(g64, w64, x.shape, *args), 1e-5)
    assert np.isfinite(gw).all() and np.isfinite(gx).all()


def test_max_pool_gradient_of_overlapping_windows_lands_on_torchs_indices():
    # the scatter by flat position against np.add.at at torch's indices, in float32 and in
    # the outputs' order as torch's kernel adds, with inf and NaN gradients, padding,
    # dilation and ceil mode, in 1-3 dims
    rng = np.random.default_rng(5)
    checked = 0
    for dims, k, s, p, d, ceil_mode in itertools.product(
        [1, 2, 3], [2, 3], [1, 2], [0, 1], [1, 2], [False, True]
    ):
        size = 7 - dims
        if p > k // 2 or (k - 1) * d + 1 > size + 2 * p or s >= d * (k - 1) + 1:
            continue  # invalid, or windows that do not overlap (the masked path)
        shape = (2, 3) + (size,) * dims
        x = rng.integers(-3, 3, shape).astype(np.float32)  # ties: the first wins
        args = ((k,) * dims, (s,) * dims, (p,) * dims, (d,) * dims, ceil_mode)
        best, arg = _max_pool_with_offsets(x, *args)
        grad = rng.standard_normal(best.shape).astype(np.float32)
        grad.reshape(-1)[:3] = [np.inf, -np.inf, np.nan]
        expected = np.zeros((6, size**dims), np.float32)
        indices = max_pool_indices(arg, shape, *args).reshape(6, -1)
        with np.errstate(invalid="ignore"):  # inf - inf where two windows share a winner
            np.add.at(expected, (np.arange(6)[:, None], indices), grad.reshape(6, -1))
        found = _max_pool_scatter(grad, arg, shape, *args)
        assert found.dtype == np.float32 and found.shape == shape
        np.testing.assert_array_equal(found.reshape(6, -1), expected)
        checked += 1
    assert checked > 20


def test_max_pool_windows_split_by_the_stride_are_the_padded_windows():
    # padded and strided along the last dim: the windows come from the padded input split
    # into its stride's phases, each the same elements as the strided view of a padded copy
    rng = np.random.default_rng(6)
    checked = 0
    for dims, k, s, p, d, ceil_mode in itertools.product(
        [1, 2, 3], [2, 3], [2, 3], [0, 1], [1, 2], [False, True]
    ):
        size = 9 - 2 * dims
        if p > k // 2 or (k - 1) * d + 1 > size + 2 * p:
            continue
        x = rng.standard_normal((2, 3) + (size,) * dims)
        args = ((k,) * dims, (s,) * dims, (p,) * dims, (d,) * dims, ceil_mode)
        geo = PoolGeometry(x.shape, *args)
        padded = geo.pad(x, -np.inf)
        windows = geo.windows(x, -np.inf)
        assert len(windows) == k**dims
        for offset, window in zip(geo.offsets(), windows):
            np.testing.assert_array_equal(window, padded[geo.window(offset)])
        checked += geo.needs_padding
    assert checked > 40
