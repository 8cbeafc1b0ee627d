"""Array kernels of convolution: im2col + one GEMM, and the col2im scatter for gradients.

Note [Convolution layout]
For an input (N, C, *spatial), weight (O, C/G, *kernel) and G groups, ``im2col`` copies the
receptive fields into ``cols`` of shape (G, C/G * K, N * L) (K kernel positions, L output
positions per image), so that the whole convolution is one batched GEMM over the groups:
``(G, O/G, C/G*K) @ cols -> (O, N*L)``. Columns run over the batch *inside* the GEMM (one
large product, not N small ones), and the copy reads whole image rows at a time:

- stride 1 everywhere ("flat" mode): the padded image is seen as one flat row per channel;
  a kernel offset is a shift of that row, so output positions are flat positions
  ``q = sum(y_d * P_d)`` (P: padded strides) and the copy moves runs of ``L_flat`` contiguous
  elements. The ``P_d - O_d`` positions at the end of each padded row are computed and
  thrown away (a few percent of the work, for a copy several times faster).
- otherwise: the view (C, *kernel, N, *out) with strides (dilation * P, stride * P) is copied.

The input gradient runs the same GEMM transposed and scatters the columns back with one
strided add per kernel offset (``col2im``): a loop over the K kernel offsets, never over
pixels or images; overlapping windows accumulate. Transposed convolution is the input
gradient of the matching convolution, so these three kernels serve every conv op.
"""

from __future__ import annotations

import math

from ...backend import xp

_as_strided = xp.lib.stride_tricks.as_strided


class Geometry:
    """Index arithmetic of one convolution; ``input_shape`` is the unpadded input's."""

    def __init__(self, input_shape, weight_shape, stride, padding, dilation, groups):
        self.n, self.c = input_shape[0], input_shape[1]
        self.spatial = tuple(input_shape[2:])
        self.o = weight_shape[0]
        self.kernel = tuple(weight_shape[2:])
        self.stride, self.padding, self.dilation = tuple(stride), tuple(padding), tuple(dilation)
        self.groups = groups
        self.padded = tuple(s + 2 * p for s, p in zip(self.spatial, self.padding))
        self.out = tuple(
            (ip - d * (k - 1) - 1) // s + 1
            for ip, k, s, d in zip(self.padded, self.kernel, self.stride, self.dilation)
        )
        # element strides of the padded image, innermost last
        self.row = tuple(math.prod(self.padded[i + 1 :]) for i in range(len(self.padded)))
        self.flat = all(s == 1 for s in self.stride)
        if self.flat:
            self.length = sum((o - 1) * r for o, r in zip(self.out, self.row)) + 1
        else:
            self.length = math.prod(self.out)

    def exact_columns(self, *arrays):
        """Leave the flat layout when an array holds inf or NaN: its discarded positions
        would meet them (0 * inf is NaN) and scatter NaN into real gradient elements."""
        if self.flat and not all(xp.isfinite(a).all() for a in arrays):
            self.flat = False
            self.length = math.prod(self.out)
        return self

    @property
    def k(self) -> int:
        return math.prod(self.kernel)

    def pad(self, x):
        """The zero-padded input (the input itself when there is no padding)."""
        if not any(self.padding) and x.flags.c_contiguous:
            return x
        out = xp.zeros((self.n, self.c) + self.padded, x.dtype)
        out[self._interior()] = x
        return out

    def crop(self, xpad):
        if not any(self.padding):
            return xpad
        return xp.ascontiguousarray(xpad[self._interior()])

    def _interior(self):
        return (slice(None), slice(None)) + tuple(
            slice(p, p + s) for p, s in zip(self.padding, self.spatial)
        )

    def _window_view(self, xpad):
        """(C, *kernel, N, L or *out) view of the padded input (Note [Convolution layout])."""
        item = xpad.itemsize
        n_stride, c_stride = xpad.strides[0], xpad.strides[1]
        kernel_strides = tuple(d * r * item for d, r in zip(self.dilation, self.row))
        if self.flat:
            shape = (self.c,) + self.kernel + (self.n, self.length)
            strides = (c_stride,) + kernel_strides + (n_stride, item)
        else:
            shape = (self.c,) + self.kernel + (self.n,) + self.out
            strides = (
                (c_stride,)
                + kernel_strides
                + (n_stride,)
                + tuple(s * r * item for s, r in zip(self.stride, self.row))
            )
        return _as_strided(xpad, shape, strides, writeable=False)

    def im2col(self, xpad):
        """cols of shape (G, C/G * K, N * L)."""
        cols = xp.ascontiguousarray(self._window_view(xpad))
        return cols.reshape(self.groups, self.c // self.groups * self.k, self.n * self.length)

    def to_output(self, y, bias=None):
        """(O, N * L) GEMM result -> contiguous (N, O, *out), adding ``bias`` on the way."""
        item = y.itemsize
        if self.flat:
            strides = (self.length * item, self.n * self.length * item) + tuple(
                r * item for r in self.row
            )
            view = _as_strided(y, (self.n, self.o) + self.out, strides, writeable=False)
        else:
            view = y.reshape((self.o, self.n) + self.out).swapaxes(0, 1)
        if bias is None:
            return xp.ascontiguousarray(view)
        out = xp.empty((self.n, self.o) + self.out, y.dtype)
        xp.add(view, bias.reshape((1, -1) + (1,) * len(self.out)), out=out)
        return out

    def from_output(self, g):
        """(N, O, *out) gradient -> (O, N * L), zero at the discarded flat positions."""
        if not self.flat:
            return xp.ascontiguousarray(g.swapaxes(0, 1)).reshape(self.o, self.n * self.length)
        g2 = xp.zeros((self.o, self.n, self.length), g.dtype)
        item = g2.itemsize
        strides = (self.length * item, self.n * self.length * item) + tuple(
            r * item for r in self.row
        )
        _as_strided(g2, (self.n, self.o) + self.out, strides)[...] = g
        return g2.reshape(self.o, self.n * self.length)

    def col2im(self, gcols, dtype):
        """Scatter-add (C, *kernel, N, L) columns back into a zero padded input."""
        gxpad = xp.zeros((self.n, self.c) + self.padded, dtype)
        flat = gxpad.reshape(-1)
        item = gxpad.itemsize
        n_stride, c_stride = gxpad.strides[0], gxpad.strides[1]
        if self.flat:
            shape = (self.c, self.n, self.length)
            strides = (c_stride, n_stride, item)
        else:
            shape = (self.c, self.n) + self.out
            strides = (c_stride, n_stride) + tuple(
                s * r * item for s, r in zip(self.stride, self.row)
            )
        gcols = gcols.reshape((self.c,) + self.kernel + shape[1:])
        for offset in xp.ndindex(*self.kernel):
            start = sum(i * d * r for i, d, r in zip(offset, self.dilation, self.row))
            target = _as_strided(flat[start:], shape, strides)
            source = gcols[(slice(None),) + offset]
            xp.add(target, source, out=target)
        return gxpad


def _grouped_weight(w, groups):
    """(O, C/G, *kernel) -> (G, O/G, C/G * K)."""
    return w.reshape(groups, w.shape[0] // groups, -1)


# Columns per forward GEMM, in elements (8 MiB of float32): larger batches run in chunks of
# images, so inference holds one chunk's columns, never the whole batch's (for ResNet-18's
# first layer at batch 8 that is 7 MiB instead of 56 MiB, more than its output).
COLUMN_BUDGET = 1 << 21


def conv_forward(x, w, bias, stride, padding, dilation, groups):
    """Convolution (cross-correlation, as torch) of x (N, C, *s) with w (O, C/G, *k)."""
    geo = Geometry(x.shape, w.shape, stride, padding, dilation, groups)
    per_image = geo.c * geo.k * geo.length
    chunk = max(1, COLUMN_BUDGET // per_image)
    if chunk >= geo.n:
        return _conv_forward_images(geo, x, w, bias)
    out = None
    for start in range(0, geo.n, chunk):
        part = x[start : start + chunk]
        part_geo = Geometry(part.shape, w.shape, stride, padding, dilation, groups)
        y = _conv_forward_images(part_geo, part, w, bias)
        if out is None:
            out = xp.empty((geo.n,) + y.shape[1:], y.dtype)
        out[start : start + len(part)] = y
    return out


def _conv_forward_images(geo, x, w, bias):
    cols = geo.im2col(geo.pad(x))
    y = xp.matmul(_grouped_weight(w, geo.groups), cols)  # (G, O/G, N*L)
    del cols  # before the output copy: the peak is columns or output, not both
    return geo.to_output(y.reshape(geo.o, -1), bias)


def conv_input_grad(g, w, input_shape, stride, padding, dilation, groups):
    """The gradient w.r.t. the input of ``conv_forward``: the transposed convolution of g."""
    geo = Geometry(input_shape, w.shape, stride, padding, dilation, groups).exact_columns(w)
    g2 = geo.from_output(g).reshape(groups, geo.o // groups, -1)
    gcols = xp.matmul(_grouped_weight(w, groups).transpose(0, 2, 1), g2)  # (G, C/G*K, N*L)
    return geo.crop(geo.col2im(gcols, g.dtype))


# Weight gradients with at least this many elements are computed in their final layout
# (measured on ResNet-18's layers: 3-5x faster for 512x512x3x3, slower below ~150k).
WEIGHT_GRAD_TRANSPOSE_LIMIT = 1 << 18


def conv_weight_grad(x, g, weight_shape, stride, padding, dilation, groups):
    """The gradient w.r.t. the weight of ``conv_forward``: sum over images of g x cols^T."""
    geo = Geometry(x.shape, weight_shape, stride, padding, dilation, groups).exact_columns(x)
    cols = geo.im2col(geo.pad(x))
    g2 = geo.from_output(g).reshape(groups, geo.o // groups, -1)
    out = xp.empty(weight_shape, xp.result_type(cols, g2))  # .grad adopts it uncopied
    if out.size >= WEIGHT_GRAD_TRANSPOSE_LIMIT:
        # a large result: written in place, as transposing one afterwards would cost more
        # than the product (the power-of-two strides of deep layers thrash the cache)
        xp.matmul(g2, cols.transpose(0, 2, 1), out=out.reshape(g2.shape[:2] + (-1,)))
        return out
    # (cols @ g2^T)^T rather than g2 @ cols^T: the same product, but BLAS runs this long
    # reduction (over N*L) markedly faster with the small result on this side
    gw = xp.matmul(cols, g2.transpose(0, 2, 1)).transpose(0, 2, 1)  # (G, O/G, C/G*K)
    xp.copyto(out.reshape(gw.shape), gw)
    return out


def transposed_output_shape(x_shape, w_shape, stride, padding, dilation, output_padding, groups):
    """Output shape of a transposed convolution of x with w (C_in, C_out/G, *k)."""
    spatial = tuple(
        (i - 1) * s - 2 * p + d * (k - 1) + 1 + op
        for i, k, s, p, d, op in zip(
            x_shape[2:], w_shape[2:], stride, padding, dilation, output_padding
        )
    )
    return (x_shape[0], w_shape[1] * groups) + spatial
