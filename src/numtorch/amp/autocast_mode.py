"""``torch.autocast``: regions where chosen ops run in a lower precision.

On the CPU, torch runs matrix products and convolutions in bfloat16 (or float16) and forces
ops that need range or accuracy (losses, reductions of products, linear algebra, 3-D pooling,
some paddings) to float32. Other ops run in their inputs' dtype. The lists below were read
off torch's CPU build, op by op: which output dtype each gives under autocast.

While a region is active the op runner hands every op to it (``cast_op``, ``cast_call``);
the casts are ordinary recorded ``to`` calls, so gradients flow back in the inputs' dtypes.
"""

from __future__ import annotations

import functools
import warnings

from .._core import dtypes as _dtypes
from .._core.observers import dispatch, refresh_slow
from .._core.tensor import Tensor
from .._creation import device as _device

# Ops torch's CPU autocast runs in the lower precision: numtorch op names and composites.
LOWER_PRECISION_OPS = frozenset(
    {
        "mm",
        "bmm",
        "addmm",
        "addbmm",
        "baddbmm",
        "convolution",
        "einsum",
        "_prelu_kernel",
        "_scaled_dot_product_flash_attention_for_cpu",
        "aten::linear",
        "aten::matmul",
        "aten::conv1d",
        "aten::conv2d",
        "aten::conv3d",
        "mkldnn_rnn_layer",
    }
)

# Ops it runs in float32 whatever the input precision.
FLOAT32_OPS = frozenset(
    {
        "prod_all",
        "prod_dim",
        "nll_loss",
        "nll_loss2d",
        "mse_loss",
        "huber_loss",
        "smooth_l1_loss",
        "soft_margin_loss",
        "binary_cross_entropy",
        "binary_cross_entropy_with_logits",
        "multi_margin_loss",
        "avg_pool3d",
        "max_pool3d_with_indices",
        "adaptive_avg_pool3d",
        "adaptive_max_pool3d",
        "max_unpool2d",
        "max_unpool3d",
        "reflect_pad1d",
        "reflect_pad2d",
        "replicate_pad1d",
        "replicate_pad2d",
        "replicate_pad3d",
        "grid_sampler_2d",
        "grid_sampler_3d",
        "_cdist_forward",
        "trace",
        "linalg_inv_ex",
        "linalg_pinv",
        "linalg_cholesky_ex",
        "cholesky_legacy",
        "linalg_svd",
        "linalg_qr",
        "linalg_solve_ex",
        "linalg_eigh",
        "cholesky_solve",
        "cholesky_inverse",
        "_ctc_loss",
        "aten::cross_entropy_loss",
        "aten::l1_loss",
        "aten::kl_div",
        "aten::poisson_nll_loss",
        "aten::margin_ranking_loss",
        "aten::hinge_embedding_loss",
        "aten::cosine_embedding_loss",
        "aten::triplet_margin_loss",
    }
)

_DEFAULT_DTYPE = {"cpu": _dtypes.bfloat16, "cuda": _dtypes.float16}
_CPU_DTYPES = (_dtypes.bfloat16, _dtypes.float16)
_enabled = {"cpu": False}
_fast_dtype = dict(_DEFAULT_DTYPE)


def is_autocast_enabled(device_type: str | None = None) -> bool:
    """Whether autocast is on for ``device_type`` (CUDA when not given, as in torch)."""
    return _enabled.get("cuda" if device_type is None else device_type, False)


def get_autocast_dtype(device_type: str):
    return _fast_dtype.get(device_type, _dtypes.float16)


def is_autocast_cpu_enabled() -> bool:
    warnings.warn(
        "torch.is_autocast_cpu_enabled() is deprecated. Please use "
        "torch.is_autocast_enabled('cpu') instead.",
        DeprecationWarning,
        stacklevel=2,
    )
    return _enabled["cpu"]


def get_autocast_cpu_dtype():
    warnings.warn(
        "torch.get_autocast_cpu_dtype() is deprecated. Please use "
        "torch.get_autocast_dtype('cpu') instead.",
        DeprecationWarning,
        stacklevel=2,
    )
    return _fast_dtype["cpu"]


# Casts of float32 leaves that require grad (the weights), kept while the outermost region
# lasts, as torch's cache does: a weight used twice is cast once, so its two gradients meet
# in the low precision before the one cast back. id -> (tensor, its cast).
_weight_casts: dict = {}


def _cast(value, target, eligible):
    if isinstance(value, Tensor):
        if value.dtype in eligible and value.dtype is not target:
            cacheable = (
                target is not _dtypes.float32
                and value.dtype is _dtypes.float32
                and value.requires_grad
                and value.is_leaf
                and value._base is None
                and dispatch.autocast is not None
                and dispatch.autocast._cache_enabled is not False
                and _state["cache"]
            )
            if not cacheable:
                return value.to(target)
            hit = _weight_casts.get(id(value))
            if hit is None or hit[0] is not value:
                hit = _weight_casts[id(value)] = (value, value.to(target))
            return hit[1]
    elif isinstance(value, (list, tuple)) and value and isinstance(value[0], Tensor):
        return type(value)(_cast(v, target, eligible) for v in value)  # einsum's operands
    return value


class autocast:
    """Run the ops of a region in mixed precision (a context manager and a decorator).

    Example:
        >>> import numtorch as torch
        >>> with torch.autocast("cpu", dtype=torch.bfloat16):
        ...     y = torch.ones(2, 3) @ torch.ones(3, 2)
        >>> y.dtype
        torch.bfloat16
    """

    def __init__(self, device_type: str, dtype=None, enabled: bool = True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.device = _device(device_type).type
        # torch's default is the device's current autocast dtype (set_autocast_dtype)
        self.fast_dtype = get_autocast_dtype(self.device) if dtype is None else dtype
        self._cache_enabled = cache_enabled
        if enabled and self.device != "cpu":
            name = {"cuda": "CUDA is not available or torch_xla is imported"}.get(
                self.device, f"{self.device} autocast is not available on a CPU-only build"
            )
            warnings.warn(f"{name}. Disabling autocast.", UserWarning, stacklevel=2)
            enabled = False
        if enabled and self.fast_dtype not in _CPU_DTYPES:
            warnings.warn(
                "In CPU autocast, but the target dtype is not supported. Disabling autocast.\n"
                "CPU Autocast only supports dtypes of torch.bfloat16, torch.float16 currently.",
                UserWarning,
                stacklevel=2,
            )
            enabled = False
        self._enabled = enabled
        self._saved = []

    def __enter__(self):
        if self.device != "cpu":
            return self
        self._saved.append((dispatch.autocast, _enabled["cpu"], _fast_dtype["cpu"]))
        autocast_increment_nesting()
        _enabled["cpu"] = self._enabled
        _fast_dtype["cpu"] = self.fast_dtype
        dispatch.autocast = self if self._enabled else None
        refresh_slow()
        return self

    def __exit__(self, *exc):
        if self.device != "cpu":
            return False
        dispatch.autocast, _enabled["cpu"], _fast_dtype["cpu"] = self._saved.pop()
        if autocast_decrement_nesting() == 0:
            _weight_casts.clear()  # the outermost region ends: so does the cache
        refresh_slow()
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self:
                return fn(*args, **kwargs)

        return wrapper

    def _policy(self, name: str):
        if name in LOWER_PRECISION_OPS:
            return self.fast_dtype, (_dtypes.float32, _dtypes.float16, _dtypes.bfloat16)
        if name in FLOAT32_OPS:
            return _dtypes.float32, (_dtypes.float16, _dtypes.bfloat16)
        return None, None

    def cast_op(self, name: str, args):
        """The arguments of op ``name`` cast as the region's policy says."""
        target, eligible = self._policy(name)
        if target is None:
            return args
        return type(args)(_cast(a, target, eligible) for a in args)

    def cast_call(self, name: str, args: tuple, kwargs: dict):
        target, eligible = self._policy(name)
        if target is None:
            return args, kwargs
        args = tuple(_cast(a, target, eligible) for a in args)
        kwargs = {k: _cast(v, target, eligible) for k, v in kwargs.items()}
        return args, kwargs


def deprecated_spelling(old: str, new: str) -> None:
    warnings.warn(
        f"`{old}(args...)` is deprecated. Please use `{new}` instead.",
        FutureWarning,
        stacklevel=3,
    )


# The global switches torch keeps beside its regions (torch.set_autocast_enabled, ...): the
# region nesting depth and whether casts of weights are cached.
_state = {"nesting": 0, "cache": True}


def _check_bool(op: str, value, position: int = 2) -> None:
    if not isinstance(value, bool):
        raise TypeError(
            f"{op}(): argument 'enabled' (position {position}) must be bool, "
            f"not {type(value).__name__}"
        )


def _sync_dispatch() -> None:
    """Point the op runner at a region built from the global CPU switches."""
    if _enabled["cpu"]:
        region = autocast("cpu", dtype=_dtypes.bfloat16)
        region.fast_dtype = _fast_dtype["cpu"]  # any dtype: the setters do not refuse one
        dispatch.autocast = region
    else:
        dispatch.autocast = None
    refresh_slow()


def set_autocast_enabled(device_type, enabled=None) -> None:
    """Turn autocast on or off for ``device_type`` outside any region (CUDA when only
    ``enabled`` is given, as in torch)."""
    if enabled is None:  # the legacy one-argument form names CUDA
        device_type, enabled = "cuda", device_type
        _check_bool("set_autocast_enabled", enabled, 1)
    else:
        _check_bool("set_autocast_enabled", enabled)
    device_type = _device(device_type).type
    _enabled[device_type] = enabled
    if device_type == "cpu":
        _sync_dispatch()


def set_autocast_dtype(device_type: str, dtype) -> None:
    """The dtype autocast regions on ``device_type`` use by default."""
    if not isinstance(dtype, _dtypes.dtype):
        raise TypeError(
            "set_autocast_dtype(): argument 'dtype' (position 2) must be torch.dtype, "
            f"not {type(dtype).__name__}"
        )
    device_type = _device(device_type).type
    _fast_dtype[device_type] = dtype
    if device_type == "cpu" and _enabled["cpu"]:
        _sync_dispatch()


def set_autocast_cpu_enabled(enabled: bool) -> None:
    warnings.warn(
        "torch.set_autocast_cpu_enabled(enabled) is deprecated. Please use "
        "torch.set_autocast_enabled('cpu', enabled) instead.",
        DeprecationWarning,
        stacklevel=2,
    )
    if not isinstance(enabled, bool):
        raise TypeError(f"enabled must be a bool (got {type(enabled).__name__})")
    set_autocast_enabled("cpu", enabled)


def set_autocast_cpu_dtype(dtype) -> None:
    warnings.warn(
        "torch.set_autocast_cpu_dtype(dtype) is deprecated. Please use "
        "torch.set_autocast_dtype('cpu', dtype) instead.",
        DeprecationWarning,
        stacklevel=2,
    )
    set_autocast_dtype("cpu", dtype)


def is_autocast_cache_enabled() -> bool:
    return _state["cache"]


def set_autocast_cache_enabled(enabled: bool) -> None:
    if not isinstance(enabled, bool):
        raise TypeError(f"enabled must be a bool (got {type(enabled).__name__})")
    _state["cache"] = enabled


def clear_autocast_cache() -> None:
    _weight_casts.clear()


def autocast_increment_nesting() -> int:
    """One more autocast region entered; returns the depth."""
    _state["nesting"] += 1
    return _state["nesting"]


def autocast_decrement_nesting() -> int:
    """One autocast region left; returns the depth (negative when unbalanced, as in torch)."""
    _state["nesting"] -= 1
    return _state["nesting"]
