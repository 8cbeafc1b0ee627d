"""Rearranging primitives: ``im2col``/``col2im`` (``F.unfold``/``F.fold``, grad_fns
``Im2ColBackward0``/``Col2ImBackward0``) and ``pixel_shuffle``/``pixel_unshuffle``.

Each pair are adjoints of each other, so each one's derivative is the other (double backward
for free). im2col copies a strided (N, C, kH, kW, oH, oW) view of the padded input; col2im adds
the columns back with one strided add per kernel offset (a loop over kH * kW offsets, never
over pixels); overlapping blocks accumulate.
"""

from __future__ import annotations

from ..._core import batch_rules
from ..._core.kernel_dtypes import BOOL, COMPLEX, FLOATS, kernel
from ..._core.op import defop
from ...autograd.forward_grad import batched
from ...backend import xp

_as_strided = xp.lib.stride_tricks.as_strided


def block_counts(size, kernel, dilation, padding, stride) -> tuple:
    """Number of sliding blocks along each of the two spatial dims."""
    return tuple(
        (s + 2 * p - d * (k - 1) - 1) // st + 1
        for s, k, d, p, st in zip(size, kernel, dilation, padding, stride)
    )


def _blocks_view(xpad, kernel, dilation, stride, blocks):
    n, c = xpad.shape[:2]
    s_n, s_c, s_h, s_w = xpad.strides
    shape = (n, c, *kernel, *blocks)
    strides = (s_n, s_c, dilation[0] * s_h, dilation[1] * s_w, stride[0] * s_h, stride[1] * s_w)
    return _as_strided(xpad, shape, strides, writeable=False)


def _im2col(input, kernel, dilation, padding, stride):
    batched = input.ndim == 4
    x = input if batched else input[None]
    n, c, h, w = x.shape
    if any(padding):
        xpad = xp.zeros((n, c, h + 2 * padding[0], w + 2 * padding[1]), x.dtype)
        xpad[:, :, padding[0] : padding[0] + h, padding[1] : padding[1] + w] = x
    else:
        xpad = xp.ascontiguousarray(x)
    blocks = block_counts((h, w), kernel, dilation, padding, stride)
    view = _blocks_view(xpad, kernel, dilation, stride, blocks)
    cols = view.reshape(n, c * kernel[0] * kernel[1], blocks[0] * blocks[1])
    return cols if batched else cols[0]


def _col2im(input, output_size, kernel, dilation, padding, stride):
    batched = input.ndim == 3
    cols = input if batched else input[None]
    n = cols.shape[0]
    c = cols.shape[1] // (kernel[0] * kernel[1])
    blocks = block_counts(output_size, kernel, dilation, padding, stride)
    cols = cols.reshape(n, c, *kernel, *blocks)
    padded = (output_size[0] + 2 * padding[0], output_size[1] + 2 * padding[1])
    out = xp.zeros((n, c, *padded), cols.dtype)
    for i in range(kernel[0]):
        for j in range(kernel[1]):
            rows = slice(
                i * dilation[0], i * dilation[0] + stride[0] * (blocks[0] - 1) + 1, stride[0]
            )
            columns = slice(
                j * dilation[1], j * dilation[1] + stride[1] * (blocks[1] - 1) + 1, stride[1]
            )
            out[:, :, rows, columns] += cols[:, :, i, j]
    out = out[
        :, :, padding[0] : padding[0] + output_size[0], padding[1] : padding[1] + output_size[1]
    ]
    out = xp.ascontiguousarray(out)
    return out if batched else out[0]


@defop(
    batch=batch_rules.leading(2),
    name="im2col",
    node="Im2ColBackward0",
    dtypes=kernel("im2col_out_cpu", BOOL | FLOATS | COMPLEX),
    input=lambda grad, input_shape, kernel, dilation, padding, stride: col2im_op(
        grad, tuple(input_shape[-2:]), kernel, dilation, padding, stride
    ),
    jvp="linear",
)
def im2col_op(input, kernel, dilation, padding, stride):
    return _im2col(input, kernel, dilation, padding, stride)


@defop(
    name="col2im",
    node="Col2ImBackward0",
    dtypes=kernel("col2im_out_cpu", BOOL | FLOATS | COMPLEX),
    input=lambda grad, kernel, dilation, padding, stride: im2col_op(
        grad, kernel, dilation, padding, stride
    ),
    jvp="linear",
)
def col2im_op(input, output_size, kernel, dilation, padding, stride):
    return _col2im(input, output_size, kernel, dilation, padding, stride)


# -- pixel shuffle ---------------------------------------------------------------------------
def _shuffle(x, r):
    lead, (c, h, w) = x.shape[:-3], x.shape[-3:]
    k = len(lead)
    y = x.reshape(*lead, c // (r * r), r, r, h, w)
    y = y.transpose(*range(k), k, k + 3, k + 1, k + 4, k + 2)
    # torch's kernel writes a new contiguous tensor: a reshape can be a view of the input
    # (of an expanded one, read-only, with stride 0)
    return xp.array(y.reshape(*lead, c // (r * r), h * r, w * r), order="C")


def _unshuffle(x, r):
    lead, (c, h, w) = x.shape[:-3], x.shape[-3:]
    k = len(lead)
    y = x.reshape(*lead, c, h // r, r, w // r, r)
    y = y.transpose(*range(k), k, k + 2, k + 4, k + 1, k + 3)
    return xp.array(y.reshape(*lead, c * r * r, h // r, w // r), order="C")  # (as _shuffle)


@defop(
    batch=batch_rules.first_only,
    name="pixel_shuffle",
    input=lambda grad, upscale_factor: pixel_unshuffle_op(grad, upscale_factor),
    jvp=batched(lambda input_t, upscale_factor: pixel_shuffle_op(input_t, upscale_factor)),
)
def pixel_shuffle_op(input, upscale_factor):
    return _shuffle(input, upscale_factor)


@defop(
    batch=batch_rules.first_only,
    name="pixel_unshuffle",
    input=lambda grad, downscale_factor: pixel_shuffle_op(grad, downscale_factor),
    jvp=batched(lambda input_t, downscale_factor: pixel_unshuffle_op(input_t, downscale_factor)),
)
def pixel_unshuffle_op(input, downscale_factor):
    if input.size == 0:
        # torch returns an empty input unchanged, shape included (so pixel_shuffle's backward
        # of an empty input fails torch's gradient shape check, as it does here)
        return input.copy()
    return _unshuffle(input, downscale_factor)
