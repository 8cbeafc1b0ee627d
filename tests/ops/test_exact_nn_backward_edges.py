"""The first-order gradients of nn ops under ``create_graph=True``: torch runs each op's
backward as one differentiable op whose edges include inputs it reads only for a shape or a
mask, so the gradient requires grad (and names that op's node) even where it does not depend
on them. These check that node and its derivatives against torch."""

import math

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")


def _grads(lib, fn, arrays, wrt):
    leaves = [
        lib.tensor(a, dtype=lib.float64).requires_grad_(i in wrt) for i, a in enumerate(arrays)
    ]
    out = fn(lib, *leaves)
    targets = [leaves[i] for i in wrt]
    firsts = lib.autograd.grad((out * out.detach().cos()).sum(), targets, create_graph=True)
    seconds = None
    live = [g for g in firsts if g.requires_grad]
    if live:
        total = sum((g * g.detach().sin()).sum() for g in live)
        seconds = lib.autograd.grad(total, targets, allow_unused=True)
    return firsts, seconds


def _check(fn, arrays, wrt):
    ours, theirs = _grads(numtorch, fn, arrays, wrt), _grads(torch, fn, arrays, wrt)
    for a, b in zip(ours[0], theirs[0]):
        assert a.requires_grad == b.requires_grad
        assert type(a.grad_fn).__name__ == type(b.grad_fn).__name__
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-10, atol=1e-12)
    assert (ours[1] is None) == (theirs[1] is None)
    for a, b in zip(ours[1] or (), theirs[1] or ()):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("dims", [2, 3])
def test_fractional_max_pool_gradient_has_the_input_as_an_edge(dims):
    rng = np.random.default_rng(0)
    shape = (1, 2, 6, 5) if dims == 2 else (1, 2, 5, 6, 5)
    samples = np.linspace(0.1, 0.9, 2 * dims).reshape(1, 2, dims)

    def fn(lib, x):
        pool = getattr(lib.nn.functional, f"fractional_max_pool{dims}d")
        u = lib.tensor(samples, dtype=lib.float64)
        return pool(x, kernel_size=2, output_size=(3,) * dims, _random_samples=u)

    _check(fn, [rng.permutation(np.prod(shape)).reshape(shape) * 0.1], wrt=[0])


def test_fractional_max_pool3d_needs_room_for_one_more_window():
    # torch's 3-D kernel checks out + k - 1 < in (its 2-D kernel: <=)
    for lib in (numtorch, torch):
        x = lib.zeros(1, 1, 4, 5, 6)
        with pytest.raises(RuntimeError, match="pool time 2 too large relative to input time 4"):
            lib.nn.functional.fractional_max_pool3d(x, kernel_size=2, output_size=3)
        lib.nn.functional.fractional_max_pool2d(x[0], kernel_size=2, output_size=3)


@pytest.mark.parametrize(
    "dims, ratio", [(3, 0.5), (3, (0.5, 0.7, 0.9)), (3, (0.5, 0.7)), (2, 0.5), (2, (0.5,) * 3)]
)
def test_fractional_max_pool_output_ratio_is_read_as_torch_reads_it(dims, ratio):
    # the 3-D form spreads a number over its dims (and indexes three entries); the 2-D form
    # takes len() of the ratio, a TypeError for a number
    outcomes = []
    for lib in (numtorch, torch):
        lib.manual_seed(0)
        x = lib.randn(1, 1, 4, 6, 5)[0, 0] if dims == 2 else lib.randn(1, 1, 4, 6, 5)
        pool = getattr(lib.nn.functional, f"fractional_max_pool{dims}d")
        try:
            outcomes.append(pool(x, 2, output_ratio=ratio).tolist())
        except Exception as error:  # (the type is what is compared)
            outcomes.append(type(error).__name__)
    assert outcomes[0] == outcomes[1]


GRID_CASES = [
    (dims, mode, padding, align)
    for dims in (2, 3)
    for mode in ("bilinear", "nearest", "bicubic")
    for padding in ("zeros", "border", "reflection")
    for align in (False, True)
    if not (dims == 3 and mode == "bicubic")
]


@pytest.mark.parametrize("dims, mode, padding, align", GRID_CASES)
@pytest.mark.parametrize("wrt", [[0], [1], [0, 1]], ids=["input", "grid", "both"])
def test_grid_sample_gradient_is_one_node(dims, mode, padding, align, wrt):
    # both gradients are one node with edges (grad_output, input, grid); nearest's input
    # gradient has a defined (zero) derivative in the grid, its grid gradient none
    rng = np.random.default_rng(dims)
    x = rng.standard_normal((2, 2) + (3,) * dims)
    g = rng.uniform(-1.2, 1.2, (2,) + (2,) * dims + (dims,))

    def fn(lib, input, grid):
        return lib.nn.functional.grid_sample(
            input, grid, mode=mode, padding_mode=padding, align_corners=align
        )

    _check(fn, [x, g], wrt)


def test_grid_sample_empty_output_keeps_the_dtypes():
    # the dtypes may differ where nothing is sampled: each gradient has its input's dtype
    for lib in (numtorch, torch):
        x = lib.zeros(1, 0, 2, 3, 2, dtype=lib.float32, requires_grad=True)
        g = lib.zeros(1, 2, 1, 2, 3, dtype=lib.float64, requires_grad=True)
        y = lib.nn.functional.grid_sample(x, g, align_corners=False)
        assert y.dtype == lib.float32
        gx, gg = lib.autograd.grad(y.sum(), [x, g], create_graph=True)
        assert (gx.dtype, gg.dtype) == (lib.float32, lib.float64)
        assert type(gx.grad_fn).__name__ == "GridSampler3DBackwardBackward0"


def test_grid_sample_bicubic_double_backward_of_an_empty_grid_raises():
    for lib in (numtorch, torch):
        x = lib.ones(1, 2, 3, 4, dtype=lib.float64)
        g = lib.zeros(1, 0, 3, 2, dtype=lib.float64, requires_grad=True)
        y = lib.nn.functional.grid_sample(x, g, mode="bicubic", align_corners=False)
        (gg,) = lib.autograd.grad(y.sum(), g, create_graph=True)
        with pytest.raises(RuntimeError, match=r"shape \[-1, 0, 3, 16\]"):
            lib.autograd.grad(gg.sum(), g)


@pytest.mark.parametrize("name", ["conv1d", "conv2d", "conv_transpose1d", "conv_transpose2d"])
@pytest.mark.parametrize("wrt", [[2], [0, 2], [1, 2], [0, 1, 2]], ids=str)
def test_convolution_bias_gradient_is_an_output_of_the_backward_node(name, wrt):
    # torch's convolution_backward returns the bias gradient too: under create_graph it
    # requires grad when the input or the weight does
    dims = 2 if name.endswith("2d") else 1
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 2) + (4,) * dims)
    w = rng.standard_normal(((2, 3) if "transpose" in name else (3, 2)) + (2,) * dims)
    b = rng.standard_normal(3)

    def fn(lib, x, w, b):
        return getattr(lib.nn.functional, name)(x, w, b)

    _check(fn, [x, w, b], wrt)


@pytest.mark.parametrize("dims", [1, 2, 3])
def test_conv_transpose_bias_of_another_dtype(dims):
    # torch's slow transposed kernels add a bias of another float dtype (1-D, 2-D) or refuse
    # it with the 3-D kernel's message; the bias gradient comes back in the bias's dtype
    results = []
    for lib in (numtorch, torch):
        x = lib.ones((1, 2) + (3,) * dims, dtype=lib.float32, requires_grad=True)
        w = lib.ones((2, 3) + (2,) * dims, dtype=lib.float32)
        b = lib.tensor([0.5, 1.5, -1.0], dtype=lib.float64, requires_grad=True)
        conv = getattr(lib.nn.functional, f"conv_transpose{dims}d")
        if dims == 3:
            with pytest.raises(RuntimeError, match="expected scalar type Float but found Double"):
                conv(x, w, b)
            continue
        y = conv(x, w, b)
        (gb,) = lib.autograd.grad((y * y).sum(), b, create_graph=True)
        assert (y.dtype, gb.dtype, gb.requires_grad) == (lib.float32, lib.float64, True)
        results.append((y.detach().numpy(), gb.detach().numpy()))
    for a, b in zip(*results):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def _batch_norm_second_order_edges(lib, input_grad, training, affine):
    x = lib.tensor(np.linspace(-1, 1, 12).reshape(3, 2, 2), requires_grad=input_grad)
    w = lib.tensor([1.5, -0.5], dtype=lib.float64, requires_grad=True) if affine else None
    b = lib.tensor([0.2, 0.1], dtype=lib.float64, requires_grad=True) if affine else None
    stats = (lib.tensor([0.1, -0.2], dtype=lib.float64), lib.tensor([0.5, 2.0], dtype=lib.float64))
    y = lib.batch_norm(x, w, b, *stats, training, 0.1, 1e-5, False)
    leaves = [t for t in (x, w, b) if t is not None and t.requires_grad]
    weights = lib.tensor(np.linspace(0.5, 1.5, 12).reshape(3, 2, 2))  # a linear loss
    firsts = lib.autograd.grad((y * weights).sum(), leaves, create_graph=True)
    loss = sum((g * g).sum() for g in firsts if g.requires_grad)
    second = lib.autograd.grad(loss, leaves, allow_unused=True)
    return [None if t is None else tuple(t.shape) for t in second]


@pytest.mark.parametrize("input_grad", [True, False])
@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("affine", [True, False])
def test_batch_norm_second_order_leaves_undefined_derivatives_none(input_grad, training, affine):
    # torch's batchnorm_double_backward returns no tensor for a derivative none of its
    # incoming gradients reaches (the weight's from its own gradient, the input's in eval)
    if not (input_grad or affine):
        return
    torch = pytest.importorskip("torch")
    expected = _batch_norm_second_order_edges(torch, input_grad, training, affine)
    assert _batch_norm_second_order_edges(numtorch, input_grad, training, affine) == expected


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_binary_cross_entropy_target_gradient_is_unclamped_minus_logit(reduction):
    # torch's target gradient is -logit(x) * grad: infinite at x = 0 or 1 (no -100 clamp)
    seen = []
    for lib in (numtorch, torch):
        x = lib.tensor([0.0, 0.3, 1.0, 0.5], dtype=lib.float64, requires_grad=True)
        t = lib.tensor([0.2, 0.5, 0.7, 1.0], dtype=lib.float64, requires_grad=True)
        loss = lib.nn.functional.binary_cross_entropy(x, t, reduction=reduction)
        g = lib.autograd.grad(loss.sum(), (x, t), create_graph=True)
        (gg,) = lib.autograd.grad(g[1].sum(), (x,))
        seen.append((g[1].tolist(), gg.tolist()))
    assert seen[0] == seen[1]


NLL_LAYOUTS = {
    "permuted": lambda x: x.reshape(1, 2, 2, 3).permute(0, 3, 1, 2),
    "transposed": lambda x: x.reshape(1, 3, 2, 2).transpose(2, 3),
    "sliced": lambda x: x.repeat(1, 1, 1, 2)[..., ::2],
    "expanded": lambda x: x[0, 0].expand(1, 3, 2, 2),
    "strided-expanded": lambda x: x.reshape(-1)[:6].as_strided((2, 2), (1, 2)).expand(1, 3, 2, 2),
    "3-d permuted": lambda x: x.reshape(1, 4, 3).transpose(1, 2),
    "5-d permuted": lambda x: x.reshape(1, 2, 1, 2, 3).permute(0, 4, 1, 2, 3),
}


@pytest.mark.parametrize("layout", NLL_LAYOUTS)
@pytest.mark.parametrize("reduction", ["sum", "none"])
def test_nll_loss2d_backward_refuses_a_non_contiguous_gradient_layout(layout, reduction):
    # the 2-D kernel's zeros_like(input) keeps a dense input's layout; other ranks are made
    # contiguous before they reach it
    results = []
    for lib in (numtorch, torch):
        x = lib.arange(12.0, dtype=lib.float64).reshape(1, 3, 2, 2).requires_grad_()
        input = NLL_LAYOUTS[layout](x)
        target = lib.zeros((input.shape[0], *input.shape[2:]), dtype=lib.long) + 1
        loss = lib.nn.functional.nll_loss(input, target, reduction=reduction).sum()
        try:
            results.append(lib.autograd.grad(loss, x)[0].numpy())
        except RuntimeError as exc:
            results.append(str(exc))
    if isinstance(results[1], str):
        assert results[0] == results[1]
    else:
        np.testing.assert_array_equal(*results)


def test_bilinear_gradients_group_their_products_as_torch_unrolls_them():
    # torch's gradients are _trilinear calls unrolled over the output feature: per feature,
    # input1 @ weight[o] is formed first and the features are added after, so the two 1e300
    # terms of input2's gradient cancel to 0 (another grouping leaves -2)
    arrays = (
        [[1e300, 1.0]],
        [[3.0, 2.0]],
        [[[-5.0, -2.0], [1.0, 1e300]], [[1.0, 1.0], [1e300, -2.0]]],
    )
    results = []
    for lib in (numtorch, torch):
        leaves = [lib.tensor(a, dtype=lib.float64, requires_grad=True) for a in arrays]
        out = lib.nn.functional.bilinear(*leaves)
        grads = lib.autograd.grad(out, leaves, lib.ones_like(out))
        results.append([g.detach().numpy() for g in grads])
    for ours, theirs in zip(*results):
        np.testing.assert_array_equal(ours, theirs)


def _bilinear_without_features(lib, weight_requires_grad):
    x1 = lib.tensor([[1.0, math.inf, 2.0]] * 2, dtype=lib.float64, requires_grad=True)
    x2 = lib.tensor([[math.nan, 1.0, 2.0, -1.0]] * 2, dtype=lib.float64, requires_grad=True)
    weight = lib.ones(0, 3, 4, dtype=lib.float64, requires_grad=weight_requires_grad)
    leaves = (x1, x2, weight) if weight_requires_grad else (x1, x2)
    out = lib.nn.functional.bilinear(x1, x2, weight)
    grads = lib.autograd.grad(out.sum(), leaves, create_graph=True)
    seconds = lib.autograd.grad(sum((g * 1.5).sum() for g in grads), leaves)
    return [(g.requires_grad, g.detach().numpy()) for g in grads], [g.numpy() for g in seconds]


@pytest.mark.parametrize("weight_requires_grad", [False, True])
def test_bilinear_gradients_without_output_features_keep_their_edges(weight_requires_grad):
    # torch's gradients are _trilinear calls on the other two operands even where the weight
    # has no output features: under create_graph they require grad, and are zeros (a NaN or
    # inf operand stays out of them) whose own gradients are zeros
    ours = _bilinear_without_features(numtorch, weight_requires_grad)
    theirs = _bilinear_without_features(torch, weight_requires_grad)
    for (grad_a, a), (grad_b, b) in zip(ours[0], theirs[0]):
        assert grad_a == grad_b is True
        np.testing.assert_array_equal(a, b)
    for a, b in zip(ours[1], theirs[1]):
        np.testing.assert_array_equal(a, b)
