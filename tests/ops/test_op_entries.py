"""Every registry entry carries the facts about its op (Note [Op facts] in _core/op.py)."""

from __future__ import annotations

import re

import pytest

import numtorch
import numtorch.nn.functional
from numtorch._core.observers import COMPOSITES
from numtorch._core.op import REGISTRY
from numtorch.profiler import ProfilerActivity, profile

# Entries whose profiler name is not an ATen op yet: the profiler shows "aten::<entry name>"
# where torch shows the public op (div_scalar is torch's div). Each needs ``aten=`` in its
# entry; the list may only shrink.
PROFILER_NAMES_TO_FIX = frozenset(
    [
        "_bincount",
        "_histc",
        "_searchsorted",
        "adaptive_avg_pool2d_backward",
        "adaptive_max_pool2d_gather",
        "adaptive_max_pool3d_gather",
        "add_scalar",
        "bitwise_left_shift_scalar",
        "bitwise_right_shift_scalar",
        "celu_result",
        "cholesky_legacy",
        "clamp_max_scalar",
        "clamp_min_scalar",
        "convolution_backward_weight",
        "copysign_scalar",
        "div_mode_none",
        "div_scalar",
        "elu_result",
        "entr",
        "erfcx",
        "i0e",
        "i1",
        "i1e",
        "index_fill_tensor",
        "leaky_relu_result",
        "log_ndtr",
        "masked_fill_tensor",
        "max_pool2d_gather",
        "max_pool3d_backward",
        "max_pool3d_gather",
        "max_pool_values",
        "median_all",
        "median_dim",
        "mul_scalar",
        "nanmedian_all",
        "nanmedian_dim",
        "ndtri",
        "norm_dim",
        "normal_float_tensor",
        "normal_tensor_float",
        "normal_tensor_tensor",
        "reflect_pad1d",
        "reflect_pad1d_backward",
        "reflect_pad2d",
        "reflect_pad2d_backward",
        "reflect_pad3d",
        "reflect_pad3d_backward",
        "remainder_scalar_self",
        "replicate_pad1d",
        "replicate_pad1d_backward",
        "replicate_pad2d",
        "replicate_pad2d_backward",
        "replicate_pad3d",
        "replicate_pad3d_backward",
        "rnn_transpose_",
        "round_decimals",
        "rrelu_with_noise_result",
        "squeeze_all_",
        "squeeze_dim_",
        "squeeze_dims_",
        "threshold_inplace",
        "upsample_cubic2d",
        "upsample_cubic2d_backward",
        "upsample_linear2d",
        "upsample_linear2d_backward",
        "upsample_linear3d",
        "upsample_linear3d_backward",
        "upsample_nearest_exact1d",
        "upsample_nearest_exact1d_backward",
        "upsample_nearest_exact2d",
        "upsample_nearest_exact2d_backward",
        "upsample_nearest_exact3d",
        "upsample_nearest_exact3d_backward",
        "xlog1py",
        "xlog1py_other_scalar",
        "xlog1py_self_scalar",
        "xlogy_other_scalar",
        "xlogy_self_scalar",
        "zeta",
        "zeta_other_scalar",
        "zeta_self_scalar",
    ]
)

# Nodes torch writes by hand (no Backward<k> suffix), and numtorch's own gather nodes.
HAND_WRITTEN_NODES = {
    "CopyBackwards",
    "NotImplemented",
    "AdaptiveMaxPool2DGather0",
    "AdaptiveMaxPool3DGather0",
    "FractionalMaxPool2DGather0",
    "FractionalMaxPool3DGather0",
    "MaxPool2DWithIndicesGather0",
    "MaxPool3DWithIndicesGather0",
}


def test_every_entry_names_an_aten_op():
    torch = pytest.importorskip("torch")
    missing = {name for name, spec in REGISTRY.items() if not hasattr(torch.ops.aten, spec.aten)}
    new = missing - PROFILER_NAMES_TO_FIX
    assert not new, f"give these entries aten='<torch op>': {sorted(new)}"
    fixed = PROFILER_NAMES_TO_FIX - missing
    assert not fixed, f"remove from PROFILER_NAMES_TO_FIX: {sorted(fixed)}"


def test_private_overloads_show_their_public_op():
    assert REGISTRY["sum_dim"].profiler_name == "aten::sum"
    assert REGISTRY["max_all"].profiler_name == "aten::max"
    assert REGISTRY["add_alpha"].profiler_name == "aten::add"
    assert REGISTRY["exp"].profiler_name == "aten::exp"


def test_node_names_follow_torch():
    odd = {
        spec.node_class.__name__
        for spec in REGISTRY.values()
        if not re.search(r"Backward\d+(_copy)?$", spec.node_class.__name__)
    }
    assert odd <= HAND_WRITTEN_NODES, sorted(odd - HAND_WRITTEN_NODES)


def test_export_records_public_and_inplace_names():
    assert REGISTRY["asin"].public_names == ["asin", "arcsin"]
    assert REGISTRY["asin"].inplace_names == ["asin_", "arcsin_"]
    assert "multiply" in REGISTRY["mul"].public_names
    assert all(isinstance(spec.public_names, list) for spec in REGISTRY.values())


# Entries whose forward takes other arguments than torch's schema of their ATen op (extra
# arrays the engine passes, arguments torch's overload does not have): the profiler lists
# their own arguments in ``input_shapes`` where torch lists the schema's. Each needs
# ``schema_args=`` (and an argument order that fits torch's); the list may only shrink.
ARGUMENT_COUNTS_TO_FIX = frozenset(
    [
        "_cdist_forward",
        "_embedding_bag",
        "_log_softmax_backward_data",
        "_prelu_kernel_backward",
        "_reshape_alias",
        "_safe_softmax",
        "_scaled_dot_product_flash_attention_for_cpu",
        "_softmax_backward_data",
        "_to_copy",
        "_unique2",
        "as_strided",
        "as_strided_",
        "celu",
        "clone",
        "clone_contiguous",
        "convolution_backward",
        "einsum",
        "expand",
        "expand_copy",
        "gather",
        "histogram",
        "leaky_relu_backward",
        "linalg_inv_ex",
        "linalg_lu",
        "linalg_lu_factor_ex",
        "linalg_svd",
        "log_sigmoid_backward",
        "max_pool2d_backward",
        "max_unpool3d",
        "native_batch_norm_backward",
        "native_dropout",
        "native_layer_norm_backward",
        "nll_loss2d_backward",
        "nll_loss_backward",
        "rrelu_with_noise",
        "rrelu_with_noise_backward",
        "sparse_addmm",
        "sparse_coalesce",
        "sparse_coo_tensor",
        "sparse_mv",
        "sparse_transpose",
        "unique_consecutive",
        "unique_dim",
        "upsample_nearest3d",
        "upsample_nearest3d_backward",
    ]
)


def _schema_counts(torch, aten: str):
    """The number of arguments of each overload torch has for ``aten`` (None: no such op)."""
    packet = getattr(torch.ops.aten, aten, None)
    if packet is None:
        return None
    return {len(getattr(packet, overload)._schema.arguments) for overload in packet.overloads()}


def test_profiler_argument_counts_fit_torch_schemas():
    torch = pytest.importorskip("torch")
    misfits = set()
    for name, spec in REGISTRY.items():
        counts = _schema_counts(torch, spec.aten)
        if counts is not None and (spec.schema_args or spec.nparams) not in counts:
            misfits.add(name)
    new = misfits - ARGUMENT_COUNTS_TO_FIX
    assert not new, f"give these entries schema_args=<torch's argument count>: {sorted(new)}"
    fixed = ARGUMENT_COUNTS_TO_FIX - misfits
    assert not fixed, f"remove from ARGUMENT_COUNTS_TO_FIX: {sorted(fixed)}"


def test_composites_list_torch_schema_arguments():
    torch = pytest.importorskip("torch")
    misfits = []
    for name, functions in COMPOSITES.items():
        counts = _schema_counts(torch, name.removeprefix("aten::"))
        assert counts is not None, f"{name} is not an op torch has"
        misfits += [f"{name} ({f.schema_args})" for f in functions if f.schema_args not in counts]
    assert not misfits, f"give these composites schema_args=<torch's argument count>: {misfits}"


def test_schema_args_reach_the_profiler():
    x = numtorch.ones(2)
    with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
        numtorch.add(x, x)
        numtorch.nn.functional.dropout(x, 0.5, training=False)
    shapes = {e.key: e.input_shapes for e in prof.key_averages(group_by_input_shape=True)}
    assert shapes["aten::add"] == [[2], [2], []]  # add.Tensor(self, other, *, alpha)
    assert shapes["aten::dropout"] == [[2], [], []]  # (input, p, train): no inplace
