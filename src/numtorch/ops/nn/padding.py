"""Padding: ``constant_pad_nd`` (grad_fn ``ConstantPadNdBackward0``) and the reflect,
replicate and circular modes of ``F.pad``.

Negative pads crop, as in torch. The adjoint of padding by ``p`` is padding by ``-p``, so the
derivative of ``constant_pad_nd`` is ``constant_pad_nd`` again (double backward for free).
Reflect and replicate gather with an index array per padded dim (``ReflectionPad2DBackward0``
and so on); their backward scatter-adds, accumulating the elements copied several times.
Circular padding is composed from indexing.
"""

from __future__ import annotations

from ..._core import batch_rules, spatial_batch_rules
from ..._core.kernel_dtypes import NUMBERS, kernel
from ..._core.op import defop, export
from ..._core.tensor import Tensor
from ...autograd.forward_grad import batched
from ...backend import xp
from ..indexing import narrow_slice
from .activation import rowwise, zero_gradient


def _pairs(pad, ndim):
    """F.pad's flat (left, right) list, last dim first -> {dim: (left, right)}."""
    return {ndim - 1 - i: (pad[2 * i], pad[2 * i + 1]) for i in range(len(pad) // 2)}


@defop(
    batch=batch_rules.first_only,
    name="constant_pad_nd",
    node="ConstantPadNdBackward0",
    input=lambda grad, pad: constant_pad_nd_op(grad, tuple(-p for p in pad), 0),
    jvp=batched(lambda input_t, pad: constant_pad_nd_op(input_t, pad, 0)),
)
def constant_pad_nd_op(input, pad, value=0):
    pairs = _pairs(pad, input.ndim)
    # torch first crops by each negative pad in turn (narrow, dims in order): a crop past
    # what is left of the dim is narrow's error, before any output size is checked
    for dim in sorted(pairs):
        left_of_dim = input.shape[dim]
        for p in pairs[dim]:
            if p < 0:
                left_of_dim += p
                if left_of_dim < 0:
                    raise RuntimeError("narrow(): length must be non-negative.")
    shape = list(input.shape)
    source, target = [slice(None)] * input.ndim, [slice(None)] * input.ndim
    for dim, (left, right) in pairs.items():
        size = input.shape[dim]
        shape[dim] = size + left + right
        if shape[dim] < 0:
            raise RuntimeError(
                f"The input size {size}, plus negative padding {left} and {right} resulted in a "
                f"negative output size, which is invalid. Check dimension {dim} of your input."
            )
        source[dim] = slice(max(-left, 0), size - max(-right, 0))
        target[dim] = slice(max(left, 0), shape[dim] - max(right, 0))
    out = xp.full(shape, value, dtype=input.dtype)
    out[tuple(target)] = input[tuple(source)]
    return out


@export(method=False)
def constant_pad_nd(input, pad, value=0) -> Tensor:
    """Pad (or crop, with negative values) with ``value``; ``pad`` lists (left, right) pairs
    from the last dim backwards."""
    pad = tuple(int(p) for p in pad)
    if len(pad) % 2:
        raise RuntimeError("Length of pad must be even but instead it equals " + str(len(pad)))
    if len(pad) // 2 > input.ndim:
        raise RuntimeError(
            f"Length of pad should be no more than twice the number of dimensions of the input. "
            f"Pad length is {len(pad)} while the input has {input.ndim} dimensions."
        )
    return constant_pad_nd_op(input, pad, value)


def _mode_index(shape, dim: int, left: int, right: int, mode: str):
    size = shape[dim]
    positions = xp.arange(-left, size + right)
    if mode == "reflect":
        if left >= size or right >= size:
            raise RuntimeError(
                f"Argument #4: Padding size should be less than the corresponding input "
                f"dimension, but got: padding ({left}, {right}) at dimension {dim} of input "
                f"{list(shape)}"
            )
        period = 2 * (size - 1)
        positions = xp.abs(positions) % period if period else positions * 0
        return xp.where(positions >= size, period - positions, positions)
    return xp.clip(positions, 0, size - 1)  # replicate


def _mode_indices(shape, pad, mode):
    """{dim: index array} of the source element for every padded position."""
    return {
        dim: _mode_index(shape, dim, left, right, mode)
        for dim, (left, right) in _pairs(pad, len(shape)).items()
    }


def _gather(x, indices):
    for dim, index in indices.items():
        x = xp.take(x, index, axis=dim)
    return x


def _scatter(grad, input_shape, indices):
    # adjoint of _gather: positions copied from one element add up into it
    for dim in sorted(indices, reverse=True):
        shape = list(grad.shape)
        shape[dim] = input_shape[dim]
        out = xp.zeros(shape, grad.dtype)
        xp.add.at(out, (slice(None),) * dim + (indices[dim],), grad)
        grad = out
    return grad


def _register_mode_pad(mode: str, dims: int):
    node = {"reflect": "ReflectionPad", "replicate": "ReplicationPad"}[mode] + f"{dims}D"

    @defop(
        batch=spatial_batch_rules.fold_into_n(dims),
        name=f"{mode}_pad{dims}d_backward",
        node=node + "BackwardBackward0",
        grad_output=lambda grad, pad: forward(grad, pad),
        self=zero_gradient,
        jvp=batched(
            lambda grad_output_t, grad_output, self, pad: rowwise(
                backward, grad_output_t, grad_output, self, pad
            )
        ),
    )
    def backward(grad_output, self, pad):
        return _scatter(grad_output, self.shape, _mode_indices(self.shape, pad, mode))

    @defop(
        batch=batch_rules.leading(dims),
        name=f"{mode}_pad{dims}d",
        node=node + "Backward0",
        # torch's kernels copy every dtype but bool
        dtypes=kernel(
            f"{'reflection' if mode == 'reflect' else 'replication'}_pad{dims}d", NUMBERS
        ),
        input=lambda grad, input, pad: backward(grad, input, pad),
        jvp=batched(lambda input_t, pad: forward(input_t, pad)),  # pads the trailing dims
    )
    def forward(input, pad):
        return _gather(input, _mode_indices(input.shape, pad, mode))

    return forward


_MODE_PADS = {(m, d): _register_mode_pad(m, d) for m in ("reflect", "replicate") for d in (1, 2, 3)}


def mode_pad(input, pad, mode):
    """reflect / replicate / circular padding of the trailing ``len(pad) // 2`` dims
    (grad_fns ``ReflectionPad2DBackward0``...; circular is composed, as in torch)."""
    dims = len(pad) // 2
    if input.ndim not in (dims + 1, dims + 2) or dims > 3:
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {input.ndim}D input tensor.\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)"
        )
    if mode != "circular":
        batch = input.ndim == dims + 2  # only a batch dim may be empty
        if 0 in input.shape[int(batch) :]:
            raise RuntimeError(
                f"Expected {dims + 1}D or {dims + 2}D (batch mode) tensor with possibly 0 batch "
                "size and other non-zero dimensions for input, but got: "
                f"[{', '.join(map(str, input.shape))}]"
            )
    if mode != "circular":
        _mode_indices(input.shape, pad, mode)  # argument checks with torch's messages
        _check_mode_output(input.shape, pad, mode)
        return _MODE_PADS[(mode, dims)](input, pad)
    return _circular_pad(input, pad)


def _check_mode_output(shape, pad, mode):
    """torch's reflection and replication kernels refuse an output whose padded dims all
    lost every element (naming the sizes), and fail creating one with a negative size; an
    output with some empty dims is fine."""
    dims = len(pad) // 2
    sizes = shape[-dims:]
    out = [s + pad[2 * (dims - 1 - d)] + pad[2 * (dims - 1 - d) + 1] for d, s in enumerate(sizes)]
    if all(o < 1 for o in out):
        names = "DHW"[-dims:]
        if dims == 1:
            given = f"W: {sizes[0]}"
        elif dims == 2:  # (torch's replication message has a space before its parenthesis)
            given = f"H: {sizes[0]}, W: {sizes[1]}" + (" " if mode == "replicate" else "")
        else:
            given = f"D: {sizes[0]} H: {sizes[1]}, W: {sizes[2]}"
        calculated = " ".join(f"{n}: {o}" for n, o in zip(names, out))
        raise RuntimeError(f"input ({given}) is too small. Calculated output {calculated}")
    if min(out) < 0:
        full = [*shape[:-dims], *out]
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(out)}: {full}")


def _circular_pad(input, pad):
    # torch's composition: copy the centre, then each side from the opposite edge of the
    # output itself (so corners wrap too); grad_fn CopySlices as in torch
    pairs = _pairs(pad, input.ndim)
    for dim, (left, right) in pairs.items():
        if left > input.shape[dim] or right > input.shape[dim]:
            raise RuntimeError("Padding value causes wrapping around more than once.")
    shape = list(input.shape)
    for dim, (left, right) in pairs.items():
        shape[dim] += left + right
    out = input.new_zeros(shape)
    # the centre through views sliced along every padded dim (even a whole one), as torch's
    # slice() calls: a copy into a view (CopySlices), never into ``out`` itself
    target, source = out, input
    for dim, (left, right) in sorted(pairs.items(), reverse=True):
        target = narrow_slice(target, dim, max(left, 0), shape[dim] - max(right, 0))
        source = narrow_slice(source, dim, max(-left, 0), input.shape[dim] - max(-right, 0))
    target.copy_(source)
    for dim in sorted(pairs, reverse=True):  # (slices again: a side may be the whole dim)
        left, right = pairs[dim]
        size = shape[dim]
        if left > 0:
            end = size - max(right, 0)
            narrow_slice(out, dim, 0, left).copy_(narrow_slice(out, dim, end - left, end))
        if right > 0:
            start = max(left, 0)
            narrow_slice(out, dim, size - right, size).copy_(
                narrow_slice(out, dim, start, start + right)
            )
    return out
