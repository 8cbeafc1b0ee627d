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
    # quantization and TorchScript internals
    "nn": {
        "Container",
        "factory_kwargs",
        "intrinsic",
        "qat",
        "quantizable",
    },
    "nn.init": set(),
    "nn.utils": set(),
    "optim": set(),
    "amp": set(),
    "distributions": set(),
    "autograd.graph": {
        "TorchDispatchMode",
        "Variable",
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
    },
    # kernels for other devices, dispatch keys and compilers (numtorch has one device)
    "library": {
        "EffectType",
        "NAMELESS_SCHEMA",
        "OpOverload",
        "device_types_t",
        "fallthrough_kernel",
        "get_kernel",
        "register_autocast",
        "register_torch_dispatch",
        "register_vmap",
        "triton_op",
        "wrap_triton",
    },
    "overrides": {"get_default_nowrap_functions"},
    "backends": {"cusparselt", "kleidiai", "m", "miopen", "python_native"},
    "random": {"thread_safe_generator"},
    # the instruction sets cpuinfo detects (numtorch's kernels are NumPy's)
    "cpu": {"get_capabilities"},
    # TorchScript's typing helpers, docstring fragments, and the float8/grouped GEMMs of GPUs
    "nn.functional": {
        "BroadcastingList1",
        "BroadcastingList2",
        "BroadcastingList3",
        "ScalingType",
        "SwizzleType",
        "assert_int_or_pair",
        "boolean_dispatch",
        "conv_tbc",
        "grouped_mm",
        "reproducibility_notes",
        "scaled_grouped_mm",
        "scaled_mm",
        "sparse_support_notes",
        "tf32_notes",
    },
    # source-file checks of pickled modules (numtorch never reads a module's source), HPU
    # devices, and names torch.serialization merely imports
    "serialization": {
        "IS_WINDOWS",
        "MAP_LOCATION",
        "STORAGE",
        "Storage",
        "StorageType",
        "UNSAFE_MESSAGE",
        "check_module_version_greater_or_equal",
        "get_source_lines_and_file",
        "mkdtemp",
        "validate_hpu_device",
    },
    "linalg": set(),
    "fft": set(),
    "special": set(),
    "func": set(),
    "masked": set(),
    # the jagged layout, and the names torch.nested merely imports (typing aliases, F)
    "nested": {"DType", "Device", "F", "SymInt", "masked_select", "nested_tensor_from_jagged"},
    # semi-structured (GPU) sparsity, CSR kernels and the invariants switch
    "sparse": {
        "DimOrDims",
        "SparseSemiStructuredTensor",
        "SparseSemiStructuredTensorCUSPARSELT",
        "SparseSemiStructuredTensorCUTLASS",
        "check_sparse_tensor_invariants",
        "sampled_addmm",
        "semi_structured",
        "spsolve",
        "to_sparse_semi_structured",
    },
    # quantized, nested and sparse-COO-only methods
    "Tensor": {
        "chalf",
        "const_data_ptr",
        "index",
        "map2_",
        "module_load",
        "name",
        "record_stream",
        "reinforce",
        "resize_as_sparse_",
        "set_",
        "slice_inverse",
        "smm",
        "sparse_resize_",
        "sparse_resize_and_clear_",
        "sspaddmm",
        "storage_type",
        "to_mkldnn",
        "volatile",
    },
    "torch": {
        # TorchScript: its IR, types, compilation units and futures (numtorch has no JIT compiler)
        "AliasDb",
        "AnyType",
        "Argument",
        "ArgumentSpec",
        "AwaitType",
        "Block",
        "BoolType",
        "BufferDict",
        "CallStack",
        "Capsule",
        "ClassType",
        "Code",
        "CompilationUnit",
        "CompleteArgumentSpec",
        "ComplexType",
        "ConcreteModuleType",
        "ConcreteModuleTypeBuilder",
        "DeepCopyMemoTable",
        "DeviceObjType",
        "DictType",
        "EnumType",
        "ErrorReport",
        "ExecutionPlan",
        "FileCheck",
        "FloatType",
        "FunctionSchema",
        "FutureType",
        "Gradient",
        "Graph",
        "GraphExecutorState",
        "IODescriptor",
        "InferredType",
        "IntType",
        "InterfaceType",
        "JITException",
        "ListType",
        "LiteScriptModule",
        "ModuleDict",
        "Node",
        "NoneType",
        "NumberType",
        "OperatorInfo",
        "OptionalType",
        "ParameterDict",
        "PyObjectType",
        "RRefType",
        "ScriptClass",
        "ScriptClassFunction",
        "ScriptDict",
        "ScriptDictIterator",
        "ScriptDictKeyIterator",
        "ScriptFunction",
        "ScriptList",
        "ScriptListIterator",
        "ScriptMethod",
        "ScriptModule",
        "ScriptModuleSerializer",
        "ScriptObject",
        "ScriptObjectProperty",
        "StaticModule",
        "StreamObjType",
        "StringType",
        "SymBoolType",
        "SymIntType",
        "TensorType",
        "TracingState",
        "TupleType",
        "Type",
        "UnionType",
        "Use",
        "Value",
        "classes",
        "cpp",
        "import_ir_module",
        "import_ir_module_from_buffer",
        "merge_type_from_type_comment",
        "parse_ir",
        "parse_schema",
        "parse_type_comment",
        "unify_type_list",
        # the C++ dispatcher, operator registration, library loading and the zip archive classes
        "DeserializationStorageContext",
        "DispatchKey",
        "DispatchKeySet",
        "ExcludeDispatchKeyGuard",
        "PRIVATE_OPS",
        "PyTorchFileReader",
        "PyTorchFileWriter",
        "SerializationStorageContext",
        "Tag",
        "USE_GLOBAL_DEPS",
        "USE_RTLD_GLOBAL_WITH_LIBTORCH",
        "classproperty",
        "get_file_path",
        "prepare_multiprocessing_environment",
        "thread_safe_generator",
        # C++ benchmarking, monitoring and logging hooks
        "AVG",
        "AggregationType",
        "BenchmarkConfig",
        "BenchmarkExecutionStats",
        "FatalError",
        "LockingLogger",
        "LoggerBase",
        "NoopLogger",
        "SUM",
        "ThroughputBenchmark",
        "monitor",
        # quantization: quantized dtypes, schemes, storages and kernels
        "QInt32Storage",
        "QInt8Storage",
        "QUInt2x4Storage",
        "QUInt4x2Storage",
        "QUInt8Storage",
        "choose_qparams_optimized",
        "empty_quantized",
        "fused_moving_avg_obs_fake_quant",
        "quantized_gru",
        "quantized_gru_cell",
        "quantized_lstm",
        "quantized_lstm_cell",
        "quantized_max_pool3d",
        "quantized_rnn_relu_cell",
        "quantized_rnn_tanh_cell",
        # CUDA, vendor (cuDNN, MIOpen, oneDNN, FBGEMM) and accelerator kernels and settings
        "batch_norm_backward_elemt",
        "batch_norm_backward_reduce",
        "batch_norm_elemt",
        "batch_norm_gather_stats",
        "batch_norm_gather_stats_with_counts",
        "batch_norm_stats",
        "batch_norm_update_stats",
        "cudnn_affine_grid_generator",
        "cudnn_batch_norm",
        "cudnn_convolution",
        "cudnn_convolution_add_relu",
        "cudnn_convolution_relu",
        "cudnn_convolution_transpose",
        "cudnn_grid_sampler",
        "cudnn_is_acceptable",
        "fbgemm_linear_fp16_weight",
        "fbgemm_linear_fp16_weight_fp32_activation",
        "fbgemm_linear_int8_weight",
        "fbgemm_linear_int8_weight_fp32_activation",
        "fbgemm_linear_quantize_weight",
        "fbgemm_pack_gemm_matrix_fp16",
        "fbgemm_pack_quantized_matrix",
        "get_autocast_gpu_dtype",
        "get_autocast_ipu_dtype",
        "get_autocast_xla_dtype",
        "is_autocast_ipu_enabled",
        "is_autocast_xla_enabled",
        "miopen_batch_norm",
        "miopen_convolution",
        "miopen_convolution_add_relu",
        "miopen_convolution_relu",
        "miopen_convolution_transpose",
        "miopen_ctc_loss",
        "miopen_depthwise_convolution",
        "miopen_rnn",
        "mkldnn_adaptive_avg_pool2d",
        "mkldnn_convolution",
        "mkldnn_linear_backward_weights",
        "mkldnn_max_pool2d",
        "mkldnn_max_pool3d",
        "mtia",
        "profiler_allow_cudagraph_cupti_lazy_reinit_cuda12",
        "set_autocast_gpu_dtype",
        "set_autocast_ipu_dtype",
        "set_autocast_ipu_enabled",
        "set_autocast_xla_dtype",
        "set_autocast_xla_enabled",
        # ATen internals behind nn.functional (F.grid_sample, F.affine_grid, F.embedding)
        "affine_grid_generator",
        "conv_tbc",
        "embedding_renorm_",
        "grid_sampler",
        "grid_sampler_2d",
        "grid_sampler_3d",
        "native_norm",
        # nested tensors and sparse-only products
        "dsmm",
        "hsmm",
        "hspmm",
        "jagged",
        "resize_as_sparse_",
        "saddmm",
        "slice_inverse",
        "smm",
        "sspaddmm",
        # sub-byte, 8-bit float and complex32 dtypes (NumPy lacks them)
        "bit",
        "bits16",
        "bits1x8",
        "bits2x4",
        "bits4x2",
        "bits8",
        "chalf",
        "complex32",
        "float4_e2m1fn_x2",
        "float8_e4m3fn",
        "float8_e4m3fnuz",
        "float8_e5m2",
        "float8_e5m2fnuz",
        "float8_e8m0fnu",
        "int1",
        "int2",
        "int3",
        "int4",
        "int5",
        "int6",
        "int7",
        "legacy_contiguous_format",
        "uint1",
        "uint2",
        "uint3",
        "uint4",
        "uint5",
        "uint6",
        "uint7",
        # graph capture and compilation: export, symbolic shapes
        "export",
        "package",
        "sym_constrain_range",
        "sym_constrain_range_for_size",
        "sym_fresh_size",
        # storage objects, streams and events
        "BFloat16Storage",
        "BoolStorage",
        "ByteStorage",
        "CharStorage",
        "ComplexDoubleStorage",
        "ComplexFloatStorage",
        "DoubleStorage",
        "FloatStorage",
        "HalfStorage",
        "IntStorage",
        "LongStorage",
        "ShortStorage",
        "Storage",
        "StorageBase",
        # values_copy / indices_copy, which torch's CPU build cannot run on sparse tensors either
        "indices_copy",
        "values_copy",
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
    elif path == "torch":
        # torch imports some submodules on first use (torch.onnx): count them either way
        lazy = {n for n in getattr(torch, "_lazy_modules", ()) if not n.startswith("_")}
        ours, names = numtorch, _public(torch) | lazy
    else:
        theirs = importlib.import_module(f"torch.{path}")
        ours = importlib.import_module(f"numtorch.{path}")
        names = _public(theirs)
    missing = {n for n in names if not hasattr(ours, n)}
    assert sorted(missing - KNOWN_MISSING[path]) == [], "torch names numtorch lacks"
    assert sorted(KNOWN_MISSING[path] - missing) == [], "now present: remove from KNOWN_MISSING"


@pytest.mark.parametrize("name", ["export"])
def test_a_missing_top_level_name_says_numtorch_lacks_that_torch_feature(name):
    import numtorch

    with pytest.raises(AttributeError, match=rf"torch\.{name} is not supported by numtorch"):
        getattr(numtorch, name)
    assert hasattr(torch, name)
