"""Array kernels of convolution: im2col + GEMM, and the col2im scatter for gradients.

Note [Convolution layout]
For an input (N, C, *spatial), weight (O, C/G, *kernel) and G groups, ``im2col`` copies the
receptive fields (K kernel positions, L output positions per image) into columns in one of
two orders:

- by image, (N, G, C/G * K, L): the forward runs one GEMM per image and group,
  ``(O/G, C/G*K) @ cols[n, g] -> (O/G, L)``, and the stacked products *are* the output
  (N, O, *out): no transposing copy. Thin weight gradients (few rows per column) sum one
  product per image.
- images side by side, (G, C/G * K, N * L): the gradients run one GEMM with the long
  reduction over all images' positions.

and over one of two sets of positions:

- "flat" (stride 1 everywhere, used by the gradients of one image): the padded image is seen
  as one flat row per channel; a kernel offset is a shift of that row, so output positions
  are flat positions ``q = sum(y_d * P_d)`` (P: padded strides) and the copy moves runs of
  ``L_flat`` contiguous elements. The ``P_d - O_d`` positions at the end of each padded row
  are computed and thrown away (a few percent of the work, for a copy several times faster).
- otherwise, the output positions alone: the view (C, *kernel, N, *out) with strides
  (dilation * P, stride * P) is copied. Inside a training step, where the arrays are not in
  cache, the forward is faster this way (no crop of the product), whatever the stride.

The input gradient runs the GEMM transposed and scatters the columns back with one strided
add per kernel offset (``col2im``): a loop over the K kernel offsets, never over pixels or
images; overlapping windows accumulate. With stride 1 the gradient is laid out flat with
all images of a channel in one row, (C, N * prod(padded)), so each offset's add is one
contiguous run per channel; in 2-d, where padding makes that layout's GEMM much wider than
the output, the columns over the output positions alone are summed by rows and then along
the rows, two steps of contiguous adds (``_input_grad_by_rows``), and where the weight is
small beside the input the GEMM itself sums over the row offsets, reading a stack of the
gradient's shifted rows (Note [Row-stacked gradient]). Transposed convolution is
the input gradient of the matching convolution, so these three kernels serve every conv op.
"""

from __future__ import annotations

import math

from ...backend import xp
from . import conv_kept_columns

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
        self.by_image = False  # the columns' layout (Note [Convolution layout])
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
            self.leave_flat()
        return self

    def leave_flat(self):
        """Columns of the output positions alone (the strided layout, for any stride)."""
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

    @property
    def exact(self) -> bool:
        """Whether the flat layout has no discarded positions (a 1x1 kernel, say)."""
        return self.length == math.prod(self.out)

    def windows(self, x, shifted=None):
        """(N, C, *kernel, L or *out) view of the zero-padded input x (Note [Convolution
        layout]); (C, *kernel, N, L or *out) unless ``by_image``. ``shifted``: x's
        ``shifted_rows``, when made already."""
        if self.shifts_rows():
            # the last kernel offset's shifts of the padded rows, in a copy: within it an
            # offset's windows over the last two dims are one contiguous block, so the
            # columns are copied in runs of out[-2] * out[-1] elements, not out[-1]
            source = self.shifted_rows(x) if shifted is None else shifted
            item = source.itemsize
            n_stride, c_stride, shift_stride, *row_strides = source.strides[:-1]
            kernel_strides = tuple(d * r for d, r in zip(self.dilation, row_strides))
            kernel_strides += (shift_stride,)
            positions = self.out
            position_strides = tuple(s * r for s, r in zip(self.stride, row_strides)) + (item,)
        else:
            source = self.pad(x)
            item = source.itemsize
            n_stride, c_stride = source.strides[0], source.strides[1]
            kernel_strides = tuple(d * r * item for d, r in zip(self.dilation, self.row))
            if self.flat:
                positions, position_strides = (self.length,), (item,)
            else:
                positions = self.out
                position_strides = tuple(s * r * item for s, r in zip(self.stride, self.row))
        shape = (self.n, self.c) + self.kernel + positions
        strides = (n_stride, c_stride) + kernel_strides + position_strides
        view = _as_strided(source, shape, strides, writeable=False)
        if self.by_image:
            return view
        k = len(self.kernel)
        return view.transpose((1, *range(2, 2 + k), 0, *range(2 + k, view.ndim)))

    def shifts_rows(self) -> bool:
        """Whether columns are copied from ``shifted_rows``: the output positions alone (not
        the flat layout), short output rows (runs of ResNet-18's 56 elements copy faster
        directly) that merge with the rows above them (stride 1 along the second-last
        dim), and a kernel wider than one."""
        return (
            not self.flat
            and len(self.kernel) >= 2
            and self.stride[-2] == 1
            and self.kernel[-1] > 1
            and self.out[-1] <= SHIFTED_ROWS_WIDTH
        )

    @property
    def shifted_shape(self):
        return (self.n, self.c, self.kernel[-1]) + self.padded[:-1] + (self.out[-1],)

    def shifted_rows(self, x, out=None):
        """(N, C, kernel[-1], *padded[:-1], out[-1]): for each last-dim kernel offset ``j``,
        the zero-padded input's rows at the output columns ``x * stride + j * dilation``
        (into ``out`` when given)."""
        if out is None:
            out = xp.empty(self.shifted_shape, x.dtype)
        if len(self.kernel) == 2 and self.stride[-1] == 1 and self.out[-1] == self.spatial[-1]:
            return self._shifted_planes(x, out)
        return self._shifted_padded_rows(x, out)

    def _shifted_padded_rows(self, x, out):
        """``shifted_rows`` copied from the padded input, any geometry."""
        xpad = self.pad(x)
        item = xpad.itemsize
        strides = (
            xpad.strides[:2]
            + (self.dilation[-1] * item,)
            + tuple(r * item for r in self.row[:-1])
            + (self.stride[-1] * item,)
        )
        xp.copyto(out, _as_strided(xpad, self.shifted_shape, strides, writeable=False))
        return out

    def _shifted_planes(self, x, out):
        """``shifted_rows`` of a 2-d input whose output rows are as wide as its own (stride
        1, "same" padding along the rows), without the padded copy: each shift is the
        input's plane copied whole, moved by ``j * dilation - padding`` elements, and the
        columns it wrapped across rows zeroed after. Runs of a whole plane instead of one
        output row: the small CNN's 64 x 16 x 14 x 14 input 0.34 -> 0.13 ms."""
        height, width = self.spatial
        top = self.padding[0]
        size = height * width
        out[:, :, :, :top] = 0
        out[:, :, :, top + height :] = 0
        planes = out.reshape(self.n, self.c, self.kernel[-1], self.padded[0] * width)
        planes = planes[..., top * width :]
        source = x.reshape(self.n, self.c, size)
        for j in range(self.kernel[-1]):
            shift = j * self.dilation[-1] - self.padding[-1]
            lo, hi = max(0, -shift), min(size, size - shift)
            if hi > lo:
                planes[:, :, j, lo:hi] = source[:, :, lo + shift : hi + shift]
            rows = out[:, :, j, top : top + height]
            if shift < 0:
                rows[..., : min(width, -shift)] = 0
            elif shift > 0:
                rows[..., max(0, width - shift) :] = 0
        return out

    def im2col(self, x, shifted=None):
        """cols of shape (N, G, C/G * K, L), each image's columns in one block, when
        ``by_image``; otherwise (G, C/G * K, N * L), the images side by side."""
        cols = xp.ascontiguousarray(self.windows(x, shifted))
        rows = self.c // self.groups * self.k
        if self.by_image:
            return cols.reshape(self.n, self.groups, rows, self.length)
        return cols.reshape(self.groups, rows, self.n * self.length)

    def _output_view(self, y, writeable=False):
        """The (N, O, *out) positions of an (N, O, L) array (or a view of one)."""
        item = y.itemsize
        if self.flat:
            position_strides = tuple(r * item for r in self.row)
        else:
            position_strides = tuple(
                math.prod(self.out[i + 1 :]) * item for i in range(len(self.out))
            )
        strides = y.strides[:2] + position_strides
        return _as_strided(y, (self.n, self.o) + self.out, strides, writeable=writeable)

    def from_output(self, g):
        """(N, O, *out) gradient -> (N, O, L) when ``by_image``, else (O, N * L); zero at
        the discarded flat positions."""
        padded = self.flat and not self.exact
        if self.by_image and not padded:
            return xp.ascontiguousarray(g).reshape(self.n, self.o, self.length)
        shape = (self.n, self.o, self.length) if self.by_image else (self.o, self.n, self.length)
        g2 = xp.zeros(shape, g.dtype) if padded else xp.empty(shape, g.dtype)
        self._output_view(g2 if self.by_image else g2.swapaxes(0, 1), writeable=True)[...] = g
        return g2 if self.by_image else g2.reshape(self.o, -1)

    def col2im(self, gcols, dtype):
        """Scatter-add (C, *kernel, N, L) columns back into a zero padded input."""
        gxpad = xp.zeros((self.n, self.c) + self.padded, dtype)
        flat = gxpad.reshape(-1)
        item = gxpad.itemsize
        if self.flat:
            positions, strides = (self.length,), (item,)
        else:
            positions = self.out
            strides = tuple(s * r * item for s, r in zip(self.stride, self.row))
        # the target's axes in the columns' order, channel then image: NumPy adds two arrays
        # fastest when their axes run in the same order (0.8x the time for 64 small images)
        shape = (self.c, self.n) + positions
        strides = (gxpad.strides[1], gxpad.strides[0]) + strides
        gcols = gcols.reshape((self.c,) + self.kernel + shape[1:])
        for offset in xp.ndindex(*self.kernel):
            start = sum(i * d * r for i, d, r in zip(offset, self.dilation, self.row))
            target = _as_strided(flat[start:], shape, strides)
            xp.add(target, gcols[(slice(None),) + offset], out=target)
        return gxpad


# Output rows at most this wide are copied into columns through ``shifted_rows``: the
# small CNN's 14-wide rows in 0.7-0.8x the time (its 28-wide first layer: the step 0.97x),
# ResNet-18's 28-wide ones in about the same time, its 56-wide ones in 1.2x.
SHIFTED_ROWS_WIDTH = 32


def _grouped_weight(w, groups):
    """(O, C/G, *kernel) -> (G, O/G, C/G * K)."""
    return w.reshape(groups, w.shape[0] // groups, -1)


# Columns per GEMM, in elements (8 MiB of float32): larger batches run in chunks of images,
# so inference holds one chunk's columns, never the whole batch's (for ResNet-18's first
# layer at batch 8 that is 7 MiB instead of 56 MiB, more than its output).
COLUMN_BUDGET = 1 << 21

# Note [Columns in the cache]
# Columns per GEMM inside a chunk, in elements (512 KiB of float32, a quarter of the L2
# cache): a forward copies and multiplies this many images' columns at a time through one
# buffer, so the GEMM reads them from the cache (the small CNN's second layer, 64 x 16 x 14
# x 14: 4 images at a time, 1.79 ms against 2.12 ms for all 64 at once; the CNN's training
# step 0.90-0.92x). One image's columns larger than this go whole: tiles of output rows
# measured no faster on ResNet-18's layers (batch 1).
COLUMN_TILE = 1 << 17

# The input gradient's columns per GEMM (2 MiB of float32, a whole image's at least): each
# tile's nine adds are Python calls, which smaller tiles multiply (the small CNN's second
# layer: 3.0-3.6 ms untiled, 2.8-3.1 ms in tiles of 14 images, 4.0 ms of 7); ResNet-18's
# 64 x 56 x 56 layer at batch 8, one image per tile: 34 -> 25 ms.
INPUT_GRAD_TILE = 1 << 19


def _chunks(geo):
    """Slices of images whose columns fit in ``COLUMN_BUDGET``."""
    chunk = max(1, COLUMN_BUDGET // max(1, geo.c * geo.k * geo.length))
    return [slice(start, start + chunk) for start in range(0, max(geo.n, 1), chunk)]


def conv_forward(x, w, bias, stride, padding, dilation, groups, keep_columns=False):
    """Convolution (cross-correlation, as torch) of x (N, C, *s) with w (O, C/G, *k);
    ``keep_columns`` offers its columns to the weight gradient (Note [Kept forward
    columns])."""
    geo = Geometry(x.shape, w.shape, stride, padding, dilation, groups)
    chunks = _chunks(geo)
    if len(chunks) == 1:
        key = _column_key(w.shape, stride, padding, dilation, groups) if keep_columns else None
        return _conv_forward_images(geo, x, w, bias, keep_as=key)
    out = xp.empty((geo.n, geo.o) + geo.out, xp.result_type(x, w))
    for part in chunks:
        images = x[part]
        part_geo = Geometry(images.shape, w.shape, stride, padding, dilation, groups)
        _conv_forward_images(part_geo, images, w, bias, out[part])
    return out


def _column_key(weight_shape, stride, padding, dilation, groups):
    return (tuple(weight_shape), tuple(stride), tuple(padding), tuple(dilation), groups)


def _conv_forward_images(geo, x, w, bias, out=None, keep_as=None):
    """The convolution of a chunk of images (into ``out`` when given); all images' columns
    are kept under ``keep_as`` when one buffer holds them (Note [Kept forward columns])."""
    # one GEMM per image and group, (O/G, C/G*K) @ (C/G*K, L) over the output positions
    # alone: the product is the output, with no transposing or cropping copy (inside a
    # training step, where the arrays are not in cache, 0.7x the time of the flat layout's
    # columns and crop for a small CNN, 0.9x for ResNet-18)
    geo.by_image = True
    geo.leave_flat()
    dtype = xp.result_type(x, w)
    # the bias as one more column row of ones and weight column: the GEMM adds it, and no
    # pass over the output is left to do
    folded = bias is not None and bias.dtype == dtype
    weight = _weight_with_bias(w, bias, geo) if folded else _grouped_weight(w, geo.groups)
    rows = geo.c // geo.groups * geo.k
    if out is None:
        out = xp.empty((geo.n, geo.o) + geo.out, dtype)
    y = out.reshape((geo.n, geo.groups, geo.o // geo.groups, geo.length))
    # Note [Columns in the cache]: the columns of a few images at a time, copied into one
    # buffer that stays in the L2 cache while its GEMM reads it, instead of the whole
    # batch's columns written to and read back from memory
    chunk = max(1, COLUMN_TILE // max(1, geo.groups * (rows + 1) * geo.length))
    shape = (min(chunk, geo.n), geo.groups, rows + folded, geo.length)
    keep = keep_as is not None and 0 < geo.n <= chunk  # (an empty batch has no columns)
    cols = conv_kept_columns.buffer(shape, x.dtype) if keep else xp.empty(shape, x.dtype)
    if folded:
        cols[:, :, rows] = 1
    # Note [Kept forward columns]: columns copied through the cache in tiles are not kept,
    # but the shifted rows they are copied from are (3x the input for a 3x3 kernel, not 9x)
    keep_rows = keep_as is not None and not keep and geo.shifts_rows()
    shifted = None
    if keep_rows:
        shifted = geo.shifted_rows(x, conv_kept_columns.buffer(geo.shifted_shape, x.dtype))
    view = geo.windows(x, shifted)  # (N, C, *kernel, *out)
    for start in range(0, geo.n, chunk):
        images = view[start : start + chunk]
        m = images.shape[0]
        split = (m, geo.groups, geo.c // geo.groups) + geo.kernel + geo.out
        xp.copyto(cols[:m, :, :rows].reshape(split), images.reshape(split))
        xp.matmul(weight, cols[:m], out=y[start : start + m])
    if keep:
        conv_kept_columns.keep(x, keep_as, cols)
    elif keep_rows:
        conv_kept_columns.keep(x, ("rows",) + keep_as, shifted)
    if bias is not None and not folded:
        out += bias.reshape((1, -1) + (1,) * len(geo.out))
    return out


def _weight_with_bias(w, bias, geo):
    """(G, O/G, C/G * K + 1): each output's weights, then its bias."""
    grouped = _grouped_weight(w, geo.groups)
    weight = xp.empty(grouped.shape[:2] + (grouped.shape[2] + 1,), grouped.dtype)
    weight[:, :, :-1] = grouped
    weight[:, :, -1] = bias.reshape(grouped.shape[:2])
    return weight


def conv_input_grad(g, w, input_shape, stride, padding, dilation, groups):
    """The gradient w.r.t. the input of ``conv_forward``: the transposed convolution of g."""
    geo = Geometry(input_shape, w.shape, stride, padding, dilation, groups)
    # The flat layout's discarded positions hold zeros, whose columns are 0 * w: exact zeros
    # unless the weight holds inf or NaN, and then NaN, which the scatter may add to real
    # input elements. So either a finite weight or a finite result proves the flat layout
    # exact; the smaller of the two is tested (ResNet-18's deep weights are 20-90x their
    # inputs: testing those results instead, 512 x 7 x 7: 5.0 -> 4.0 ms).
    weight_first = w.size <= math.prod(input_shape)
    rows = geo.flat and len(geo.kernel) == 2
    # Note [Row-stacked gradient]: a weight small beside the input, and finite (its products
    # meet the stack's zero rows)
    stacked = rows and w.size <= STACKED_WEIGHT * math.prod(input_shape)
    stacked = stacked and bool(xp.isfinite(w).all())
    if stacked or (rows and math.prod(geo.padded) > ROWS_PADDING * math.prod(geo.out)):
        return _input_grad_by_rows(geo, g, w, stacked)
    if weight_first:
        geo.exact_columns(w)
    if geo.flat:
        gx = _input_grad_by_channel(geo, g, w)
        if weight_first or xp.isfinite(gx).all():
            return gx
        geo.leave_flat()
    g2 = geo.from_output(g).reshape(groups, geo.o // groups, -1)
    gcols = xp.matmul(_grouped_weight(w, groups).transpose(0, 2, 1), g2)  # (G, C/G*K, N*L)
    return geo.crop(geo.col2im(gcols, g.dtype))


def _input_grad_by_channel(geo, g, w):
    """The flat layout's input gradient with all images of a channel in one row: the
    gradient buffer is (C, N, *padded), so a kernel offset's columns are added by one
    contiguous run per channel, where the images' runs of ``L`` elements (1,024 short rows
    of a small CNN's second layer) took 3x the time (Note [Convolution layout])."""
    planes = math.prod(geo.padded)
    span = geo.n * planes
    # output positions of the last image past its last flat position are never computed;
    # earlier images' are the zeros between planes
    used = max(0, span - (planes - geo.length))
    g2 = xp.zeros((geo.o, geo.n) + geo.padded, g.dtype)
    g2[(slice(None), slice(None)) + tuple(slice(0, o) for o in geo.out)] = g.swapaxes(0, 1)
    g2 = g2.reshape(geo.groups, geo.o // geo.groups, span)
    weight = _grouped_weight(w, geo.groups).transpose(0, 2, 1)
    starts = [
        sum(i * d * r for i, d, r in zip(offset, geo.dilation, geo.row))
        for offset in xp.ndindex(*geo.kernel)
    ]
    gx = xp.zeros((geo.c, span), g.dtype)
    # Note [Columns in the cache]: the columns of a few images' positions at a time
    tile = max(1, INPUT_GRAD_TILE // max(1, geo.c * geo.k * planes)) * planes
    # scratch from the spare column buffers, as in ``_input_grad_by_rows``
    size = geo.c * geo.k * min(tile, used)
    buffer = conv_kept_columns.buffer((size,), xp.result_type(weight, g2))
    for first in range(0, used, tile):
        width = min(tile, used - first)
        gcols = buffer[: geo.c * geo.k * width].reshape(geo.groups, -1, width)
        xp.matmul(weight, g2[:, :, first : first + width], out=gcols)
        gcols = gcols.reshape(geo.c, geo.k, width)  # channel, then offset
        for k, start in enumerate(starts):
            target = gx[:, first + start : first + start + width]
            xp.add(target, gcols[:, k], out=target)
    conv_kept_columns.give_back(buffer)
    gx = gx.reshape((geo.c, geo.n) + geo.padded)[geo._interior()]
    out = xp.empty((geo.n, geo.c) + geo.spatial, g.dtype)
    out.swapaxes(0, 1)[...] = gx
    return out


def _input_grad_by_rows(geo, g, w, stacked=False):
    """The stride-1 input gradient of a 2-d convolution over the output positions alone:
    one GEMM gives each kernel offset's columns, (C, kh, kw, N, *out), which are summed in
    two steps of contiguous adds instead of nine strided ones: first over the row offsets,
    whose windows are whole blocks of output rows, into one plane per column offset,
    (C, kw, N, H, out[-1]); then over the column offsets, shifted along the rows. The
    flat layout's GEMM runs over the padded positions (81 of 49 at 7 x 7, 256 of 196 at
    14 x 14); this one has no discarded positions, so no zeros meet an inf or NaN weight
    and no finiteness test is needed. (ResNet-18's 512 x 7 x 7 layer 4.8 -> 3.8 ms,
    256 x 14 x 14 3.3 -> 2.7, 128 x 28 x 28 3.3 -> 2.8, 64 x 56 x 56 about even; the
    small CNN's second layer 3.3 -> 3.1 ms.) ``stacked``: the sum over the row offsets is
    the GEMM's own (Note [Row-stacked gradient])."""
    (kh, kw), (ph, pw), (dh, dw) = geo.kernel, geo.padding, geo.dilation
    (height, width), (oh, ow) = geo.spatial, geo.out
    length = oh * ow
    dtype = g.dtype
    gx = xp.empty((geo.c, geo.n, height, width), dtype)
    # Note [Columns in the cache]: the columns of a few images at a time
    chunk = max(1, INPUT_GRAD_TILE // max(1, geo.c * geo.k * length))
    images = min(chunk, geo.n)
    # scratch from the spare column buffers (Note [Kept forward columns]): fresh arrays of
    # a few MB cost a page fault per 4 KiB written (about 1,200 a step in ResNet-18's
    # 128 x 28 x 28 and 256 x 14 x 14 layers); the columns have the size of the forward's
    plane_size = geo.c * kw * height * ow
    product = xp.result_type(w, g)
    rows = conv_kept_columns.buffer((plane_size * images,), product if stacked else dtype)
    if stacked:
        weight = _row_stacked_weight(w, geo.groups)  # (G, C/G*kw, kh*O/G)
        columns = conv_kept_columns.buffer((geo.o * kh * height * ow * images,), dtype)
    else:
        weight = _grouped_weight(w, geo.groups).transpose(0, 2, 1)  # (G, C/G*K, O/G)
        columns = conv_kept_columns.buffer((geo.c * geo.k * images * length,), product)
    zero_rows, row_spans = _offset_spans(kh, dh, ph, oh, height)
    zero_columns, column_spans = _offset_spans(kw, dw, pw, ow, width)
    if zero_columns:
        gx[...] = 0
    for start in range(0, geo.n, chunk):
        m = min(chunk, geo.n - start)
        images = g[start : start + m]
        plane = rows[: plane_size * m].reshape(geo.c, kw, m, height, ow)
        if stacked:
            stack = columns[: geo.o * kh * height * ow * m]
            stack = stack.reshape(geo.groups, kh, geo.o // geo.groups, m, height, ow)
            _stack_rows(stack, images, kh, dh, ph)
            stack = stack.reshape(geo.groups, -1, m * height * ow)
            xp.matmul(weight, stack, out=plane.reshape(geo.groups, -1, m * height * ow))
        else:
            if m == 1:
                g2 = images.reshape(geo.groups, geo.o // geo.groups, length)
            else:
                g2 = xp.ascontiguousarray(images.swapaxes(0, 1))
                g2 = g2.reshape(geo.groups, geo.o // geo.groups, m * length)
            gcols = columns[: geo.c * geo.k * m * length].reshape(geo.groups, -1, m * length)
            xp.matmul(weight, g2, out=gcols)
            gcols = gcols.reshape(geo.c, kh, kw, m, oh, ow)
            if zero_rows:
                plane[...] = 0
            for number, (i, lo, hi) in enumerate(row_spans):
                source = gcols[:, i, :, :, lo - i * dh + ph : hi - i * dh + ph]
                _accumulate(plane[:, :, :, lo:hi], source, number == 0 and not zero_rows)
        target = gx[:, start : start + m]
        for number, (j, lo, hi) in enumerate(column_spans):
            shift = j * dw - pw
            source = plane[:, j, ..., lo - shift : hi - shift]
            _accumulate(target[..., lo:hi], source, number == 0 and not zero_columns)
    conv_kept_columns.give_back(columns)
    conv_kept_columns.give_back(rows)
    if geo.n == 1:
        return gx.reshape((1, geo.c) + geo.spatial)
    out = xp.empty((geo.n, geo.c) + geo.spatial, dtype)
    out.swapaxes(0, 1)[...] = gx
    return out


# Note [Row-stacked gradient]
# The input gradient by rows sums each kernel offset's columns over the row offsets in a
# pass of adds after its GEMM, whose output is 9x the input gradient for a 3x3 kernel.
# Stacking instead the output gradient's rows shifted by each row offset, (kh, O, N, H,
# out[-1]), 3x the gradient, with zero rows where an offset reads padding, and the weight
# as (C * kw, kh * O), one GEMM sums over the channels and row offsets together and writes
# the planes of the column offsets directly: 3x the input gradient written instead of 9x,
# no pass of adds over the row offsets, a GEMM reduction of O * kh instead of O. The weight
# is rearranged by a gathering copy, which only a weight small beside the input repays
# (alone, ResNet-18's 64 x 56 x 56 layer 3.7 -> 3.2 ms against the flat layout, 128 x 28
# x 28 3.1 -> 2.9 ms by rows; 256 x 14 x 14, whose weight is 12x its input, 3.1 -> 3.6).
# The stack's zero rows meet every weight of their offset, so an inf or NaN weight keeps
# the columns. The sums over the row offsets are the GEMM's: float32 round-off of the
# same products in another order.
STACKED_WEIGHT = 2


def _row_stacked_weight(w, groups):
    """(O, C/G, kh, kw) -> (G, C/G * kw, kh * O/G), rows (channel, column offset), columns
    (row offset, output channel): the output channels innermost, so the gathering copy
    moves runs of them (ResNet-18's 128 x 128 x 3 x 3 weight: 0.09 against 0.19 ms with
    the row offset innermost)."""
    o, c, kh, kw = w.shape
    grouped = w.reshape(groups, o // groups, c, kh, kw).transpose(0, 2, 4, 3, 1)
    return xp.ascontiguousarray(grouped).reshape(groups, c * kw, kh * o // groups)


def _stack_rows(stack, images, kh, dilation, padding):
    """Into ``stack`` (G, kh, O/G, m, H, out[-1]): for each row offset i, the output
    gradient ``images`` (m, O, out[-2], out[-1]) at the rows that input row y reads through
    it, y - i * dilation + padding, and zeros where that row is outside the output."""
    groups, height, oh = stack.shape[0], stack.shape[4], images.shape[2]
    m, o = images.shape[:2]
    source = images.reshape(m, groups, o // groups, oh, -1).transpose(1, 2, 0, 3, 4)
    for i in range(kh):
        shift = i * dilation - padding
        lo, hi = max(0, shift), min(height, shift + oh)
        if hi <= lo:
            stack[:, i] = 0
            continue
        stack[:, i, :, :, :lo] = 0
        stack[:, i, :, :, hi:] = 0
        stack[:, i, :, :, lo:hi] = source[:, :, :, lo - shift : hi - shift]


def _offset_spans(k, dilation, padding, out, size):
    """(zero first, [(offset, lo, hi), ...]) along one dim: input positions [lo, hi) receive
    output positions [lo, hi) - offset * dilation + padding. An offset whose span covers
    the whole dim ("same" padding's centre) comes first and is copied, not added; where
    none does, the target is zeroed first."""
    spans = [
        (i, max(0, i * dilation - padding), min(size, i * dilation - padding + out))
        for i in range(k)
    ]
    spans = [s for s in spans if s[2] > s[1]]
    whole = [s for s in spans if s[1] == 0 and s[2] == size]
    if not whole:
        return True, spans
    spans.remove(whole[0])
    return False, [whole[0]] + spans


def _accumulate(target, source, copy):
    if copy:
        xp.copyto(target, source)
    else:
        xp.add(target, source, out=target)


# The 2-d stride-1 input gradient goes by rows (``_input_grad_by_rows``) where the padded
# positions are more than this many times the output positions: its GEMM is that much
# narrower than the flat layout's, for one more pass of adds (at 56 x 56, 1.07x, the flat
# layout is as fast at batch 1 and faster in tiles of one image, 8 x 64 x 56 x 56: 27
# against 29 ms; at 28 x 28, 1.15x, the rows are faster alone and even inside the step).
ROWS_PADDING = 1.1


# Weight gradients with at least this many elements are computed in their final layout
# (measured on ResNet-18's layers: 3-5x faster for 512x512x3x3, slower below ~150k).
WEIGHT_GRAD_TRANSPOSE_LIMIT = 1 << 18

# Weight gradients whose columns have fewer rows (C/G * K) than this take one product per
# image and sum them: BLAS runs a reduction over all images' positions into so thin a
# result slowly (a 3x3 convolution from 1 to 16 channels at batch 64: 0.6x the time).
BY_IMAGE_ROWS = 32


def conv_weight_grad(x, g, weight_shape, stride, padding, dilation, groups):
    """The gradient w.r.t. the weight of ``conv_forward``: sum over images of g x cols^T."""
    geo = Geometry(x.shape, weight_shape, stride, padding, dilation, groups)
    key = _column_key(weight_shape, stride, padding, dilation, groups)
    kept = conv_kept_columns.take(x, key)
    if kept is not None:
        out = _weight_grad_from_columns(geo, kept, g, weight_shape)
        conv_kept_columns.give_back(kept)
        return out
    if geo.n > 1:
        # several images: their positions alone (a training step of a small CNN: 0.8x the
        # time of the flat layout, whose gradient must be spread out with zeros)
        geo.leave_flat()
    geo.exact_columns(x)
    geo.by_image = geo.n > 1 and geo.c // groups * geo.k < BY_IMAGE_ROWS
    shifted = conv_kept_columns.take(x, ("rows",) + key)
    if shifted is not None and not geo.shifts_rows():
        conv_kept_columns.give_back(shifted)
        shifted = None
    chunk = max(1, COLUMN_TILE // max(1, geo.c * geo.k * geo.length))
    if geo.n > 1 and not geo.by_image and chunk < geo.n:
        out = _weight_grad_in_tiles(geo, x, g, weight_shape, chunk, shifted)
    else:
        out = _weight_grad_of_columns(geo, geo.im2col(x, shifted), g, weight_shape)
    if shifted is not None:
        conv_kept_columns.give_back(shifted)
    return out


def _weight_grad_of_columns(geo, cols, g, weight_shape):
    groups = geo.groups
    g2 = geo.from_output(g)
    out = xp.empty(weight_shape, xp.result_type(cols, g2))  # .grad adopts it uncopied
    grouped = out.reshape(groups, weight_shape[0] // groups, -1)
    if geo.by_image:
        g2 = g2.reshape(geo.n, groups, -1, geo.length)
        products = xp.matmul(cols, g2.transpose(0, 1, 3, 2))  # (N, G, C/G*K, O/G)
        xp.copyto(grouped, products.sum(0).transpose(0, 2, 1))
        return out
    g2 = g2.reshape(groups, geo.o // groups, -1)
    if out.size >= WEIGHT_GRAD_TRANSPOSE_LIMIT:
        # a large result: written in place, as transposing one afterwards would cost more
        # than the product (the power-of-two strides of deep layers thrash the cache)
        xp.matmul(g2, cols.transpose(0, 2, 1), out=grouped)
        return out
    # (cols @ g2^T)^T rather than g2 @ cols^T: the same product, but BLAS runs this long
    # reduction (over N*L) markedly faster with the small result on this side
    gw = xp.matmul(cols, g2.transpose(0, 2, 1)).transpose(0, 2, 1)  # (G, O/G, C/G*K)
    xp.copyto(grouped, gw)
    return out


def _weight_grad_from_columns(geo, kept, g, weight_shape):
    """``conv_weight_grad`` from the forward's (N, G, C/G * K (+1), L) columns over the output
    positions (Note [Kept forward columns]); a row of ones for the bias is left out."""
    geo.leave_flat()
    groups, rows = geo.groups, geo.c // geo.groups * geo.k
    cols = kept[:, :, :rows]
    out = xp.empty(weight_shape, xp.result_type(cols, g))  # .grad adopts it uncopied
    grouped = out.reshape(groups, weight_shape[0] // groups, -1)
    g2 = xp.ascontiguousarray(g).reshape(geo.n, groups, -1, geo.length)
    if geo.n > 1 and rows < BY_IMAGE_ROWS:  # thin columns, as conv_weight_grad's
        products = xp.matmul(cols, g2.transpose(0, 1, 3, 2))  # (N, G, C/G*K, O/G)
        xp.copyto(grouped, products.sum(0).transpose(0, 2, 1))
        return out
    # one GEMM over all images' positions, as conv_weight_grad's: the images' columns side
    # by side, (G, C/G*K, N*L). Per-image products summed are (N, G, C/G*K, O/G) arrays,
    # outer products where L is small (a batch of 2 at 1 x 1 through a 512-channel 3x3
    # layer: 26 against 2.4 ms with its forward)
    if geo.n > 1:
        cols, g2 = (xp.ascontiguousarray(a.transpose(1, 2, 0, 3)) for a in (cols, g2))
    cols = cols.reshape(groups, rows, -1)  # (a view at one image: the bias row is left out)
    g2 = g2.reshape(groups, geo.o // groups, -1)
    if out.size >= WEIGHT_GRAD_TRANSPOSE_LIMIT:  # see conv_weight_grad
        xp.matmul(g2, cols.transpose(0, 2, 1), out=grouped)
    else:
        xp.copyto(grouped, xp.matmul(cols, g2.transpose(0, 2, 1)).transpose(0, 2, 1))
    return out


def _weight_grad_in_tiles(geo, x, g, weight_shape, chunk, shifted=None):
    """``conv_weight_grad`` over the output positions of several images, ``chunk`` images'
    columns at a time in one cached buffer (Note [Columns in the cache]), their products
    summed."""
    groups, length = geo.groups, geo.length
    view = geo.windows(x, shifted)  # (C, *kernel, N, *out)
    g2 = geo.from_output(g).reshape(groups, geo.o // groups, -1)  # (G, O/G, N*L)
    dtype = xp.result_type(x, g2)
    out = xp.empty(weight_shape, dtype)  # .grad adopts it uncopied
    grouped = out.reshape(groups, weight_shape[0] // groups, -1)
    rows = grouped.shape[2]
    large = out.size >= WEIGHT_GRAD_TRANSPOSE_LIMIT  # see conv_weight_grad
    total = grouped if large else xp.empty((groups, rows, grouped.shape[1]), dtype)
    product = xp.empty_like(total)
    buffer = xp.empty(groups * rows * chunk * length, x.dtype)
    lead = (slice(None),) * (1 + len(geo.kernel))
    for start in range(0, geo.n, chunk):
        m = min(chunk, geo.n - start)
        cols = buffer[: groups * rows * m * length].reshape(groups, rows, m * length)
        split = (geo.c,) + geo.kernel + (m,) + geo.out
        xp.copyto(cols.reshape(split), view[lead + (slice(start, start + m),)])
        grads = g2[:, :, start * length : (start + m) * length]
        target = total if start == 0 else product
        if large:
            xp.matmul(grads, cols.transpose(0, 2, 1), out=target)
        else:
            xp.matmul(cols, grads.transpose(0, 2, 1), out=target)
        if start:
            total += product
    if not large:
        xp.copyto(grouped, total.transpose(0, 2, 1))
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
