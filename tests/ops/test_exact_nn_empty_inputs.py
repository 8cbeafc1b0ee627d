"""nn ops on inputs with an empty dim, against torch: which dims each op refuses (an empty
batch is fine, an empty channel or spatial dim mostly not), with torch's message, in its
forward or in its backward, and the dtypes and shapes of what it accepts."""

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

CASES = {
    "max_pool1d": (lambda F, x: F.max_pool1d(x, 2), 3),
    "max_pool2d": (lambda F, x: F.max_pool2d(x, 2), 4),
    "max_pool3d": (lambda F, x: F.max_pool3d(x, 2), 5),
    "avg_pool1d": (lambda F, x: F.avg_pool1d(x, 2), 3),
    "avg_pool2d": (lambda F, x: F.avg_pool2d(x, 2), 4),
    "avg_pool3d": (lambda F, x: F.avg_pool3d(x, 2), 5),
    "lp_pool2d": (lambda F, x: F.lp_pool2d(x, 2, 2), 4),
    "adaptive_avg_pool1d": (lambda F, x: F.adaptive_avg_pool1d(x, 3), 3),
    "adaptive_avg_pool2d": (lambda F, x: F.adaptive_avg_pool2d(x, 3), 4),
    "adaptive_max_pool1d": (lambda F, x: F.adaptive_max_pool1d(x, 3), 3),
    "interpolate_area": (lambda F, x: F.interpolate(x, size=3, mode="area"), 4),
    "pad_reflect1d": (lambda F, x: F.pad(x, (1, 1), mode="reflect"), 3),
    "pad_reflect2d": (lambda F, x: F.pad(x, (1, 1, 1, 1), mode="reflect"), 4),
    "pad_reflect3d": (lambda F, x: F.pad(x, (1, 1, 1, 1, 1, 1), mode="reflect"), 5),
    "pixel_shuffle": (lambda F, x: F.pixel_shuffle(x, 2), 4),
    "pixel_unshuffle": (lambda F, x: F.pixel_unshuffle(x, 2), 4),
    "channel_shuffle": (lambda F, x: F.channel_shuffle(x, 2), 4),
}


def _empty_shapes(ndim):
    full = (2, 4, 4, 4, 4)[:ndim]
    for shape in (full, full[1:]):  # batched and unbatched
        for d in range(len(shape)):
            yield shape[:d] + (0,) + shape[d + 1 :]


def _outcome(lib, fn, shape):
    x = lib.ones(shape, dtype=lib.float64, requires_grad=True)
    try:
        y = fn(lib.nn.functional, x)
    except RuntimeError as e:
        return "forward", str(e)
    try:
        (g,) = lib.autograd.grad(y.sum(), x)
    except RuntimeError as e:
        return "backward", str(e)
    return tuple(y.shape), tuple(g.shape)


@pytest.mark.parametrize("name", sorted(CASES))
def test_empty_dims_are_refused_as_torch_refuses_them(name):
    fn, ndim = CASES[name]
    for shape in _empty_shapes(ndim):
        assert _outcome(numtorch, fn, shape) == _outcome(torch, fn, shape), shape


@pytest.mark.parametrize("name", ["conv1d", "conv2d", "conv3d", "conv_transpose3d"])
def test_convolution_of_an_empty_batch_mixes_dtypes(name):
    # torch meets the input's and weight's dtypes only when there are images to convolve
    dims = int(name[-2])
    transposed = "transpose" in name
    found = []
    for lib in (numtorch, torch):
        x = lib.ones((0, 2) + (3,) * dims, requires_grad=True)
        w = lib.ones(((2, 3) if transposed else (3, 2)) + (2,) * dims, dtype=lib.float64)
        w.requires_grad_()
        b = lib.ones(3, dtype=lib.float64, requires_grad=True) if transposed else None
        y = getattr(lib.nn.functional, name)(x, w, b)
        grads = lib.autograd.grad(y.sum(), [x, w] + ([b] if transposed else []))
        found.append(
            [(tuple(t.shape), str(t.dtype).split(".")[-1]) for t in (y, *grads)],
        )
    assert found[0] == found[1]


def test_convolution_of_an_input_without_channels():
    # torch's result then has no channels either; a weight without outputs is refused
    for lib in (numtorch, torch):
        x = lib.ones(2, 0, 4, requires_grad=True)
        w = lib.ones(3, 0, 2, requires_grad=True)
        y = lib.nn.functional.conv1d(x, w)
        assert tuple(y.shape) == (2, 0, 3)
        gx, gw = lib.autograd.grad(y.sum(), [x, w])
        assert (tuple(gx.shape), tuple(gw.shape)) == ((2, 0, 4), (3, 0, 2))
        with pytest.raises(RuntimeError, match="expected weight to be at least 1 at dimension 0"):
            lib.nn.functional.conv1d(lib.ones(2, 2, 4), lib.ones(0, 2, 1))
        np.testing.assert_array_equal(gw.numpy(), np.zeros((3, 0, 2)))


def _empty_batch_norm(lib, shape, dtypes, native):
    x, w, b = (lib.ones(s, dtype=getattr(lib, d)) for s, d in zip((shape, 2, 2), dtypes))
    try:
        if native:
            out = lib.native_batch_norm(x, w, b, None, None, True, 0.1, 1e-5)[0]
        else:
            out = lib.nn.functional.batch_norm(x, None, None, w, b, training=True)
    except RuntimeError:
        return "RuntimeError"
    return str(out.dtype), tuple(out.shape), type(out.grad_fn).__name__


@pytest.mark.parametrize("shape", [(3, 2, 0), (0, 2, 3)])
@pytest.mark.parametrize("dtypes", [("float64", "float64", "float32"), ("float32",) * 3])
@pytest.mark.parametrize("native", [False, True])
def test_batch_norm_of_an_empty_batch_as_torch(shape, dtypes, native):
    # F.batch_norm returns input * weight[0] + bias[0] before any dtype check; the native
    # kernel refuses an empty batch to train on
    torch = pytest.importorskip("torch")
    expected = _empty_batch_norm(torch, shape, dtypes, native)
    assert _empty_batch_norm(numtorch, shape, dtypes, native) == expected


@pytest.mark.parametrize("dims", [1, 2, 3])
def test_adaptive_max_pool_double_backward_of_an_empty_batch(dims):
    # the gather behind the second order reshapes planes of an empty batch
    shapes = []
    for lib in (numtorch, torch):
        x = lib.ones((0, 1) + (4,) * dims, requires_grad=True)
        pool = getattr(lib.nn.functional, f"adaptive_max_pool{dims}d")
        (g,) = lib.autograd.grad(pool(x, 2).pow(2).sum(), x, create_graph=True)
        (g2,) = lib.autograd.grad((g * g).sum(), x)
        shapes.append((tuple(g.shape), tuple(g2.shape)))
    assert shapes[0] == shapes[1]


@pytest.mark.parametrize(
    "name, shape, weight_shape",
    [
        ("conv2d", (0, 2, 3, 3), (4, 2, 2, 2)),
        ("conv2d", (1, 0, 3, 3), (4, 0, 2, 2)),
        ("conv_transpose2d", (0, 2, 3, 3), (2, 4, 2, 2)),
        ("conv1d", (0, 2, 5), (4, 2, 2)),
    ],
)
def test_convolution_double_backward_of_an_empty_input_is_none(name, shape, weight_shape):
    found = []
    for lib in (numtorch, torch):
        x = lib.ones(shape, requires_grad=True)
        w = lib.ones(weight_shape, requires_grad=True)
        y = getattr(lib.nn.functional, name)(x, w)
        go = lib.ones(tuple(y.shape), requires_grad=True)
        gx, gw = lib.autograd.grad(y, (x, w), go, create_graph=True)
        second = lib.autograd.grad(gx.sum() + gw.sum(), (x, w, go), allow_unused=True)
        found.append([None if t is None else tuple(t.shape) for t in second])
    assert found[0] == found[1] == [None, None, None]


@pytest.mark.parametrize("shape", [(1, 4, 2, 0), (1, 4, 0, 2), (0, 4, 2, 2), (1, 0, 2, 2)])
def test_conv_transpose_of_an_empty_spatial_dim_raises_as_torch(shape):
    # torch's convolution takes an empty input only where the batch or channels are empty
    found = []
    for lib in (numtorch, torch):
        weight = lib.ones(shape[1], 2, 1, 1)
        try:
            found.append(tuple(lib.nn.functional.conv_transpose2d(lib.ones(shape), weight).shape))
        except RuntimeError as exc:
            found.append(str(exc)[:50])
    assert found[0] == found[1]


@pytest.mark.parametrize("dims", [1, 2, 3])
def test_conv_transpose_without_output_channels_raises_as_torch(dims):
    # fuzz seeds 83920174 and 98765432: a weight of shape (C_in, 0, k...) ran (3-d leaked a
    # ZeroDivisionError); torch's slow kernels refuse an empty weight
    found = []
    for lib in (numtorch, torch):
        conv = getattr(lib.nn.functional, f"conv_transpose{dims}d")
        try:
            found.append(
                tuple(conv(lib.ones(1, 2, *[4] * dims), lib.ones(2, 0, *[2] * dims)).shape)
            )
        except RuntimeError as exc:
            found.append(str(exc))
    assert found[0] == found[1]


@pytest.mark.parametrize("shape", [(0, 4, 3), (0, 4), (0, 4, 2, 2)])
def test_group_norm_of_an_empty_batch_as_torch(shape):
    found = []
    for lib in (numtorch, torch):
        x = lib.ones(shape, requires_grad=True)
        w, b = lib.ones(4, requires_grad=True), lib.ones(4, requires_grad=True)
        y = lib.nn.functional.group_norm(x, 2, w, b)
        grads = lib.autograd.grad(y.sum(), (x, w, b))
        found.append((tuple(y.shape), [(tuple(g.shape), g.sum().item()) for g in grads]))
    assert found[0] == found[1]


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("empty", ["weight", "bias"])
@pytest.mark.parametrize("layout", ["contiguous", "strided"])
def test_native_batch_norm_reads_an_empty_weight_or_bias_as_torch_does(training, empty, layout):
    # an empty weight or bias has no data pointer: torch's kernel for dense layouts reads it
    # as absent, its kernel for other layouts broadcasts it and raises
    rng = np.random.default_rng(3)
    x, w, b = rng.standard_normal((3, 2, 2)), np.array([2.0, 3.0]), np.array([0.5, -1.0])
    results = []
    for lib in (numtorch, torch):
        xs = lib.tensor(x)
        if layout == "strided":
            xs = xs.transpose(0, 2).contiguous().transpose(0, 2)
        params = {"weight": lib.tensor(w), "bias": lib.tensor(b)}
        params[empty] = lib.empty(0, dtype=lib.float64)
        mean, var = lib.tensor([0.1, -0.2]).double(), lib.tensor([0.5, 2.0]).double()
        try:
            out = lib.native_batch_norm(xs, *params.values(), mean, var, training, 0.1, 1e-5)
        except RuntimeError as exc:
            results.append(str(exc))
            continue
        results.append((out[0].numpy(), mean.numpy(), [tuple(t.shape) for t in out]))
    if isinstance(results[1], str):
        assert results[0] == results[1]
        return
    (out, mean, shapes), (expected, expected_mean, expected_shapes) = results
    np.testing.assert_allclose(out, expected, rtol=1e-12)
    np.testing.assert_allclose(mean, expected_mean, rtol=1e-12)
    assert shapes == expected_shapes


def test_native_batch_norm_refuses_a_gradient_for_an_empty_bias_as_torch_does():
    for lib in (numtorch, torch):
        bias = lib.empty(0, dtype=lib.float64, requires_grad=True)
        x = lib.randn(3, 2, dtype=lib.float64)
        out = lib.native_batch_norm(x, None, bias, None, None, True, 0.1, 1e-5)[0]
        message = "returned an invalid gradient at index 2 - got \\[2\\] but expected shape"
        with pytest.raises(RuntimeError, match=message):
            out.sum().backward()


@pytest.mark.parametrize("dims", [2, 3])
@pytest.mark.parametrize("empty", [0, 1, 2])
@pytest.mark.parametrize("batched", [True, False])
def test_fractional_max_pool_on_an_empty_dim_matches_torch(dims, empty, batched):
    # an empty batch pools to an empty result; torch refuses any other empty dim (dim 0 of
    # an unbatched input included: its check starts at dim 1)
    shape = [2, 2] + [4] * dims if batched else [2] + [4] * dims
    shape[empty] = 0
    found = []
    for lib in (numtorch, torch):
        x = lib.zeros(shape, dtype=lib.float64, requires_grad=True)
        samples = lib.full((shape[0] if batched else 1, shape[-dims - 1], dims), 0.5).double()
        pool = getattr(lib.nn.functional, f"fractional_max_pool{dims}d")
        try:
            out = pool(x, 2, output_size=3 if dims == 2 else (3, 2, 3), _random_samples=samples)
            out.sum().backward()
            found.append((tuple(out.shape), tuple(x.grad.shape)))
        except RuntimeError as exc:
            found.append(str(exc))
    assert found[0] == found[1]


@pytest.mark.parametrize(
    "shape, pad",
    [((0, 3), (1, 2, -1, 1)), ((2, 0), (1, -1)), ((0, 3), (-1, -1)), ((1, 3), (0, 0, -1, -1)),
     ((1, 3), (0, 0, 1, -3)), ((2, 3), (0, 0, -1, -1))],
)  # fmt: skip
def test_constant_pad_crops_in_torchs_order(shape, pad):
    # torch narrows by each negative pad in turn: cropping past what is left is an error
    found = []
    for lib in (numtorch, torch):
        try:
            found.append(tuple(lib.nn.functional.pad(lib.zeros(shape), pad, value=0.5).shape))
        except RuntimeError as exc:
            found.append(str(exc))
    assert found[0] == found[1]


@pytest.mark.parametrize(
    "name, shape, weight",
    [("conv1d", (1, 2, 0), (3, 2, 1)), ("conv1d", (2, 0), (3, 2, 1)),
     ("conv2d", (1, 2, 5, 0), (3, 2, 3, 1)), ("conv2d", (0, 2, 5, 0), (3, 2, 3, 1)),
     ("conv3d", (1, 2, 1, 1, 0), (3, 2, 1, 1, 1))],
)  # fmt: skip
def test_convolution_over_an_empty_spatial_dim_the_padding_fills(name, shape, weight):
    # the padded input fits the kernel, but torch only takes an empty batch or channel dim
    found = []
    for lib in (numtorch, torch):
        conv = getattr(lib.nn.functional, name)
        try:
            found.append(tuple(conv(lib.zeros(shape), lib.zeros(weight), padding=1).shape))
        except RuntimeError as exc:
            found.append(str(exc))
    assert found[0] == found[1]


@pytest.mark.parametrize(
    "name, shape, weight, options",
    [("conv1d", (0, 2, 5), (3, 2, 0), {}), ("conv2d", (0, 2, 5, 5), (3, 2, 2, 0), {}),
     ("conv3d", (0, 2, 5, 5, 5), (3, 2, 0, 0, 0), {}), ("conv1d", (2, 0, 5), (3, 0, 0), {}),
     ("conv2d", (2, 0, 5, 5), (3, 0, 0, 2), {}), ("conv1d", (0, 2, 0), (3, 2, 0), {}),
     ("conv_transpose1d", (0, 2, 5), (2, 0, 2), {}),
     ("conv_transpose1d", (0, 2, 5), (2, 3, 0), {"output_padding": 1}),
     ("conv_transpose1d", (1, 2, 5), (2, 3, 0), {"output_padding": 1}),
     ("conv_transpose1d", (1, 2, 0), (2, 3, 2), {"output_padding": 1}),
     ("conv1d", (2, 2, 5), (0, 2, 0), {}), ("conv1d", (2, 3, 5), (3, 2, 0), {}),
     ("conv1d", (2, 2, 5), (4, 2, 0), {"groups": 3}), ("conv1d", (2, 2, 5), (3, 2, 0), {})],
)  # fmt: skip
def test_convolution_with_an_empty_weight_raises_where_torch_does(name, shape, weight, options):
    # the shape checks come first; an input without images or channels then takes torch's
    # empty path, which reads the weight's first element; other inputs meet the kernel's
    # check of the kernel's sizes (or, for a batch of several, oneDNN's refusal)
    found = []
    for lib in (numtorch, torch):
        conv = getattr(lib.nn.functional, name)
        try:
            found.append(tuple(conv(lib.zeros(shape), lib.zeros(weight), **options).shape))
        except IndexError as exc:
            found.append(str(exc))
        except RuntimeError as exc:
            found.append("kernel size" in str(exc) or "primitive" in str(exc) or str(exc))
    assert found[0] == found[1]


@pytest.mark.parametrize("padding_idx", [None, 0, -1])
@pytest.mark.parametrize("shape", [(0,), (2, 0)])
def test_embedding_of_no_indices_has_a_zero_weight_gradient(shape, padding_idx):
    grads = []
    for lib in (numtorch, torch):
        w = lib.ones(3, 2, requires_grad=True)
        y = lib.nn.functional.embedding(lib.zeros(shape, dtype=lib.long), w, padding_idx)
        (g,) = lib.autograd.grad(y.sum(), w)
        grads.append((tuple(y.shape), g.tolist()))
    assert grads[0] == grads[1]


@pytest.mark.parametrize("shape", [(1, 2), (1, 2, 1), (1, 3)])
def test_group_norm_refuses_one_value_per_group_before_divisibility(shape):
    for lib in (numtorch, torch):
        with pytest.raises(ValueError, match="Expected more than 1 value per channel"):
            lib.nn.functional.group_norm(lib.ones(shape), 2)


def test_layer_norm_over_an_empty_normalized_shape():
    found = []
    for lib in (numtorch, torch):
        x, w = lib.ones(3, 0, requires_grad=True), lib.ones(0, requires_grad=True)
        y = lib.nn.functional.layer_norm(x, (0,), w, w * 2)
        grads = lib.autograd.grad(y.sum(), [x, w])
        found.append((tuple(y.shape), y.grad_fn.name(), [tuple(g.shape) for g in grads]))
    assert found[0] == found[1]
