"""``torch.fft``: discrete Fourier transforms on NumPy's FFT, with gradients.

Every transform is one of torch's three primitives, each a registered op with torch's
``grad_fn`` name, after the input is cropped (``SliceBackward0``) or zero-padded
(``ConstantPadNdBackward0``) to the requested signal size:

- ``_fft_r2c``: real -> complex forward transform, optionally one-sided (``FftR2CBackward0``);
- ``_fft_c2c``: complex -> complex, forward or inverse (``FftC2CBackward0``);
- ``_fft_c2r``: one-sided complex -> real inverse transform (``FftC2RBackward0``).

They compute the unnormalized transform and scale it by ``normalization``: 0 none, 1 by
1/sqrt(n), 2 by 1/n, n the number of points transformed. A transform's gradient is its
adjoint, another transform with the same scale (Note [Complex autograd] in _core/dispatch.py), so
the formulas below are written with the primitives themselves and differentiate again.
"""

from __future__ import annotations

import math

from .._core import batch_rules
from .._core import dtypes as _dtypes
from .._core.kernel_dtypes import COMPLEX, FLOATING, HALVES, own_message
from .._core.op import defop
from .._core.tensor import Tensor, _wrap_dim
from .._creation import arange
from ..backend import xp
from .concatenation import cat
from .nn.padding import constant_pad_nd

_COMPLEX_OF = {xp.dtype(xp.float32): xp.complex64, xp.dtype(xp.float64): xp.complex128}
_COMPLEX_OF[xp.dtype(xp.complex64)] = xp.complex64
_COMPLEX_OF[xp.dtype(xp.complex128)] = xp.complex128


def _points(shape, dim) -> int:
    return math.prod(shape[d] for d in dim)


def _scaled(out, normalization, n, dtype):
    # NumPy may compute in double: the result takes torch's dtype for the input's precision
    out = out.astype(dtype, copy=False)
    if normalization == 0:
        return out
    scale = 1 / math.sqrt(n) if normalization == 1 else 1 / n
    if out.dtype.kind == "c":
        # torch scales by a real factor: a complex product would turn a NaN imaginary part
        # into a NaN real part (NaN * 0)
        out.real *= scale
        out.imag *= scale
    else:
        out *= scale
    return out


# Note [FFT layout]: torch's pocketfft kernels write their result with the transformed dims
# innermost (a c2c transform orders them ascending, r2c and c2r keep the halved dim, the last
# one named, innermost) and the other dims outside them in the input's memory order. The
# layout is visible: ``.view(-1)`` of ``fft(x, dim=0)`` raises, ``is_contiguous()`` is False.
def _laid_out(out, inner, input):
    by_memory = sorted(range(input.ndim), key=lambda d: (-input.strides[d], d))
    order = [d for d in by_memory if d not in inner] + list(inner)
    everything = range(out.ndim)
    permuted = xp.moveaxis(out, order, everything)
    if permuted.flags.c_contiguous:
        return out
    return xp.moveaxis(xp.ascontiguousarray(permuted), everything, order)


def _halved_last(dim):
    return sorted(dim[:-1]) + [dim[-1]]


# -- the three primitives -----------------------------------------------------------------
def _r2c_grad(grad, input, dim, normalization, onesided):
    # the adjoint of "transform, then keep half": zero-fill the dropped half, inverse transform.
    # The input is saved (as torch's FftR2CBackward0 saves self): changing it in place fails
    # the backward
    if onesided:
        last = dim[-1]
        missing = input.shape[last] - grad.shape[last]
        if missing > 0:
            grad = constant_pad_nd(grad, (0, 0) * (grad.ndim - 1 - last) + (0, missing))
    return _fft_c2c(grad, dim, normalization, False).real


# Note [Kernel dtypes]: the transforms run single and double precision (stft reaches them
# without the fft functions' own check)
_TRANSFORM_DTYPES = own_message(
    FLOATING | COMPLEX, "MKL FFT doesn't support tensors of type: {dtype}"
)


@defop(
    batch=batch_rules.along("dim"),
    name="_fft_r2c",
    dtypes=_TRANSFORM_DTYPES,
    node="FftR2CBackward0",
    input=_r2c_grad,
    jvp="linear",
)
def _fft_r2c(input, dim, normalization, onesided):
    if not dim:
        return input.astype(_COMPLEX_OF[input.dtype])
    out = xp.fft.rfftn(input, axes=dim) if onesided else xp.fft.fftn(input, axes=dim)
    out = _scaled(out, normalization, _points(input.shape, dim), _COMPLEX_OF[input.dtype])
    return _laid_out(
        out, _halved_last(dim) if onesided else sorted(dim), input
    )  # Note [FFT layout]


@defop(
    batch=batch_rules.along("dim"),
    name="_fft_c2c",
    dtypes=_TRANSFORM_DTYPES,
    node="FftC2CBackward0",
    input=lambda grad, dim, normalization, forward: _fft_c2c(grad, dim, normalization, not forward),
    jvp="linear",
)
def _fft_c2c(input, dim, normalization, forward):
    if not dim:
        return input.copy()
    # norm="forward" leaves NumPy's inverse transform unscaled: scaling is done here
    out = xp.fft.fftn(input, axes=dim) if forward else xp.fft.ifftn(input, axes=dim, norm="forward")
    out = _scaled(out, normalization, _points(input.shape, dim), input.dtype)
    return _laid_out(out, sorted(dim), input)  # Note [FFT layout]


def _c2r_grad(grad, dim, normalization):
    # the adjoint of "extend by conjugate symmetry, inverse transform": a one-sided forward
    # transform, with the entries whose mirror image lies outside the half counted twice
    result = _fft_r2c(grad, dim, normalization, True)
    last = dim[-1]
    half = result.shape[last]
    doubled = grad.shape[last] - half
    if doubled > 0:
        # only those entries are scaled, as torch does: multiplying the others by a complex
        # 1 would spread a NaN real part into an imaginary part that is exactly 0
        parts = (result.narrow(last, 0, 1), result.narrow(last, 1, doubled) * 2)
        rest = result.narrow(last, 1 + doubled, half - 1 - doubled)
        result = cat((*parts, rest), last)
    return result


@defop(
    batch=batch_rules.along("dim"),
    name="_fft_c2r",
    dtypes=_TRANSFORM_DTYPES,
    node="FftC2RBackward0",
    input=_c2r_grad,
    jvp="linear",
)
def _fft_c2r(input, dim, normalization, last_dim_size):
    sizes = [input.shape[d] for d in dim[:-1]] + [last_dim_size]
    out = xp.fft.irfftn(input, s=sizes, axes=dim, norm="forward")
    n = math.prod(sizes)
    out = _scaled(out, normalization, n, input.real.dtype)
    return _laid_out(out, _halved_last(dim), input)  # Note [FFT layout]


# -- argument handling, as torch's fft functions check them ---------------------------------
def _normalization(norm, forward: bool) -> int:
    if norm is None or norm == "backward":
        return 0 if forward else 2
    if norm == "forward":
        return 2 if forward else 0
    if norm == "ortho":
        return 1
    raise RuntimeError(f'Invalid normalization mode: "{norm}"')


def _check_input(name, input) -> None:
    if not isinstance(input, Tensor):
        raise TypeError(
            f"fft_{name}(): argument 'input' (position 1) must be Tensor, not "
            f"{type(input).__name__}"
        )
    if input._data.dtype in HALVES:
        raise RuntimeError(f"Unsupported dtype {input.dtype.scalar_name}")


def _promote(input, require_complex: bool = False) -> Tensor:
    """Integers and bools become the default float dtype (or its complex type)."""
    kind = input._data.dtype.kind
    if kind not in "fc":
        input = input.to(_dtypes.get_default_dtype())
    if require_complex and input._data.dtype.kind != "c":
        input = input.to(input.dtype.to_complex())
    return input


def _check_points(n) -> None:
    if n < 1:
        raise RuntimeError(f"Invalid number of data points ({n}) specified")


def _resize(input, dims, sizes) -> Tensor:
    """Crop or zero-pad ``input`` to ``sizes`` along ``dims`` (torch's order: crop first)."""
    for d, size in zip(dims, sizes):
        if size < input.shape[d]:
            input = input.narrow(d, 0, size)
    pad = [0] * (2 * input.ndim)
    for d, size in zip(dims, sizes):
        if size > input.shape[d]:
            pad[2 * (input.ndim - 1 - d) + 1] = size - input.shape[d]
    if any(pad):
        while pad and pad[-1] == 0 and pad[-2] == 0:
            del pad[-2:]
        input = constant_pad_nd(input, tuple(pad))
    return input


def _one_dim(input, n, dim):
    if input.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    dim = _wrap_dim(dim, input.ndim)
    n = input.shape[dim] if n is None else n
    _check_points(n)
    return dim, n


def _many_dims(input, s, dim, default_all=True):
    """The (dims, sizes) of an n-dimensional transform, checked as torch does."""
    ndim = input.ndim
    if dim is not None:
        dims = (dim,) if isinstance(dim, int) else tuple(dim)
        dims = tuple(_wrap_dim(d, ndim) for d in dims)
        if len(set(dims)) != len(dims):
            raise RuntimeError("FFT dims must be unique")
        if s is not None and len(s) != len(dims):
            raise RuntimeError("When given, dim and shape arguments must have the same length")
    elif s is not None:
        if len(s) > ndim:
            raise RuntimeError(
                f"Got shape with {len(s)} values but input tensor only has {ndim} dimensions."
            )
        dims = tuple(range(ndim - len(s), ndim))
    else:
        dims = tuple(range(ndim)) if default_all else ()
    if s is None:
        sizes = [input.shape[d] for d in dims]
    else:
        sizes = [input.shape[d] if size == -1 else size for d, size in zip(dims, s)]
    for size in sizes:
        _check_points(size)
    return dims, sizes


# -- public transforms --------------------------------------------------------------------
def _fft_1d(name, input, n, dim, norm, forward):
    _check_input(name, input)
    input = _promote(input)
    dim, n = _one_dim(input, n, dim)
    input = _resize(input, (dim,), (n,))
    normalization = _normalization(norm, forward)
    if input._data.dtype.kind == "c":
        return _fft_c2c(input, (dim,), normalization, forward)
    out = _fft_r2c(input, (dim,), normalization, False)
    return out if forward else out.conj()  # a real signal's inverse is the conjugate


def fft(input, n=None, dim=-1, norm=None) -> Tensor:
    """One-dimensional discrete Fourier transform (complex output)."""
    return _fft_1d("fft", input, n, dim, norm, True)


def ifft(input, n=None, dim=-1, norm=None) -> Tensor:
    """Inverse of ``fft``."""
    return _fft_1d("ifft", input, n, dim, norm, False)


def _fft_nd(name, input, s, dim, norm, forward):
    _check_input(name, input)
    input = _promote(input, require_complex=True)
    dims, sizes = _many_dims(input, s, dim)
    input = _resize(input, dims, sizes)
    return _fft_c2c(input, dims, _normalization(norm, forward), forward)


def fftn(input, s=None, dim=None, norm=None) -> Tensor:
    """N-dimensional discrete Fourier transform (all dims by default)."""
    return _fft_nd("fftn", input, s, dim, norm, True)


def ifftn(input, s=None, dim=None, norm=None) -> Tensor:
    """Inverse of ``fftn``."""
    return _fft_nd("ifftn", input, s, dim, norm, False)


def fft2(input, s=None, dim=(-2, -1), norm=None) -> Tensor:
    """Two-dimensional discrete Fourier transform over the last two dims."""
    return _fft_nd("fft2", input, s, dim, norm, True)


def ifft2(input, s=None, dim=(-2, -1), norm=None) -> Tensor:
    """Inverse of ``fft2``."""
    return _fft_nd("ifft2", input, s, dim, norm, False)


def _real_only(name, input, message_name) -> None:
    if input._data.dtype.kind == "c":
        raise RuntimeError(
            f"{message_name} expects a real{'-valued' if message_name == 'rfftn' else ''} "
            f"input tensor, but got {input.dtype.scalar_name}"
        )


def rfft(input, n=None, dim=-1, norm=None) -> Tensor:
    """``fft`` of a real signal, keeping the n // 2 + 1 non-redundant frequencies."""
    _check_input("rfft", input)
    _real_only("rfft", input, "rfft")
    input = _promote(input)
    dim, n = _one_dim(input, n, dim)
    input = _resize(input, (dim,), (n,))
    return _fft_r2c(input, (dim,), _normalization(norm, True), True)


def irfft(input, n=None, dim=-1, norm=None) -> Tensor:
    """Inverse of ``rfft``: a real signal of length ``n`` (default 2 * (m - 1))."""
    return _c2r_1d("irfft", input, n, dim, norm, False)


def hfft(input, n=None, dim=-1, norm=None) -> Tensor:
    """``fft`` of a one-sided Hermitian signal: a real result of length ``n``."""
    return _c2r_1d("hfft", input, n, dim, norm, True)


def _c2r_1d(name, input, n, dim, norm, forward):
    _check_input(name, input)
    input = _promote(input, require_complex=True)
    if input.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    dim = _wrap_dim(dim, input.ndim)
    n = 2 * (input.shape[dim] - 1) if n is None else n
    _check_points(n)
    input = _resize(input, (dim,), (n // 2 + 1,))
    if forward:
        input = input.conj()  # hfft(x) is the inverse transform of conj(x), unscaled
    return _fft_c2r(input, (dim,), _normalization(norm, forward), n)


def ihfft(input, n=None, dim=-1, norm=None) -> Tensor:
    """Inverse of ``hfft``: the one-sided spectrum of a real signal, conjugated."""
    _check_input("ihfft", input)
    _real_only("ihfft", input, "ihfft")
    input = _promote(input)
    dim, n = _one_dim(input, n, dim)
    input = _resize(input, (dim,), (n,))
    return _fft_r2c(input, (dim,), _normalization(norm, False), True).conj()


def rfftn(input, s=None, dim=None, norm=None) -> Tensor:
    """N-dimensional ``rfft``: the last transformed dim is one-sided."""
    _check_input("rfftn", input)
    _real_only("rfftn", input, "rfftn")
    input = _promote(input)
    dims, sizes = _many_dims(input, s, dim)
    if not dims:
        raise RuntimeError("rfftn must transform at least one axis")
    input = _resize(input, dims, sizes)
    return _fft_r2c(input, dims, _normalization(norm, True), True)


def rfft2(input, s=None, dim=(-2, -1), norm=None) -> Tensor:
    """Two-dimensional ``rfft``."""
    return rfftn(input, s, dim, norm)


def irfftn(input, s=None, dim=None, norm=None) -> Tensor:
    """Inverse of ``rfftn``: the last dim's output length defaults to 2 * (m - 1)."""
    _check_input("irfftn", input)
    input = _promote(input, require_complex=True)
    dims, sizes = _many_dims(input, s, dim)
    if not dims:
        raise RuntimeError("irfftn must transform at least one axis")
    if s is None or s[-1] == -1:
        sizes[-1] = 2 * (input.shape[dims[-1]] - 1)
    last = sizes[-1]
    _check_points(last)
    input = _resize(input, dims, sizes[:-1] + [last // 2 + 1])
    return _fft_c2r(input, dims, _normalization(norm, False), last)


def irfft2(input, s=None, dim=(-2, -1), norm=None) -> Tensor:
    """Inverse of ``rfft2``."""
    return irfftn(input, s, dim, norm)


def hfftn(input, s=None, dim=None, norm=None) -> Tensor:
    """N-dimensional ``hfft``: a real result from a signal Hermitian in the last dim (of
    length ``s[-1]``, default 2 * (m - 1)) and full in the others."""
    _check_input("hfftn", input)
    input = _promote(input, require_complex=True)
    dims, sizes = _many_dims(input, s, dim)
    if not dims:
        raise RuntimeError("hfftn must transform at least one axis")
    if s is None or s[-1] == -1:
        sizes[-1] = 2 * (input.shape[dims[-1]] - 1)
    last = sizes[-1]
    _check_points(last)
    input = _resize(input, dims, sizes[:-1] + [last // 2 + 1])
    normalization = _normalization(norm, True)
    if len(dims) > 1:
        input = _fft_c2c(input, dims[:-1], normalization, True)
    # as torch: the full dims transformed forward, then the last one as the inverse of the
    # conjugate (a real result, so the conjugate is free)
    return _fft_c2r(input.conj(), dims[-1:], normalization, last)


def hfft2(input, s=None, dim=(-2, -1), norm=None) -> Tensor:
    """Two-dimensional ``hfft``."""
    return hfftn(input, s, dim, norm)


def ihfftn(input, s=None, dim=None, norm=None) -> Tensor:
    """Inverse of ``hfftn``: the conjugated one-sided spectrum of a real signal."""
    _check_input("ihfftn", input)
    if input._data.dtype.kind == "c":
        raise RuntimeError(
            f"Only supports floating-point dtypes, but found: {input.dtype.scalar_name}"
        )
    input = _promote(input)
    dims, sizes = _many_dims(input, s, dim)
    if not dims:
        raise RuntimeError("ihfftn must transform at least one axis")
    input = _resize(input, dims, sizes)
    normalization = _normalization(norm, False)
    out = _fft_r2c(input, dims[-1:], normalization, True)
    if len(dims) == 1:
        return out.conj()
    return _fft_c2c(out.conj_physical(), dims[:-1], normalization, False)


def ihfft2(input, s=None, dim=(-2, -1), norm=None) -> Tensor:
    """Inverse of ``hfft2``."""
    return ihfftn(input, s, dim, norm)


# -- frequencies and shifts ----------------------------------------------------------------
def fftfreq(n, d=1.0, *, dtype=None, layout=None, device=None, requires_grad=False) -> Tensor:
    """The sample frequencies of an ``fft`` of length ``n`` with sample spacing ``d``."""
    out = _frequencies(n, n, d, dtype)
    if n:
        out._data[(n + 1) // 2 :] -= n / (n * d)
    return out.requires_grad_(requires_grad)


def _frequencies(count, n, d, dtype) -> Tensor:
    if count < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {count}: [{count}]")
    out = arange(count, dtype=dtype or _dtypes.get_default_dtype())
    if count:
        out._data *= 1.0 / (n * d)
    return out


def rfftfreq(n, d=1.0, *, dtype=None, layout=None, device=None, requires_grad=False) -> Tensor:
    """The sample frequencies of an ``rfft`` of length ``n`` with sample spacing ``d``."""
    return _frequencies(n // 2 + 1, n, d, dtype).requires_grad_(requires_grad)


def _shift(input, dim, inverse):
    if dim is None:
        dims = tuple(range(input.ndim))
    else:
        dims = (dim,) if isinstance(dim, int) else tuple(dim)
        dims = tuple(_wrap_dim(d, input.ndim) for d in dims)
    shifts = [(input.shape[d] + inverse) // 2 for d in dims]
    return input.roll(shifts, dims)


def fftshift(input, dim=None) -> Tensor:
    """Move the zero frequency to the centre (a roll by n // 2 along each dim)."""
    return _shift(input, dim, 0)


def ifftshift(input, dim=None) -> Tensor:
    """Inverse of ``fftshift``."""
    return _shift(input, dim, 1)
