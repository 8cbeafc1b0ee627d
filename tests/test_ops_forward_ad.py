"""Forward-mode AD from the op-sample table: every sample's Jacobian-vector product against
central finite differences, against the backward (<J u, v> == <u, J^T v>) and against
torch.func.jvp. Ops without a forward derivative must be listed in NO_FORWARD_AD, and every
op listed there must still lack one."""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from conftest import to_lib

import numtorch
from numtorch.testing.opinfo import OP_DB

# Ops whose forward derivative raises torch's NotImplementedError: their backward formulas
# are not differentiable with respect to the incoming gradient, so no forward derivative
# can be derived from them, and none is written. torch has one for linalg.lstsq (numtorch's
# backward refuses the residuals' gradient, so none can be derived: a known gap).
NO_FORWARD_AD = {
    "cdist",
    "ctc_loss",
    "linalg.lstsq",
    "multi_margin_loss",
    "multi_margin_loss_weight",
    "pdist",
}

# Where torch's forward derivative differs from the derivative of the function computed:
# torch applies the formula to the whole tangent, numtorch differentiates what the op reads.
TORCH_DIFFERS = {
    # the op reads one triangle; torch's jvp also uses the other triangle of the tangent
    "cholesky_inverse": "tangent's unread triangle",
    "triangular_solve": "tangent's unread triangle",
    "triangular_solve_both": "tangent's unread triangle",
    # torch's tangents disagree with finite differences (which numtorch's match) on these
    # samples: all zeros for scatter_reduce's prod, the first element of logcumsumexp
    "scatter_reduce_prod_False": "torch's jvp is zero",
    "scatter_reduce_prod_True": "torch's jvp is zero",
    "logcumsumexp": "torch's first element",
}

# Registry entries whose forward derivative is not written in their entry but derived by
# transposing their backward formulas (Note [Forward grads]): correct where the backward is
# differentiable, at about twice the cost of a written one. Grouped by the module that defines
# them; an entry that gains a written derivative must leave this list (the test below fails).
TRANSPOSED = {
    # defined on NumPy functions
    "acosh_",
    "asinh_",
    "atanh_",
    "div_mode_none",
    # ops/bits.py
    "frexp",
    # ops/complex.py
    "angle",
    "complex",
    "conj",
    "conj_physical",
    "polar",
    "view_as_complex",
    "view_as_real",
    # ops/construction.py
    "block_diag",
    "rot90",
    "unfold",
    "unfold_backward",
    # ops/cumulative.py
    "cummax",
    "cummin",
    "cumprod",
    "logcumsumexp",
    # ops/fft.py
    "_fft_c2c",
    "_fft_c2r",
    "_fft_r2c",
    # ops/gamma.py
    "mvlgamma",
    # ops/gamma_sampling.py
    "_standard_gamma",
    "_standard_gamma_grad",
    # ops/householder.py
    "geqrf",
    "linalg_householder_product",
    "ormqr_op",
    # ops/indexed.py
    "index_copy",
    "index_fill",
    "index_fill_tensor",
    "masked_scatter",
    # ops/indexing.py
    "copy",
    "fill",
    "gather",
    "index_add",
    "index_alias",
    "index_put",
    "index_select",
    "masked_fill",
    "masked_fill_tensor",
    "masked_select",
    "scatter_add",
    "scatter_src",
    "scatter_value",
    "select_backward",
    "slice_backward",
    "take",
    "zero",
    # ops/inplace_views.py
    "t_",
    "transpose_",
    "unsqueeze_",
    # ops/joins.py
    "narrow_copy",
    # ops/linalg.py
    "einsum",
    "squeeze_",
    # ops/linalg_cholesky.py
    "cholesky_inverse",
    "cholesky_solve",
    "triangular_solve",
    # ops/linalg_decomp.py
    "linalg_eigh",
    "linalg_pinv",
    "linalg_qr",
    "linalg_svd",
    # ops/linalg_functions.py
    "cholesky_legacy",
    # ops/linalg_lstsq.py
    "linalg_lstsq",
    # ops/linalg_lu.py
    "linalg_lu",
    "linalg_lu_factor_ex",
    "linalg_lu_solve",
    "lu_unpack",
    # ops/linalg_solve.py
    "linalg_cholesky_ex",
    "linalg_det",
    "linalg_inv_ex",
    "linalg_slogdet",
    "linalg_solve_ex",
    "linalg_solve_triangular",
    # ops/matrix_exp.py
    "linalg_matrix_exp",
    # ops/nan_extrema.py
    "fmax",
    "fmin",
    # ops/nn/activation.py
    "glu",
    "glu_backward",
    # ops/nn/attention.py
    "_safe_softmax",
    "_scaled_dot_product_flash_attention_for_cpu_backward",
    # ops/nn/channel_shuffle.py
    "channel_shuffle",
    "native_channel_shuffle",
    # ops/nn/conv.py
    "convolution",
    "convolution_backward",
    "convolution_backward_weight",
    # ops/nn/ctc.py
    "_ctc_loss",
    "_ctc_loss_backward",
    # ops/nn/distance.py
    "_pdist_backward",
    "_pdist_forward",
    "dist",
    # ops/nn/dropout.py
    "native_dropout",
    # ops/nn/embedding.py
    "embedding",
    "embedding_dense_backward",
    # ops/nn/embedding_bag.py
    "_embedding_bag",
    # ops/nn/fold.py
    "col2im",
    "im2col",
    "pixel_shuffle",
    "pixel_unshuffle",
    # ops/nn/grid_sample.py
    "affine_grid_generator",
    "grid_sampler_2d",
    "grid_sampler_3d",
    # ops/nn/loss.py
    "binary_cross_entropy",
    "binary_cross_entropy_backward",
    "binary_cross_entropy_with_logits",
    "multi_margin_loss",
    "multi_margin_loss_backward",
    "nll_loss",
    "nll_loss2d",
    "nll_loss2d_backward",
    "nll_loss_backward",
    # ops/nn/normalization.py
    "native_batch_norm",
    "native_batch_norm_backward",
    "native_group_norm",
    "native_layer_norm",
    "native_layer_norm_backward",
    # ops/nn/padding.py
    "constant_pad_nd",
    "reflect_pad1d",
    "reflect_pad1d_backward",
    "reflect_pad2d",
    "reflect_pad2d_backward",
    "reflect_pad3d",
    "reflect_pad3d_backward",
    "replicate_pad1d",
    "replicate_pad1d_backward",
    "replicate_pad2d",
    "replicate_pad2d_backward",
    "replicate_pad3d",
    "replicate_pad3d_backward",
    # ops/nn/piecewise.py
    "_prelu_kernel",
    "_prelu_kernel_backward",
    "celu",
    "celu_result",
    "elu",
    "elu_result",
    "hardshrink_backward",
    "hardsigmoid_backward",
    "rrelu_with_noise",
    "rrelu_with_noise_backward",
    "rrelu_with_noise_result",
    "softshrink_backward",
    "threshold_inplace",
    # ops/nn/pointwise_loss.py
    "huber_loss",
    "huber_loss_backward",
    "mse_loss",
    "mse_loss_backward",
    "smooth_l1_loss",
    "smooth_l1_loss_backward",
    "soft_margin_loss",
    "soft_margin_loss_backward",
    # ops/nn/pooling.py
    "adaptive_avg_pool2d",
    "adaptive_avg_pool2d_backward",
    "adaptive_avg_pool3d",
    "adaptive_avg_pool3d_backward",
    "adaptive_max_pool2d",
    "adaptive_max_pool2d_backward",
    "adaptive_max_pool2d_gather",
    "adaptive_max_pool3d",
    "adaptive_max_pool3d_backward",
    "adaptive_max_pool3d_gather",
    "avg_pool2d",
    "avg_pool2d_backward",
    "avg_pool3d",
    "avg_pool3d_backward",
    "max_pool2d_backward",
    "max_pool2d_gather",
    "max_pool2d_with_indices",
    "max_pool3d_backward",
    "max_pool3d_gather",
    "max_pool3d_with_indices",
    # ops/nn/rnn.py
    "_pack_padded_sequence",
    "rnn_transpose_",
    # ops/nn/rnn_fused.py
    "mkldnn_rnn_layer",
    # ops/nn/unpool.py
    "max_unpool2d",
    "max_unpool3d",
    # ops/nn/upsample.py
    "_upsample_bicubic2d_aa",
    "_upsample_bicubic2d_aa_backward",
    "_upsample_bilinear2d_aa",
    "_upsample_bilinear2d_aa_backward",
    "upsample_cubic2d",
    "upsample_cubic2d_backward",
    "upsample_linear1d",
    "upsample_linear1d_backward",
    "upsample_linear2d",
    "upsample_linear2d_backward",
    "upsample_linear3d",
    "upsample_linear3d_backward",
    "upsample_nearest1d",
    "upsample_nearest1d_backward",
    "upsample_nearest2d",
    "upsample_nearest2d_backward",
    "upsample_nearest3d",
    "upsample_nearest3d_backward",
    "upsample_nearest_exact1d",
    "upsample_nearest_exact1d_backward",
    "upsample_nearest_exact2d",
    "upsample_nearest_exact2d_backward",
    "upsample_nearest_exact3d",
    "upsample_nearest_exact3d_backward",
    # ops/nn/weight_norm.py
    "_weight_norm",
    # ops/pointwise.py
    "abs",
    "ceil",
    "floor",
    "fmod",
    "fmod_tensor",
    "lerp",
    "lerp_tensor",
    "remainder",
    "remainder_tensor",
    "trunc",
    # ops/products.py
    "_cdist_backward",
    "_cdist_forward",
    "_euclidean_dist",
    "linalg_cross",
    # ops/reduction.py
    "amax",
    "amin",
    "aminmax",
    "cumsum",
    "linalg_vector_norm",
    "logsumexp",
    "max_all",
    "max_dim",
    "min_all",
    "min_dim",
    "nansum",
    "norm_dim",
    "prod_all",
    "prod_dim",
    "sort",
    "std",
    "std_mean",
    "topk",
    "var",
    "var_mean",
    # ops/sampling.py
    "bernoulli",
    "binomial",
    "normal_float_tensor",
    "normal_tensor_float",
    "normal_tensor_tensor",
    "poisson",
    # ops/scaled_products.py
    "addbmm",
    "addmv",
    "addr",
    "baddbmm",
    # ops/scatter_reduce.py
    "index_reduce",
    "put",
    "scatter_reduce",
    # ops/selection.py
    "kthvalue",
    "median_all",
    "median_dim",
    "mode",
    "nanmedian_all",
    "nanmedian_dim",
    # ops/sets.py
    "_bincount",
    "_unique2",
    "unique_consecutive",
    "unique_dim",
    # ops/shape.py
    "_to_copy",
    "split",
    "split_with_sizes",
    "squeeze_all_",
    "squeeze_dim_",
    "squeeze_dims_",
    "unbind",
    # ops/softmax.py
    "_log_softmax_backward_data",
    "_softmax_backward_data",
    # ops/sparse_primitives.py
    "dense_sparse_mm",
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
    # ops/special.py
    "sgn",
    # ops/statistics.py
    "histogram",
    "histogramdd",
    "renorm",
    # ops/strided.py
    "as_strided",
    "as_strided_",
    "as_strided_scatter",
    "diagonal_scatter",
    "select_scatter",
    "slice_scatter",
    # ops/triangular.py
    "diag_embed",
    "diagonal_backward",
    "diagonal_copy",
    "trace",
    "tril",
    "triu",
}


CASES = [
    pytest.param(info, sample, id=f"{info.name}-{i}")
    for info in OP_DB
    if info.grad
    for i, sample in enumerate(info.samples(np.random.default_rng(zlib.crc32(info.name.encode()))))
]


def _setup(lib, info, sample, seed):
    args = [to_lib(lib, a, lib.float64, True) for a in sample.args]
    positions = [
        i for i, a in enumerate(args) if isinstance(a, lib.Tensor) and a.dtype == lib.float64
    ]
    rng = np.random.default_rng(seed)
    tangents = [rng.standard_normal(tuple(args[i].shape)) for i in positions]

    def fn(*tensors):
        full = list(args)
        for i, t in zip(positions, tensors):
            full[i] = t
        out = info.op(lib, *full, **sample.kwargs)
        outs = out if isinstance(out, (tuple, list)) else (out,)
        return tuple(o for o in outs if isinstance(o, lib.Tensor) and o.is_floating_point())

    primals = tuple(args[i] for i in positions)
    return fn, primals, tuple(lib.tensor(t) for t in tangents)


def _numpy(tensors):
    return [t.detach().numpy() for t in tensors]


def _jvp(info, sample):
    fn, primals, tangents = _setup(numtorch, info, sample, zlib.crc32(info.name.encode()))
    if not primals:
        pytest.skip("no floating-point tensor input")
    _, out_tangents = numtorch.func.jvp(fn, primals, tangents)
    return fn, primals, tangents, out_tangents


@pytest.mark.parametrize("info, sample", CASES)
def test_jvp_matches_finite_differences_and_backward(info, sample):
    if info.name in NO_FORWARD_AD:
        fn, primals, tangents = _setup(numtorch, info, sample, 0)
        with pytest.raises(NotImplementedError, match="forward AD"):
            numtorch.func.jvp(fn, primals, tangents)
        return
    fn, primals, tangents, out_tangents = _jvp(info, sample)
    eps = 1e-6
    with numtorch.no_grad():
        shifted = [
            [(p + sign * eps * t).requires_grad_() for p, t in zip(primals, tangents)]
            for sign in (1, -1)
        ]
    plus, minus = fn(*shifted[0]), fn(*shifted[1])
    for got, hi, lo in zip(out_tangents, plus, minus):
        expected = (hi - lo).detach().numpy() / (2 * eps)
        np.testing.assert_allclose(got.detach().numpy(), expected, atol=info.atol, rtol=info.rtol)
    # <J u, v> == <u, J^T v>
    rng = np.random.default_rng(1)
    inputs = tuple(p.detach().requires_grad_() for p in primals)
    outs = fn(*inputs)
    live = [k for k, o in enumerate(outs) if o.requires_grad]
    if not live:
        return
    vs = [numtorch.tensor(rng.standard_normal(tuple(outs[k].shape))) for k in live]
    vjps = numtorch.autograd.grad(
        [outs[k] for k in live], inputs, vs, allow_unused=True, materialize_grads=True
    )
    left = sum(float((out_tangents[k] * v).sum()) for k, v in zip(live, vs))
    right = sum(float((u * g).sum()) for u, g in zip(tangents, vjps))
    assert abs(left - right) <= 1e-6 * (1 + abs(left))


@pytest.mark.parametrize("info, sample", CASES)
def test_jvp_matches_torch(info, sample):
    torch = pytest.importorskip("torch")
    if info.name in NO_FORWARD_AD:
        pytest.skip("listed without a forward derivative")
    if info.name in TORCH_DIFFERS:
        pytest.skip(f"torch's jvp differs on purpose: {TORCH_DIFFERS[info.name]}")
    _, _, _, ours = _jvp(info, sample)
    fn, primals, tangents = _setup(torch, info, sample, zlib.crc32(info.name.encode()))
    try:
        _, theirs = torch.func.jvp(fn, primals, tangents)
    except (NotImplementedError, RuntimeError) as error:
        pytest.skip(f"torch has no forward derivative here: {str(error)[:80]}")
    assert len(ours) == len(theirs)
    tol = info.parity_rtol or 1e-7
    # torch's zero tangents are ZeroTensors, which convert only with force=True
    for a, b in zip(_numpy(ours), [t.detach().numpy(force=True) for t in theirs]):
        np.testing.assert_allclose(a, b, rtol=tol, atol=1e-8)


def test_exception_list_matches_the_registry():
    """An op in NO_FORWARD_AD that gained a forward derivative (or the reverse) fails here."""
    listed = {info.name for info in OP_DB if info.name in NO_FORWARD_AD}
    assert listed == NO_FORWARD_AD, NO_FORWARD_AD - listed


@pytest.mark.parametrize("info, sample", CASES)
def test_jacfwd_matches_jacrev(info, sample):
    """jacfwd pushes all basis tangents at once: the batched forward derivatives (and the
    row-by-row path of the others) against the reverse-mode Jacobian."""
    if info.name in NO_FORWARD_AD:
        pytest.skip("listed without a forward derivative")
    fn, primals, _ = _setup(numtorch, info, sample, 0)
    if not primals or sum(p.numel() for p in primals) > 200:
        pytest.skip("no floating-point input, or too many columns to be quick")
    argnums = tuple(range(len(primals)))
    try:
        forward = numtorch.func.jacfwd(fn, argnums=argnums)(*primals)
    except RuntimeError as error:
        if "randomness" not in str(error):
            raise
        pytest.skip("a random op: jacfwd refuses it, as torch's does")
    # row by row in reverse mode (the batched backward of func.jacrev is checked elsewhere)
    reverse = numtorch.autograd.functional.jacobian(fn, primals)
    if any(o.is_complex() for o in fn(*primals)):
        pytest.skip("complex outputs: the two Jacobians follow different conventions")
    for out_fwd, out_rev in zip(forward, reverse):
        for a, b in zip(out_fwd, out_rev):
            np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-7, atol=1e-9)


def test_every_entry_declares_its_forward_derivative():
    """A differentiable entry writes its forward derivative ("elementwise", "linear" or a
    formula), or is listed in TRANSPOSED; a listed entry that gained one fails here."""
    from numtorch._core.op import REGISTRY

    undeclared = {name for name, spec in REGISTRY.items() if spec.diff and spec.jvp is None}
    assert undeclared - TRANSPOSED == set(), "entries without a written forward derivative"
    assert TRANSPOSED - undeclared == set(), "listed entries that now declare one"


GRADGRAD_CASES = [
    pytest.param(info, sample, id=f"{info.name}-{i}")
    for info in OP_DB
    if info.grad and info.gradgrad and info.name not in NO_FORWARD_AD
    for i, sample in enumerate(info.samples(np.random.default_rng(zlib.crc32(info.name.encode()))))
]


@pytest.mark.parametrize("info, sample", GRADGRAD_CASES)
def test_forward_over_reverse_matches_finite_differences(info, sample):
    """jvp of the gradient (hessian-vector products, func.hessian): pushes tangents through
    the backward formulas' own entries (the *_backward ops among them)."""
    fn, primals, tangents = _setup(numtorch, info, sample, zlib.crc32(info.name.encode()))
    if not primals:
        pytest.skip("no floating-point tensor input")
    outs = fn(*primals)
    if not outs or any(o.is_complex() for o in outs):
        pytest.skip("no real floating-point output")
    rng = np.random.default_rng(2)
    vs = [numtorch.tensor(rng.standard_normal(tuple(o.shape))) for o in outs]

    def vjp(*xs):
        outs = fn(*xs)
        total = sum((o * v).sum() for o, v in zip(outs, vs))
        return numtorch.autograd.grad(
            total, xs, create_graph=True, allow_unused=True, materialize_grads=True
        )

    try:
        _, got = numtorch.func.jvp(vjp, primals, tangents)
    except RuntimeError as error:
        if "randomness" not in str(error) and "does not require grad" not in str(error):
            raise
        pytest.skip(f"not differentiable twice here: {str(error)[:80]}")
    eps = 1e-6
    with numtorch.no_grad():
        plus = [(p + eps * t).requires_grad_() for p, t in zip(primals, tangents)]
        minus = [(p - eps * t).requires_grad_() for p, t in zip(primals, tangents)]
    for g, hi, lo in zip(got, vjp(*plus), vjp(*minus)):
        expected = (hi - lo).detach().numpy() / (2 * eps)
        np.testing.assert_allclose(
            g.detach().numpy(), expected, atol=10 * info.atol, rtol=10 * info.rtol
        )
