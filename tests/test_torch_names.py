"""The public names of torch's namespaces that numtorch lacks, against the installed torch.

Each namespace lists the names known to be missing; the test fails when another torch name
goes missing and when a listed one appears (the lists may only shrink). Names torch merely
imports (typing helpers, standard modules, ``torch`` itself) are not counted.
"""

from __future__ import annotations

import importlib
import inspect
import typing

import pytest

torch = pytest.importorskip("torch")

KNOWN_MISSING = {
    # quantization and TorchScript internals; LinearCrossEntropyLoss is new and fused-only
    "nn": {
        "Container",
        "CrossMapLRN2d",
        "LinearCrossEntropyLoss",
        "LinearCrossEntropyOptions",
        "factory_kwargs",
        "grad",
        "intrinsic",
        "qat",
        "quantizable",
        "quantized",
    },
    "nn.init": set(),
    # numtorch has no channels-last memory format
    "nn.utils": {
        "convert_conv2d_weight_memory_format",
        "convert_conv3d_weight_memory_format",
        "memory_format",
    },
    "optim": {"Muon", "swap_in_optimizer_params_and_state"},
    "amp": set(),
    "distributions": set(),
    "autograd.graph": {
        "TorchDispatchMode",
        "Variable",
        "allow_mutation_on_saved_tensors",
        "log",
        "region_activation_memory_budget",
        "set_override_stale_capture_stream",
        "set_warn_on_accumulate_grad_stream_mismatch",
    },
    # selective checkpointing's machinery (torch.ops dispatch modes)
    "utils.checkpoint": {
        "GraphExecGroup",
        "LoggingTensorMode",
        "SAC_IGNORED_OPS",
        "TorchDispatchMode",
        "capture_logs",
        "fx_traceback",
        "tree_map",
    },
    "backends": {"cusparselt", "kleidiai", "m", "miopen", "python_native", "quantized"},
    "random": {"thread_safe_generator"},
    "linalg": {"ldl_factor", "ldl_factor_ex", "ldl_solve"},
    "fft": set(),
    "special": set(),
    "func": {"rearrange"},
    # quantized, compressed-sparse (CSC/BSR/BSC), nested and sparse-COO-only methods
    "Tensor": {
        "ccol_indices",
        "chalf",
        "col_indices",
        "const_data_ptr",
        "crow_indices",
        "dequantize",
        "dim_order",
        "grad_dtype",
        "hash_tensor",
        "index",
        "int_repr",
        "is_distributed",
        "map2_",
        "module_load",
        "name",
        "q_per_channel_axis",
        "q_per_channel_scales",
        "q_per_channel_zero_points",
        "q_scale",
        "q_zero_point",
        "qscheme",
        "record_stream",
        "reinforce",
        "resize_as_sparse_",
        "row_indices",
        "set_",
        "slice_inverse",
        "smm",
        "sparse_mask",
        "sparse_resize_",
        "sparse_resize_and_clear_",
        "sspaddmm",
        "storage_type",
        "to_mkldnn",
        "to_padded_tensor",
        "to_sparse_bsc",
        "to_sparse_bsr",
        "to_sparse_csc",
        "unsafe_chunk",
        "unsafe_split",
        "unsafe_split_with_sizes",
        "volatile",
    },
}


def _is_torch_name(name: str, value) -> bool:
    """A name torch defines, not one it imports (typing helpers, standard modules, ``Tensor``
    and ``torch`` re-exported, docstring fragments)."""
    if value is torch or value is torch.Tensor or name == "TYPE_CHECKING":
        return False
    if isinstance(value, typing.TypeVar) or str(type(value)).startswith("<class 'typing"):
        return False
    if inspect.ismodule(value):
        return value.__name__.startswith("torch")
    if callable(value):
        return (getattr(value, "__module__", "") or "").startswith("torch")
    return name not in _DOC_FRAGMENTS


# the docstring pieces torch.fft, torch.special and torch.linalg assemble their docs from
_DOC_FRAGMENTS = {"common_args", "common_notes", "factory_common_args", "multi_dim_common"}


def _public(namespace) -> set:
    names = {n for n in dir(namespace) if not n.startswith("_")}
    names |= {n for n in getattr(namespace, "__all__", ()) if not n.startswith("_")}
    return {n for n in names if hasattr(namespace, n) and _is_torch_name(n, getattr(namespace, n))}


@pytest.mark.parametrize("path", sorted(KNOWN_MISSING))
def test_missing_torch_names_are_the_known_ones(path):
    import numtorch

    if path == "Tensor":
        theirs, ours = torch.Tensor, numtorch.Tensor
        names = {n for n in dir(theirs) if not n.startswith("_")}
    else:
        theirs = importlib.import_module(f"torch.{path}")
        ours = importlib.import_module(f"numtorch.{path}")
        names = _public(theirs)
    missing = {n for n in names if not hasattr(ours, n)}
    assert sorted(missing - KNOWN_MISSING[path]) == [], "torch names numtorch lacks"
    assert sorted(KNOWN_MISSING[path] - missing) == [], "now present: remove from KNOWN_MISSING"
