"""``torch.backends.cuda``: settable matmul flags and the attention-kernel switches; CUDA is
never built in.

The ``*_sdp_enabled``/``enable_*_sdp`` switches are the ones ``scaled_dot_product_attention``
reads on every device: they share their state with ``torch.nn.attention.sdpa_kernel``.
"""

import contextlib
import warnings

from .. import _runtime
from ..nn import attention as _attention
from ..nn.attention import SDPBackend


class _Matmul:
    """``torch.backends.cuda.matmul``. ``allow_tf32`` is another view of the float32 matmul
    precision, as in torch: setting it picks "high" (True) or "highest" (False), and
    ``set_float32_matmul_precision`` below "highest" reads back as True."""

    allow_fp16_reduced_precision_reduction = True
    allow_bf16_reduced_precision_reduction = True

    @property
    def allow_tf32(self) -> bool:
        return _runtime.get_float32_matmul_precision() != "highest"

    @allow_tf32.setter
    def allow_tf32(self, value) -> None:
        _runtime.set_float32_matmul_precision("high" if value else "highest")


matmul = _Matmul()
_math_reduced_precision = [False]


def is_built() -> bool:
    return False


def is_flash_attention_available() -> bool:
    return False


def is_ck_sdpa_available() -> bool:
    return False


def _set_backend(backend: SDPBackend, enabled: bool) -> None:
    kept = [b for b in _attention._enabled if b != backend]
    _attention._enabled[:] = [
        b for b in _attention._KERNELS if b in kept or (enabled and b == backend)
    ]


def flash_sdp_enabled() -> bool:
    return _attention._backend_enabled(SDPBackend.FLASH_ATTENTION)


def enable_flash_sdp(enabled: bool) -> None:
    _set_backend(SDPBackend.FLASH_ATTENTION, enabled)


def mem_efficient_sdp_enabled() -> bool:
    return _attention._backend_enabled(SDPBackend.EFFICIENT_ATTENTION)


def enable_mem_efficient_sdp(enabled: bool) -> None:
    _set_backend(SDPBackend.EFFICIENT_ATTENTION, enabled)


def math_sdp_enabled() -> bool:
    return _attention._backend_enabled(SDPBackend.MATH)


def enable_math_sdp(enabled: bool) -> None:
    _set_backend(SDPBackend.MATH, enabled)


def cudnn_sdp_enabled() -> bool:
    return _attention._backend_enabled(SDPBackend.CUDNN_ATTENTION)


def enable_cudnn_sdp(enabled: bool) -> None:
    _set_backend(SDPBackend.CUDNN_ATTENTION, enabled)


def fp16_bf16_reduction_math_sdp_allowed() -> bool:
    return _math_reduced_precision[0]


def allow_fp16_bf16_reduction_math_sdp(enabled: bool) -> None:
    _math_reduced_precision[0] = bool(enabled)


@contextlib.contextmanager
def sdp_kernel(enable_flash=True, enable_math=True, enable_mem_efficient=True, enable_cudnn=True):
    """The deprecated form of ``torch.nn.attention.sdpa_kernel``, one flag per backend."""
    warnings.warn(
        "`torch.backends.cuda.sdp_kernel()` is deprecated. In the future, this context manager "
        "will be removed. Please see `torch.nn.attention.sdpa_kernel()` for the new context "
        "manager, with updated signature.",
        FutureWarning,
        stacklevel=3,
    )
    flags = (
        (enable_flash, SDPBackend.FLASH_ATTENTION),
        (enable_mem_efficient, SDPBackend.EFFICIENT_ATTENTION),
        (enable_math, SDPBackend.MATH),
        (enable_cudnn, SDPBackend.CUDNN_ATTENTION),
    )
    with _attention.sdpa_kernel([backend for on, backend in flags if on]) as context:
        yield context
