"""One LSTM layer in one direction as one op: torch's ``mkldnn_rnn_layer``, the op behind
``nn.LSTM`` on float32 (grad_fn ``MkldnnRnnLayerBackward0``, outputs ``(output, h_n, c_n,
workspace)``). The time loop runs on arrays: the input is projected with one GEMM, each step
adds one GEMM with the recurrent weight and the gate arithmetic in place, and backward is
the hand-derived backpropagation through time, again one GEMM per step plus three for the
weight and input gradients. Its values are those of the composed layer in rnn.py (the same
products in the same order); the gates' activations and the cell states travel in the
workspace, a uint8 view as torch's is. With ``create_graph=True`` the gradients are
vector-Jacobian products of the composed layer, so higher orders work.

Gates, with ``W x`` short for ``x W^T + b``: i, f, g, o = chunks of W_ih x + W_hh h;
c' = s(f) c + s(i) tanh(g); h' = s(o) tanh(c').
Backward per step (d for gradients, from the last step back):
  dh += d output_t;  d o = dh tanh(c');  dc += dh s(o) (1 - tanh(c')^2)
  d f = dc c;  d i = dc tanh(g);  d g = dc s(i);  dc <- dc s(f)
  gate pre-activations: sigmoid' = s (1 - s), tanh' = 1 - t^2;  dh <- d gates W_hh
"""

from __future__ import annotations

import itertools
import math
import sys
import threading

from ..._core import grad_mode
from ..._core.dispatch import FREED
from ..._core.engine import run_backward
from ..._core.graph import freed_error
from ..._core.op import defop, export
from ..._core.tensor import Tensor
from ...autograd.forward_grad import no_forward_derivative
from ...backend import xp
from ..concatenation import stack
from ..linalg import SMALL_PRODUCT, addmm, matmul_by_row_blocks

# torch's order of the differentiable inputs (MkldnnRnnLayerBackward0's next_functions)
_INPUTS = ("input", "weight0", "weight1", "weight2", "weight3", "hx_", "cx_")


enabled = True  # False runs every LSTM composed from ops (tests compare the two)


def applies(input, has_proj: bool, packed: bool) -> bool:
    """Whether torch runs this LSTM through oneDNN's layer op (float32, no projection, a
    padded non-empty sequence), so that numtorch records the same node."""
    data = input._data
    return enabled and data.dtype == xp.float32 and not has_proj and not packed and data.size > 0


# Note [Gate layout in the workspace]
# The time loop runs on transposed states, (size, batch) instead of (batch, size): each
# step's gates are then one C-contiguous (4 size, batch) block from one GEMM, W h^T, and each
# gate a contiguous run of rows, which NumPy sweeps about three times faster than the
# row-strided column blocks of a (batch, 4 size) array. The gate rows are reordered to
# (i, f, o, g), so that the three sigmoid gates are one block, and the sigmoid rows are
# halved: their pre-activations come out as z / 2 (halving a product's terms halves its sum
# exactly), and sigmoid(z) = (1 + tanh(z / 2)) / 2, so one tanh over all four gates and two
# in-place passes over the sigmoid rows activate a step (exp, add, reciprocal and a tanh of
# g took about 5% more of the forward). The values differ from the composed layer's
# 1 / (1 + exp(-z)) in the last bit or so. The workspace holds, for all steps, one block per step
# (seq, 5 size, batch): the activated gates in that order, then the tanh of the step's cell
# state, so that g and tanh(c), whose slopes 1 - t^2 the backward needs, are one run of rows;
# then the cell states (seq, size, batch). The loops take each step's views by iterating
# over views of the whole sequence, which NumPy makes faster than Python's slicing per step.
def _gate_rows(weight, size, rows=None, half=0.5):
    """The weight's rows in (i, f, o, g) order, the sigmoid rows times ``half`` (into
    ``rows``)."""
    if rows is None:
        rows = xp.empty_like(weight)
    xp.multiply(weight[: 2 * size], half, out=rows[: 2 * size])
    xp.multiply(weight[3 * size :], half, out=rows[2 * size : 3 * size])
    rows[3 * size :] = weight[2 * size : 3 * size]
    return rows


def _halving_exact(x, w_ih, w_hh, b_ih, b_hh, h) -> bool:
    """Whether the sigmoid gates' halved rows give exactly half of torch's products: unless
    a product or a sum reaches half the dtype's range, where torch's overflows to an
    infinity (and an infinity of the other sign from the other product makes NaN) and the
    halved one does not. Bounded by the largest magnitudes (a later step's h is at most 1);
    a non-finite value fails the bound."""
    with xp.errstate(all="ignore"):
        bound = _largest(w_ih) * _largest(x) * x.shape[-1]
        bound += _largest(w_hh) * max(1.0, _largest(h)) * w_hh.shape[1]
        if b_ih is not None:
            bound += _largest(b_ih) + _largest(b_hh)
    return bool(bound < xp.finfo(x.dtype).max / 4)


def _largest(a) -> float:
    return float(xp.abs(a).max()) if a.size else 0.0


# Note [Kernel scratch]
# The layer's temporaries that no result refers to (the reordered gate rows, the stack of step
# operands, the backward's gate gradients and transposed copies: about 3 MB at hidden size
# 128, batch 16, 32 steps) are arrays kept between calls, per thread, by name, and so is the
# workspace, taken again once the graph that saved it is gone. Made afresh each call, the
# C allocator gave such arrays back to the system between training steps and took them
# again, and each of their pages faulted on first touch (70-740 minor faults a training
# step at the bench's shape; about 1 µs each inside the step, 2.5 µs in a loop of layer
# calls alone); kept, they are allocated once for a given shape and dtype, and hold that
# memory while the thread lives. What is returned (the output, the states, the gradients)
# is new each call, and so is any array above _MOST_KEPT bytes, so that a large layer does
# not leave hundreds of MB behind it (its products grow with the hidden size squared, its
# pages only linearly, so the faults are a smaller part of its time).
_scratch = threading.local()
_MOST_KEPT = 8 << 20


def _buffer(name, shape, dtype, shared=False):
    """The kernels' scratch array ``name``, of this shape and dtype, contents undefined
    (Note [Kernel scratch]). ``shared``: the array is handed out (the workspace), so it is
    taken again only once nothing else refers to it, the array or a view of it (each view
    refers to the array that owns the memory); else a new one is made and kept instead."""
    if xp.dtype(dtype).itemsize * math.prod(shape) > _MOST_KEPT:
        return xp.empty(shape, dtype)
    kept = _scratch.__dict__.get(name)
    if (
        kept is None
        or kept.shape != shape
        or kept.dtype != dtype
        # the kept entry, this name and getrefcount's argument: no one else
        or (shared and sys.getrefcount(kept) > 3)
    ):
        kept = _scratch.__dict__[name] = xp.empty(shape, dtype)
    return kept


def _workspace_views(work, seq, batch, size):
    """The per-step blocks (seq, 5 size, batch) of the gates and tanh(cell), and the cells
    (seq, size, batch), in a flat workspace (Note [Gate layout in the workspace])."""
    blocks_end = seq * batch * 5 * size
    return (
        work[:blocks_end].reshape(seq, 5 * size, batch),
        work[blocks_end:].reshape(seq, size, batch),
    )


# Note [Small products]
# OpenBLAS (NumPy's BLAS) runs a product of at most 10^6 multiply-adds (M N K) with a kernel
# for small matrices that does not pack its operands first. A step's recurrent product at
# hidden size 128 and batch 16 is 2^20, just above; as a stack of row blocks that each fit,
# one batched matmul, it takes about 20 instead of 26 µs here (OpenBLAS's SkylakeX kernel;
# hidden 256 at batch 16, and 128 at batch 64, in 8 blocks: 25% less). Each output element
# is the same dot product, so only the kernel's rounding order changes. (The bound is
# SMALL_PRODUCT, which the linear layers' row blocks use too: Note [Row blocks].)


def _row_blocks(matrix, columns):
    """``matrix`` (rows, inner) as a stack of row blocks (k, rows / k, inner) whose products
    with an (inner, columns) matrix are small ones (Note [Small products]); k = 1 where the
    whole product is, or where no split of 2 to 16 even blocks fits."""
    rows, inner = matrix.shape
    k = _small_blocks(rows, inner, columns)
    return matrix.reshape(k or 1, rows // (k or 1), inner)


def _small_blocks(rows, inner, columns):
    """How many even row blocks make the product a small one: 1 where it is already, None
    where no split of 2 to 16 blocks does."""
    if rows * inner * columns <= SMALL_PRODUCT:
        return 1
    fits = [
        k for k in (2, 4, 8, 16) if rows % k == 0 and rows // k * inner * columns <= SMALL_PRODUCT
    ]
    return fits[0] if fits else None


# Note [One product per step]
# Each step multiplies the gate rows by one (inner, batch) block of a stack made before the
# loop, whose first rows are the previous h, written there by the previous step. Where it
# pays, the step's input and a row of ones follow, so that the step's product is
# [W_hh W_ih b] [h; x_t; 1]: no projection GEMM for all steps, no add of the projection per
# step and no pass adding the biases to it. At batch 4 to 128 with input sizes up to twice
# the hidden size the forward took 0.82-0.91× its time with the projection GEMM (OpenBLAS's
# kernel for small products runs these as fast per multiply-add as the large GEMM), as long
# as the product stays a small one in row blocks (Note [Small products]; at hidden and
# input size 512, batch 16: 1.16×). At batch 1 and 2 it is a matrix-vector product, for
# which one projection GEMM is faster (1.13×, 1.7×). Elsewhere the input is projected for
# all steps by one GEMM and the stack holds h alone (a bias column there made the large
# products slower).
def _input_in_step(batch, size, inputs, bias):
    return (
        batch >= 4
        and inputs <= 2 * size
        and _small_blocks(4 * size, size + inputs + bias, batch) is not None
    )


# Note [Array constants]
# The loops' constants are 0-d arrays of the states' dtype: NumPy takes a Python number in a
# ufunc call through its scalar conversion and promotion every time (about 0.3 µs of a 1.8 µs
# call on a step's sigmoid block), an array of the operands' dtype straight away. The values
# are the same: a Python float meets float32 arrays as float32.
def _layer_forward(x, w_ih, w_hh, b_ih, b_hh, h, c, reverse):
    seq, batch, inputs = x.shape
    size = w_hh.shape[1]
    if reverse:
        x = x[::-1]
    work = _buffer("work", (seq * batch * 6 * size,), x.dtype, shared=True)
    blocks, cells = _workspace_views(work, seq, batch, size)
    # the sigmoid gates hold z / 2 (its rows halved) for the tanh, or are halved after the
    # products where halving the rows would keep a sum from overflowing as torch's does;
    # there the input's products are also summed apart from the state's, as torch's are
    # (one product of both takes inf + -inf as an infinity where torch's adds them: NaN)
    exact = _halving_exact(x, w_ih, w_hh, b_ih, b_hh, h)
    in_step = exact and _input_in_step(batch, size, inputs, b_ih is not None)
    scale = 0.5 if exact else 1.0  # the sigmoid rows' factor
    # the gate rows' columns and the stack of step operands (Note [One product per step]);
    # step t reads block t and writes its h into block t + 1
    columns = [w_hh]
    if in_step:
        columns.append(w_ih)
        if b_ih is not None:
            columns.append((b_ih + b_hh)[:, None])
    # each column block reordered straight into its place (no joined copy to reorder)
    rows = _buffer("rows", (4 * size, sum(column.shape[1] for column in columns)), x.dtype)
    start = 0
    for column in columns:
        _gate_rows(column, size, rows[:, start : start + column.shape[1]], scale)
        start += column.shape[1]
    rows = _row_blocks(rows, batch)
    stacked = _buffer("stacked", (seq + 1, rows.shape[2], batch), x.dtype)
    stacked[0, :size] = h.T
    if in_step:
        stacked[:seq, size : size + inputs] = x.transpose(0, 2, 1)
        stacked[:, size + inputs :] = 1
        projections = itertools.repeat(None)
    else:  # the input's projection for all steps in one GEMM: (4 size, seq * batch)
        projected = xp.matmul(_gate_rows(w_ih, size, half=scale), x.reshape(seq * batch, -1).T)
        if b_ih is not None:
            projected += _gate_rows((b_ih + b_hh)[:, None], size, half=scale)
        projections = projected.reshape(*rows.shape[:2], seq, batch).transpose(2, 0, 1, 3)
    c = xp.ascontiguousarray(c.T)
    both = xp.empty((size, batch), dtype=x.dtype)
    half = xp.asarray(0.5, x.dtype)  # (Note [Array constants])
    s2, s3, s4 = 2 * size, 3 * size, 4 * size
    steps = zip(
        blocks[:, :s4].reshape(seq, *rows.shape[:2], batch),
        stacked[:seq],
        projections,
        blocks[:, :s3],  # the sigmoid gates, holding z / 2 until the tanh
        blocks[:, :size],
        blocks[:, size:s2],
        blocks[:, s2:s3],
        blocks[:, s3:s4],
        blocks[:, s4:],
        cells,
        stacked[1:, :size],
    )
    for gates, operand, projection, sigmoids, i, f, o, g, tanh_cell, cell, out in steps:
        xp.matmul(rows, operand, out=gates)
        if projection is not None:
            gates += projection
        if scale != 0.5:  # the products at full scale: halve the sigmoid gates now
            xp.multiply(sigmoids, half, out=sigmoids)
        xp.tanh(gates, out=gates)
        xp.multiply(sigmoids, half, out=sigmoids)
        xp.add(sigmoids, half, out=sigmoids)
        xp.multiply(f, c, out=cell)
        xp.multiply(i, g, out=both)
        cell += both
        xp.tanh(cell, out=tanh_cell)
        xp.multiply(o, tanh_cell, out=out)
        c = cell
    hidden = stacked[1:, :size]
    out = hidden.transpose(0, 2, 1)
    out = (out[::-1] if reverse else out).copy()  # (a view of the scratch stack otherwise)
    return out, hidden[-1].T.copy(), c.T.copy(), work.view(xp.uint8)


def _layer_backward(grads, x, w_ih, w_hh, hx, cx, out, workspace, reverse, input_grad=True):
    """Gradients of (input, w_ih, w_hh, b_ih, b_hh, hx, cx) from those of (output, h_n, c_n),
    any of which may be None (zero); the input's is None unless ``input_grad``. The loop runs
    on transposed states, as the forward's (Note [Gate layout in the workspace]), with the
    gate gradients in the forward's (i, f, o, g) order, each step's a contiguous block."""
    d_out, d_hy, d_cy = (None if g is None else g._data for g in grads[:3])
    seq, batch, _ = x.shape
    size = w_hh.shape[1]
    dtype = x.dtype
    blocks, cells = _workspace_views(workspace.view(dtype), seq, batch, size)
    if reverse:
        x, out = x[::-1], out[::-1]
        d_out = None if d_out is None else d_out[::-1]
    # the output's gradient transposed once, (seq, size, batch): each step adds a contiguous
    # block (adding a transposed view per step is a strided pass)
    if d_out is not None:
        d_out_t = _buffer("d_out", (seq, size, batch), dtype)
        xp.copyto(d_out_t, d_out.transpose(0, 2, 1), casting="unsafe")
        d_out = d_out_t
    d_gates_all = _buffer("d_gates", (seq, 4 * size, batch), dtype)
    # W_hh^T with its columns in the forward's gate order (i, f, o, g)
    w_hh_t = _buffer("w_hh_t", (size, 4 * size), dtype)
    w_hh_t[:, : 2 * size] = w_hh[: 2 * size].T
    w_hh_t[:, 2 * size : 3 * size] = w_hh[3 * size :].T
    w_hh_t[:, 3 * size :] = w_hh[2 * size : 3 * size].T
    w_hh_t = _row_blocks(w_hh_t, batch)
    dh = xp.zeros((size, batch), dtype) if d_hy is None else d_hy.T.astype(dtype, order="C")
    dc = xp.zeros((size, batch), dtype) if d_cy is None else d_cy.T.astype(dtype, order="C")
    if d_out is not None and seq:
        dh += d_out[seq - 1]
    cx = xp.ascontiguousarray(cx.T)
    slope = xp.empty((size, batch), dtype=dtype)
    one = xp.asarray(1, dtype)  # (Note [Array constants])
    s2, s3, s4 = 2 * size, 3 * size, 4 * size
    # the activations' slopes for a step's whole block: s - s^2 for the sigmoid gates,
    # 1 - t^2 for g and tanh(c), from one pass squaring the block
    slopes = xp.empty((5 * size, batch), dtype=dtype)
    sigmoid_slopes, tanh_slopes = slopes[:s3], slopes[s3:]
    g_slope, cell_slope = slopes[s3:s4], slopes[s4:]
    back, d_back = blocks[::-1], d_gates_all[::-1]
    steps = zip(
        d_back,
        d_back[:, :s3],
        d_back[:, :size],
        d_back[:, size:s2],
        d_back[:, s2:s3],
        d_back[:, s3:],
        back[:, :s3],
        back[:, :size],
        back[:, size:s2],
        back[:, s2:s3],
        back[:, s3:s4],
        back,
        back[:, s4:],
        itertools.chain(cells[-2::-1], (cx,)),  # the cell state each step started from
        itertools.repeat(None) if d_out is None else itertools.chain(d_out[-2::-1], (None,)),
    )
    # The gradient-independent factors are computed step by step, while the step's gates are
    # in cache: for all steps at once, as whole-sequence passes, they cost more than the
    # calls they save.
    for (
        d,
        d_sig,
        d_i,
        d_f,
        d_o,
        d_g,
        sig,
        i,
        f,
        o,
        g,
        block,
        tanh_cell,
        c_prev,
        d_prev,
    ) in steps:
        xp.multiply(dh, tanh_cell, out=d_o)
        xp.multiply(block, block, out=slopes)
        xp.subtract(sig, sigmoid_slopes, out=sigmoid_slopes)
        xp.subtract(one, tanh_slopes, out=tanh_slopes)
        xp.multiply(cell_slope, o, out=slope)
        slope *= dh
        dc += slope
        xp.multiply(dc, g, out=d_i)
        xp.multiply(dc, c_prev, out=d_f)
        xp.multiply(dc, i, out=d_g)
        dc *= f
        d_sig *= sigmoid_slopes
        d_g *= g_slope
        dh = xp.matmul(w_hh_t, d).reshape(size, batch)
        if d_prev is not None:
            dh += d_prev
    # the gate gradients of all steps side by side in torch's order, (4 size, seq * batch),
    # so the weight gradients are one GEMM each and need no reordering
    flat = _buffer("flat", (s4, seq, batch), dtype)
    by_gate = d_gates_all.transpose(1, 0, 2)
    flat[:s2] = by_gate[:s2]
    flat[s2:s3] = by_gate[s3:]
    flat[s3:] = by_gate[s2:s3]
    flat = flat.reshape(s4, seq * batch)
    d_input = xp.matmul(flat.T, w_ih).reshape(x.shape) if input_grad else None
    if reverse and input_grad:
        d_input = xp.ascontiguousarray(d_input[::-1])
    d_w_ih = matmul_by_row_blocks(flat, x.reshape(seq * batch, -1))
    if hx.dtype == dtype and out.dtype == dtype:
        previous = _buffer("previous", (seq, batch, size), dtype)
        xp.concatenate([hx[None], out[:-1]], out=previous)
    else:  # (a state of another dtype promotes the product, as the composed layer's)
        previous = xp.concatenate([hx[None], out[:-1]])
    previous = previous.reshape(seq * batch, size)
    d_w_hh = matmul_by_row_blocks(flat, previous)
    d_bias = flat.sum(1)
    return d_input, d_w_ih, d_w_hh, d_bias, d_bias.copy(), dh.T.copy(), dc.T.copy()


def _composed(x, w_ih, w_hh, b_ih, b_hh, h, c, reverse):
    """The same layer from differentiable ops (as rnn.py composes it), for create_graph."""
    bias = None if b_ih is None else b_ih + b_hh
    flat = x.reshape(-1, x.shape[-1])
    projected = flat.mm(w_ih.t()) if bias is None else addmm(bias, flat, w_ih.t())
    steps = projected.view(x.shape[0], x.shape[1], -1).unbind(0)
    outputs = []
    for xw in reversed(steps) if reverse else steps:
        i, f, g, o = addmm(xw, h, w_hh.t()).chunk(4, 1)
        c = f.sigmoid() * c + i.sigmoid() * g.tanh()
        h = o.sigmoid() * c.tanh()
        outputs.append(h)
    if reverse:
        outputs.reverse()
    return stack(outputs, 0), h, c


def _create_graph_grads(grads, tensors, reverse):
    """Vector-Jacobian products of the composed layer, recorded (higher orders work)."""
    args = []
    with grad_mode.enable_grad():  # (the aliases too: under vmap this runs without grad)
        for t in tensors:
            if t is not None and not t.requires_grad:
                t = t.detach().requires_grad_(True)
            elif t is not None:
                # an alias per argument: one tensor passed as two arguments (hx and cx) must
                # get each one's own gradient, not their sum twice
                t = t.view_as(t)
            args.append(t)
        results = _composed(*args, reverse)
        pairs = [(r, g) for r, g in zip(results, grads[:3]) if g is not None]
        wanted = [t for t in args if t is not None]
        found = iter(
            run_backward(
                [r for r, _ in pairs],
                [g for _, g in pairs],
                retain_graph=True,
                create_graph=True,
                inputs=wanted,
                accumulate=False,
            )
        )
    return [None if t is None else next(found) for t in args]


def _gradients(
    grads,
    input,
    w_ih,
    w_hh,
    b_ih,
    b_hh,
    hx,
    cx,
    output,
    workspace,
    reverse,
    batch_first,
    input_grad=True,
):
    """All seven gradients at once (one backpropagation through time)."""
    tensors = [input, w_ih, w_hh, b_ih, b_hh, hx, cx]
    if batch_first:
        tensors[0], output = input.transpose(0, 1), output.transpose(0, 1)
        grads = [None if g is None else g.transpose(0, 1) for g in grads[:1]] + list(grads[1:])
    if grad_mode.is_grad_enabled():
        found = _create_graph_grads(grads, tensors, reverse)
    elif input._data.dtype.kind == "c" or any(g is not None and g._batched for g in grads):
        # under vmap (batched gradients), or complex (whose gradients conjugate the slopes,
        # Note [Complex autograd]): through the composed layer's ops, not recorded
        found = [
            None if t is None else t.detach() for t in _create_graph_grads(grads, tensors, reverse)
        ]
    else:
        x, w_ih, w_hh, _, _, hx, cx = (None if t is None else t._data for t in tensors)
        arrays = _layer_backward(
            grads, x, w_ih, w_hh, hx, cx, output._data, workspace._data, reverse, input_grad
        )
        found = [None if a is None else Tensor._make(a) for a in arrays]
        found = [None if t is None else a for t, a in zip(tensors, found)]
    if batch_first and found[0] is not None:
        found[0] = found[0].transpose(0, 1)
    return found


def _one_gradient(k):
    # A formula called on its own (the generic path) is a whole backward pass for one
    # input; the node's _apply (below) runs it once for all inputs.
    def formula(
        grads,
        input,
        weight0,
        weight1,
        weight2,
        weight3,
        hx_,
        cx_,
        result0,
        result3,
        reverse,
        batch_first,
    ):
        return _gradients(
            grads,
            input,
            weight0,
            weight1,
            weight2,
            weight3,
            hx_,
            cx_,
            result0,
            result3,
            reverse,
            batch_first,
        )[k]

    return formula


def _check_layer(input, others, batch_first):
    # oneDNN's layer takes one floating dtype for every tensor (torch: "get_mkldnn_dtype"),
    # and the shapes of one LSTM layer; checked here so NumPy never sees a misfit. On other
    # dtypes than float32 the layer stands for the composed one, whose addmm refuses a
    # bias of another dtype and whose pointwise gate arithmetic promotes the cell state.
    for k, a in enumerate(others):
        promoted = k == 5 and input.dtype != xp.float32
        if a is not None and a.dtype != input.dtype and not promoted:
            raise RuntimeError(
                f"mkldnn_rnn_layer: every tensor must have the input's dtype {input.dtype}, "
                f"but got {a.dtype}; convert them with .to()"
            )
    w_ih, w_hh, b_ih, b_hh, hx, cx = others
    if input.ndim != 3 or w_ih.ndim != 2 or w_hh.ndim != 2:
        raise RuntimeError(
            f"mkldnn_rnn_layer: expected a 3-D input and 2-D weights, but got input of "
            f"{input.ndim} dims, weight_ih of {w_ih.ndim} and weight_hh of {w_hh.ndim}"
        )
    batch = input.shape[0 if batch_first else 1]
    size = w_hh.shape[1]
    shapes = {
        "weight_ih": (w_ih.shape, (4 * size, input.shape[2])),
        "weight_hh": (w_hh.shape, (4 * size, size)),
        "hx": (hx.shape, (batch, size)),
        "cx": (cx.shape, (batch, size)),
    }
    if b_ih is not None:
        shapes["bias_ih"] = (b_ih.shape, (4 * size,))
        shapes["bias_hh"] = (b_hh.shape, (4 * size,))
    for name, (got, expected) in shapes.items():
        if tuple(got) != expected:
            raise RuntimeError(
                f"mkldnn_rnn_layer: expected {name} of shape {list(expected)} for an input of "
                f"shape {list(input.shape)} and hidden size {size}, but got {list(got)}"
            )


@export(method=False)
@defop(
    name="mkldnn_rnn_layer",
    node="MkldnnRnnLayerBackward0",
    outputs=4,
    **{name: _one_gradient(k) for k, name in enumerate(_INPUTS)},
    jvp=no_forward_derivative("mkldnn_rnn_layer"),
)
def mkldnn_rnn_layer(
    input,
    weight0,
    weight1,
    weight2,
    weight3,
    hx_,
    cx_,
    reverse,
    batch_sizes,
    mode,
    hidden_size,
    num_layers,
    has_biases,
    bidirectional,
    batch_first,
    train,
):
    """One LSTM layer in one direction over a (seq, batch, input) sequence:
    ``(output, h_n, c_n, workspace)`` (weights as in ``nn.LSTM``; biases None without)."""
    _check_layer(input, (weight0, weight1, weight2, weight3, hx_, cx_), batch_first)
    if batch_first:
        input = xp.swapaxes(input, 0, 1)
    if mode != 2:  # torch's mode numbers: 0 RNN_TANH, 1 RNN_RELU, 2 LSTM, 3 GRU
        raise RuntimeError(f"mkldnn_rnn_layer: only LSTM (mode 2) is implemented, got mode {mode}")
    out, hy, cy, workspace = _layer_forward(
        input, weight0, weight1, weight2, weight3, hx_, cx_, reverse
    )
    if batch_first:
        out = xp.swapaxes(out, 0, 1)
    return out, hy, cy, workspace


def _apply(node, grad_outputs):
    if node._saved is FREED:
        raise freed_error(node)
    _, _, argnames = mkldnn_rnn_layer.spec.formulas[0]
    input_grad = node.next_functions[0][0] is not None  # the input often needs none
    found = _gradients(*node._arguments(argnames, grad_outputs), input_grad)
    return [g if edge[0] is not None else None for g, edge in zip(found, node.next_functions)]


mkldnn_rnn_layer.spec.node_class._apply = _apply
