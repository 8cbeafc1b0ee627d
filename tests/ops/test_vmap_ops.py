"""Every op sample under ``vmap``: the batching rule against a loop over samples, and
against ``torch.vmap`` (docs/vmap.md).

A batch is three copies of a sample's floating-point inputs, scaled by 1, 0.9 and 0.8 (a
positive scale keeps domains: positive, sorted, positive-definite inputs stay so). Each
sample runs with every such input batched at dim 0, batched at its last dim, and with only
the first one batched (the others shared by all samples).
"""

from __future__ import annotations

import numpy as np
import pytest
from test_ops import CASES

import numtorch
from numtorch._core.op import REGISTRY
from numtorch.func import batching
from numtorch.utils._pytree import tree_flatten

SCALES = (1.0, 0.9, 0.8)

# Entries without a batching rule: vmap runs them once per sample. The list may only shrink
# (test_rule_less_entries_are_listed fails both for an unlisted entry and a listed one that
# gained a rule).
NO_RULE = {
    # LAPACK's sytrs, one matrix and its pivots at a time
    "linalg_ldl_solve",
    # sparse tensors are not batched (their conversions and compressed constructors too)
    "sparse_compressed_tensor",
    "sparse_gather_bsc",
    "sparse_gather_bsr",
    "sparse_gather_csc",
    "sparse_gather_csr",
    "sparse_gather_dims",
    "sparse_to_bsc",
    "sparse_to_bsr",
    "sparse_to_csc",
    "sparse_to_csr",
    "sparse_to_sparse",
    "sparse_log_softmax_values",
    "sparse_softmax_values",
    # the random samples are per plane of the unbatched input
    "fractional_max_pool2d",
    "fractional_max_pool2d_backward",
    "fractional_max_pool2d_gather",
    "fractional_max_pool3d",
    "fractional_max_pool3d_backward",
    "fractional_max_pool3d_gather",
    "_cdist_backward",
    "_ctc_loss_backward",
    "geqrf",
    "linalg_lstsq",
    "mkldnn_rnn_layer",
    "_bincount",
    "_ctc_loss",
    "_embedding_bag",
    "_embedding_bag_backward",
    "_embedding_bag_per_sample_weights_backward",
    "_histc",
    "_pack_padded_sequence",
    "_pdist_backward",
    "_pdist_forward",
    "_prelu_kernel_backward",
    "_scaled_dot_product_flash_attention_for_cpu",
    "_scaled_dot_product_flash_attention_for_cpu_backward",
    "_sparse_mask_projection",
    "_sparse_mm_reduce_impl_backward",
    "_segment_reduce",
    "_segment_reduce_backward",
    "_trilinear",
    "_searchsorted",
    "_standard_gamma_grad",
    "_dirichlet_grad",
    "_sample_dirichlet",
    "_weight_norm",
    "affine_grid_generator",
    "aminmax",
    "as_strided",
    "as_strided_",
    "as_strided_copy",
    "as_strided_scatter",
    "block_diag",
    "channel_shuffle",
    "col2im",
    "convolution_backward_weight",
    "convolution_backward_bias",
    "dense_sparse_mm",
    "dist",
    "grid_sampler_2d",
    "grid_sampler_3d",
    "grid_sampler_2d_backward",
    "grid_sampler_3d_backward",
    "histogram",
    "histogramdd",
    "masked_scatter",
    "max_unpool2d",
    "max_unpool3d",
    "multi_margin_loss",
    "multi_margin_loss_backward",
    "multilabel_margin_loss",
    "multilabel_margin_loss_backward",
    "native_batch_norm_backward",
    "native_channel_shuffle",
    "native_layer_norm_backward",
    "normal_float_tensor",
    "normal_tensor_float",
    "normal_tensor_tensor",
    "renorm",
    "rrelu_with_noise",
    "rrelu_with_noise_backward",
    "rrelu_with_noise_result",
    "sparse_add",
    "sparse_addmm",
    "sparse_addmm_scaled",
    "sparse_coalesce",
    "sparse_coo_tensor",
    "sparse_gather",
    "sparse_mm",
    "sparse_mask",
    "sparse_mm_reduce",
    "sparse_spdiags",
    "sparse_mv",
    "sparse_sum_dims",
    "sparse_t",
    "sparse_to_dense",
    "sparse_transpose",
    "sparse_values",
    "_fake_quantize_per_channel",
}


# Op samples vmap cannot run yet, with why; the test fails for a listed one that works.
UNBATCHED = {
    "stft": "its framing writes into a padded copy's data, which a batched tensor refuses",
    "gaussian_nll_loss": "the wrapper checks var >= 0 by reading its values",
    "cov_weights": "the wrapper checks the weights by reading their values",
    "histogram": "the bin edges are computed from the input's values",
    "histogramdd": "the bin edges are computed from the input's values",
    "where_condition": "nonzero: the output shape depends on the values",
    "setitem_mask": "boolean-mask indexing: the output shape depends on the values",
    "pack_padded_sequence": "the lengths are read as Python ints",
    "to_sparse": "sparse tensors are not batched",
    "linalg.lu_factor": "the singularity check reads the factor's values",
    "linalg_ldl_solve": "the solve walks each matrix's pivots as Python ints",
    "lu_unpack_L": "built on lu_factor (singularity check reads values)",
    "lu_unpack_U": "built on lu_factor (singularity check reads values)",
    "linalg.lu_solve": "built on lu_factor (singularity check reads values)",
    "lu_solve": "built on lu_factor (singularity check reads values)",
    # (some samples only: a vector right-hand side is told from a matrix by its shape)
    "linalg_solve": "a vector right-hand side is told from a matrix by the physical shape",
    "tensorsolve": "the wrapper reshapes by the physical element count",
    "as_strided": "strides address the physical memory, which holds every sample",
    "as_strided_": "strides address the physical memory, which holds every sample",
    "as_strided_of_view": "strides address the physical memory, which holds every sample",
    "as_strided_copy": "strides address the physical memory, which holds every sample",
}


PARTLY_UNBATCHED = {"linalg_solve"}
# Random ops: a batch draws other numbers than a loop over samples does.
RANDOM = {
    "bernoulli",
    "binomial",
    "native_dropout",
    "normal_float_tensor",
    "normal_tensor_float",
    "normal_tensor_tensor",
    "poisson",
    "rrelu_training",
    "_standard_gamma",
    "_sample_dirichlet",
}


def test_rule_less_entries_are_listed():
    rule_less = {name for name, spec in REGISTRY.items() if spec.batch is None}
    assert sorted(rule_less - NO_RULE) == [], "entries without a batching rule: list or add one"
    assert sorted(NO_RULE - rule_less) == [], "listed entries that have a rule now: unlist them"


def _floats(sample) -> list[int]:
    return [
        i
        for i, a in enumerate(sample.args)
        if isinstance(a, np.ndarray) and a.dtype.kind == "f" and a.ndim >= 0
    ]


def _function(lib, info, sample, positions):
    """``info``'s op as a function of the float inputs at ``positions`` only."""

    def call(*floats):
        args = list(sample.args)
        for i, value in zip(positions, floats):
            args[i] = value
        args = [lib.tensor(a) if isinstance(a, np.ndarray) else a for a in args]
        return info.op(lib, *args, **sample.kwargs)

    return call


def _batched(lib, arrays, in_dims):
    out = []
    for a, d in zip(arrays, in_dims):
        if d is None:
            out.append(lib.tensor(a))
        else:
            out.append(lib.tensor(np.stack([a * s for s in SCALES], axis=d)))
    return out


def _loop(info, sample, positions, in_dims):
    """The per-sample reference: the op on each sample, outputs stacked along dim 0."""
    rows = []
    for s in SCALES:
        floats = [
            numtorch.tensor(sample.args[i] if d is None else sample.args[i] * s)
            for i, d in zip(positions, in_dims)
        ]
        rows.append(tree_flatten(_function(numtorch, info, sample, positions)(*floats))[0])
    return [np.stack([r[k].detach().numpy() for r in rows]) for k in range(len(rows[0]))]


def _modes(sample, positions):
    arrays = [sample.args[i] for i in positions]
    yield [0] * len(arrays)  # every input batched at dim 0
    yield [a.ndim for a in arrays]  # at its last dim
    if len(arrays) > 1:
        yield [0] + [None] * (len(arrays) - 1)  # only the first input batched


def _check(values, expected, info):
    assert len(values) == len(expected)
    for v, e in zip(values, expected):
        assert v.shape == e.shape
        np.testing.assert_allclose(v, e, rtol=1e-9, atol=1e-12, err_msg=info.name)


@pytest.mark.parametrize("info, sample", CASES)
def test_batching_rule_matches_loop_and_torch(info, sample):
    positions = _floats(sample)
    if info.name in RANDOM:
        pytest.skip("a random op: a batch draws other numbers than a loop")
    if not positions:
        pytest.skip("no floating-point input to map over")
    try:
        _loop(info, sample, positions, [0] * len(positions))
    except Exception:
        pytest.skip("the op refuses this sample one by one")
    torch = pytest.importorskip("torch")
    if info.name in UNBATCHED:
        try:
            _run_modes(info, sample, positions, torch)
        except (RuntimeError, AssertionError, ValueError, IndexError):
            pytest.xfail(UNBATCHED[info.name])
        if info.name not in PARTLY_UNBATCHED:
            pytest.fail(f"{info.name} works under vmap now: remove it from UNBATCHED")
        return
    try:
        _run_modes(info, sample, positions, torch)
    except RuntimeError as error:
        if "randomness error mode" not in str(error):
            raise
        pytest.skip("a random op: vmap refuses it in randomness='error' mode, as torch does")


def _run_modes(info, sample, positions, torch):
    for in_dims in _modes(sample, positions):
        expected = _loop(info, sample, positions, in_dims)
        args = _batched(numtorch, [sample.args[i] for i in positions], in_dims)
        try:
            with numtorch.no_grad():
                out = numtorch.vmap(
                    _function(numtorch, info, sample, positions), in_dims=tuple(in_dims)
                )(*args)
        except RuntimeError:
            if info.name in UNBATCHED:
                raise
            # refused as torch refuses it (batch norm training into unbatched statistics)?
            try:
                torch.vmap(_function(torch, info, sample, positions), in_dims=tuple(in_dims))(
                    *_batched(torch, [sample.args[i] for i in positions], in_dims)
                )
            except RuntimeError:
                continue
            raise
        ours = [o.detach().numpy() for o in tree_flatten(out)[0]]
        _check(ours, expected, info)
        try:
            theirs = torch.vmap(_function(torch, info, sample, positions), in_dims=tuple(in_dims))(
                *_batched(torch, [sample.args[i] for i in positions], in_dims)
            )
        except Exception:  # torch has no batching for it either (or refuses the sample)
            continue
        theirs = [t.detach().numpy() for t in tree_flatten(theirs)[0]]
        _check(ours, theirs, info)


def test_fallback_counter_names_rule_less_ops():
    before = batching.FALLBACKS["dist"]
    x = numtorch.arange(12.0).reshape(3, 4)
    out = numtorch.vmap(lambda r: numtorch.dist(r, 2 * r))(x)
    np.testing.assert_allclose(out.numpy(), np.linalg.norm(x.numpy(), axis=1), rtol=1e-6)
    assert batching.FALLBACKS["dist"] == before + 1


def _per_sample_models():
    nn = numtorch.nn
    numtorch.manual_seed(0)
    yield (
        nn.Sequential(
            nn.Conv2d(1, 4, 3, padding=1),
            nn.BatchNorm2d(4),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Flatten(),
            nn.Linear(64, 3),
        ).eval(),
        numtorch.randn(5, 1, 8, 8, dtype=numtorch.float32),
    )
    yield (
        nn.Sequential(nn.Conv1d(2, 3, 3), nn.GroupNorm(1, 3), nn.Flatten(), nn.Linear(12, 3)),
        numtorch.randn(5, 2, 6),
    )
    yield (
        nn.Sequential(nn.Embedding(10, 4), nn.LayerNorm(4), nn.Flatten(), nn.Linear(12, 3)),
        numtorch.randint(0, 10, (5, 3)),
    )


@pytest.mark.parametrize("index", range(3))
def test_per_sample_gradients_of_common_layers_run_batched(index):
    """vmap(grad) of conv, norm and embedding models: every op batches (weights batched per
    sample included) and the gradients equal one grad per sample."""
    model, x = list(_per_sample_models())[index]
    params = {k: v.detach() for k, v in model.named_parameters()}
    buffers = dict(model.named_buffers())
    target = numtorch.tensor([0, 1, 2, 1, 0])

    def loss(p, xi, ti):
        out = numtorch.func.functional_call(model, (p, buffers), (xi.unsqueeze(0),))
        return numtorch.nn.functional.cross_entropy(out, ti.unsqueeze(0))

    batching.FALLBACKS.clear()
    grads = numtorch.vmap(numtorch.func.grad(loss), in_dims=(None, 0, 0))(params, x, target)
    assert dict(batching.FALLBACKS) == {}
    for b in range(len(x)):
        one = numtorch.func.grad(loss)(params, x[b], target[b])
        for k in params:
            np.testing.assert_allclose(grads[k][b].numpy(), one[k].numpy(), rtol=1e-4, atol=1e-5)


_RNG = np.random.default_rng(5)
_W2 = numtorch.tensor(_RNG.standard_normal((2, 1, 2, 2)))
_W1 = numtorch.tensor(_RNG.standard_normal((3, 2, 2)))
_X2 = numtorch.tensor(_RNG.standard_normal((1, 2, 3, 5)))


def _spatial_functions():
    F = numtorch.nn.functional
    return {
        "max_pool2d": (lambda x: F.max_pool2d(x, 2), (1, 2, 4, 4)),
        "max_pool3d": (lambda x: F.max_pool3d(x, 2, 1), (2, 3, 3, 3)),
        "max_pool1d_unbatched": (lambda x: F.max_pool1d(x, 2), (2, 6)),
        "avg_pool2d": (lambda x: F.avg_pool2d(x, 3, 1, 1), (1, 2, 4, 4)),
        "adaptive_avg_pool2d": (lambda x: F.adaptive_avg_pool2d(x, 3), (2, 5, 5)),
        "adaptive_max_pool2d": (lambda x: F.adaptive_max_pool2d(x, 2), (1, 2, 5, 4)),
        "reflect_pad2d": (lambda x: F.pad(x, (1, 2, 1, 1), mode="reflect"), (1, 2, 3, 4)),
        "replicate_pad1d": (lambda x: F.pad(x, (2, 1), mode="replicate"), (2, 3, 4)),
        "bilinear": (lambda x: F.interpolate(x, scale_factor=2, mode="bilinear"), (1, 1, 3, 3)),
        "nearest1d": (lambda x: F.interpolate(x, size=5), (2, 1, 3)),
        "conv2d_input": (lambda x: F.conv2d(x, _W2, padding=1, groups=2), (1, 2, 3, 3)),
        "conv1d_input_unbatched": (lambda x: F.conv1d(x, _W1, stride=2), (2, 5)),
        "conv2d_weight": (lambda w: F.conv2d(_X2, w, padding=1, groups=2), (2, 1, 2, 2)),
        "conv1d_weight_unbatched": (lambda w: F.conv1d(_X2[0, :, 0], w, dilation=2), (3, 2, 2)),
        "bicubic_aa": (
            lambda x: F.interpolate(x, size=(2, 2), mode="bicubic", antialias=True),
            (1, 1, 4, 4),
        ),
    }


@pytest.mark.parametrize("name", sorted(_spatial_functions()))
def test_jacobians_of_spatial_ops_batch_their_backward(name):
    """jacrev and hessian run the pooling/padding/resampling/convolution backward (and max
    pooling's gather) on batched gradients: no fallback, and the rows equal one backward
    each."""
    f, shape = _spatial_functions()[name]
    _check_jacobian_and_hessian(f, shape)


def _loss_functions():
    F = numtorch.nn.functional
    t = numtorch.tensor(np.random.default_rng(2).uniform(0.1, 0.9, (2, 3)))
    return {
        "mse_mean": lambda x: F.mse_loss(x, t),
        "mse_sum": lambda x: F.mse_loss(x, t, reduction="sum"),
        "mse_none": lambda x: F.mse_loss(x, t, reduction="none"),
        "smooth_l1": lambda x: F.smooth_l1_loss(x, t, beta=0.5),
        "huber": lambda x: F.huber_loss(x, t, delta=0.3, reduction="sum"),
        "soft_margin": lambda x: F.soft_margin_loss(x, t.sign()),
        "bce": lambda x: F.binary_cross_entropy(x.sigmoid(), t, weight=t + 1),
        "cross_entropy": lambda x: F.cross_entropy(x, numtorch.tensor([2, 0])),
        "nll_weighted_ignore": lambda x: F.nll_loss(
            x.log_softmax(-1), numtorch.tensor([1, -100]), weight=t[0], ignore_index=-100
        ),
        "nll_sum_row": lambda x: F.nll_loss(x[0], numtorch.tensor(1), reduction="sum"),
        "nll_none": lambda x: F.nll_loss(x, numtorch.tensor([1, 2]), reduction="none"),
        "nll2d": lambda x: F.nll_loss(
            x.reshape(1, 3, 2, 1), numtorch.tensor([[[0], [2]]]), weight=t[1]
        ),
    }


def _scatter_back_functions():
    F = numtorch.nn.functional
    idx = numtorch.tensor([[1, 2, 1], [0, 1, 3]])
    return {
        "diagonal": (lambda x: x.diagonal(1, 0, -1) * 2, (3, 4)),
        "unfold": (lambda x: x.unfold(1, 2, 1), (2, 5)),
        "embedding": (lambda w: F.embedding(idx, w), (4, 2)),
        "embedding_padding_freq": (
            lambda w: F.embedding(idx, w, padding_idx=1, scale_grad_by_freq=True),
            (4, 2),
        ),
    }


@pytest.mark.parametrize("name", sorted(_scatter_back_functions()))
def test_jacobians_of_views_and_embeddings_batch_their_backward(name):
    f, shape = _scatter_back_functions()[name]
    _check_jacobian_and_hessian(f, shape)


@pytest.mark.parametrize("name", sorted(_loss_functions()))
def test_jacobians_of_losses_batch_their_backward(name):
    _check_jacobian_and_hessian(_loss_functions()[name], (2, 3))


def _check_jacobian_and_hessian(f, shape):
    x = numtorch.tensor(np.random.default_rng(1).standard_normal(shape))
    batching.FALLBACKS.clear()
    jac = numtorch.func.jacrev(f)(x)
    hess = numtorch.func.hessian(lambda t: f(t).pow(3).sum())(x)
    assert dict(batching.FALLBACKS) == {}
    leaf = x.detach().requires_grad_()
    out = f(leaf)
    rows = []
    for k in range(out.numel()):
        basis = numtorch.zeros(out.numel(), dtype=out.dtype)
        basis[k] = 1.0
        (g,) = numtorch.autograd.grad(out, leaf, basis.reshape(out.shape), retain_graph=True)
        rows.append(g.numpy())
    np.testing.assert_allclose(
        jac.numpy().reshape(out.numel(), -1), np.stack(rows).reshape(out.numel(), -1), atol=1e-12
    )
    (g,) = numtorch.autograd.grad(f(leaf).pow(3).sum(), leaf, create_graph=True)
    rows = [
        numtorch.autograd.grad(g.reshape(-1)[k], leaf, retain_graph=True)[0].numpy()
        for k in range(x.numel())
    ]
    np.testing.assert_allclose(
        hess.numpy().reshape(x.numel(), -1), np.stack(rows).reshape(x.numel(), -1), atol=1e-10
    )


# -- samples that are 0-d, and the integer reductions ------------------------------------------
# A 0-d sample has a dim 0 of size 1 for the ops along a dim; its physical tensor holds only
# the batch, so the rule runs over a size-1 dim of its own (found by random programs).
_ALONG_SCALAR = {
    "cumsum": lambda t, x: t.cumsum(x, 0),
    "cumprod": lambda t, x: t.cumprod(x, -1),
    "softmax": lambda t, x: t.softmax(x, 0),
    "log_softmax": lambda t, x: t.log_softmax(x, -1),
    "max_dim": lambda t, x: t.max(x, 0, keepdim=True),
    "sort": lambda t, x: t.sort(x, 0),
    "topk": lambda t, x: t.topk(x, 1),
    "median_dim": lambda t, x: t.median(x, 0),
    "cummax": lambda t, x: t.cummax(x, 0),
    "cummin": lambda t, x: t.cummin(x, 0),
    "logcumsumexp": lambda t, x: t.logcumsumexp(x, 0),
    "prod_dim": lambda t, x: t.prod(x, 0),
    "kthvalue": lambda t, x: t.kthvalue(x, 1, 0),
    "mode": lambda t, x: t.mode(x, 0),
    "gather": lambda t, x: t.gather(x, 0, t.tensor(0)),
    "transpose": lambda t, x: x.transpose(0, -1),
    "argsort": lambda t, x: x.argsort(0),
    # entries of their own since they read no values: vmap batches them
    "argmax": lambda t, x: t.argmax(x),
    "argmin_dim": lambda t, x: t.argmin(x, 0, keepdim=True),
    "all": lambda t, x: t.all(x),
    "any_dim": lambda t, x: t.any(x, 0),
    "count_nonzero": lambda t, x: t.count_nonzero(x),
}


@pytest.mark.parametrize("name", sorted(_ALONG_SCALAR))
def test_ops_along_a_dim_of_0d_samples_match_torch(name):
    torch = pytest.importorskip("torch")
    f = _ALONG_SCALAR[name]
    data = np.array([1.5, -2.0, 0.0])
    want = torch.vmap(lambda x: f(torch, x))(torch.tensor(data))
    got = numtorch.vmap(lambda x: f(numtorch, x))(numtorch.tensor(data))
    pairs = zip(want, got) if isinstance(want, tuple) else [(want, got)]
    for w, g in pairs:
        assert str(g.dtype) == str(w.dtype)
        np.testing.assert_array_equal(g.numpy(), w.numpy())


@pytest.mark.parametrize("fn", ["argmax", "argmin", "all", "any", "count_nonzero"])
@pytest.mark.parametrize("in_dim", [0, 1])
def test_integer_reductions_batch_like_torch(fn, in_dim):
    torch = pytest.importorskip("torch")
    data = np.array([[1.0, 0.0, np.nan], [3.0, -1.0, 2.0]])
    calls = [lambda t, x: getattr(t, fn)(x), lambda t, x: getattr(t, fn)(x, 0)]
    if fn != "count_nonzero":
        calls.append(lambda t, x: getattr(t, fn)(x, dim=-1, keepdim=True))
    for call in calls:
        want = torch.vmap(lambda x: call(torch, x), in_dims=in_dim)(torch.tensor(data))
        got = numtorch.vmap(lambda x: call(numtorch, x), in_dims=in_dim)(numtorch.tensor(data))
        assert str(got.dtype) == str(want.dtype)
        np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_all_and_any_over_no_dims_reduce_nothing():
    x = numtorch.tensor([[1.0, 0.0], [2.0, 3.0]])
    assert x.all(dim=()).tolist() == [[True, False], [True, True]]
    assert x.any(dim=(), keepdim=True).shape == (2, 2)
    assert numtorch.count_nonzero(x, dim=()).item() == 3  # (every dim, as sum's)


@pytest.mark.parametrize(
    "call",
    [
        lambda t, x: t.unique(x),
        lambda t, x: t.unique(x, dim=0),
        lambda t, x: t.unique_consecutive(x),
        lambda t, x: t.masked_select(x, x > 0),
        lambda t, x: t.masked_select(t.ones(2), x > 0),
    ],
)
def test_ops_of_value_dependent_shape_are_refused_as_torch(call):
    """Refused whatever the samples hold (these give every sample the same shape)."""
    torch = pytest.importorskip("torch")
    data = np.array([[1.0, -2.0], [3.0, 4.0]])
    messages = []
    for lib in (torch, numtorch):
        with pytest.raises(RuntimeError, match="vmap") as info:
            lib.vmap(lambda x, lib=lib: call(lib, x))(lib.tensor(data))
        messages.append(str(info.value))
    assert messages[1] == messages[0]


def test_masked_select_with_an_unbatched_mask_selects_in_every_sample():
    x = numtorch.tensor([[1.0, -2.0], [3.0, 4.0]])
    got = numtorch.vmap(lambda t: numtorch.masked_select(t, numtorch.tensor([True, False])))(x)
    assert got.tolist() == [[1.0], [3.0]]


@pytest.mark.parametrize("fn", ["amin", "amax", "sum", "logsumexp_0"])
def test_reductions_over_every_dim_of_0d_samples_keep_samples_apart(fn):
    """A reduction over every dim of a 0-d sample reduces nothing: not the batch (the
    gradient of amin counted every sample's value as a tie)."""
    torch = pytest.importorskip("torch")
    name, _, dim = fn.partition("_")

    def f(t, x):
        return (getattr(t, name)(x, int(dim)) if dim else getattr(t, name)(x)) * 2

    data = np.array([1.5, -2.0, 0.5])
    got, want = (
        (
            lib.vmap(lambda x, lib=lib: f(lib, x))(lib.tensor(data)).numpy(),
            lib.vmap(lib.func.grad(lambda x, lib=lib: f(lib, x)))(lib.tensor(data)).numpy(),
        )
        for lib in (numtorch, torch)
    )
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])
