"""``torch.nn.attention.bias``: causal masks ``scaled_dot_product_attention`` takes as its
``attn_mask`` without building them.

A ``CausalBias`` is a Tensor subclass that takes over the attention call it is passed to
(``__torch_function__``): an upper-left mask, or a lower-right one over equal lengths, runs
the attention with ``is_causal=True``; a lower-right one over different lengths runs it with
the boolean mask materialized (torch's CPU path: its fused lower-right kernels are
accelerator kernels).
"""

from __future__ import annotations

import enum
import warnings

import numpy as np

from ..._core.tensor import Tensor
from ...overrides import install_dispatch

__all__ = ["causal_upper_left", "causal_lower_right", "CausalVariant", "CausalBias"]


class CausalVariant(enum.IntEnum):
    """Where the causal triangle sits when the query and key lengths differ: UPPER_LEFT
    keeps ``i >= j`` (query ``i``, key ``j``), LOWER_RIGHT aligns the last query with the
    last key (``i + kv - q >= j``)."""

    UPPER_LEFT = 1
    LOWER_RIGHT = 2


class CausalBias(Tensor):
    """A causal attention mask of ``seq_len_q`` queries and ``seq_len_kv`` keys; build it
    with ``causal_upper_left`` or ``causal_lower_right``.

    Example:
        >>> import numtorch as torch
        >>> from numtorch.nn.attention.bias import causal_lower_right
        >>> causal_lower_right(2, 3)
        tensor([[ True,  True, False],
                [ True,  True,  True]])
    """

    _dispatches_torch_function = True

    def __new__(cls, variant, seq_len_q, seq_len_kv):
        install_dispatch()
        # torch builds the instance with Tensor's legacy constructor from the three
        # arguments: its data is a float tensor of that shape, which nothing reads
        return Tensor._make(np.zeros((int(variant), seq_len_q, seq_len_kv), np.float32), cls)

    def __init__(self, variant: CausalVariant, seq_len_q: int, seq_len_kv: int) -> None:
        if not isinstance(variant, CausalVariant):
            raise AssertionError(f"variant must be a CausalVariant, got {type(variant).__name__}")
        self.variant = variant
        self.seq_len_q = seq_len_q
        self.seq_len_kv = seq_len_kv
        if seq_len_q > seq_len_kv and variant == CausalVariant.LOWER_RIGHT:
            warnings.warn(
                "Lower right causal bias will produce NaNs in the output when seq_len_q > "
                "seq_len_kv!",
                stacklevel=3,
            )

    def _upper_left(self, device=None) -> Tensor:
        return _triangle(self.seq_len_q, self.seq_len_kv, 0)

    def _lower_right(self, device=None) -> Tensor:
        return _triangle(self.seq_len_q, self.seq_len_kv, self.seq_len_kv - self.seq_len_q)

    def _materialize(self, device=None) -> Tensor:
        """The mask as a boolean ``(seq_len_q, seq_len_kv)`` tensor (True = attend)."""
        if self.variant == CausalVariant.UPPER_LEFT:
            return self._upper_left(device)
        return self._lower_right(device)

    @staticmethod
    def _dispatch(
        query, key, value, attn_mask, dropout_p=0.0, is_causal=False, scale=None, enable_gqa=False
    ) -> Tensor:
        from ..functional import scaled_dot_product_attention

        if is_causal:
            raise ValueError("CausalBias should not be used with causal=True")
        if attn_mask.variant not in (CausalVariant.UPPER_LEFT, CausalVariant.LOWER_RIGHT):
            raise ValueError(
                f"CausalBias.variant must be a CausalVariant type, but found: {attn_mask.variant}"
            )
        square = attn_mask.seq_len_q == attn_mask.seq_len_kv
        if square or attn_mask.variant == CausalVariant.UPPER_LEFT:
            mask, is_causal = None, True
        else:
            mask = attn_mask._materialize(query.device)
        return scaled_dot_product_attention(
            query,
            key,
            value,
            attn_mask=mask,
            dropout_p=dropout_p,
            is_causal=is_causal,
            scale=scale,
            enable_gqa=enable_gqa,
        )

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        from ..functional import scaled_dot_product_attention

        if kwargs is None:
            kwargs = {}
        if func is scaled_dot_product_attention:
            return cls._dispatch(*args, **kwargs)
        return super().__torch_function__(func, types, args, kwargs)

    def __repr__(self) -> str:  # the mask it stands for, as torch prints it
        return repr(self._materialize())


def _triangle(rows: int, cols: int, diagonal: int) -> Tensor:
    return Tensor._make(np.tri(rows, cols, diagonal, dtype=bool))


def causal_upper_left(*size) -> CausalBias:
    """A causal mask aligned to the upper left: query ``i`` attends to keys ``j <= i``."""
    if len(size) != 2:
        raise AssertionError("causal_upper_left only supports 2D tensors")
    return CausalBias(CausalVariant.UPPER_LEFT, *size)


def causal_lower_right(*size) -> CausalBias:
    """A causal mask aligned to the lower right: the last query attends to every key."""
    if len(size) != 2:
        raise AssertionError("causal_lower_right only supports 2D tensors")
    return CausalBias(CausalVariant.LOWER_RIGHT, *size)
