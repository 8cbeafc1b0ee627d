"""numtorch: PyTorch's autograd in pure Python on NumPy, with torch's public API.

Use it as ``import numtorch as torch``.
"""

import importlib
import warnings

from ._core import dtypes as _dtypes
from ._creation import (
    Generator,
    arange,
    as_tensor,
    asarray,
    bernoulli,
    default_generator,
    device,
    empty,
    empty_like,
    eye,
    from_numpy,
    full,
    full_like,
    get_rng_state,
    initial_seed,
    linspace,
    logspace,
    manual_seed,
    multinomial,
    normal,
    ones,
    ones_like,
    rand,
    rand_like,
    randint,
    randint_like,
    randn,
    randn_like,
    randperm,
    seed,
    set_rng_state,
    tensor,
    zeros,
    zeros_like,
)
from ._core.dtypes import (
    bfloat16,
    bool_ as bool,
    cdouble,
    cfloat,
    complex64,
    complex128,
    double,
    dtype,
    float,
    float16,
    float32,
    float64,
    finfo,
    get_default_dtype,
    half,
    iinfo,
    int,
    int8,
    int16,
    int32,
    int64,
    long,
    promote_types,
    set_default_dtype,
    short,
    uint8,
    uint16,
    uint32,
    uint64,
)
from ._core.tensor import Size, Tensor
from ._core.tensor_str import set_printoptions
from ._core.grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from ._core.anomaly_mode import (
    is_anomaly_check_nan_enabled,
    is_anomaly_enabled,
    set_anomaly_enabled,
)
from .ops import FUNCTIONS as _FUNCTIONS
from . import autograd, backends, cuda, linalg, special
from . import fft, sparse
from .ops.sparse import layout, sparse_coo, sparse_coo_tensor, strided
from .ops.sparse_compressed import (
    ccol_indices_copy,
    col_indices_copy,
    crow_indices_copy,
    row_indices_copy,
    sparse_bsc,
    sparse_bsr,
    sparse_csc,
    sparse_csr,
)
from .ops.sparse_compressed_construction import (
    sparse_bsc_tensor,
    sparse_bsr_tensor,
    sparse_compressed_tensor,
    sparse_csc_tensor,
    sparse_csr_tensor,
)
from .ops.linalg import mm as spmm
from . import nn
from . import _nn_functions
from ._tensor_queries import (
    channels_last,
    channels_last_3d,
    contiguous_format,
    is_floating_point,
    is_inference,
    is_tensor,
    memory_format,
    numel,
    preserve_format,
    result_type,
)
from ._memory_layout import empty_permuted
from . import _grad_dtype
from ._mapped_files import from_file
from ._runtime import (
    are_deterministic_algorithms_enabled,
    detach,
    get_default_device,
    get_deterministic_debug_mode,
    get_float32_matmul_precision,
    get_num_interop_threads,
    get_num_threads,
    is_deterministic_algorithms_warn_only_enabled,
    is_storage,
    is_warn_always_enabled,
    set_default_device,
    set_deterministic_debug_mode,
    set_flush_denormal,
    set_float32_matmul_precision,
    set_num_interop_threads,
    set_num_threads,
    set_warn_always,
    typename,
    use_deterministic_algorithms,
)
from .nn.functional import (  # torch's top-level names for these nn functions
    cosine_similarity,
    pairwise_distance,
    pdist,
    pixel_shuffle,
    pixel_unshuffle,
    rms_norm,
)

from ._embedding_bag import embedding_bag
from .ops.boundary import publish as _publish

globals().update({_name: _publish(_name, _fn) for _name, _fn in _FUNCTIONS.items()})
# the factories too: torch's out= and its error for a tensor too large to allocate
for _name in ("zeros", "ones", "empty", "full", "arange", "linspace", "logspace", "eye",
              "rand", "randn", "randint", "randperm"):  # fmt: skip
    globals()[_name] = _publish(_name, globals()[_name])
for _name in ("numel", "multinomial"):  # torch's TypeError for a NumPy array given to them
    globals()[_name] = _publish(_name, globals()[_name])

from .version import __version__

from . import accelerator, amp, cpu, mps, xpu
from . import random
from .amp import (
    autocast,
    get_autocast_cpu_dtype,
    get_autocast_dtype,
    is_autocast_cpu_enabled,
    is_autocast_enabled,
)
from .amp.autocast_mode import (
    autocast_decrement_nesting,
    autocast_increment_nesting,
    clear_autocast_cache,
    is_autocast_cache_enabled,
    set_autocast_cache_enabled,
    set_autocast_cpu_dtype,
    set_autocast_cpu_enabled,
    set_autocast_dtype,
    set_autocast_enabled,
)
from ._legacy_types import CPU_TYPES as _LEGACY_TYPES
from ._legacy_types import set_default_tensor_type
from .storage import TypedStorage, UntypedStorage
from ._lowrank import pca_lowrank, svd_lowrank

globals().update(_LEGACY_TYPES)

# torch exposes math's constants at the top level (torch.pi, torch.e, torch.inf, torch.nan)
from math import e, inf, nan, pi

from . import compiler, types, version
from .compiler import compile
from . import functional, return_types, torch_version
from ._device_modules import get_device_module
from .amp import GradScaler
from ._buffers import from_dlpack, frombuffer, to_dlpack
from ._build_features import (
    AcceleratorError,
    OutOfMemoryError,
    compiled_with_cxx11_abi,
    has_lapack,
    has_mkl,
    has_openmp,
    has_spectral,
    init_num_threads,
    is_distributed,
    is_vulkan_available,
    newaxis,
)
from .ops.removed_linalg import eig, lstsq, matrix_rank, solve, symeig
from ._symbolic import (
    SymBool,
    SymFloat,
    SymInt,
    sym_float,
    sym_int,
    sym_ite,
    sym_max,
    sym_min,
    sym_not,
    sym_sqrt,
    sym_sum,
)
from ._foreach import FOREACH as _FOREACH
from ._runtime import _assert
from . import overrides
from .overrides import DisableTorchFunction, DisableTorchFunctionSubclass
from . import _C
from . import futures
from .futures import Future
from ._async import fork, wait
from ._streams import Event, Stream

globals().update(_FOREACH)

# Note [Lazy submodules]: these load on first attribute access (PEP 562), so a bare
# ``import numtorch`` costs the core and the op registry only. None of them registers ops or
# Tensor methods, so what they define is the same whenever they load;
# tests/test_import_lazy.py checks both.
_LAZY_SUBMODULES = frozenset(
    {
        "_dynamo",
        "_utils",
        "compiler",
        "distributed",
        "distributions",
        "func",
        "fx",
        "jit",
        "library",
        "masked",
        "multiprocessing",
        "onnx",
        "optim",
        "quasirandom",
        "profiler",
        "serialization",
        "signal",
        "testing",
        "utils",
        "__future__",
        "ao",
        "quantization",
        "hub",
        "__config__",
    }
)
_LAZY_NAMES = {"vmap": "func", "load": "serialization", "save": "serialization"}
_LAZY_NAMES["windows"] = "signal"  # torch.windows is torch.signal.windows
_LAZY_NAMES.update(cond="_control_flow", while_loop="_control_flow")
_LAZY_NAMES["lobpcg"] = "_lobpcg"


# type(x) prints <class 'torch.Tensor'>: torch's classes name the module they are public in
for _cls in (Tensor, Size, dtype, device, finfo, iinfo, memory_format):
    _cls.__module__ = __name__
no_grad.__module__ = enable_grad.__module__ = f"{__name__}.autograd.grad_mode"
del _cls


# torch.has_cuda and its siblings: deprecated module attributes that warn and ask the backend
_DEPRECATED_PROBES = {
    "has_mps": "backends.mps.is_built",
    "has_cuda": "backends.cuda.is_built",
    "has_cudnn": "backends.cudnn.is_available",
    "has_mkldnn": "backends.mkldnn.is_available",
}


def __getattr__(name):
    if name in _LAZY_SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    if name in _LAZY_NAMES:
        value = getattr(importlib.import_module(f"{__name__}.{_LAZY_NAMES[name]}"), name)
        globals()[name] = value
        return value
    if name in _DEPRECATED_PROBES:
        probe = _DEPRECATED_PROBES[name]
        warnings.warn(f"'{name}' is deprecated, please use 'torch.{probe}()'", stacklevel=2)
        module, _, function = probe.rpartition(".")
        return getattr(importlib.import_module(f"{__name__}.{module}"), function)()
    if name.startswith("_"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    # A torch name numtorch lacks: say so, naming the torch feature, rather than a bare
    # "module has no attribute" that reads like a typo in the user's program.
    raise AttributeError(
        f"torch.{name} is not supported by numtorch (module 'numtorch' has no attribute "
        f"'{name}'); see README.md for what numtorch implements"
    )


def __dir__():
    return sorted(set(globals()) | _LAZY_SUBMODULES | set(_LAZY_NAMES))


# quantized tensors (Note [Quantized tensors] in _quantized/tensor.py)
from ._core.dtypes import qint8, qint32, quint2x4, quint4x2, quint8
from ._quantized import dispatch as _quantized_dispatch
from ._quantized.functions import (
    dequantize,
    int_repr,
    q_per_channel_axis,
    q_per_channel_scales,
    q_per_channel_zero_points,
    q_scale,
    q_zero_point,
)
from ._quantized.quantize import (
    quantize_per_channel,
    quantize_per_tensor,
    quantize_per_tensor_dynamic,
)
from ._quantized.tensor import (
    per_channel_affine,
    per_channel_affine_float_qparams,
    per_channel_symmetric,
    per_tensor_affine,
    per_tensor_symmetric,
    qscheme,
)
from ._quantized.fake import fake_quantize_per_channel_affine, fake_quantize_per_tensor_affine
from ._quantized.functional import (
    quantized_batch_norm,
    quantized_max_pool1d,
    quantized_max_pool2d,
)

from . import nested  # last: NestedTensor builds on the ops, autograd and overrides above
