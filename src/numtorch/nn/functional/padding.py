"""``pad`` of ``numtorch.nn.functional``."""

from __future__ import annotations

from ..._core.tensor import Tensor
from ...ops.nn.padding import constant_pad_nd, mode_pad


def pad(input: Tensor, pad, mode: str = "constant", value=None) -> Tensor:
    """Pad the last ``len(pad) // 2`` dims; ``pad`` lists (left, right) from the last dim.

    Modes: ``constant`` (with ``value``, negative pads crop), ``reflect``, ``replicate``,
    ``circular``.

    Example:
        >>> import numtorch as torch
        >>> torch.nn.functional.pad(torch.ones(1, 2), (1, 1))
        tensor([[0., 1., 1., 0.]])
    """
    pad = tuple(int(p) for p in pad)
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.ndim:
        raise RuntimeError(
            "Padding length should be less than or equal to two times the input dimension but "
            f"got padding length {len(pad)} and input of dimension {input.ndim}"
        )
    if mode == "constant":
        return constant_pad_nd(input, pad, 0 if value is None else value)
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    if mode not in ("reflect", "replicate", "circular"):
        raise NotImplementedError(
            f"Unrecognised padding mode {mode}: use constant, reflect, replicate or circular"
        )
    return mode_pad(input, pad, mode)
