"""nn ops on inputs holding inf or NaN, against torch: which outputs and gradient elements
become non-finite (an element no window reaches must stay finite)."""

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("name", ["conv1d", "conv2d", "conv3d", "conv_transpose2d"])
@pytest.mark.parametrize("where", ["input", "weight"])
def test_convolution_gradients_keep_unreached_elements_finite(name, where):
    dims = int(name[-2])
    rng = np.random.default_rng(dims)
    x = rng.standard_normal((1, 2) + (3,) * dims)
    w = rng.standard_normal((2, 2) + (2,) * dims)
    target = x if where == "input" else w
    target.reshape(-1)[1] = np.inf
    target.reshape(-1)[-1] = -np.inf
    results = []
    for lib in (numtorch, torch):
        xs = lib.tensor(x, requires_grad=True)
        ws = lib.tensor(w, requires_grad=True)
        y = getattr(lib.nn.functional, name)(xs, ws)
        g = lib.tensor(np.random.default_rng(7).standard_normal(tuple(y.shape)))
        grads = lib.autograd.grad(y, [xs, ws], g)
        results.append([t.detach().numpy() for t in (y, *grads)])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12, equal_nan=True)


@pytest.mark.parametrize("name", ["conv2d", "conv_transpose2d"])
@pytest.mark.parametrize("padding", [0, 1])
def test_convolution_gradients_with_a_weight_larger_than_the_input(name, padding):
    # the input gradient then tests its result for inf and NaN rather than the weight
    rng = np.random.default_rng(5)
    x = rng.standard_normal((1, 2, 3, 3))
    w = rng.standard_normal((2, 2, 3, 3)) if name == "conv2d" else rng.standard_normal((2, 8, 3, 3))
    w.reshape(-1)[[1, -1]] = (np.inf, -np.inf)
    results = []
    for lib in (numtorch, torch):
        xs = lib.tensor(x, requires_grad=True)
        ws = lib.tensor(w, requires_grad=True)
        y = getattr(lib.nn.functional, name)(xs, ws, padding=padding)
        g = lib.tensor(np.random.default_rng(7).standard_normal(tuple(y.shape)))
        grads = lib.autograd.grad(y, [xs, ws], g)
        results.append([t.detach().numpy() for t in (y, *grads)])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12, equal_nan=True)


@pytest.mark.parametrize("mode", ["linear", "bilinear", "trilinear", "bicubic"])
@pytest.mark.parametrize("align_corners", [False, True])
def test_interpolation_of_infinite_values_makes_torch_nans(mode, align_corners):
    # an axis whose size is kept still reads each element twice (weights 1 and 0) in torch
    dims = {"linear": 1, "bilinear": 2, "trilinear": 3, "bicubic": 2}[mode]
    rng = np.random.default_rng(dims)
    x = rng.standard_normal((1, 2) + (3,) * dims)
    x.reshape(-1)[[1, 4]] = (np.inf, -np.inf)
    for size in [(3,) * dims, (3,) * (dims - 1) + (5,), (4,) * dims]:
        results = []
        for lib in (numtorch, torch):
            xs = lib.tensor(x, requires_grad=True)
            y = lib.nn.functional.interpolate(xs, size=size, mode=mode, align_corners=align_corners)
            (g,) = lib.autograd.grad(y, xs, lib.ones_like(y))
            results.append((y.detach().numpy(), g.numpy()))
        for ours, theirs in zip(*results):
            np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12, equal_nan=True)


def _attention(lib, q, k, v, dtype, mask, **options):
    tensors = [lib.tensor(a, dtype=getattr(lib, dtype), requires_grad=True) for a in (q, k, v)]
    if mask is not None:
        options["attn_mask"] = lib.tensor(mask)
    out = lib.nn.functional.scaled_dot_product_attention(*tensors, **options)
    weights = lib.tensor(np.linspace(-1, 1, out.numel()).reshape(out.shape), dtype=out.dtype)
    grads = lib.autograd.grad((out * weights).sum(), tensors)
    return [t.detach().numpy() for t in (out, *grads)]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kind", ["causal", "mask", "plain"])
def test_flash_attention_rows_with_nan_or_inf_scores_as_torch(dtype, kind):
    # torch's CPU kernel skips a NaN score in its per-key maximum (a row of only NaN and -inf
    # gives zeros), writes -inf over causal scores (+inf there does not make NaN) and
    # recomputes backward's probabilities from the forward's logsumexp
    rng = np.random.default_rng(3)
    mask = rng.random((3, 4)) > 0.3 if kind == "mask" else None
    options = {"is_causal": True, "scale": 0.7} if kind == "causal" else {}
    for trial in range(40):
        q, k, v = (rng.standard_normal((2, 1, n, 2)) for n in (3, 4, 4))
        target = (q, k, v)[trial % 3]
        target.reshape(-1)[rng.integers(target.size, size=2)] = rng.choice(
            [np.nan, np.inf, -np.inf], 2
        )
        ours = _attention(numtorch, q, k, v, dtype, mask, **options)
        theirs = _attention(torch, q, k, v, dtype, mask, **options)
        for a, b in zip(ours, theirs):
            np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5, equal_nan=True)


def test_safe_softmax_of_a_row_holding_inf_is_nan_throughout():
    x = [[1.0, np.inf, 2.0], [-np.inf] * 3, [1.0, np.nan, 0.0]]
    ours = numtorch._safe_softmax(numtorch.tensor(x), -1).numpy()
    np.testing.assert_array_equal(ours, torch._safe_softmax(torch.tensor(x), -1).numpy())
    assert np.isnan(ours[0]).all() and (ours[1] == 0).all()


@pytest.mark.parametrize("name", ["hardshrink", "softshrink"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("size", [7, 9, 17, 31, 40])
def test_shrink_gradient_at_nan_follows_torchs_simd_lanes(name, dtype, size):
    # torch's vector mask drops the gradient at NaN, its scalar tail passes it on: which
    # elements fall in vectors depends on the SIMD width (Note [SIMD lanes and NaN])
    values = np.full(size, np.nan)
    values[::3] = 0.7
    grads = []
    for lib in (numtorch, torch):
        x = lib.tensor(values, dtype=getattr(lib, dtype), requires_grad=True)
        (g,) = lib.autograd.grad(getattr(lib.nn.functional, name)(x).sum(), x)
        grads.append(g.numpy())
    np.testing.assert_array_equal(*grads)


@pytest.mark.parametrize("name", ["hardshrink", "softshrink", "hardtanh"])
@pytest.mark.parametrize("shapes", [((1,), (33,)), ((3, 1), (3, 17)), ((1, 20), (3, 20))])
def test_gradient_at_nan_of_an_expanded_input_follows_torchs_simd_lanes(name, shapes):
    # an expanded input keeps the result's logical order; broadcast along the inner dim it
    # is read as a scalar, in vectors too (Note [SIMD lanes and NaN])
    source, shape = shapes
    values = np.resize([np.nan, 0.7, np.nan, -0.2], source)
    weights = np.arange(1.0, 1.0 + np.prod(shape)).reshape(shape)
    grads = []
    for lib in (numtorch, torch):
        x = lib.tensor(values, requires_grad=True)
        out = getattr(lib.nn.functional, name)(x.expand(*shape))
        (g,) = lib.autograd.grad((out * lib.tensor(weights, dtype=out.dtype)).sum(), x)
        grads.append(g.numpy())
    np.testing.assert_array_equal(*grads)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize(
    "layout",
    ["contiguous", "transposed", "strided rows", "strided", "broadcast rows", "broadcast columns"],
)
@pytest.mark.parametrize("rows", [3, 9, 17, 40])
def test_softshrink_zero_signs_follow_torchs_simd_lanes(dtype, layout, rows):
    # the scalar loop gives input * 0 inside the band (-0.0 from a negative input), the
    # vector loop +0.0; the iterator's inner loop is a row of adjacent elements, so a
    # strided or expanded layout changes which elements fall in vectors (Note [SIMD lanes
    # and NaN])
    values = np.resize([-0.3, 0.3, -0.0, 0.0, -2.0, -0.5, 0.5, 2.0, -0.1], (rows, 6))
    signs = []
    for lib in (numtorch, torch):
        x = lib.tensor(values, dtype=getattr(lib, dtype))
        x = {
            "contiguous": x,
            "transposed": x.t(),
            "strided rows": x[::2],
            "strided": x[:, ::2],
            "broadcast rows": x[:1].expand(rows, 6),
            "broadcast columns": x[:, :1].expand(rows, 17),
        }[layout]
        signs.append(np.signbit(lib.nn.functional.softshrink(x, 0.5).numpy()))
    np.testing.assert_array_equal(*signs)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("size", [3, 9, 17, 40])
def test_softshrink_zero_sign_follows_torchs_simd_lanes(dtype, size):
    # inside the band torch's scalar tail gives input * 0 (-0.0 from a negative input), its
    # vectors +0.0: which elements fall in vectors depends on the SIMD width
    values = np.resize([-0.5, 0.25, -0.0, -2.0, 0.0], size)
    outs = []
    for lib in (numtorch, torch):
        out = lib.nn.functional.softshrink(lib.tensor(values, dtype=getattr(lib, dtype)), 1.0)
        outs.append(out.numpy())
    np.testing.assert_array_equal(*outs)
    np.testing.assert_array_equal(*(np.signbit(o) for o in outs))


@pytest.mark.parametrize("reduction", ["none", "sum", "mean"])
@pytest.mark.parametrize("weight", [None, [1.0, 0.0, 2.0, 1.0]])
def test_nll_loss_skips_ignored_targets_whose_input_is_nan(reduction, weight):
    results = []
    for lib in (numtorch, torch):
        x = lib.tensor(
            [[np.nan, 1.0, 2.0, 3.0], [0.5, np.nan, np.inf, 1.0], [1.0, 2.0, np.nan, 0.0]],
            requires_grad=True,
        )
        options = {} if weight is None else {"weight": lib.tensor(weight)}
        y = lib.nn.functional.nll_loss(
            x, lib.tensor([0, 2, 1]), reduction=reduction, ignore_index=2, **options
        )
        grad_out = np.array([np.nan, 1.0, np.nan]) if reduction == "none" else np.array(2.0)
        (g,) = lib.autograd.grad(y, x, lib.tensor(grad_out))
        results.append((y.detach().numpy(), g.numpy()))
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-6, equal_nan=True)


def _batch_norm_second_order(lib, arrays, training):
    x, w, b = (lib.tensor(a, requires_grad=True) for a in arrays)
    stats = (lib.tensor(np.array(v)) for v in ([0.1, -0.2], [0.5, 2.0]))
    stats = (None, None) if training else tuple(stats)
    y = lib.batch_norm(x, w, b, *stats, training, 0.1, 1e-5, False)
    weights = lib.tensor(np.linspace(-1, 1, y.numel()).reshape(tuple(y.shape)))
    grads = lib.autograd.grad((y * weights).sum(), (x, w, b), create_graph=True)
    loss = sum(
        (g * lib.tensor(np.linspace(0.5, 1.5, g.numel()).reshape(tuple(g.shape)))).sum()
        for g in grads
        if g.requires_grad
    )
    second = lib.autograd.grad(loss, (x, w, b), allow_unused=True)
    return [None if t is None else t.detach().numpy() for t in (*grads, *second)]


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("where", [0, 1, 2])
def test_batch_norm_second_order_with_nonfinite_values_as_torch(training, where):
    # torch differentiates batch norm's gradients with its own formula, term by term: an
    # infinite weight or input stays inf where a vector-Jacobian product makes NaN
    rng = np.random.default_rng(where)
    for value in (np.nan, np.inf, -np.inf, 0.0) * 4:
        arrays = [rng.standard_normal((3, 2, 2)), rng.standard_normal(2), rng.standard_normal(2)]
        arrays[where].reshape(-1)[rng.integers(arrays[where].size)] = value
        ours = _batch_norm_second_order(numtorch, arrays, training)
        theirs = _batch_norm_second_order(torch, arrays, training)
        for a, b in zip(ours, theirs):
            assert (a is None) == (b is None)
            if a is not None:
                np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-9, equal_nan=True)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_soft_margin_loss_overflowing_exp_gives_torchs_inf_loss_and_nan_gradients(dtype):
    # torch computes log1p(exp(-y x)) and -y z / (1 + z) unguarded: z = inf makes the loss
    # inf and both gradients NaN, where a stable softplus would stay finite
    x = np.array([np.inf, -np.inf, 2.0, -800.0, 800.0, -95.0, 0.0, np.nan])
    y = np.array([1.0, 1.0, -1.0, 1.0, -1.0, 1.0, 0.0, 1.0])
    results = []
    for lib in (numtorch, torch):
        xs = lib.tensor(x, dtype=getattr(lib, dtype), requires_grad=True)
        ys = lib.tensor(y, dtype=getattr(lib, dtype))
        loss = lib.nn.functional.soft_margin_loss(xs, ys, reduction="none")
        (g,) = lib.autograd.grad(loss.sum(), xs, create_graph=True)
        (g2,) = lib.autograd.grad(g.sum(), xs)
        results.append([t.detach().numpy() for t in (loss, g, g2)])
    rtol = 1e-6 if dtype == "float32" else 1e-12
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=rtol, atol=0, equal_nan=True)


@pytest.mark.parametrize("inplace", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("size", [7, 8, 9, 17, 40])
def test_hardtanh_gradient_at_nan_follows_torchs_simd_lanes(inplace, dtype, size):
    # Note [SIMD lanes and NaN]: the vector mask zeroes the gradient at NaN, the tail keeps it
    values = np.full(size, np.nan)
    values[::3] = 0.7
    grads = []
    for lib in (numtorch, torch):
        x = lib.tensor(values, dtype=getattr(lib, dtype), requires_grad=True)
        y = lib.nn.functional.hardtanh(x * 1, -1.0, 3.0, inplace=inplace)
        (g,) = lib.autograd.grad(y.sum(), x)
        grads.append(g.numpy())
    np.testing.assert_array_equal(*grads)


@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
@pytest.mark.parametrize("where", ["input", "grad"])
@pytest.mark.parametrize("sizes", [((5, 7), (2, 3)), ((8, 8), (3, 3)), ((4, 9), (4, 4))])
def test_antialiased_interpolation_reads_only_its_windows(mode, where, sizes):
    # torch's antialiased kernel loops over each output's window only (and its forward
    # copies an axis it keeps): a NaN or inf outside a window must not leak into it
    (in_size, out_size) = sizes
    x = np.random.default_rng(1).standard_normal((1, 1) + in_size)
    g = np.random.default_rng(2).standard_normal((1, 1) + out_size)
    if where == "input":
        x[0, 0, -1, -1], x[0, 0, 0, -1] = np.inf, np.nan
    else:
        g[0, 0, -1, -1], g[0, 0, 0, 0] = np.nan, np.inf
    results = []
    for lib in (numtorch, torch):
        xs = lib.tensor(x, requires_grad=True)
        y = lib.nn.functional.interpolate(xs, size=out_size, mode=mode, antialias=True)
        (gx,) = lib.autograd.grad(y, xs, lib.tensor(g))
        results.append([y.detach().numpy(), gx.numpy()])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12, equal_nan=True)


@pytest.mark.parametrize("zero_infinity", [False, True])
def test_ctc_loss_gradient_past_a_sequences_length_is_zero_for_a_nan_grad_output(zero_infinity):
    # torch zeroes the frames past input_length after multiplying by grad_output
    x = np.random.default_rng(0).standard_normal((5, 2, 4))
    grads = []
    for lib in (numtorch, torch):
        lp = lib.tensor(x).log_softmax(2).detach().requires_grad_()
        targets = lib.tensor([[1, 2, 2], [2, 1, 0]])
        loss = lib.nn.functional.ctc_loss(
            lp, targets, [5, 4], [3, 1], reduction="none", zero_infinity=zero_infinity
        )
        loss.backward(lib.tensor([1.0, float("nan")], dtype=lib.float64))
        grads.append(lp.grad.numpy())
    assert (grads[0][4, 1] == 0).all()
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-10, equal_nan=True)


@pytest.mark.parametrize("p", [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, float("inf")])
def test_pdist_gradient_follows_torchs_kernels_at_zero_distance_and_ties(p):
    # a pair at distance 0 gives 0 whatever its grad (inf here) but for p = 1 and inf; p = inf
    # gives every element reaching the distance the whole grad
    x = np.array([[1.0, 2.0], [1.0, 2.0], [0.0, 1.0], [0.0, 1.5]])
    grads = []
    for lib in (numtorch, torch):
        a = lib.tensor(x, requires_grad=True)
        lib.nn.functional.pdist(a, p).backward(lib.tensor([np.inf, 1.0, 3.0, 2.0, -1.0, 3.0]))
        grads.append(a.grad.numpy())
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-12, equal_nan=True)


@pytest.mark.parametrize("bounds", [(0.2, 0.2), (0.1, 0.3)])
def test_rrelu_training_gradient_reads_the_drawn_slopes_even_for_equal_bounds(bounds):
    # a NaN input draws no slope (NaN <= 0 is false): its slope is 1, also when lower == upper
    x = [float("nan"), -1.0, 2.0, 0.0, -0.0, float("-inf")]
    results = []
    for lib in (numtorch, torch):
        xs = lib.tensor(x, requires_grad=True)
        lib.manual_seed(0)
        y = lib.nn.functional.rrelu(xs, *bounds, training=True)
        (g,) = lib.autograd.grad(y, xs, lib.ones(6), create_graph=True)
        (gg,) = lib.autograd.grad(g.sum(), xs, allow_unused=True, materialize_grads=True)
        results.append([t.detach().numpy() for t in (y, g, gg)])
    for ours, theirs in zip(*results):
        np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("mode", ["bicubic", "bilinear"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [False, True])
def test_grid_sample_grid_gradient_of_an_infinite_output_gradient(
    mode, padding_mode, align_corners
):
    # torch's bicubic kernel sums value * grad * factors per tap: a zero value or factor
    # meeting an infinite gradient is NaN there; bilinear multiplies the summed slope
    rng = np.random.default_rng(3)
    x = rng.standard_normal((1, 2, 3, 4))
    x[0, 0, 1, 1] = 0.0
    grid = rng.uniform(-1.2, 1.2, (1, 3, 2, 2))
    grid[0, 0, 0] = 0.0
    g = rng.standard_normal((1, 2, 3, 2))
    g[0, 0, 0, 0], g[0, 1, 1, 1], g[0, 1, 2, 0] = np.inf, -np.inf, np.nan
    results = []
    for lib in (numtorch, torch):
        xs, grids = lib.tensor(x, requires_grad=True), lib.tensor(grid, requires_grad=True)
        y = lib.nn.functional.grid_sample(
            xs, grids, mode=mode, padding_mode=padding_mode, align_corners=align_corners
        )
        results.append([t.numpy() for t in lib.autograd.grad(y, [xs, grids], lib.tensor(g))])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
def test_trilinear_grid_gradient_of_an_infinite_output_gradient(padding_mode):
    # torch's 3-D kernel adds value * factors * grad per in-bounds corner: an infinite
    # gradient meeting corner values of both signs is NaN, not the summed slope times inf
    rng = np.random.default_rng(5)
    x = rng.standard_normal((1, 2, 2, 3, 3))
    grid = rng.uniform(-1.2, 1.2, (1, 2, 2, 2, 3))
    g = rng.standard_normal((1, 2, 2, 2, 2))
    g[0, 0, 0, 0, 0], g[0, 1, 1, 1, 1], g[0, 1, 0, 1, 0] = -np.inf, np.inf, np.nan
    results = []
    for lib in (numtorch, torch):
        xs, grids = lib.tensor(x, requires_grad=True), lib.tensor(grid, requires_grad=True)
        y = lib.nn.functional.grid_sample(xs, grids, padding_mode=padding_mode)
        results.append([t.numpy() for t in lib.autograd.grad(y, [xs, grids], lib.tensor(g))])
    assert np.isnan(results[1][1]).sum() > np.isnan(g).sum()  # the case this is about
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize(
    "args",
    [
        {"kernel_size": 2, "stride": 1, "padding": 1},
        {"kernel_size": 2, "stride": 2, "padding": 1},
        {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True},
        {"kernel_size": 2, "stride": 1, "padding": 1, "dilation": 2},
    ],
)
def test_max_pool_of_a_window_of_minus_inf_points_inside_the_input(args):
    # the padding ties a window whose elements are all -inf: torch starts at the first
    # element inside the window and keeps it, and its gradient lands there
    inf = float("inf")
    values = [[[[-inf, 1.0, -inf], [2.0, -inf, -inf], [-inf, -inf, -inf]]]]
    results = []
    for lib in (numtorch, torch):
        x = lib.tensor(values, requires_grad=True)
        out, indices = lib.nn.functional.max_pool2d(x, return_indices=True, **args)
        (grad,) = lib.autograd.grad(out.sum(), x)
        results.append((indices.tolist(), grad.tolist()))
    assert results[0] == results[1]


@pytest.mark.parametrize(
    "shape, args",
    [
        # dilation steps every window over the one column: no window reads the input
        ((1, 1, 5, 1), {"kernel_size": (2, 3), "padding": 1, "dilation": 2, "ceil_mode": True}),
        ((2, 1, 5, 1), {"kernel_size": (2, 3), "padding": 1, "dilation": 2, "ceil_mode": True}),
        ((1, 3), {"kernel_size": 3, "padding": 1, "dilation": 2, "ceil_mode": True}),
    ],
)
def test_max_pool_window_of_padding_only_keeps_torchs_start_and_routes_its_gradient(shape, args):
    # a window past the input in some dim holds -inf padding only: torch's index is its
    # start (the first read at or past the left padding), which lies in the plane here, and
    # its backward adds the gradient there, its double backward reads there
    rng = np.random.default_rng(0)
    values, seed = rng.standard_normal(shape), rng.standard_normal(shape)
    results = []
    for lib in (numtorch, torch):
        x = lib.tensor(values, requires_grad=True)
        pool = lib.nn.functional.max_pool2d if len(shape) == 4 else lib.nn.functional.max_pool1d
        out, indices = pool(x, return_indices=True, **args)
        weights = lib.linspace(-1.0, 2.0, out.numel(), dtype=lib.float64).reshape(out.shape)
        (grad,) = lib.autograd.grad((out * weights).sum(), x, create_graph=True)
        (grad2,) = lib.autograd.grad((grad * lib.tensor(seed)).sum(), x, allow_unused=True)
        results.append((indices.tolist(), grad.tolist(), None if grad2 is None else grad2.tolist()))
    assert results[0] == results[1]


@pytest.mark.parametrize("dim", [0, 2])
@pytest.mark.parametrize("create_graph", [False, True])
def test_weight_norm_gradient_of_an_infinite_g_follows_torchs_two_backwards(dim, create_graph):
    # without create_graph torch's kernel forms a grad - b v: inf * 0 is NaN at a zero of v
    # (Note [Weight norm's two backwards]); with it, g/|v| (grad - ...) keeps inf
    rng = np.random.default_rng(3)
    v = rng.standard_normal((3, 2, 4))
    v[0, 0, 0] = v[2, 1, 3] = 0.0
    g = np.abs(rng.standard_normal((3, 1, 1) if dim == 0 else (1, 1, 4)))
    g.reshape(-1)[0] = np.inf
    results = []
    for lib in (numtorch, torch):
        vs, gs = lib.tensor(v, requires_grad=True), lib.tensor(g, requires_grad=True)
        y = lib._weight_norm(vs, gs, dim)
        w = lib.tensor(np.random.default_rng(7).standard_normal(tuple(y.shape)))
        grads = lib.autograd.grad(y, [vs, gs], w, create_graph=create_graph)
        results.append([t.detach().numpy() for t in (y, *grads)])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12, equal_nan=True)


@pytest.mark.parametrize("dtype", ["float32", "bfloat16", "float64", "float16"])
@pytest.mark.parametrize(
    "make", ["ones(1)", "ones(2)", "ones(9)", "ones(8)[::2]", "ones(4, 2).t()", "ones(())"]
)
def test_gelu_of_infinity_as_torchs_vector_and_scalar_loops(dtype, make):
    # torch's vectorized float erf-gelu gives NaN at +inf, its scalar loop (a lone element,
    # strided inputs) inf; double and half keep inf
    def run(lib):
        x = eval(f"lib.{make}").to(getattr(lib, dtype)) * float("inf")
        return lib.nn.functional.gelu(x).to(lib.float64).reshape(-1).tolist()

    np.testing.assert_array_equal(run(numtorch), run(torch))


@pytest.mark.parametrize("padding_mode", ["border", "reflection"])
@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("align_corners", [False, True])
def test_grid_sample_clips_a_non_finite_location_to_zero(padding_mode, mode, align_corners):
    # torch's clip takes a NaN location to 0 and an infinite one to the edge, point by
    # point: no NaN reaches the other points (its backward there is undefined: not compared)
    inf, nan = float("inf"), float("nan")
    grid = [[[[nan, 0.2], [inf, -inf], [0.3, nan], [-inf, 0.5], [inf, inf], [0.1, -0.4]]]]
    results = []
    for lib in (numtorch, torch):
        x = lib.arange(6.0, dtype=lib.float64).reshape(1, 1, 2, 3).requires_grad_()
        g = lib.tensor(grid, dtype=lib.float64, requires_grad=True)
        out = lib.nn.functional.grid_sample(
            x, g, mode=mode, padding_mode=padding_mode, align_corners=align_corners
        )
        results.append(out.detach().numpy())
    np.testing.assert_allclose(results[0], results[1], rtol=1e-12, atol=0)
