"""``torch.nn.attention``: choosing the kernel behind ``scaled_dot_product_attention``.

numtorch has torch's two CPU kernels: the fused (flash) one, taken when the inputs allow it,
and the composite math one. ``sdpa_kernel`` enables a set of backends for a ``with`` block;
the others (efficient, cuDNN, overrideable) are accelerator kernels, so enabling only those
leaves no kernel on CPU, as in torch.
"""

from __future__ import annotations

import contextlib
import enum

__all__ = ["SDPBackend", "sdpa_kernel"]


class SDPBackend(enum.IntEnum):
    """The kernels ``scaled_dot_product_attention`` can dispatch to."""

    ERROR = -1
    MATH = 0
    FLASH_ATTENTION = 1
    EFFICIENT_ATTENTION = 2
    CUDNN_ATTENTION = 3
    OVERRIDEABLE = 4

    def __str__(self):  # torch's enum prints its qualified name, not the integer
        return f"SDPBackend.{self.name}"


_KERNELS = (
    SDPBackend.CUDNN_ATTENTION,
    SDPBackend.FLASH_ATTENTION,
    SDPBackend.EFFICIENT_ATTENTION,
    SDPBackend.MATH,
    SDPBackend.OVERRIDEABLE,
)
_enabled: list[SDPBackend] = list(_KERNELS)


def _cur_sdpa_kernel_backends(with_priority: bool = False) -> list[SDPBackend]:
    """The enabled backends, in torch's default priority order."""
    return list(_enabled)


def _backend_enabled(backend: SDPBackend) -> bool:
    return backend in _enabled


@contextlib.contextmanager
def sdpa_kernel(backends, set_priority: bool = False):
    """Enable only ``backends`` (one ``SDPBackend`` or a list) inside the ``with`` block.

    Example:
        >>> import numtorch as torch
        >>> from numtorch.nn.attention import SDPBackend, sdpa_kernel
        >>> q = torch.ones(1, 1, 2, 4, requires_grad=True)
        >>> with sdpa_kernel(SDPBackend.MATH):
        ...     y = torch.nn.functional.scaled_dot_product_attention(q, q, q)
        >>> type(y.grad_fn).__name__
        'UnsafeViewBackward0'
    """
    if not isinstance(backends, (list, SDPBackend)):
        # torch asserts here (AssertionError), it does not raise TypeError
        raise AssertionError(
            "Backend must be an instance of SDPBackend or a list of SDPBackend instances, "
            f"got {type(backends).__name__}"
        )
    if isinstance(backends, SDPBackend):
        backends = [backends]
    previous = list(_enabled)
    try:
        _enabled[:] = [b for b in _KERNELS if b in backends]
        yield {}
    finally:
        _enabled[:] = previous
