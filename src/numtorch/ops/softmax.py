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
    total = xp.add.reduce(product, axis=dim, keepdims=True)
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
    total = xp.add.reduce(grad_output, axis=dim, keepdims=True)
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
    if input.ndim == 0:
        return input_t * 0
    d = _tangent_dim(input_t, input, dim)
    return result * (input_t - (result * input_t).sum(d, keepdim=True))


@batched
def _log_softmax_jvp(input_t, input, dim, result):
    if input.ndim == 0:
        return input_t * 0
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
    e = xp.exp(input - _row_max(input, dim))
    return row_major(e / xp.sum(e, axis=dim, keepdims=True))


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
    if input._data.dtype.kind not in "fcV":
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
