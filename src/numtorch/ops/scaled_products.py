"""Scaled-and-added products: ``beta * input + alpha * product`` for addmv, addr, baddbmm and
addbmm (addmm lives beside mm in linalg.py), their in-place forms, and chain_matmul.

Each is one primitive, as in torch (``AddmvBackward0``...). With ``beta == 0`` the input is
ignored, NaNs included, as BLAS does; with ``alpha == 0`` addmv and addbmm (and addmm)
leave the product out in the same way."""

from __future__ import annotations

import warnings

from .._core import batch_rules
from .._core import dtypes as _dtypes
from .._core.dispatch import kernel_scales, require_tensors
from .._core.inplace import inplace_variant
from .._core.kernel_dtypes import NUMBERS, kernel
from .._core.observers import dispatch
from .._core.op import defop, export
from .._core.tensor import Tensor, _read_dim
from ..autograd.forward_grad import add_terms, align, batched
from ..backend import xp
from .linalg import addmm, scaled_input
from .linalg_functions import _deprecated, multi_dot
from .pointwise import _conj


def _times(t, scale):
    return t if scale == 1 else t * scale


# The gradients take the conjugates of the scales and of the other operand, as every
# product's does (Note [Complex autograd]); _conj is free on real tensors and numbers
def _grad_times(grad, scale):
    return grad if scale == 1 else grad * _conj(scale)


def _add_scaled(input, product, beta, alpha):
    """``beta * input + alpha * product`` on arrays, in the product's dtype and shape."""
    if alpha != 1:
        product = product * xp.asarray(alpha).astype(product.dtype)
    if beta == 0:
        return xp.ascontiguousarray(product)
    shifted = input if beta == 1 else input * xp.asarray(beta).astype(input.dtype)
    if product.dtype == xp.bool_:
        return xp.logical_or(product, shifted)
    return (product + shifted).astype(product.dtype, copy=False)


def _scaled_jvp(input_t, input, product_t, beta, alpha, ndim):
    """``beta * input_t + alpha * product_t``; ``ndim``: the result's (unbatched) rank."""
    if input_t is not None and beta != 0:
        input_t = _times(align(input_t, input, ndim), beta)
    else:
        input_t = None
    return add_terms(None if product_t is None else _times(product_t, alpha), input_t)


# The forward derivatives below take tangents with a leading batch dimension: each product
# is a broadcasting matmul or multiply with the batched operand in front.
@batched
def _addmv_jvp(input_t, mat_t, vec_t, input, mat, vec, beta, alpha):
    product_t = add_terms(
        None if mat_t is None else mat_t.matmul(vec),
        None if vec_t is None else vec_t.matmul(mat.mT),
    )
    return _scaled_jvp(input_t, input, product_t, beta, alpha, 1)


@batched
def _addr_jvp(input_t, vec1_t, vec2_t, input, vec1, vec2, beta, alpha):
    product_t = add_terms(
        None if vec1_t is None else vec1_t.unsqueeze(-1) * vec2,
        None if vec2_t is None else vec1.unsqueeze(-1) * vec2_t.unsqueeze(-2),
    )
    return _scaled_jvp(input_t, input, product_t, beta, alpha, 2)


def _batches_product_jvp(batch1_t, batch2_t, batch1, batch2):
    return add_terms(
        None if batch1_t is None else batch1_t.matmul(batch2),
        None if batch2_t is None else batch1.matmul(batch2_t),
    )


@batched
def _baddbmm_jvp(input_t, batch1_t, batch2_t, input, batch1, batch2, beta, alpha):
    product_t = _batches_product_jvp(batch1_t, batch2_t, batch1, batch2)
    return _scaled_jvp(input_t, input, product_t, beta, alpha, 3)


@batched
def _addbmm_jvp(input_t, batch1_t, batch2_t, input, batch1, batch2, beta, alpha):
    product_t = _batches_product_jvp(batch1_t, batch2_t, batch1, batch2)
    product_t = None if product_t is None else product_t.sum(-3)
    return _scaled_jvp(input_t, input, product_t, beta, alpha, 2)


def _check_scalars(dtype: _dtypes.dtype, beta, alpha) -> tuple:
    """``beta`` and ``alpha`` as the kernel takes them (Note [Kernel numbers], dispatch.py)."""
    for name, value in (("beta", beta), ("alpha", alpha)):
        if isinstance(value, bool) and dtype is not _dtypes.bool_:
            raise RuntimeError(f"Boolean {name} only supported for Boolean results.")
    return kernel_scales(dtype.np, beta, alpha)


def _refuse_float_scalars(dtype: _dtypes.dtype, beta, alpha) -> None:
    # addr checks what the other products convert
    for name, value in (("beta", beta), ("alpha", alpha)):
        if isinstance(value, float) and not (dtype.is_floating_point or dtype.is_complex):
            raise RuntimeError(
                f"For integral input tensors, argument {name} must not be a floating point number."
            )


def _check_expand(input: Tensor, shape: tuple) -> None:
    """torch expands ``input`` to the product's shape (it never broadcasts the product)."""
    have = tuple(input.shape)
    ok = len(have) <= len(shape) and all(h in (1, s) for h, s in zip(have[::-1], shape[::-1]))
    if not ok:
        raise RuntimeError(
            f"The expanded size of the tensor ({shape[-1] if shape else 0}) must match the "
            f"existing size ({have[-1] if have else 0}) at non-singleton dimension "
            f"{len(shape) - 1}.  Target sizes: {list(shape)}.  Tensor sizes: {list(have)}"
        )


def _same_dtypes(name: str, *tensors: Tensor) -> None:
    dtypes = [t.dtype for t in tensors]
    if any(d is not dtypes[0] for d in dtypes):
        names = ", ".join(d.scalar_name for d in dtypes[:-1]) + f", and {dtypes[-1].scalar_name}"
        raise RuntimeError(f"{name} input tensors must have the same dtype, but got {names}")


# -- addmv -----------------------------------------------------------------------------------
@defop(
    batch=batch_rules.addmv,
    name="addmv",
    dtypes=kernel("addmv_impl_cpu", NUMBERS),
    input=lambda grad, beta: _grad_times(grad, beta),
    mat=lambda grad, vec, alpha: _grad_times(grad.outer(_conj(vec)), alpha),
    vec=lambda grad, mat, alpha: _grad_times(_conj(mat).t().mv(grad), alpha),
    jvp=_addmv_jvp,
)
def _addmv(input, mat, vec, beta, alpha):
    if mat.size == 0 and beta != 0:
        # torch's shortcut for an empty matrix writes beta * input, in input's own shape
        # (a one-element input is not expanded to mat's rows)
        return _add_scaled(input, xp.zeros(input.shape, xp.result_type(mat, vec)), beta, 1)
    if alpha == 0:
        return scaled_input(input, mat.shape[:1], xp.result_type(mat, vec), beta)
    return _add_scaled(input, xp.matmul(mat, vec), beta, alpha)


@export
def addmv(input, mat, vec, *, beta=1, alpha=1) -> Tensor:
    """``beta * input + alpha * (mat @ vec)``.

    Example:
        >>> import numtorch as torch
        >>> torch.addmv(torch.ones(2), torch.ones(2, 3), torch.ones(3), alpha=2)
        tensor([7., 7.])
    """
    require_tensors("addmv", ("input", "mat", "vec"), input, mat, vec)
    if input.ndim > 1 or mat.ndim != 2 or vec.ndim != 1:
        raise RuntimeError(
            f"vector + matrix @ vector expected, got {input.ndim}, {mat.ndim}, {vec.ndim}"
        )
    if mat.shape[1] != vec.shape[0] or input.numel() not in (1, mat.shape[0]):
        if input.ndim == 0:  # torch's message reads input.size(0) first
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        raise RuntimeError(
            f"size mismatch, got input ({input.shape[0]}), mat "
            f"({'x'.join(map(str, mat.shape))}), vec ({'x'.join(map(str, vec.shape))})"
        )
    _same_dtypes("addmv", input, mat, vec)
    beta, alpha = _check_scalars(input.dtype, beta, alpha)
    if mat.numel() == 0 and beta != 0 and mat.shape[0] and tuple(input.shape) != mat.shape[:1]:
        warnings.warn(  # torch resizes its (rows,) result to input's shape (see _addmv)
            f"An output with one or more elements was resized since it had shape "
            f"[{mat.shape[0]}], which does not match the required output shape "
            f"{list(input.shape)}. This behavior is deprecated, and in a future PyTorch "
            "release outputs will not be resized unless they have zero elements. You can "
            "explicitly reuse an out tensor t by resizing it, inplace, to zero elements with "
            "t.resize_(0).",
            UserWarning,
            stacklevel=3,
        )
    return _addmv(input, mat, vec, beta, alpha)


# -- addr ------------------------------------------------------------------------------------
@defop(
    batch=batch_rules.addr,
    name="addr",
    promote="same",
    input=lambda grad, beta: _grad_times(grad, beta),
    vec1=lambda grad, vec2, alpha: _grad_times(grad.mv(_conj(vec2)), alpha),
    vec2=lambda grad, vec1, alpha: _grad_times(grad.t().mv(_conj(vec1)), alpha),
    jvp=_addr_jvp,
)
def _addr(input, vec1, vec2, beta, alpha):
    return _add_scaled(input, xp.multiply.outer(vec1, vec2), beta, alpha)


@export
def addr(input, vec1, vec2, *, beta=1, alpha=1) -> Tensor:
    """``beta * input + alpha * outer(vec1, vec2)`` (operands promote to a common dtype).

    Example:
        >>> import numtorch as torch
        >>> torch.addr(torch.zeros(2, 2), torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))
        tensor([[3., 4.],
                [6., 8.]])
    """
    require_tensors("addr", ("input", "vec1", "vec2"), input, vec1, vec2)
    for name, v in (("vec1", vec1), ("vec2", vec2)):
        if v.ndim != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {v.ndim}-D")
    _check_expand(input, (vec1.shape[0], vec2.shape[0]))
    dtype = _dtypes.result_type(input, vec1, vec2)
    _refuse_float_scalars(dtype, beta, alpha)
    beta, alpha = _check_scalars(dtype, beta, alpha)
    if input.ndim == 0:
        # torch expands input to the result's shape before promoting: a 0-d input promotes
        # as a dimensioned tensor (a float64 one makes a float64 result of float32 vectors)
        input = input.expand(vec1.shape[0], vec2.shape[0])
    return _addr(input, vec1, vec2, beta, alpha)


# -- baddbmm and addbmm ----------------------------------------------------------------------
def _check_3d(batch1: Tensor, batch2: Tensor) -> None:
    for name, b in (("batch1", batch1), ("batch2", batch2)):
        if b.ndim != 3:
            raise RuntimeError(f"{name} must be a 3D tensor")


def _check_batches(input: Tensor, batch1: Tensor, batch2: Tensor) -> None:
    _check_3d(batch1, batch2)
    if batch1.shape[0] != batch2.shape[0]:
        raise RuntimeError(
            f"batch1 and batch2 must have same number of batches, got {batch1.shape[0]} and "
            f"{batch2.shape[0]}"
        )
    if batch1.shape[2] != batch2.shape[1]:
        raise RuntimeError(
            f"Incompatible matrix sizes for bmm ({batch1.shape[1]}x{batch1.shape[2]} and "
            f"{batch2.shape[1]}x{batch2.shape[2]})"
        )


@defop(
    batch=batch_rules.baddbmm,
    name="baddbmm",
    dtypes=kernel("baddbmm", NUMBERS),
    input=lambda grad, beta: _grad_times(grad, beta),
    batch1=lambda grad, batch2, alpha: _grad_times(grad.bmm(_conj(batch2).transpose(1, 2)), alpha),
    batch2=lambda grad, batch1, alpha: _grad_times(_conj(batch1).transpose(1, 2).bmm(grad), alpha),
    jvp=_baddbmm_jvp,
)
def _baddbmm(input, batch1, batch2, beta, alpha):
    return _add_scaled(input, xp.matmul(batch1, batch2), beta, alpha)


@export
def baddbmm(input, batch1, batch2, *, beta=1, alpha=1) -> Tensor:
    """``beta * input + alpha * (batch1 @ batch2)``, one product per batch entry.

    Example:
        >>> import numtorch as torch
        >>> torch.baddbmm(torch.zeros(2, 1, 1), torch.ones(2, 1, 3), torch.ones(2, 3, 1)).shape
        torch.Size([2, 1, 1])
    """
    require_tensors("baddbmm", ("input", "batch1", "batch2"), input, batch1, batch2)
    if dispatch.autocast is not None:  # cast before the dtype check, as torch's autocast does
        input, batch1, batch2 = dispatch.autocast.cast_op("baddbmm", (input, batch1, batch2))
    if 0 in (batch1.ndim, batch2.ndim):  # torch reads batch1's dim 0, batch2's dim 2 first
        _read_dim(0, 0 if batch1.ndim == 0 else 2)
    _check_3d(batch1, batch2)
    expected = [batch1.shape[0], batch1.shape[2]]
    if list(batch2.shape[:2]) != expected:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: {expected} but "
            f"got: {list(batch2.shape[:2])}."
        )
    if not (input.dtype is batch1.dtype is batch2.dtype):
        raise RuntimeError(
            f"Input dtypes must be the same, got: input {input.dtype.c_name}, batch1: "
            f"{batch1.dtype.c_name}, batch2: {batch2.dtype.c_name}"
        )
    _check_expand(input, (batch1.shape[0], batch1.shape[1], batch2.shape[2]))
    beta, alpha = _check_scalars(input.dtype, beta, alpha)
    return _baddbmm(input, batch1, batch2, beta, alpha)


def _sum_batches_grad(grad, other, alpha, first):
    # every batch entry's product received the same gradient; each operand's formula
    # reads only the other operand (as torch's, which saves just that one)
    grad = grad.unsqueeze(0).expand(other.shape[0], grad.shape[0], grad.shape[1])
    other = _conj(other)
    if first:
        return _grad_times(grad.bmm(other.transpose(1, 2)), alpha)
    return _grad_times(other.transpose(1, 2).bmm(grad), alpha)


@defop(
    batch=batch_rules.baddbmm,
    name="addbmm",
    dtypes=kernel("addmm_impl_cpu_", NUMBERS),
    input=lambda grad, beta: _grad_times(grad, beta),
    batch1=lambda grad, batch2, alpha: _sum_batches_grad(grad, batch2, alpha, 1),
    batch2=lambda grad, batch1, alpha: _sum_batches_grad(grad, batch1, alpha, 0),
    jvp=_addbmm_jvp,
)
def _addbmm(input, batch1, batch2, beta, alpha):
    if alpha == 0:
        return scaled_input(input, (batch1.shape[1], batch2.shape[2]), input.dtype, beta)
    product = xp.matmul(batch1, batch2).sum(axis=0, dtype=input.dtype)
    return _add_scaled(input, product, beta, alpha)


@export
def addbmm(input, batch1, batch2, *, beta=1, alpha=1) -> Tensor:
    """``beta * input + alpha * sum_b(batch1[b] @ batch2[b])``.

    Example:
        >>> import numtorch as torch
        >>> torch.addbmm(torch.zeros(1, 1), torch.ones(2, 1, 3), torch.ones(2, 3, 1))
        tensor([[6.]])
    """
    require_tensors("addbmm", ("input", "batch1", "batch2"), input, batch1, batch2)
    if dispatch.autocast is not None:  # cast before the dtype check, as torch's autocast does
        input, batch1, batch2 = dispatch.autocast.cast_op("addbmm", (input, batch1, batch2))
    if 0 in (batch1.ndim, batch2.ndim):  # torch reads batch1's dim 1, batch2's dim 2 first
        _read_dim(0, 1 if batch1.ndim == 0 else 2)
    _check_batches(input, batch1, batch2)
    # torch returns ``beta * input`` for a sum over no batches before it checks the dtypes
    empty_sum = batch1.shape[0] == 0
    for t in (batch1, batch2):
        if t.dtype is not input.dtype and not empty_sum:
            raise RuntimeError(
                f"self and mat2 must have the same dtype, but got {input.dtype.scalar_name} "
                f"and {t.dtype.scalar_name}"
            )
    _check_expand(input, (batch1.shape[1], batch2.shape[2]))
    beta, alpha = _check_scalars(input.dtype, beta, alpha)
    return _addbmm(input, batch1, batch2, beta, alpha)


# In place: the functional result written back into ``input`` (same grad_fn, as in torch).
for _op in (addmm, addmv, addr, baddbmm, addbmm):
    setattr(Tensor, _op.__name__ + "_", inplace_variant(_op, _op.__name__ + "_"))
export(Tensor.addmv_, name="addmv_", method=False)


@export(method=False)
def chain_matmul(*matrices) -> Tensor:
    """The product of 2-D matrices in the cheapest order (deprecated: ``linalg.multi_dot``).

    Example:
        >>> import numtorch as torch
        >>> torch.chain_matmul(torch.ones(2, 3), torch.ones(3, 4)).shape
        torch.Size([2, 4])
    """
    _deprecated(
        "chain_matmul",
        "torch.chain_matmul is deprecated and will be removed in a future PyTorch release. "
        "Use torch.linalg.multi_dot instead, which accepts a list of two or more tensors "
        "rather than multiple parameters.",
    )
    if len(matrices) == 1 and isinstance(matrices[0], (list, tuple)):
        matrices = tuple(matrices[0])
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    for m in matrices:
        if m.ndim != 2:
            raise RuntimeError(f"Tensor dimension is {m.ndim}, expected 2 instead.")
    if len(matrices) == 1:
        return matrices[0].clone()
    return multi_dot(list(matrices))
