"""Batching rules for nn ops whose weights are batched: per-sample gradients (``vmap`` over
``grad``) and model ensembles give every sample its own weights (Note [Per-sample gradients]
in func/batching.py), which the rules in batch_rules.py hand to the per-op loop.

- convolution: the batch becomes groups, as in torch's rule: ``(B, N, C, *s)`` runs as
  ``(N, B*C, *s)`` against weights ``(B*O, C/g, *k)`` with ``B*g`` groups;
- embedding: the tables are stacked into one, ``(B*V, D)``, and each sample's indices are
  offset to its own table;
- layer norm: the op runs without its affine parameters, which are applied after.
"""

from __future__ import annotations

from .batch_rules import batch_size, first_only, front, front_or_expand, leading
from .batch_rules import embedding as unbatched_embedding
from .tensor import Tensor

__all__ = ["convolution", "convolution_backward", "embedding", "native_layer_norm"]

_unbatched_convolution = leading(None)


def convolution(spec, args, dims):
    if dims[1] is None and dims[2] is None:
        return _unbatched_convolution(spec, args, dims)
    input, weight, bias, stride, padding, dilation, transposed, output_padding, groups = args
    if transposed:
        return NotImplemented
    size = batch_size(args, dims)
    w = front(weight, dims[1]) if dims[1] is not None else weight.expand((size, *weight.shape))
    out_channels, spatial = w.shape[1], w.ndim - 3
    x = input if dims[0] is None else front(input, dims[0])
    sample_ndim = x.ndim - (dims[0] is not None)
    unbatched_form = sample_ndim == spatial + 1  # one image (C, *s): N is 1
    if dims[0] is None:
        if unbatched_form:
            x = x.unsqueeze(0)
        n = x.shape[0]
        x = x.repeat((1, size, *(1,) * spatial))  # (N, B*C, *s)
    else:
        if unbatched_form:
            x = x.unsqueeze(1)
        n, channels = x.shape[1], x.shape[2]
        x = x.transpose(0, 1).reshape((n, size * channels, *x.shape[3:]))
    w = w.reshape((size * out_channels, *w.shape[2:]))
    if bias is not None:
        bias = (
            front(bias, dims[2]).reshape(size * out_channels)
            if dims[2] is not None
            else (bias.repeat(size))
        )
    out = spec.run(
        (x, w, bias, stride, padding, dilation, transposed, output_padding, groups * size)
    )
    out = out.view((n, size, out_channels, *out.shape[2:])).transpose(0, 1)
    return (out.squeeze(1) if unbatched_form else out), 0


def embedding(spec, args, dims):
    weight, indices, padding_idx, scale_grad_by_freq, sparse = args
    if dims[0] is None:
        return unbatched_embedding(spec, args, dims)
    if (padding_idx is not None and padding_idx >= 0) or scale_grad_by_freq:
        return NotImplemented  # both look at row numbers, which the stacking shifts
    size = batch_size(args, dims)
    table = front(weight, dims[0])  # (B, V, D)
    rows = table.shape[1]
    idx = indices if dims[1] is None else front(indices, dims[1])
    if dims[1] is None:
        idx = idx.unsqueeze(0).expand((size, *idx.shape))
    offsets = (idx.new_ones(size).cumsum(0) - 1) * rows
    idx = idx + offsets.reshape((size, *(1,) * (idx.ndim - 1)))
    flat = table.reshape((size * rows, table.shape[2]))
    return spec.run((flat, idx, padding_idx, scale_grad_by_freq, sparse)), 0


def native_layer_norm(spec, args, dims):
    input, normalized_shape, weight, bias, eps = args
    if dims[2] is None and dims[3] is None:
        return first_only(spec, args, dims)
    size = batch_size(args, dims)
    x = front(input, dims[0]) if dims[0] is not None else input.expand((size, *input.shape))
    out, mean, rstd = spec.run((x, normalized_shape, None, None, eps))
    lead = (1,) * (x.ndim - 1 - len(normalized_shape))
    for p, d, add in ((weight, dims[2], False), (bias, dims[3], True)):
        if p is None:
            continue
        if d is not None:
            p = front(p, d)
            p = p.reshape((size, *lead, *p.shape[1:]))
        out = out + p if add else out * p
    return (out, mean, rstd), 0


def convolution_backward(spec, args, dims):
    """The input or weight gradient of a convolution, batched as the convolution is: the
    vmap batch becomes groups (each sample's gradient, its input and its weights form one
    group), so per-sample weight gradients come out of one call."""
    (g, input, weight, input_shape, weight_shape, stride, padding, dilation, transposed) = args[:9]
    output_padding, groups, which = args[9:]
    if transposed or which not in ("input", "weight"):
        return NotImplemented
    size = batch_size(args, dims)
    unbatched_form = len(input_shape) == len(weight_shape) - 1

    def channels_folded(t, d):
        t = front_or_expand(t, d, size)
        if unbatched_form:
            t = t.unsqueeze(1)
        return t.transpose(0, 1).reshape((t.shape[1], size * t.shape[2], *t.shape[3:]))

    g = channels_folded(g, dims[0])
    if isinstance(input, Tensor):
        input = channels_folded(input, dims[1])
    if isinstance(weight, Tensor):
        w = front_or_expand(weight, dims[2], size)
        weight = w.reshape((size * w.shape[1], *w.shape[2:]))
    shape = (1, *input_shape) if unbatched_form else tuple(input_shape)
    folded_input_shape = (shape[0], size * shape[1], *shape[2:])
    folded_weight_shape = (size * weight_shape[0], *weight_shape[1:])
    out = spec.run(
        (
            g,
            input,
            weight,
            folded_input_shape,
            folded_weight_shape,
            stride,
            padding,
            dilation,
            transposed,
            output_padding,
            groups * size,
            which,
        )
    )
    if which == "weight":
        return out.view((size, *weight_shape)), 0
    out = out.view((shape[0], size, *shape[1:])).transpose(0, 1)
    return (out.squeeze(1) if unbatched_form else out), 0
