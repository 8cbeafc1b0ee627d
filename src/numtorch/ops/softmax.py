"""softmax and log_softmax, with their backward ops (torch's ``_softmax_backward_data`` and
``_log_softmax_backward_data``): each first-order gradient is one named, differentiable op,
so double backward records ``SoftmaxBackwardDataBackward0`` as torch does."""

from __future__ import annotations

from .._core import batch_rules
from .._core.dispatch import require_tensor
from .._core.kernel_dtypes import FLOATS, kernel
from .._core.op import defop, export
from .._core.tensor import Tensor, _wrap_dim
from .._creation import empty_like
from ..autograd.forward_grad import add_terms, batch_shift, batched
from ..backend import xp
from ..backend.layout import row_major


def _softmax_double_backward(grad, grad_output, output, dim):
    # d/ds <G, s (g - sum(g s))> = G (g - sum(g s)) - g sum(G s)
    first = grad_output * grad - (output * grad_output).sum(dim, keepdim=True) * grad
    return first - grad_output * (output * grad).sum(dim, keepdim=True)


# Their forward derivatives, g the incoming gradient and o the output (0-d: d = 0):
# f = g o - o sum(g o):  df = f(dg, o) + do (g - sum(g o)) - o sum(g do)
# f = g - exp(o) sum(g): df = f(dg, o) - do exp(o) sum(g)
def _data_dim(tangent, primal, dim):
    return dim % max(primal.ndim, 1) + batch_shift(tangent, primal)


@batched
def _softmax_backward_data_jvp(grad_output_t, output_t, grad_output, output, dim):
    by_grad = by_output = None
    if grad_output_t is not None:
        d = _data_dim(grad_output_t, grad_output, dim)
        product = grad_output_t * output
        by_grad = product - output * product.sum(d, keepdim=True)
    if output_t is not None:
        d = _data_dim(output_t, output, dim)
        total = (grad_output * output).sum(dim, keepdim=True)
        by_output = output_t * (grad_output - total) - output * (grad_output * output_t).sum(
            d, keepdim=True
        )
    return add_terms(by_grad, by_output)


@batched
def _log_softmax_backward_data_jvp(grad_output_t, output_t, grad_output, output, dim):
    by_grad = by_output = None
    if grad_output_t is not None:
        d = _data_dim(grad_output_t, grad_output, dim)
        by_grad = grad_output_t - output.exp() * grad_output_t.sum(d, keepdim=True)
    if output_t is not None:
        by_output = -output_t * output.exp() * grad_output.sum(dim, keepdim=True)
    return add_terms(by_grad, by_output)


def _row_sums(values, dim):
    """The sums torch's backward kernels take over ``dim``: along the last dim its reduction
    starts from the first element (a row of -0.0 sums to -0.0), along another from +0.0."""
    if values.ndim == 0:
        return values
    last = dim % values.ndim == values.ndim - 1
    return xp.add.reduce(values, axis=dim, keepdims=True, initial=-0.0 if last else 0.0)


@defop(
    batch=batch_rules.along("dim"),
    name="_softmax_backward_data",
    node="SoftmaxBackwardDataBackward0",
    grad_output=lambda grad, output, dim: softmax_backward_data(grad, output, dim),
    output=_softmax_double_backward,
    jvp=_softmax_backward_data_jvp,
)
def softmax_backward_data(grad_output, output, dim):
    product = grad_output * output
    total = _row_sums(product, dim)
    if _same_dense(grad_output, output):  # the same values, written over the temporaries
        return xp.subtract(product, xp.multiply(output, total), out=product)
    return product - output * total


def _same_dense(grad_output, output):
    """Both C-contiguous real arrays of one dtype and shape (not 0-d), so a result written
    over a temporary has the layout and dtype the out-of-place expression would have."""
    return (
        output.ndim > 0
        and output.dtype.kind == "f"
        and grad_output.dtype == output.dtype
        and grad_output.shape == output.shape
        and grad_output.flags.c_contiguous
        and output.flags.c_contiguous
    )


@defop(
    batch=batch_rules.along("dim"),
    name="_log_softmax_backward_data",
    node="LogSoftmaxBackwardDataBackward0",
    grad_output=lambda grad, output, dim: grad - (grad * output.exp()).sum(dim, keepdim=True),
    # d/do <G, g - exp(o) sum(g)> = -G exp(o) sum(g)
    output=lambda grad, grad_output, output, dim: (
        -grad_output.sum(dim, keepdim=True) * output.exp() * grad
    ),
    jvp=_log_softmax_backward_data_jvp,
)
def log_softmax_backward_data(grad_output, output, dim):
    total = _row_sums(grad_output, dim)
    if _same_dense(grad_output, output):  # the same values, written over the temporary
        scaled = xp.exp(output)
        scaled *= total
        return xp.subtract(grad_output, scaled, out=scaled)
    return grad_output - xp.exp(output) * total


# Forward derivatives (Note [Forward grads]), over ``dim`` shifted past a batch of tangents:
# d softmax(x) = s (dx - sum(s dx)),  d log_softmax(x) = dx - sum(exp(o) dx).
def _tangent_dim(input_t, input, dim):
    return dim % input.ndim + batch_shift(input_t, input)


@batched
def _softmax_jvp(input_t, input, dim, result):
    if input.ndim == 0:  # the sum over the one element, as torch's: it starts from +0
        return result * (input_t - (result * input_t + 0.0))
    d = _tangent_dim(input_t, input, dim)
    return result * (input_t - (result * input_t).sum(d, keepdim=True))


@batched
def _log_softmax_jvp(input_t, input, dim, result):
    if input.ndim == 0:
        return input_t - (result.exp() * input_t + 0.0)
    d = _tangent_dim(input_t, input, dim)
    return input_t - (result.exp() * input_t).sum(d, keepdim=True)


def _row_max(input, dim):
    # torch's kernels shift by the plain maximum: an infinite one makes the whole row NaN
    # (inf - inf), where logsumexp's shift (_stable_max) would keep it finite
    if input.size == 0:
        return xp.zeros((1,) * input.ndim, input.dtype)
    if (
        input.ndim > 1
        and dim == input.ndim - 1
        and input.shape[dim] <= _SHORT_ROW
        and input.size >= _SHORT_ROW_COUNT * input.shape[dim]
        and input.dtype.kind == "f"
    ):
        # NumPy reduces a short last axis one row at a time (about 90 ns a row: 12 us for a
        # 128 x 10 batch of logits); over the leading axis of a transposed copy it compares
        # whole rows per call (3 us). A maximum is exact in any order.
        columns = (input.T if input.ndim == 2 else xp.moveaxis(input, -1, 0)).copy()
        return xp.maximum.reduce(columns, axis=0)[..., None]
    return xp.maximum.reduce(input, axis=dim, keepdims=True)


# Rows this short, at least this many of them, take the transposed maximum (_row_max):
# measured faster from 16 rows of 10 up to rows of 64; at 100 the two are even.
_SHORT_ROW = 64
_SHORT_ROW_COUNT = 16


@defop(
    batch=batch_rules.along("dim"),
    name="softmax",
    dtypes=kernel("softmax_lastdim_kernel_impl", FLOATS),
    schema_args=3,  # softmax.int(self, dim, dtype)
    node="SoftmaxBackward0",
    input=lambda grad, result, dim: softmax_backward_data(grad, result, dim),
    jvp=_softmax_jvp,
)
def _softmax(input, dim):
    if _kernel_order(input, dim):
        return row_major(_softmax_lastdim(input))
    e = xp.exp(input - _row_max(input, dim))
    return row_major(e / xp.sum(e, axis=dim, keepdims=True))


# Note [Softmax as torch's CPU kernel]
# torch's float32 softmax over the last dim exponentiates each shifted value with SLEEF's
# vector exp (correctly rounded in about 99% of values, NumPy's float32 exp in about 60%),
# adds the row in its vector order (below one vector's 16 lanes, left to right; otherwise
# lane-wise over whole vectors, the tail into the first lanes, then the lanes pairwise
# 8, 4, 2, 1 apart) and multiplies by the reciprocal of that sum. Taking the exp in float64
# and rounding once, and adding and scaling in its order, gives torch's bits in about 90% of
# values where NumPy's exp, pairwise sum and division gave 35-65% (a printed row sum read
# tensor(1.0000) where torch's reads tensor(1.)). log_softmax takes the same exp and sum and
# the log of that sum in float64 (about 98% of values, 80-93% before). float64 rows take
# the same order over a vector's 8 lanes and the same reciprocal, with NumPy's exp: torch's
# bits in 90-94% of the values of short rows and about 60% of long ones (dividing by a
# pairwise sum gave 40-80%). Other dims and dtypes keep the plain form, and so do rows
# longer than 1024 and tensors of more than 65536 values: the float64 exp takes 2-4x
# NumPy's float32 exp and the ordered sum up to 9x a plain one, which on a language model's
# logits or a batch of attention scores would add milliseconds a call; below these sizes it
# adds tens of microseconds where a printed value is most likely read.
_VECTOR_BYTES = 64  # one AVX-512 vector: 16 floats, 8 doubles
_KERNEL_DTYPES = (xp.dtype(xp.float32), xp.dtype(xp.float64))
_LONGEST_ROW = 1024
_MOST_VALUES = 1 << 16


def _kernel_order(input, dim) -> bool:
    return (
        input.dtype in _KERNEL_DTYPES
        and dim == input.ndim - 1
        and 0 < input.size <= _MOST_VALUES
        and input.shape[-1] <= _LONGEST_ROW
    )


def _softmax_lastdim(input):
    e = _kernel_exp(input - _row_max(input, input.ndim - 1))
    return e * (input.dtype.type(1) / _vector_row_sum(e))


def _kernel_exp(shifted):
    if shifted.dtype == xp.float64:
        return xp.exp(shifted)
    return xp.exp(shifted, dtype=xp.float64).astype(xp.float32)


def _vector_row_sum(e):
    """Sums over the last axis (kept) in the order of torch's vectorized reduce_all."""
    n = e.shape[-1]
    rows = e.size // n
    flat = e.reshape(rows, n)
    lanes_wide = _VECTOR_BYTES // e.dtype.itemsize
    if n < lanes_wide:
        if rows < 2:
            return xp.cumsum(e, axis=-1)[..., -1:]  # an accumulation adds strictly in order
        # over the leading axis of a transposed copy NumPy adds whole rows in order (a row
        # at a time through the columns, where a cumsum walks each short row: 80 us against
        # 600 us for 4096 rows of 10)
        return xp.add.reduce(flat.T.copy(), axis=0).reshape(*e.shape[:-1], 1)
    whole = n - n % lanes_wide
    # laid out (vectors, lanes, rows): NumPy adds the vectors in order over the leading
    # axis, and each halving of the lanes adds two contiguous blocks
    vectors = (
        flat[:, :whole].reshape(rows, whole // lanes_wide, lanes_wide).transpose(1, 2, 0).copy()
    )
    lanes = xp.add.reduce(vectors, axis=0)
    if whole < n:
        lanes[: n - whole] += flat[:, whole:].T
    width = lanes_wide
    while width > 1:
        width //= 2
        lanes = lanes[:width] + lanes[width : 2 * width]
    return lanes.reshape(*e.shape[:-1], 1)


@defop(
    batch=batch_rules.along("dim"),
    name="log_softmax",
    dtypes=kernel("log_softmax_lastdim_kernel_impl", FLOATS),
    schema_args=3,  # log_softmax.int(self, dim, dtype)
    node="LogSoftmaxBackward0",
    input=lambda grad, result, dim: log_softmax_backward_data(grad, result, dim),
    jvp=_log_softmax_jvp,
)
def _log_softmax(input, dim):
    shifted = input - _row_max(input, dim)
    if _kernel_order(input, dim):
        # torch's kernel: its exp, vector-order sum and log (Note [Softmax as torch's CPU
        # kernel]), then (x - max) - log(sum)
        total = _vector_row_sum(_kernel_exp(shifted))
        return row_major(shifted - xp.log(total, dtype=xp.float64).astype(shifted.dtype))
    if shifted.dtype.kind != "f" or shifted.ndim == 0:
        # complex and bfloat16: out-of-place as NumPy promotes; a 0-d input's arithmetic
        # gives NumPy scalars, which cannot be written over
        return row_major(shifted - xp.log(xp.sum(xp.exp(shifted), axis=dim, keepdims=True)))
    total = xp.add.reduce(xp.exp(shifted), axis=dim, keepdims=True)
    # the shifted values are a temporary of this call: the result is written over them
    return row_major(xp.subtract(shifted, xp.log(total, out=total), out=shifted))


def _softmax_dim(input, dim, name):
    if dim is None:
        raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')
    return _wrap_dim(dim, input.ndim)


def _softmax_input(input, dim, kernel="softmax"):
    if input._data.dtype.kind not in "fV":  # integers, bools and complex
        # torch's kernel for the last dim has its own name
        where = "_lastdim" if dim == input.ndim - 1 or input.ndim == 0 else ""
        raise NotImplementedError(
            f"\"{kernel}{where}_kernel_impl\" not implemented for '{input.dtype.scalar_name}'"
        )
    return input


@export
def softmax(input, dim=None, dtype=None) -> Tensor:
    """exp(x) / sum(exp(x)) along ``dim``, computed stably."""
    require_tensor("softmax", "input", 1, input)
    dim = _softmax_dim(input, dim, "softmax")
    if dtype is not None:  # torch casts first: an integer dtype meets the kernel's refusal
        input = input.to(dtype)
    if _untouched(input):
        return empty_like(input)
    return _softmax(_softmax_input(input, dim), dim)


@export
def log_softmax(input, dim=None, dtype=None) -> Tensor:
    """log(softmax(x)) along ``dim``, computed stably."""
    require_tensor("log_softmax", "input", 1, input)
    dim = _softmax_dim(input, dim, "log_softmax")
    if dtype is not None:  # torch casts first: an integer dtype meets the kernel's refusal
        input = input.to(dtype)
    if _untouched(input):
        return empty_like(input)
    return _log_softmax(_softmax_input(input, dim, "log_softmax"), dim)


def _untouched(input) -> bool:
    # torch returns an empty result before it picks a kernel: an empty integer or bool
    # input gives an empty tensor of its dtype, where a non-empty one is refused
    return input._data.size == 0 and input._data.dtype.kind in "biu"
