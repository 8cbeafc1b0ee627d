"""tanh, sigmoid and relu as ``torch.*`` functions, with the fused backward ops torch records for
them (``tanh_backward``, ``sigmoid_backward``, ``threshold_backward``)."""

from __future__ import annotations

from .._core import batch_rules
from .._core import dtypes as _dtypes
from .._core.kernel_dtypes import REAL, own_message
from .._core.op import defop, export
from .._creation import zeros_like
from ..backend import xp
from ..backend.sleef import expf_u10, libm_expf
from .pointwise import _conj, _unary


# tanh, sigmoid and relu get fused backward ops (one op instead of three), as in torch.
@defop(
    batch=batch_rules.pointwise,
    name="tanh_backward",
    node="TanhBackwardBackward0",
    # conjugated for complex tensors (Note [Complex autograd]): tanh's second order
    grad_output=lambda grad, output: tanh_backward(grad, _conj(output)),
    output=lambda grad, grad_output, output: -2 * _conj(output) * grad * _conj(grad_output),
    jvp="elementwise",
)
def tanh_backward(grad_output, output):
    if output.dtype == xp.float32:
        # torch's kernel computes 1 - y*y as one fused multiply-add (one rounding); in float64
        # the product is exact, so one cast back rounds as the fused op does
        return grad_output * (1 - output.astype(xp.float64) ** 2).astype(xp.float32)
    if output.dtype in (xp.float16, _dtypes.BFLOAT16_NP):  # torch computes these in float32
        wide = grad_output.astype(xp.float32) * (1 - output.astype(xp.float32) ** 2)
        return wide.astype(output.dtype)
    if output.dtype == xp.float64:  # x87 extended precision comes closest to the fused op
        return grad_output * (1 - output.astype(xp.longdouble) ** 2).astype(xp.float64)
    return grad_output * (1 - output * output)


@defop(
    batch=batch_rules.pointwise,
    name="sigmoid_backward",
    node="SigmoidBackwardBackward0",
    grad_output=lambda grad, output: sigmoid_backward(grad, _conj(output)),
    output=lambda grad, grad_output, output: grad * _conj(grad_output) * _conj(1 - 2 * output),
    jvp="elementwise",
)
def sigmoid_backward(grad_output, output):
    return grad_output * (1 - output) * output  # torch's order of the two roundings


@defop(
    batch=batch_rules.pointwise,
    name="threshold_backward",
    node="ThresholdBackwardBackward0",
    grad_output=lambda grad, self, threshold: threshold_backward(grad, self, threshold),
    self=lambda grad: zeros_like(grad),
    jvp="elementwise",
)
def threshold_backward(grad_output, self, threshold):
    # torch's rule: 0 where self <= threshold, else grad_output, so a NaN in self passes
    # the gradient on. np.where on a random mask is ~10x slower than a branch-free form.
    zeroed = xp.less_equal(self, threshold)
    bits = _SAME_SIZE_BITS.get(grad_output.dtype.itemsize)
    fast = grad_output.dtype.kind == "f" and bits is not None
    # NumPy answers 0-d comparisons with scalars, which take no out=
    if not (fast and isinstance(zeroed, xp.ndarray) and zeroed.shape == grad_output.shape):
        return xp.where(zeroed, 0, grad_output).astype(grad_output.dtype, copy=False)
    # All-ones where the gradient passes (0 - 1 wraps around to -1, which widening to the
    # gradient's width sign-extends), zero where it is zeroed: an AND keeps inf and NaN
    # gradients exact and writes +0 elsewhere, with no fix-up pass. The subtraction runs on
    # bytes and the widening is a plain cast, together ~30% faster than a mixed-type subtract.
    flags = zeroed.view(xp.uint8)
    xp.subtract(flags, xp.uint8(1), out=flags)
    keep = flags.view(xp.int8).astype(bits)
    xp.bitwise_and(grad_output.view(bits), keep, out=keep)
    return keep.view(grad_output.dtype)


_SAME_SIZE_BITS = {2: xp.int16, 4: xp.int32, 8: xp.int64}


tanh = _unary("tanh", xp.tanh, lambda grad, result: tanh_backward(grad, _conj(result)), wide=True)


def _sigmoid_forward(input):
    if input.dtype == xp.float32:
        one = xp.float32(1)
        return one / (one + kernel_exp(-input, input))
    # exp(-x) overflows harmlessly to inf for very negative x, giving 0
    return 1 / (1 + xp.exp(-input))


# Note [Exp in torch's vector kernels]
# torch's float32 sigmoid and silu take exp(-x) from SLEEF's vector exp (backend/sleef.py)
# in the vector part of their loop (two vectors a step: vector_lanes) and from the C
# library's expf (called as it is: it is not always correctly rounded) in the scalar part;
# then 1 / (1 + e) or x / (1 + e) in float32. NumPy's float32 exp differed from both in the
# last bit for ~15% of values. Following SLEEF's steps costs ~30x NumPy's exp, so it is
# taken where a printed value is most likely read: tensors of up to 4096 values. Larger
# ones take the correctly rounded exp everywhere, which equals SLEEF's for ~96% of values,
# at about NumPy's cost.
_SLEEF_MOST = 4096


def kernel_exp(x, layout):
    """``exp`` of the float32 array ``x`` as torch's vector kernel over an operand laid out
    as ``layout`` takes it (Note [Exp in torch's vector kernels])."""
    if not 0 < x.size <= _SLEEF_MOST:
        return xp.exp(x.astype(xp.float64)).astype(xp.float32)
    # imported here: ops.nn's package imports this module (for sigmoid) on its way in
    from .nn.simd_lanes import vector_lanes

    lanes = vector_lanes(layout, vectors=2)
    e = xp.empty(x.shape, xp.float32)
    e[lanes] = expf_u10(x[lanes])
    e[~lanes] = libm_expf(x[~lanes])
    return e


sigmoid = _unary(
    "sigmoid", _sigmoid_forward, lambda grad, result: sigmoid_backward(grad, _conj(result))
)


@export(inplace=True)
@defop(
    batch=batch_rules.pointwise,
    input=lambda grad, result: threshold_backward(grad, result, 0),
    # relu is a clamp in torch: complex input meets clamp's check
    dtypes=own_message(REAL, "clamp is not supported for complex types", NotImplementedError),
    jvp="elementwise",
)
def relu(input):
    """max(input, 0)."""
    if input.dtype == xp.bool_:
        raise RuntimeError("Boolean inputs not supported for relu")
    if 0 < input.size <= _ZEROS_SIZE and input.dtype.kind in "fiu" and input.flags.c_contiguous:
        # NumPy's maximum runs its vectorised loop against a same-shape array and a slower one
        # against a scalar: 9 against 17 us at 128 x 512 (torch 9). Beyond this size the
        # zeros' extra reads cost more than the loop saves (a 3.2 MB input: 1.7x slower).
        return xp.maximum(_zeros_like(input), input)
    # zeros first: NumPy's maximum gives its second operand between equal zeros, and
    # torch's relu keeps the input's -0.0 (Note [Equal zeros in maximum and minimum])
    return xp.maximum(0, input)


_ZEROS_SIZE = 1 << 16
_ZEROS = {}


def _zeros_like(input):
    """Zeros of ``input``'s shape and dtype, a view of one read-only buffer per dtype."""
    zeros = _ZEROS.get(input.dtype)
    if zeros is None:
        zeros = _ZEROS[input.dtype] = xp.zeros(_ZEROS_SIZE, input.dtype)
        zeros.flags.writeable = False
    return zeros[: input.size].reshape(input.shape)
