"""Corners the differential fuzzer found in random op graphs: 0-d tensors and tensors with an empty
dim, where torch checks dims or sizes before NumPy would. Each is checked against torch where it
is installed."""

from __future__ import annotations

import math
import re
import warnings

import numpy as np
import pytest

import numtorch


@pytest.mark.parametrize("value", [0.0, 2.0])
def test_zero_dim_to_sparse_and_transpose_(value):
    x = numtorch.tensor(value, dtype=numtorch.float64, requires_grad=True)
    s = x.to_sparse()
    assert tuple(s._indices().shape) == (0, int(value != 0))
    assert s._values().tolist() == ([value] if value else [])
    s.to_dense().backward()
    stored = float(value != 0)  # a zero is not an entry: no gradient flows to it (as torch)
    assert x.grad.item() == stored
    y = (x * 1).transpose_(0, -1)
    assert y.shape == () and type(y.grad_fn).__name__ == "TransposeBackward1"
    y.backward()
    assert x.grad.item() == stored + 1


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda x, i, s: x.scatter_add(0, i[0, 0], s), "as self tensor"),
        (lambda x, i, s: x.scatter_add(0, i, s[0, 0]), "as src tensor"),
        (lambda x, i, s: x[0, 0].scatter_add(0, i, s), "as self tensor"),
        (lambda x, i, s: x.scatter(0, i[0, 0], s), "as self tensor"),
    ],
)
def test_scatter_with_a_0d_operand_raises_torchs_dims_error(call, message):
    x = numtorch.zeros(2, 3, dtype=numtorch.float64)
    index = numtorch.zeros(2, 3, dtype=numtorch.int64)
    src = numtorch.ones(2, 3, dtype=numtorch.float64)
    with pytest.raises(RuntimeError, match=f"same number of dimensions {message}"):
        call(x, index, src)


@pytest.mark.parametrize("shift", ["fftshift", "ifftshift"])
def test_fftshift_of_a_0d_tensor_raises_torchs_roll_error(shift):
    with pytest.raises(RuntimeError, match="`shifts` required"):
        getattr(numtorch.fft, shift)(numtorch.tensor(1.0))


@pytest.mark.parametrize(
    "shape, pad", [((1, 0, 3), (1, 1)), ((2, 0), (1, 1)), ((1, 2, 0, 3), (1,) * 4)]
)
def test_replicate_pad_refuses_an_empty_non_batch_dim(shape, pad):
    with pytest.raises(RuntimeError, match="possibly 0 batch size and other non-zero dimensions"):
        numtorch.nn.functional.pad(numtorch.ones(*shape), pad, mode="replicate")
    # an empty batch dim pads as usual
    out = numtorch.nn.functional.pad(numtorch.ones(0, 2, 3), (1, 1), mode="replicate")
    assert tuple(out.shape) == (0, 2, 5)


ZERO_DIM_WRITES = {
    "scatter_add": lambda lib, x, i, s: lib.scatter_add(x, 0, i, s),
    "scatter": lambda lib, x, i, s: lib.scatter(x, -1, i, s),
    "scatter_value": lambda lib, x, i, s: lib.scatter(x, 0, i, 5.0),
    "scatter_reduce_amax": lambda lib, x, i, s: lib.scatter_reduce(x, 0, i, s, "amax"),
    "scatter_reduce_mean": lambda lib, x, i, s: lib.scatter_reduce(x, 0, i, s, "mean"),
    "index_add": lambda lib, x, i, s: lib.index_add(x, 0, i, s, alpha=2),
    "index_copy": lambda lib, x, i, s: lib.index_copy(x, 0, i, s),
    "index_fill": lambda lib, x, i, s: lib.index_fill(x, -1, i, s.sum()),
}


def _zero_dim_write(lib, name, index_shape, src_shape):
    x = lib.ones((), dtype=lib.float64).mul(1.5).requires_grad_()
    src = lib.ones(src_shape, dtype=lib.float64).mul(2.0).requires_grad_()
    index = lib.zeros(index_shape, dtype=lib.int64)
    out = ZERO_DIM_WRITES[name](lib, x, index, src)
    out.sum().backward()
    src_grad = None if src.grad is None else src.grad.numpy()
    return out.shape, out.item(), x.grad.item(), src_grad, type(out.grad_fn).__name__


@pytest.mark.parametrize("shapes", [((), ()), ((1,), ()), ((1,), (1,))])
@pytest.mark.parametrize("name", sorted(ZERO_DIM_WRITES))
def test_scatter_and_index_writes_into_a_0d_tensor(name, shapes):
    # torch reads a 0-d tensor as one element along dim 0; NumPy cannot index it
    torch = pytest.importorskip("torch")
    try:
        expected = _zero_dim_write(torch, name, *shapes)
    except RuntimeError as error:
        with pytest.raises(RuntimeError, match=re.escape(str(error).split(".")[0])):
            _zero_dim_write(numtorch, name, *shapes)
        return
    shape, value, x_grad, src_grad, node = _zero_dim_write(numtorch, name, *shapes)
    assert (tuple(shape), value, x_grad, node) == (tuple(expected[0]),) + expected[1:3] + (
        expected[4],
    )
    np.testing.assert_array_equal(src_grad, expected[3])


ZERO_DIM_DIMS = {
    "flatten": lambda lib, x: lib.flatten(x, 0, 1),
    "flatten_negative": lambda lib, x: x.flatten(0, -2),
    "tensor_split": lambda lib, x: lib.tensor_split(x, 1, 0),
    "tensor_split_indices": lambda lib, x: lib.tensor_split(x, [1]),
    "cross": lambda lib, x: lib.cross(x, x, 0),
    "cross_default_dim": lambda lib, x: lib.cross(x, x),
    "linalg.cross": lambda lib, x: lib.linalg.cross(x, x, dim=1),
    "quantile": lambda lib, x: lib.quantile(x, 0.5, dim=1),
    "nanquantile": lambda lib, x: lib.nanquantile(x, 0.5, dim=-2),
    "index_reduce": lambda lib, x: x.index_reduce(0, lib.tensor([0]), lib.tensor([1.0]), "prod"),
    "index_add_0d_source": lambda lib, x: lib.ones(2).index_add(0, lib.tensor(0), x),
    "avg_pool2d": lambda lib, x: lib.nn.functional.avg_pool2d(x, 1),
    "avg_pool2d_2d": lambda lib, x: lib.nn.functional.avg_pool2d(x.expand(2, 2), 1),
    "lp_pool2d": lambda lib, x: lib.nn.functional.lp_pool2d(x, 2, 1),
    "addbmm_batch1": lambda lib, x: lib.addbmm(lib.ones(2, 2), x, lib.ones(2, 2, 2)),
    "addbmm_batch2": lambda lib, x: lib.addbmm(lib.ones(2, 2), lib.ones(2, 2, 2), x),
    "baddbmm_batch1": lambda lib, x: lib.baddbmm(x, x, lib.ones(2, 2, 2)),
    "baddbmm_batch2": lambda lib, x: lib.baddbmm(x, lib.ones(2, 2, 2), x),
    "grid_sample": lambda lib, x: lib.nn.functional.grid_sample(x, lib.ones(1, 1, 1, 2)),
    "grid_sample_grid": lambda lib, x: lib.nn.functional.grid_sample(lib.ones(1, 1, 2, 2), x),
    "cross_entropy_long": lambda lib, x: lib.nn.functional.cross_entropy(x, lib.tensor(0)),
    "cross_entropy_float": lambda lib, x: lib.nn.functional.cross_entropy(x, x),
    "cross_entropy_same_shape_long": lambda lib, x: lib.nn.functional.cross_entropy(
        x.expand(2, 3), lib.zeros(2, 3, dtype=lib.long)
    ),
    "embedding": lambda lib, x: lib.nn.functional.embedding(lib.tensor(0), x, padding_idx=0),
    "embedding_3d": lambda lib, x: lib.embedding(x.expand(2, 2, 2), lib.tensor(0)),
    "group_norm": lambda lib, x: lib.group_norm(x, 1),
    "group_norm_1d": lambda lib, x: lib.group_norm(x.expand(2), 1),
    "functional_group_norm": lambda lib, x: lib.nn.functional.group_norm(x, 1),
    "mv": lambda lib, x: lib.mv(x, lib.ones(3)),
    "adaptive_avg_pool2d": lambda lib, x: lib.nn.functional.adaptive_avg_pool2d(x, 1),
    "adaptive_avg_pool2d_1d": lambda lib, x: lib.nn.functional.adaptive_avg_pool2d(x.expand(3), 1),
    "adaptive_avg_pool3d": lambda lib, x: lib.nn.functional.adaptive_avg_pool3d(x, 1),
    "adaptive_avg_pool3d_2d": lambda lib, x: lib.nn.functional.adaptive_avg_pool3d(
        x.expand(2, 3), 1
    ),
    "functional_unfold": lambda lib, x: lib.nn.functional.unfold(x, 1),
    "functional_unfold_1d": lambda lib, x: lib.nn.functional.unfold(x.expand(3), 1),
    "functional_unfold_2d": lambda lib, x: lib.nn.functional.unfold(x.expand(3, 3), 1),
    "index_copy_0d_source": lambda lib, x: lib.ones(3, 2).index_copy(0, lib.tensor([0]), x),
    "dropout2d": lambda lib, x: lib.nn.functional.dropout2d(x, 0.5),
    "feature_alpha_dropout": lambda lib, x: lib.nn.functional.feature_alpha_dropout(x, 0.5, True),
    "weight_norm_dim0": lambda lib, x: lib._weight_norm(x, x, 0),
    "weight_norm_dim_last": lambda lib, x: lib._weight_norm(x, x, -1),
    "weight_norm_dim1": lambda lib, x: lib._weight_norm(x, x, 1),
    "weight_norm_dim2_of_2d": lambda lib, x: lib._weight_norm(x.expand(2, 3), x, 2),
    "norm_except_dim": lambda lib, x: lib.norm_except_dim(x, 2, 0),
    "embedding_padding_idx": lambda lib, x: lib.nn.functional.embedding(
        lib.tensor([0]), x, padding_idx=1
    ),
    "embedding_negative_padding_idx": lambda lib, x: lib.nn.functional.embedding(
        lib.tensor([0]), x, padding_idx=-1
    ),
}


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", sorted(ZERO_DIM_DIMS))
def test_dims_of_a_0d_input_raise_torchs_error(name):
    torch = pytest.importorskip("torch")
    with pytest.raises(Exception) as expected:
        ZERO_DIM_DIMS[name](torch, torch.tensor(1.5))
    with pytest.raises(expected.type, match=re.escape(str(expected.value))):
        ZERO_DIM_DIMS[name](numtorch, numtorch.tensor(1.5))


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("reduce", ["prod", "amax", "mean"])
def test_index_reduce_into_a_0d_tensor(reduce):
    torch = pytest.importorskip("torch")
    results = [
        lib.tensor(1.5).index_reduce(0, lib.tensor(0), lib.tensor(2.0), reduce).item()
        for lib in (torch, numtorch)
    ]
    assert results[0] == results[1]


@pytest.mark.parametrize("shape", [(0, 0), (3, 0), (2, 0, 3), (0, 3, 3)])
@pytest.mark.parametrize("p", [None, -2, "fro", 1])
def test_cond_of_empty_matrices_is_zero_outside_the_graph(shape, p):
    torch = pytest.importorskip("torch")
    results = []
    for lib in (torch, numtorch):
        A = lib.empty(shape, dtype=lib.float32, requires_grad=True)
        try:
            out = lib.linalg.cond(A, p)
        except RuntimeError as error:
            results.append(str(error))
            continue
        results.append((tuple(out.shape), out.tolist(), out.requires_grad, str(out.dtype)))
    assert results[0] == results[1]


def test_unflatten_of_a_0d_tensor_raises_torchs_wrapped_error():
    # torch's message goes on with a C++ backtrace: its first two lines are compared
    with pytest.raises(RuntimeError) as ours:
        numtorch.tensor(1.5).unflatten(-1, (1, 1))
    assert str(ours.value).startswith("unflatten got an unexpected error:\nDimension specified")
    torch = pytest.importorskip("torch")
    with pytest.raises(RuntimeError) as theirs:
        torch.tensor(1.5).unflatten(-1, (1, 1))
    assert str(theirs.value).split("\n")[:2] == str(ours.value).split("\n")


@pytest.mark.parametrize("shape", [(3, 0), (0, 3), (0, 0), (2, 0, 3), (2, 3, 0)])
def test_lu_of_matrices_with_an_empty_side(shape):
    def factors(lib):
        A = lib.ones(shape, dtype=lib.float64, requires_grad=True)
        P, L, U = lib.linalg.lu(A)
        (P @ L @ U).sum().backward()
        return [tuple(t.shape) for t in (P, L, U, A.grad)]

    ours = factors(numtorch)
    assert ours[3] == shape
    torch = pytest.importorskip("torch")
    assert ours == factors(torch)


@pytest.mark.parametrize("shape", [(), (3,)])
@pytest.mark.parametrize("params", ["none", "weight", "running"])
def test_aten_batch_norm_below_two_dims_counts_no_features(shape, params):
    def call(lib):
        weight = lib.ones(2) if params == "weight" else None
        stats = (lib.zeros(2), lib.ones(2)) if params == "running" else (None, None)
        with pytest.raises((RuntimeError, IndexError)) as error:
            lib.batch_norm(lib.ones(shape), weight, None, *stats, True, 0.1, 1e-5, False)
        return type(error.value).__name__, str(error.value)

    ours = call(numtorch)
    torch = pytest.importorskip("torch")
    assert ours == call(torch)


@pytest.mark.parametrize(
    "shape, size, mode",
    [
        ((1, 0, 6, 5), (3, 4), "bilinear"),
        ((1, 0, 6, 5), (3, 4), "nearest"),
        ((1, 0, 6), (3,), "linear"),
        ((1, 0, 2, 3, 3), (2, 2, 2), "trilinear"),
        ((0, 2, 6, 5), (3, 4), "bicubic"),
    ],
)
def test_interpolate_refuses_empty_non_batch_dims(shape, size, mode):
    def call(lib):
        try:
            return tuple(lib.nn.functional.interpolate(lib.ones(shape), size=size, mode=mode).shape)
        except RuntimeError as error:
            return str(error)

    ours = call(numtorch)
    assert isinstance(ours, tuple) == (shape[0] == 0)
    torch = pytest.importorskip("torch")
    assert ours == call(torch)


def _error_type(call):
    try:
        call()
    except Exception as exc:  # compared by type with torch's
        return type(exc).__name__
    return None


def _instance_norm_empty(lib, shape, use_input_stats):
    x = lib.ones(shape, requires_grad=True)
    stats = lib.zeros(2), lib.ones(2)
    call = lambda: lib.nn.functional.instance_norm(x, *stats, use_input_stats=use_input_stats)
    return _error_type(call), [s.tolist() for s in stats]


@pytest.mark.parametrize("use_input_stats", [False, True])
@pytest.mark.parametrize("shape", [(2, 0, 3), (0, 2, 3)])
def test_instance_norm_of_an_empty_input_with_running_stats(shape, use_input_stats):
    error, stats = _instance_norm_empty(numtorch, shape, use_input_stats)
    if not use_input_stats:  # evaluation reads the statistics and leaves them as they were
        assert (error, stats) == (None, [[0.0, 0.0], [1.0, 1.0]])
    torch = pytest.importorskip("torch")
    torch_error, torch_stats = _instance_norm_empty(torch, shape, use_input_stats)
    assert error == torch_error
    np.testing.assert_array_equal(stats, torch_stats)


def _grid_sample_empty(lib, input_shape, grid_shape):
    x = lib.ones(input_shape, dtype=lib.float64, requires_grad=True)
    grid = lib.zeros(grid_shape, requires_grad=True)  # float32: met only by a non-empty output
    out = lib.nn.functional.grid_sample(x, grid, padding_mode="reflection", align_corners=False)
    out.sum().backward()
    return [(tuple(t.shape), str(t.dtype).split(".")[1]) for t in (out, x.grad, grid.grad)]


@pytest.mark.parametrize(
    "input_shape, grid_shape",
    [((1, 1, 3, 3), (1, 0, 2, 2)), ((1, 0, 3, 3), (1, 2, 2, 2)), ((0, 1, 3, 3), (0, 2, 2, 2))],
)
def test_grid_sample_with_an_empty_output(input_shape, grid_shape):
    found = _grid_sample_empty(numtorch, input_shape, grid_shape)
    assert found[0][1] == "float64" and found[2] == (grid_shape, "float32")
    torch = pytest.importorskip("torch")
    assert found == _grid_sample_empty(torch, input_shape, grid_shape)


def _grid_sample_empty_second_order(lib, input_shape, grid_shape, grid_grad):
    x = lib.ones(input_shape, dtype=lib.float32, requires_grad=True)
    grid = lib.zeros(grid_shape, dtype=lib.float64, requires_grad=grid_grad)
    out = lib.nn.functional.grid_sample(x, grid, align_corners=False)
    leaves = (x, grid) if grid_grad else (x,)
    try:
        firsts = lib.autograd.grad(out.sum(), leaves, create_graph=True)
        # the last first-order gradient: the input's, or the grid's where the grid has one
        seconds = lib.autograd.grad(firsts[-1].sum(), leaves, allow_unused=True)
    except RuntimeError as exc:
        return str(exc)
    return [None if t is None else (tuple(t.shape), str(t.dtype)[6:]) for t in seconds]


@pytest.mark.parametrize("grid_grad", [False, True])
@pytest.mark.parametrize(
    "input_shape, grid_shape", [((1, 0, 3, 3), (1, 2, 2, 2)), ((1, 1, 2, 3, 2), (1, 2, 1, 0, 3))]
)
def test_grid_sample_second_order_with_an_empty_output(input_shape, grid_shape, grid_grad):
    # the input gradient is grad's dtype whatever the grid's; the grid gradient's input
    # derivative is the dtypes' promotion scattered into the input's: torch's scatter error
    found = _grid_sample_empty_second_order(numtorch, input_shape, grid_shape, grid_grad)
    assert isinstance(found, str) == grid_grad
    torch = pytest.importorskip("torch")
    assert found == _grid_sample_empty_second_order(torch, input_shape, grid_shape, grid_grad)


def _recurrence_with_0d(lib, which):
    weights = [lib.ones(6, 2), lib.ones(6, 2), lib.ones(6), lib.ones(6)] * 2
    data, h0 = lib.ones(6, 2), lib.ones(2, 3, 2, dtype=lib.float64)
    if which == "data":  # projected with linear, which refuses a 0-d input
        data = lib.tensor(1.0)
    else:  # unbound into layers before any dtype meets another (an IndexError)
        h0 = lib.tensor(1.0, dtype=lib.float64)
    sizes = lib.tensor(np.array([3, 2, 1]))
    try:
        lib.gru(data, sizes, h0, weights, True, 1, 0.0, False, True)
    except Exception as exc:
        return type(exc)
    return None


@pytest.mark.parametrize("which", ["data", "h0"])
def test_packed_recurrence_with_a_0d_tensor_raises_as_torch(which):
    expected = {"data": RuntimeError, "h0": IndexError}[which]
    assert _recurrence_with_0d(numtorch, which) is expected
    torch = pytest.importorskip("torch")
    assert _recurrence_with_0d(torch, which) is expected


@pytest.mark.parametrize("reduction", [0, 2])
def test_aten_margin_ranking_loss_broadcasts_a_0d_input(reduction):
    # only F.margin_ranking_loss checks that the dims agree; torch.margin_ranking_loss
    # broadcasts
    results = []
    for lib in (numtorch, pytest.importorskip("torch")):
        a = lib.tensor(-1.0, dtype=lib.float64, requires_grad=True)
        b = lib.tensor([0.5, -0.2, 0.3], dtype=lib.float64, requires_grad=True)
        loss = lib.margin_ranking_loss(a, b, lib.tensor([1.0, -1.0, 1.0]), 0.1, reduction)
        grads = lib.autograd.grad(loss.sum(), (a, b))
        results.append([t.detach().numpy() for t in (loss, *grads)])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-12)
    with pytest.raises(RuntimeError, match="should have same dimension"):
        numtorch.nn.functional.margin_ranking_loss(numtorch.tensor(1.0), *[numtorch.ones(3)] * 2)


@pytest.mark.parametrize("dims", [2, 3])
@pytest.mark.parametrize("weight_dims", [0, 1, 2])
def test_conv_transpose_refuses_a_weight_of_fewer_than_three_dims(dims, weight_dims):
    x = numtorch.ones((1, 2) + (3,) * dims)
    conv = getattr(numtorch.nn.functional, f"conv_transpose{dims}d")
    with pytest.raises(RuntimeError, match="weight should have at least three dimensions"):
        conv(x, numtorch.ones((2,) * weight_dims))


@pytest.mark.parametrize("name", ["cummin", "cummax"])
def test_running_extreme_of_an_empty_input_has_a_gradient_that_requires_grad(name):
    # torch's cummaxmin_backward returns the empty input itself: under create_graph the
    # gradient requires grad
    torch = pytest.importorskip("torch")
    seen = []
    for lib in (numtorch, torch):
        x = lib.zeros(0, 5, dtype=lib.float64, requires_grad=True)
        (g,) = lib.autograd.grad(getattr(lib, name)(x, 1)[0].sum(), x, create_graph=True)
        seen.append((g.requires_grad, tuple(g.shape)))
    assert seen[0] == seen[1] == (True, (0, 5))


def test_logcumsumexp_gradient_of_an_empty_tensor_is_the_incoming_gradient():
    # torch's logcumsumexp_backward returns grad itself when empty: no graph under create_graph
    x = numtorch.zeros(0, 3, requires_grad=True)
    (g,) = numtorch.autograd.grad(x.logcumsumexp(0).sum(), x, create_graph=True)
    assert tuple(g.shape) == (0, 3) and not g.requires_grad


@pytest.mark.parametrize("accumulate", [False, True])
def test_index_put_into_an_empty_dim_raises_index_error_before_comparing_dtypes(accumulate):
    # torch's advanced indexing refuses indices into a dim of size 0 first
    x = numtorch.zeros(0, 2)
    values = numtorch.zeros(2, 2, dtype=numtorch.float64)
    with pytest.raises(IndexError, match="out of bounds for dimension with size 0"):
        numtorch.index_put(x, (numtorch.tensor([0, 0]),), values, accumulate=accumulate)
    with pytest.raises(IndexError, match="out of bounds for dimension with size 0"):
        x[numtorch.tensor([0])] = numtorch.ones(1, dtype=numtorch.float64)
    with pytest.raises(RuntimeError, match="dtypes match"):  # empty indices: the dtypes
        numtorch.index_put(x, (numtorch.tensor([], dtype=numtorch.long),), values)


def test_unbind_along_an_empty_dim_of_a_tensor_requiring_grad_returns_no_tensors():
    x = numtorch.zeros(0, 2, requires_grad=True)
    assert x.unbind(0) == ()


@pytest.mark.parametrize("method", ["asin_", "tril_", "zero_", "add_"])
def test_inplace_on_an_empty_slice_of_an_expanded_tensor_writes_nothing_as_torch(method):
    # no element to write, so no two of them share memory: torch finds the view dense
    torch = pytest.importorskip("torch")
    for lib in (numtorch, torch):
        x = lib.zeros(1, dtype=lib.float64).expand(2, 3, 1)[..., 1:]
        getattr(x, method)(*((1.0,) if method == "add_" else ()))
        assert tuple(x.shape) == (2, 3, 0)


@pytest.mark.parametrize("p", [math.inf, -math.inf, -1.0])
def test_dist_with_no_elements_and_a_norm_without_identity_raises_torchs_error(p):
    # the max, min or sum of reciprocals of no differences has no value: NumPy's ValueError
    # leaked where torch's norm raises
    torch = pytest.importorskip("torch")
    messages = []
    for lib in (numtorch, torch):
        with pytest.raises(RuntimeError) as info:
            lib.dist(lib.ones(0, 3), lib.ones(1, 3), p=p)
        messages.append(str(info.value))
    assert messages[0] == messages[1]


@pytest.mark.parametrize("p", [2.0, math.inf])
@pytest.mark.parametrize("shapes", [((0,), (4,)), ((2, 2), (3, 2)), ((0, 3), (2, 3))])
def test_dist_of_shapes_that_do_not_broadcast_raises_torchs_error(shapes, p):
    # the empty-norm check broadcast the shapes with NumPy first, whose ValueError leaked
    torch = pytest.importorskip("torch")
    messages = []
    for lib in (numtorch, torch):
        with pytest.raises(RuntimeError) as info:
            lib.dist(lib.ones(*shapes[0]), lib.ones(*shapes[1]), p=p)
        messages.append(str(info.value))
    assert messages[0] == messages[1]


@pytest.mark.parametrize("ord", [1, -1, 2, -2, math.inf, -math.inf])
@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (2, 0, 3), (0, 0)], ids=str)
@pytest.mark.parametrize("keepdim", [False, True])
def test_matrix_norm_with_no_elements_as_torch(ord, shape, keepdim):
    # the largest of no column sums or singular values is a new zero tensor in torch (it
    # raised amax's error); the smallest of none is refused, naming the dim as given
    torch = pytest.importorskip("torch")

    def run(lib):
        x = lib.ones(shape, requires_grad=True)
        try:
            r = lib.linalg.matrix_norm(x, ord, keepdim=keepdim)
        except IndexError as error:
            return str(error)
        return r.tolist(), tuple(r.shape), r.requires_grad

    assert run(numtorch) == run(torch)


NLL_SHAPES = [
    ((2, 3, 4, 5), (2, 4), None),
    ((2, 3, 4, 5), (2, 4, 6), None),
    ((2, 3, 4, 5), (2, 4, 5), 2),
    ((2, 3, 4, 5, 6), (2, 4, 5, 6), 2),
    ((2, 0, 0, 0), (2, 1, 2), None),
    ((2, 0, 4), (2, 4), None),
    ((2, 3, 0, 0), (2, 1, 2), None),
    ((0, 3, 4), (0, 4), None),
    ((2, 3, 0), (2, 0), None),
]


@pytest.mark.parametrize("loss", ["nll_loss", "cross_entropy"])
@pytest.mark.parametrize("shapes", NLL_SHAPES, ids=str)
def test_spatial_nll_loss_checks_shapes_as_torchs_2d_kernel(loss, shapes):
    # 4-D inputs take nll_loss2d's own checks, other ranks are viewed as 4-D first (an operand
    # with no elements as (n, c, 0, 0)): the k-dim check or a target bounds error answered
    torch = pytest.importorskip("torch")
    shape, target_shape, weight = shapes

    def run(lib):
        w = None if weight is None else lib.ones(weight)
        try:
            fn = getattr(lib.nn.functional, loss)
            out = fn(lib.ones(shape), lib.zeros(target_shape, dtype=lib.long), weight=w)
            return str(out.tolist())  # (a mean over no elements is NaN in both)
        except (RuntimeError, IndexError, ValueError) as error:
            return type(error).__name__, str(error)

    assert run(numtorch) == run(torch)


@pytest.mark.parametrize(
    "input_shape, mat_shape, beta",
    [((1,), (0, 4), 2.0), ((), (0, 0), 1.0), ((1,), (2, 0), 2.0), ((1,), (2, 0), 0.0)],
)
def test_addmv_of_an_empty_matrix_keeps_the_input_shape_as_torch(input_shape, mat_shape, beta):
    # torch's shortcut for an empty matrix writes beta * input without expanding input to
    # mat's rows (resizing its result, with a warning); beta == 0 gives zeros of (rows,)
    torch = pytest.importorskip("torch")
    outcomes = []
    for lib in (numtorch, torch):
        a = lib.full(input_shape, 3.0, requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            r = lib.addmv(a, lib.ones(mat_shape), lib.ones(mat_shape[1:]), beta=beta)
        outcomes.append((tuple(r.shape), r.tolist(), r.grad_fn.name(), len(caught)))
    assert outcomes[0] == outcomes[1]


def _cdist_mixed_dtypes(lib, shape1, shape2):
    x1 = lib.zeros(shape1, dtype=lib.float64, requires_grad=True)
    x2 = lib.ones(shape2, dtype=lib.float32, requires_grad=True)
    out = lib.cdist(x1, x2)
    out.sum().backward()
    return tuple(out.shape), str(out.dtype), str(x2.grad.dtype)


@pytest.mark.parametrize("shape1, shape2", [((0, 3, 2), (27, 2)), ((1, 3, 2), (0, 27, 2))])
def test_cdist_of_mixed_dtypes_with_an_empty_batch_is_x1s(shape1, shape2):
    # an empty batch dim computes nothing: torch meets no dtypes there, as with no rows
    found = _cdist_mixed_dtypes(numtorch, shape1, shape2)
    torch = pytest.importorskip("torch")
    assert found == _cdist_mixed_dtypes(torch, shape1, shape2)


@pytest.mark.parametrize("vec_size", [0, 5])
def test_addmv_size_mismatch_with_a_0d_input_raises_as_torch(vec_size):
    # torch's size-mismatch message reads input.size(0): a 0-d input raises IndexError
    def outcome(lib):
        try:
            lib.addmv(lib.tensor(1.0), lib.ones(3, 4), lib.ones(vec_size))
        except Exception as exc:
            return type(exc)
        return None

    assert outcome(numtorch) is IndexError
    torch = pytest.importorskip("torch")
    assert outcome(torch) is IndexError


@pytest.mark.parametrize("name", ["quantile", "nanquantile"])
@pytest.mark.parametrize("kwargs", [{}, {"dim": 1}, {"dim": 0, "keepdim": True}])
def test_a_zero_dim_q_gives_no_q_dim_as_a_number_does(name, kwargs):
    torch = pytest.importorskip("torch")
    results = []
    for lib in (numtorch, torch):
        x = lib.tensor([[0.5, -1.0, 2.0, 4.0], [3.0, 1.0, 0.0, -2.0]], requires_grad=True)
        y = getattr(lib, name)(x, lib.tensor(0.3), **kwargs)
        results.append((tuple(y.shape), y.detach().numpy().tolist(), type(y.grad_fn).__name__))
    assert results[0] == results[1]
