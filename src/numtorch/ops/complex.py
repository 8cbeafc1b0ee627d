"""Complex tensors: ``real``/``imag`` views, ``conj``, ``angle``, ``view_as_real``,
``view_as_complex``, ``complex``, ``polar``, and the list of ops whose derivative formulas
hold for complex tensors (Note [Complex autograd] in _core/dispatch.py).

On a real tensor ``real``, ``conj`` and the ``resolve_*`` functions give the tensor itself,
``angle`` is 0 or pi and ``imag`` raises, as in torch. ``conj`` of a complex tensor is a
copy (torch's is a lazy view) flagged as torch flags its view: ``is_conj()`` is True and
``view_as_real`` refuses it until ``resolve_conj()``. Its complex views carry the flag.
"""

from __future__ import annotations

import math

from .._core import batch_rules
from .._core import dtypes as _dtypes
from .._core.op import REGISTRY, defop, export
from .._core.tensor import Tensor
from .._creation import ones_like, zeros_like
from ..autograd.forward_grad import add_terms, align, batched
from ..backend import xp
from .indexing import select
from .nn import dropout as _dropout  # noqa: F401 (registers native_dropout, listed below)
from .pointwise import where


def _is_complex(input) -> bool:
    return input._data.dtype.kind == "c"


# -- the real view of a complex tensor ----------------------------------------------------
def _complex_grad(grad):
    if not grad.numel():
        # torch's empty gradient has row-major strides and passes view_as_complex's stride
        # checks; NumPy gives an empty result zero strides (which torch.tensor() of an empty
        # array keeps, and view_as_complex refuses), and an empty array has nothing to lay out
        return _view_as_complex(grad)
    return view_as_complex(grad.contiguous())


@defop(
    batch=batch_rules.contiguous_first,
    name="view_as_real",
    view=True,
    input=lambda grad: _complex_grad(grad),
    jvp=batched(lambda input_t: _view_as_real(input_t)),
)
def _view_as_real(input):
    # a trailing axis of length 1 is contiguous, so NumPy splits it into (re, im) in place
    return input[..., None].view(input.real.dtype)


@export(method=False)
def view_as_real(input) -> Tensor:
    """A real view of a complex tensor, with a last dimension of size 2 (re, im)."""
    if not _is_complex(input):
        raise RuntimeError("view_as_real is only supported for complex tensors")
    if is_conj(input):
        raise RuntimeError(
            "view_as_real doesn't work on unresolved conjugated tensors.  To resolve the "
            "conjugate tensor so you can view it as real, use self.resolve_conj(); however, be "
            "warned that the resulting tensor will NOT alias the original."
        )
    return _view_as_real(input)


@defop(
    batch=batch_rules.contiguous_first,
    name="view_as_complex",
    view=True,
    input=lambda grad: _view_as_real(grad),
    jvp=batched(lambda input_t: _view_as_complex(input_t.contiguous())),
)
def _view_as_complex(input):
    return input.view(xp.complex128 if input.dtype == xp.float64 else xp.complex64)[..., 0]


@export(method=False)
def view_as_complex(input) -> Tensor:
    """A complex view of a real tensor whose last dimension of size 2 holds (re, im)."""
    dtype = input.dtype
    if dtype not in (_dtypes.float32, _dtypes.float64):
        raise RuntimeError(
            "view_as_complex is only supported for half, float and double tensors, but got a "
            f"tensor of scalar type: {dtype.scalar_name}"
        )
    if input.ndim == 0 or input.shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    if input._batched:  # vmap: the batching rule lays the samples out
        return _view_as_complex(input)
    strides = input.stride()
    if strides[-1] != 1:
        raise RuntimeError("Tensor must have a last dimension with stride 1")
    if any(s % 2 for s in strides[:-1]):
        raise RuntimeError("Tensor must have a stride divisible by 2 for all but last dimension")
    if input.storage_offset() % 2:
        raise RuntimeError("Tensor must have a storage_offset divisible by 2")
    return _view_as_complex(input)


# Note [Parts of a conjugate]
# torch takes the parts of a conjugate view through a second conjugation of it (its real and
# imaginary parts are those of the input, the imaginary one viewed negated), so their
# gradients pass two ConjBackward0 nodes (and a negation for the imaginary part): (g, +0)
# and (-0, -g) reach the input. numtorch's conjugate holds its values, and its parts are
# plain views of them; their gradient takes the missing conjugation (and negation) here,
# which changes no value, only which zeros are -0.
@defop(
    batch=batch_rules.contiguous_first,
    name="view_as_real_of_conj",
    aten="view_as_real",
    schema_args=1,  # view_as_real(self)
    node="ViewAsRealBackward0",
    view=True,
    input=lambda grad, negate: _conj(_complex_grad(-grad if negate else grad)),
    jvp=batched(lambda input_t, negate: _view_as_real(input_t)),
)
def _view_as_real_of_conj(input, negate):
    return input[..., None].view(input.real.dtype)


def _real_view(input, negate):
    if is_conj(input):  # Note [Parts of a conjugate]
        return _view_as_real_of_conj(input, negate)
    return _view_as_real(input)


def real(input) -> Tensor:
    """The real part (a view, as torch's ``select`` of ``view_as_real``); ``input`` itself
    for a real tensor."""
    return select(_real_view(input, False), -1, 0) if _is_complex(input) else input


def imag(input) -> Tensor:
    """The imaginary part, a view; only for complex tensors."""
    if not _is_complex(input):
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    return select(_real_view(input, True), -1, 1)


export(real, method=False)
export(imag, method=False)
Tensor.real = property(real)
Tensor.imag = property(imag)


# -- conjugation --------------------------------------------------------------------------
# formulas call the primitives: a gradient is never flagged (see is_conj)
@defop(
    batch=batch_rules.pointwise,
    name="conj",
    node="ConjBackward0",
    input=lambda grad: _conj(grad),
    jvp=batched(lambda input_t: _conj(input_t)),
)
def _conj(input):
    return xp.conj(input)


@defop(
    batch=batch_rules.pointwise,
    name="conj_physical",
    input=lambda grad: grad.conj_physical(),
    jvp=batched(lambda input_t: _conj_physical(input_t)),
)
def _conj_physical(input):
    return xp.conj(input)


@export
def conj(input) -> Tensor:
    """The complex conjugate: ``input`` itself for a real tensor."""
    if not _is_complex(input):
        return input
    out = _conj(input)
    # the flag toggles: the conjugate of a flagged tensor holds its plain values
    out._conj_bit = not is_conj(input)
    # torch's conj is a view of the input (a flag, no copy): numtorch's holds the conjugate
    # values, but shares the input's version counter, so that what an op saves of it goes
    # stale when the input is changed in place, as torch's saved view does
    out._vc = input._get_vc()
    return out


@export
def conj_physical(input) -> Tensor:
    return _conj_physical(input) if _is_complex(input) else input


@export
def resolve_conj(input) -> Tensor:
    """``input`` without the conjugate flag: a copy where ``conj`` set it."""
    return input.clone() if is_conj(input) else input


@export
def resolve_neg(input) -> Tensor:
    return input


@export(name="conj_physical_")
def _conj_physical_(input) -> Tensor:
    if _is_complex(input):
        input.copy_(_conj_physical(input.detach()))
    return input


@export
def is_conj(input) -> bool:
    return input.__dict__.get("_conj_bit", False)


@export
def is_neg(input) -> bool:
    return False


@export
def is_complex(input) -> bool:
    return _is_complex(input)


@export
def isreal(input) -> Tensor:
    """True where the imaginary part is 0 (everywhere, for a real tensor)."""
    data = input._data
    if data.dtype.kind == "c":
        return Tensor._make(data.imag == 0)
    return Tensor._make(xp.ones(data.shape, xp.bool_))


@export
def positive(input) -> Tensor:
    """``+input``: the tensor itself (refused for bool, as the ``+`` operator is)."""
    if input._data.dtype == xp.bool_:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


# -- polar form ---------------------------------------------------------------------------
def _angle_grad(grad, input):
    if not _is_complex(input):
        return zeros_like(grad)  # the argument of a real number is flat almost everywhere
    # d angle(z) in conjugate Wirtinger form: i z / |z|**2, masked to 0 at z = 0 as torch's
    # angle_backward (the masked 0/0 still differentiates to NaN there)
    return where(input == 0, 0.0, grad * input / input.abs().pow(2) * 1j)


@batched
def _angle_jvp(input_t, input):
    if not _is_complex(input):
        return zeros_like(input_t)  # +0 everywhere, as torch (a product would carry -0)
    # d angle(z) = Im(conj(z) dz) / |z|**2, and 0 at z = 0
    squared = input.abs() ** 2
    return (_conj(input) * input_t).imag / (squared + (squared == 0))


@export
@defop(
    batch=batch_rules.pointwise,
    promote="float",
    input=_angle_grad,
    jvp=_angle_jvp,
)
def angle(input):
    """The argument of each element: for real tensors 0 for non-negative values and pi for
    negative ones (NaN stays NaN)."""
    if input.dtype.kind == "c":
        return xp.angle(input)
    return xp.where(input < 0, math.pi, xp.where(xp.isnan(input), input, 0)).astype(input.dtype)


def _check_pair(name, first, second) -> None:
    if not isinstance(first, Tensor) or not isinstance(second, Tensor):
        bad = second if isinstance(first, Tensor) else first
        raise TypeError(f"{name}(): argument must be Tensor, not {type(bad).__name__}")
    a, b = first.dtype, second.dtype
    floats = (_dtypes.float16, _dtypes.float32, _dtypes.float64)
    if a not in floats or b not in floats:
        raise RuntimeError(
            "Expected both inputs to be Half, Float or Double tensors but got "
            f"{a.scalar_name} and {b.scalar_name}"
        )
    if a is not b:
        raise RuntimeError(
            f"Expected object of scalar type {a.scalar_name} but got scalar type "
            f"{b.scalar_name} for second argument"
        )


@batched
def _complex_jvp(real_t, imag_t, real, imag, result):
    re, im = align(real_t, real, result.ndim), align(imag_t, imag, result.ndim)
    re = zeros_like(im) if re is None else re
    im = zeros_like(re) if im is None else im
    return _complex(re, im)


@defop(
    batch=batch_rules.pointwise,
    name="complex",
    # each formula keeps its own input (unused) as torch's does: an in-place change of an
    # input that requires grad is refused by backward
    real=lambda grad, real: grad.real,
    imag=lambda grad, imag: grad.imag,
    jvp=_complex_jvp,
)
def _complex(real, imag):
    out = xp.empty(xp.broadcast_shapes(real.shape, imag.shape), _complex_np(real.dtype))
    out.real, out.imag = real, imag
    return out


def _complex_np(real_dtype):
    return xp.complex128 if real_dtype == xp.float64 else xp.complex64


@export(method=False, name="complex")
def complex_(real, imag) -> Tensor:
    """The complex tensor ``real + i * imag`` (broadcast)."""
    _check_pair("complex", real, imag)
    if real.dtype is _dtypes.float16:
        raise NotImplementedError("numtorch has no complex32 dtype (torch.complex of Half)")
    return _complex(real, imag)


# z = r e^{i theta}: dL/dr = Re(conj(grad) e^{i theta}), dL/dtheta = Re(conj(grad) i z).
# As torch, both are read from the result z, with sgn(z) for e^{i theta}: a zero r gives a
# zero dL/dr, a negative r the opposite sign, and a non-finite z spreads as torch's does.
def _polar_abs_grad(grad, result):
    return (grad.conj() * result.sgn()).real


def _polar_angle_grad(grad, result):
    return (grad.conj() * (result * 1j)).real


@batched
def _polar_jvp(abs_t, angle_t, abs, angle, result):
    # z = r e^{i theta}: dz = e^{i theta} dr + i z dtheta
    return add_terms(
        None if abs_t is None else align(abs_t, abs, result.ndim) * _polar(ones_like(abs), angle),
        None if angle_t is None else align(angle_t, angle, result.ndim) * result * 1j,
    )


@defop(
    batch=batch_rules.pointwise,
    name="polar",
    abs=_polar_abs_grad,
    angle=_polar_angle_grad,
    jvp=_polar_jvp,
)
def _polar(abs, angle):
    return _complex.spec.forward(abs * xp.cos(angle), abs * xp.sin(angle))


@export(method=False)
def polar(abs, angle) -> Tensor:
    """The complex tensor ``abs * (cos(angle) + i sin(angle))``."""
    _check_pair("polar", abs, angle)
    if abs.dtype is _dtypes.float16:
        raise NotImplementedError("numtorch has no complex32 dtype (torch.polar of Half)")
    return _polar(abs, angle)


# Ops whose formulas hold for complex tensors, each checked against torch's gradients
# (tests/ops/test_complex_autograd_*.py): linear maps with real coefficients (shape ops,
# sums), the ops above, and those whose formulas conjugate: a holomorphic op's local
# derivative (_conj in pointwise.py, free on real tensors), the other operand of a product,
# the transposes of linear algebra (mH).
COMPLEX_DIFFERENTIABLE = (
    *("add", "add_alpha", "add_scalar", "sub", "sub_alpha", "rsub", "rsub_tensor", "neg"),
    *("mul", "div"),
    *("reciprocal", "exp", "log", "abs", "sgn", "sum_all", "sum_dim", "mean_all", "mean_dim"),
    *("view", "_unsafe_view", "expand", "permute", "transpose", "t", "unsqueeze"),
    *("squeeze_all", "squeeze_dim", "squeeze_dims", "select", "select_backward", "slice"),
    *("slice_backward", "flip", "roll", "clone", "clone_contiguous", "_to_copy", "cat"),
    *("stack", "index", "index_alias", "constant_pad_nd", "unbind", "split"),
    *("split_with_sizes", "unfold", "view_as_real", "view_as_complex", "conj"),
    "view_as_real_of_conj",
    *("conj_physical", "complex", "polar", "angle", "_fft_r2c", "_fft_c2c", "_fft_c2r"),
    *("pow", "sqrt", "mm", "mv", "dot", "mul_scalar", "div_scalar"),
    *("transpose_", "t_", "squeeze_all_", "squeeze_dim_", "squeeze_dims_", "unsqueeze_"),
    *("linalg_eig", "linalg_solve_ex", "diagonal", "diagonal_backward", "diag_embed", "bmm"),
    "_reshape_alias",
    "copy",  # grad passes to src as it is (CopySlices' graph under create_graph)
    "vdot",
    *("masked_fill", "where"),  # pick the gradient or zeros: linear, real coefficients
    *("addmm", "sin", "cos"),
    *("tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "sigmoid", "asinh", "acosh"),
    *("tanh_backward", "sigmoid_backward"),
    *("atanh", "exp2", "expm1", "log2", "log10", "log1p", "rsqrt", "sinc"),
    *("div_mode_none", "pow_tensor", "pow_self_scalar", "addcmul", "addcdiv", "lerp"),
    *("lerp_tensor", "rnn_transpose_", "ldexp"),
    # linear maps with real coefficients: shape, indexing and scatter ops, sums
    *("as_strided", "as_strided_", "as_strided_copy", "as_strided_scatter", "block_diag"),
    *("channel_shuffle", "clone_channels_last", "col2im", "im2col", "cumsum", "trace"),
    *("diagonal_copy", "diagonal_scatter", "zero", "gather", "index_add"),
    *("fill", "fill_tensor", "fill_", "fill__tensor"),
    *("index_copy", "index_fill", "index_fill_tensor", "index_put", "index_select"),
    *("masked_fill_tensor", "masked_scatter", "masked_select", "narrow_copy", "put", "take"),
    *("pixel_shuffle", "pixel_unshuffle", "repeat", "rot90", "scatter_add", "scatter_src"),
    *("scatter_value", "renorm"),
    *("tril", "triu", "reflect_pad1d", "reflect_pad2d", "reflect_pad3d", "replicate_pad1d"),
    *("replicate_pad2d", "replicate_pad3d"),
    *("sparse_add", "sparse_coalesce", "sparse_coo_tensor", "sparse_mask", "sparse_t"),
    *("sparse_to_dense", "sparse_transpose", "sparse_values"),
    # real results of complex inputs, whose formulas read the input itself (|z|**2 = z conj z)
    *("std", "var", "std_mean", "var_mean", "dist", "linalg_vector_norm", "norm_dim"),
    # Householder products: their formulas conjugate (householder_backward.py)
    *("linalg_householder_product", "ormqr_op"),
    # scaled products: their formulas conjugate the scales and the other operand
    *("addmv", "addr", "baddbmm", "addbmm", "einsum", "linalg_cross"),
    *("sparse_mm", "sparse_addmm", "sparse_mv", "dense_sparse_mm", "sparse_addmm_scaled"),
    *("prod_all", "prod_dim", "cumprod", "logsumexp", "logaddexp", "logcumsumexp"),
    # linear algebra: conjugate transposes in the formulas (torch's)
    *("linalg_inv_ex", "linalg_det", "linalg_slogdet", "linalg_solve_triangular"),
    *("triangular_solve", "cholesky_solve", "cholesky_inverse", "linalg_lu_factor_ex"),
    *("linalg_lu", "lu_unpack", "linalg_lu_solve", "linalg_matrix_exp", "linalg_pinv"),
    *("linalg_qr", "linalg_lstsq", "linalg_cholesky_ex", "cholesky_legacy"),
    *("linalg_eigh", "linalg_svd"),
    "mkldnn_rnn_layer",  # its complex gradients run through the composed layer's ops
)


_COMPRESSED = ("csr", "csc", "bsr", "bsc")

# Ops torch refuses to differentiate for complex results, by the name in torch's error
TORCH_REFUSES_COMPLEX = {
    **{name: name for name in ("silu", "embedding", "nan_to_num", "native_dropout")},
    **{name: name for name in ("slice_scatter", "select_scatter", "soft_margin_loss")},
    **{name: name for name in ("index_reduce", "scatter_reduce", "sparse_compressed_tensor")},
    "_trilinear": "_trilinear",
    "_pack_padded_sequence": "_pack_padded_sequence",
    "normal_tensor_float": "normal",
    "sparse_sum_dims": "_sparse_sum",
    "geqrf": "geqrf",
    "sparse_gather": "_to_sparse",
    "sparse_gather_dims": "_to_sparse",
    "sparse_to_sparse": "_to_sparse",
    **{f"sparse_gather_{layout}": f"_to_sparse_{layout}" for layout in _COMPRESSED},
    **{f"sparse_to_{layout}": f"_to_sparse_{layout}" for layout in _COMPRESSED},
}


def mark_complex_differentiable() -> None:
    """Flag the ops above on their specs; run once every op module is imported."""
    for name in COMPLEX_DIFFERENTIABLE:
        REGISTRY[name].complex_autograd = True
    for name, torch_name in TORCH_REFUSES_COMPLEX.items():
        REGISTRY[name].complex_refusal = torch_name
