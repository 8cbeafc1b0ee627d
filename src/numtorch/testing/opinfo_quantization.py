"""Op samples for fake quantization (straight-through gradients: gradcheck is not defined,
since the forward is a staircase whose finite-difference slope is zero; parity with torch
checks the gradient)."""

from __future__ import annotations

import numpy as np

from .opinfo import OpInfo, Sample


def _spread(rng, *shape):
    # values on both sides of the grid's clamp bounds, away from rounding ties
    return rng.uniform(-4.0, 4.0, shape) + 0.01


def _samples(rng):
    return [Sample((_spread(rng, 5),)), Sample((_spread(rng, 2, 3),)), Sample((_spread(rng),))]


def _ref_per_tensor(x, scale, zero_point, low, high):
    q = np.clip(np.round(x / scale) + zero_point, low, high)
    return (q - zero_point) * scale


_CHANNEL_SCALES = np.array([0.25, 0.5, 0.125])
_CHANNEL_ZEROS = np.array([0, 1, -1])


QUANTIZATION_OPS = [
    OpInfo(
        "fake_quantize_per_tensor_affine",
        lambda t, x: t.fake_quantize_per_tensor_affine(x, 0.25, 2, -8, 7),
        _samples,
        lambda x: _ref_per_tensor(x, 0.25, 2, -8, 7),
        grad=False,
    ),
    OpInfo(
        "fake_quantize_per_tensor_affine_tensor_qparams",
        lambda t, x: t.fake_quantize_per_tensor_affine(
            x, t.tensor(0.5), t.tensor(-1, dtype=t.int32), -4, 4
        ),
        _samples,
        lambda x: _ref_per_tensor(x, 0.5, -1, -4, 4),
        grad=False,
    ),
    OpInfo(
        "fake_quantize_per_channel_affine",
        lambda t, x: t.fake_quantize_per_channel_affine(
            x,
            t.tensor(_CHANNEL_SCALES, dtype=t.float32),
            t.tensor(_CHANNEL_ZEROS, dtype=t.int32),
            1,
            -8,
            7,
        ),
        lambda rng: [Sample((_spread(rng, 2, 3),)), Sample((_spread(rng, 4, 3, 2),))],
        lambda x: _ref_per_tensor(
            x,
            _CHANNEL_SCALES.reshape(1, 3, *([1] * (x.ndim - 2))),
            _CHANNEL_ZEROS.reshape(1, 3, *([1] * (x.ndim - 2))),
            -8,
            7,
        ),
        grad=False,
    ),
]
