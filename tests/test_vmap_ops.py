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
    "_upsample_bicubic2d_aa_backward",
    # sparse tensors are not batched
    "sparse_log_softmax_values",
    "sparse_softmax_values",
    # the random samples are per plane of the unbatched input
    "fractional_max_pool2d",
    "fractional_max_pool2d_backward",
    "fractional_max_pool2d_gather",
    "fractional_max_pool3d",
    "fractional_max_pool3d_backward",
    "fractional_max_pool3d_gather",
    "_upsample_bilinear2d_aa_backward",
    "_cdist_backward",
    "_ctc_loss_backward",
    "geqrf",
    "linalg_lstsq",
    "mkldnn_rnn_layer",
    "_bincount",
    "_ctc_loss",
    "_embedding_bag",
    "_histc",
    "_pack_padded_sequence",
    "_pdist_backward",
    "_pdist_forward",
    "_prelu_kernel",
    "_prelu_kernel_backward",
    "_scaled_dot_product_flash_attention_for_cpu",
    "_scaled_dot_product_flash_attention_for_cpu_backward",
    "_searchsorted",
    "_standard_gamma_grad",
    "_unique2",
    "_weight_norm",
    "adaptive_avg_pool2d_backward",
    "adaptive_avg_pool3d_backward",
    "adaptive_max_pool2d_backward",
    "adaptive_max_pool2d_gather",
    "adaptive_max_pool3d_backward",
    "adaptive_max_pool3d_gather",
    "affine_grid_generator",
    "aminmax",
    "as_strided",
    "as_strided_",
    "as_strided_scatter",
    "avg_pool2d_backward",
    "avg_pool3d_backward",
    "binary_cross_entropy_backward",
    "block_diag",
    "channel_shuffle",
    "col2im",
    "convolution_backward",
    "convolution_backward_weight",
    "dense_sparse_mm",
    "diagonal_backward",
    "dist",
    "embedding_dense_backward",
    "grid_sampler_2d",
    "grid_sampler_3d",
    "histogram",
    "histogramdd",
    "huber_loss_backward",
    "index_put",
    "masked_scatter",
    "masked_select",
    "max_pool2d_backward",
    "max_pool2d_gather",
    "max_pool3d_backward",
    "max_pool3d_gather",
    "max_pool_values",
    "max_unpool2d",
    "max_unpool3d",
    "mse_loss_backward",
    "multi_margin_loss",
    "multi_margin_loss_backward",
    "native_batch_norm",
    "native_batch_norm_backward",
    "native_channel_shuffle",
    "native_group_norm",
    "native_layer_norm_backward",
    "nll_loss2d_backward",
    "nll_loss_backward",
    "normal_float_tensor",
    "normal_tensor_float",
    "normal_tensor_tensor",
    "put",
    "reflect_pad1d_backward",
    "reflect_pad2d_backward",
    "reflect_pad3d_backward",
    "renorm",
    "replicate_pad1d_backward",
    "replicate_pad2d_backward",
    "replicate_pad3d_backward",
    "rnn_transpose_",
    "rrelu_with_noise",
    "rrelu_with_noise_backward",
    "rrelu_with_noise_result",
    "smooth_l1_loss_backward",
    "soft_margin_loss_backward",
    "sparse_add",
    "sparse_addmm",
    "sparse_coalesce",
    "sparse_coo_tensor",
    "sparse_gather",
    "sparse_mm",
    "sparse_mv",
    "sparse_sum_dims",
    "sparse_t",
    "sparse_to_dense",
    "sparse_transpose",
    "sparse_values",
    "squeeze_all_",
    "squeeze_dim_",
    "squeeze_dims_",
    "t_",
    "take",
    "transpose_",
    "unfold_backward",
    "unique_consecutive",
    "unique_dim",
    "unsqueeze_",
    "upsample_cubic2d_backward",
    "upsample_linear1d_backward",
    "upsample_linear2d_backward",
    "upsample_linear3d_backward",
    "upsample_nearest1d_backward",
    "upsample_nearest2d_backward",
    "upsample_nearest3d_backward",
    "upsample_nearest_exact1d_backward",
    "upsample_nearest_exact2d_backward",
    "upsample_nearest_exact3d_backward",
}


# Op samples vmap cannot run yet, with why; the test fails for a listed one that works.
UNBATCHED = {
    "stft": "its framing writes into a padded copy's data, which a batched tensor refuses",
    "quantile": "the wrapper checks q's range by reading its values",
    "quantile_tensor_q": "the wrapper checks q's range by reading its values",
    "gaussian_nll_loss": "the wrapper checks var >= 0 by reading its values",
    "cov_weights": "the wrapper checks the weights by reading their values",
    "histogram": "the bin edges are computed from the input's values",
    "histogramdd": "the bin edges are computed from the input's values",
    "where_condition": "nonzero: the output shape depends on the values",
    "setitem_mask": "boolean-mask indexing: the output shape depends on the values",
    "pack_padded_sequence": "the lengths are read as Python ints",
    "to_sparse": "sparse tensors are not batched",
    "linalg.lu_factor": "the singularity check reads the factor's values",
    "lu_unpack_L": "built on lu_factor (singularity check reads values)",
    "lu_unpack_U": "built on lu_factor (singularity check reads values)",
    "linalg.lu_solve": "built on lu_factor (singularity check reads values)",
    "lu_solve": "built on lu_factor (singularity check reads values)",
    # (some samples only: a vector right-hand side is told from a matrix by its shape)
    "linalg_solve": "a vector right-hand side is told from a matrix by the physical shape",
    "tensorsolve": "the wrapper reshapes by the physical element count",
    "pad_circular": "copies batched slices into an unbatched buffer",
    "as_strided": "strides address the physical memory, which holds every sample",
    "as_strided_": "strides address the physical memory, which holds every sample",
    "as_strided_of_view": "strides address the physical memory, which holds every sample",
    "transpose_": "in-place metadata changes replace the tensor's array",
    "t_": "in-place metadata changes replace the tensor's array",
    "squeeze_": "in-place metadata changes replace the tensor's array",
    "unsqueeze_": "in-place metadata changes replace the tensor's array",
    "_standard_gamma_grad": "differs from a per-sample loop, also on the fallback",
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
        with numtorch.no_grad():
            out = numtorch.vmap(
                _function(numtorch, info, sample, positions), in_dims=tuple(in_dims)
            )(*args)
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
    before = batching.FALLBACKS["take"]
    x = numtorch.arange(12.0).reshape(3, 4)
    out = numtorch.vmap(lambda r: r.take(numtorch.tensor([0, 2])))(x)
    np.testing.assert_array_equal(out.numpy(), x.numpy()[:, [0, 2]])
    assert batching.FALLBACKS["take"] == before + 1
