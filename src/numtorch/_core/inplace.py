"""In-place ops (``add_``, ``mul_``, ``copy_``, ``__setitem__``...) built from functional ones.

An in-place op runs its functional twin, writes the result into the tensor's memory, bumps
the version counter, and moves the tensor's history: a non-leaf gets the new node as its
``grad_fn``; a view rebases its root through ``CopySlices`` (Note [Views and in-place]).
"""

from __future__ import annotations

import inspect
import warnings
import weakref

from ..backend import lapack, xp
from ..backend.fused import add_scaled
from ..backend.zeros import IMMUTABLE, EfficientZeros
from . import dtypes as _dtypes
from . import grad_mode
from .dispatch import broadcast_shape
from .inference import INPLACE_ERROR
from .observers import dispatch
from .saved import SavedTensor
from .tensor import Tensor
from .views import (
    CopySlices,
    multi_output_message,
    refresh_view_grad_fn,
    retain_on_new_grad_fn,
    views_follow_root,
)

_grad_enabled = grad_mode.is_grad_enabled


def check_inplace(t: Tensor, name: str) -> None:
    """torch's refusals for in-place changes of leaves (and their views) that require grad,
    and of efficient zeros (a ZeroTensor gradient)."""
    if t._data.__class__ is EfficientZeros:
        raise RuntimeError(IMMUTABLE)
    vc = t._vc
    if vc is not None and vc.inference and not grad_mode.is_inference_mode_enabled():
        raise RuntimeError(INPLACE_ERROR)
    if not _grad_enabled():
        return
    if t._base is not None and getattr(t, "_view_no_grad", False) and t._base._requires_grad:
        raise RuntimeError(
            "A view was created in no_grad mode and is being modified inplace with grad mode "
            "enabled. Given that this use case is ambiguous and error-prone, it is forbidden. "
            "You can clarify your code by moving both the view and the inplace either both "
            "inside the no_grad block (if you don't want the inplace to be tracked) or both "
            "outside (if you want the inplace to be tracked)."
        )
    if not t._requires_grad:
        return
    if t._grad_fn is None:
        view = "a view of " if t._base is not None else ""
        raise RuntimeError(
            f"{view}a leaf Variable that requires grad is being used in an in-place operation. "
            f"({name} on a tensor of shape {list(t._data.shape)}; wrap parameter updates in "
            "torch.no_grad(), or use the out-of-place op)"
        )
    custom = t.__dict__.get("_custom_function_view")
    if custom is not None and t._grad_fn is not None and t._grad_fn.name().startswith(custom[1]):
        raise RuntimeError(
            f"Output {custom[0]} of {custom[1]} is a view and is being modified inplace. This "
            "view was created inside a custom Function (or because an input was returned as-is) "
            "and the autograd logic to handle view+inplace would override the custom backward "
            "associated with the custom Function, leading to incorrect gradients. This behavior "
            "is forbidden. You can fix this by cloning the output of the custom Function."
        )
    base = t._base
    # torch refuses any view that requires grad over a leaf base: also a base that does not
    # itself require grad, under a leaf made by requires_grad_() on a view
    if base is not None and base._grad_fn is None:
        raise RuntimeError(
            "a view of a leaf Variable that requires grad is being used in an in-place "
            f"operation. ({name}; clone() the tensor first, or update it under torch.no_grad())"
        )
    message = base is not None and multi_output_message(t, "is being modified inplace")
    if message:
        raise RuntimeError(message)


def _can_cast(source: _dtypes.dtype, target: _dtypes.dtype) -> bool:
    # torch's canCast: no float -> integral, no complex -> real, nothing non-bool -> bool.
    if source.is_complex and not target.is_complex:
        return False
    if source.is_floating_point and not (target.is_floating_point or target.is_complex):
        return False
    return not (source is not _dtypes.bool_ and target is _dtypes.bool_)


def write_inplace(self: Tensor, out: Tensor, name: str) -> Tensor:
    """Store the functional result ``out`` into ``self`` and move ``self``'s history."""
    if out is self:
        return self
    if dispatch.batched_write is not None:
        written = dispatch.batched_write(self, out, name)
        if written is not NotImplemented:
            return written
    data = self._data
    if out._data.shape != data.shape:
        raise RuntimeError(
            f"output with shape {list(data.shape)} doesn't match the broadcast shape "
            f"{list(out._data.shape)}"
        )
    if out._data.dtype != data.dtype and not _can_cast(out.dtype, self.dtype):
        raise RuntimeError(
            f"result type {out.dtype.scalar_name} can't be cast to the desired output type "
            f"{self.dtype.scalar_name}"
        )
    changed = None
    if not data.flags.writeable:
        # torch's kernel writes element by element: where copies of one element disagree
        # (tril_ keeps one copy and zeroes another), the write wins over the kept value
        changed = out._data != data
        if data.dtype.kind in "fc":  # a kept NaN is no write (NaN != NaN)
            changed &= ~(xp.isnan(out._data) & xp.isnan(data))
            # a zero of the other sign is a write (tril_ writes +0 where a -0 is kept)
            for part in ("real", "imag"):
                signs = xp.signbit(getattr(out._data, part)) != xp.signbit(getattr(data, part))
                changed |= signs & ~xp.isnan(out._data)
        data = _overlapping_alias(data, name)
        if data is None:
            raise RuntimeError(
                "unsupported operation: more than one element of the written-to tensor refers "
                f"to a single memory location, or the memory is read-only ({name}). Please "
                "clone() the tensor before performing the operation."
            )
    node = out._grad_fn
    if node is not None:
        if self._base is not None and not self._requires_grad:
            # the change will be recorded (another input requires grad): torch refuses a
            # multi-output view here, before writing (check_inplace saw no grad on self)
            message = multi_output_message(self, "is being modified inplace")
            if message:
                raise RuntimeError(message)
        _snapshot_saved_self(node, self)
    if changed is None:
        data[...] = out._data
    else:
        xp.copyto(data, out._data, where=changed)
    self._bump_version()
    if node is not None:
        _rebase(self, node)
        _retarget_saved_result(node, out, self)
    if out._fw_grads is not None or self._fw_grads is not None:
        dispatch.tangent_write(self, out)  # Note [Forward grads]
    return self


# torch writes these through an expanded (self-overlapping) tensor instead of refusing it:
# their kernels do not check internal overlap, and every copy of an element gets one value
# (masked_fill_'s where any copy is masked: the elements its result changes are written,
# with torch's deprecation warning). (index_fill_ and index_put_ also write there, element
# by element: writing their whole functional result would not give torch's values, so they
# still refuse.)
WRITE_THROUGH_OVERLAP = frozenset(("zero_", "fill_", "tril_", "triu_", "masked_fill_"))


def _overlapping_alias(data, name: str):
    """A writable array over the memory of the read-only broadcast view ``data`` (NumPy marks
    every expanded view read-only), or None where torch refuses the write or the memory is
    read-only indeed."""
    if data.size == 0:  # no element to write: torch finds an empty tensor dense
        return xp.empty(data.shape, data.dtype)
    # torch refuses a write only where its check sees an overlap: a dim of stride 0 and size
    # above 1 (a select or a size-1 expand leaves a read-only NumPy view with none)
    overlaps = any(stride == 0 and size > 1 for size, stride in zip(data.shape, data.strides))
    if overlaps and (
        name not in WRITE_THROUGH_OVERLAP
        or (name in ("tril_", "triu_") and not _batches_in_place(data))
    ):
        return None
    if overlaps and name == "masked_fill_":
        warnings.warn(
            "Use of masked_fill_ on expanded tensors is deprecated. Please clone() the tensor "
            "before performing this operation. This also applies to advanced indexing e.g. "
            "tensor[mask] = scalar",
            UserWarning,
            stacklevel=4,
        )
    if not overlaps and not _apart(data):
        # windows that share elements (an overlapping unfold): torch applies the op once
        # per window, which writing the functional result cannot replay
        return None
    owner = data
    while True:
        base = owner.base
        if base is not None and not isinstance(base, xp.ndarray):
            # as_strided and broadcast_to views hang off a DummyArray that holds the array
            base = getattr(base, "base", None)
        if not isinstance(base, xp.ndarray):
            break
        owner = base
    # (NumPy lends the memory of a C- or Fortran-ordered block, whichever the owner is)
    if not owner.flags.writeable or not (owner.flags.c_contiguous or owner.flags.f_contiguous):
        return None
    offset = data.__array_interface__["data"][0] - owner.__array_interface__["data"][0]
    return xp.ndarray(data.shape, data.dtype, owner, offset, data.strides)


def _apart(data) -> bool:
    """Whether no two elements of the strided array share memory (a sufficient test: each
    dim, by increasing stride, steps over everything the smaller ones span)."""
    span = 1
    for stride, size in sorted(
        (abs(st) // data.itemsize, sz) for st, sz in zip(data.strides, data.shape) if sz > 1
    ):
        if stride < span:
            return False
        span = stride * size
    return True


def _batches_in_place(data) -> bool:
    """Whether torch's tril_/triu_ writes a batch of matrices where it lies: else it
    computes into a contiguous copy and copies back, which refuses an overlapping target.
    Up to three dims always; beyond, every batch dim but a broadcast first one must step
    over whole matrices in order."""
    if data.ndim <= 3:
        return True
    strides = [stride // data.itemsize for stride in data.strides]
    expected = data.shape[-1] * data.shape[-2]
    for i in range(data.ndim - 3, -1, -1):
        if i == 0 and (strides[0] == 0 or data.shape[0] == 1):
            continue
        if strides[i] != expected:
            return False
        expected *= data.shape[i]
    return True


def _snapshot_saved_self(node, self: Tensor) -> None:
    # The node may have saved ``self`` as an input; keep a copy of the values before writing.
    items = getattr(node, "_saved_items", None)  # registry nodes only
    if items is None:
        return
    for key, value in items():
        if value is self or (  # Note [Saved inputs kept bare]
            type(value) is SavedTensor
            and (value.tensor is self or (value.packed is not None and value.source() is self))
        ):
            if self._requires_grad:
                # torch saves original_self = self.clone(): its history gains a CloneBackward0
                copy = self.clone()
            else:
                copy = Tensor._make(self._data.copy())
            node._replace_saved(key, SavedTensor(copy, False))


def _retarget_saved_result(node, out: Tensor, self: Tensor) -> None:
    # A saved output now lives in ``self``: track ``self``'s version, as torch does; a view
    # (rebased) gives it its new grad_fn (Note [Saved outputs of in-place ops on views])
    items = getattr(node, "_saved_items", None)  # registry nodes only
    if items is None:
        return
    for _, value in items():
        if type(value) is SavedTensor and value.tensor is None and value.data is out._data:
            value.data = self._data
            value.vc = self._get_vc()
            value.version = value.vc.version
            if self._base is not None and self._grad_fn is not None:
                value.view_edge = (weakref.ref(self._grad_fn), self._output_nr)


def _rebase(self: Tensor, node) -> None:
    root = self._base
    if root is None:
        if not self._requires_grad:
            views_follow_root(self)  # Note [Views of a tensor that starts requiring grad]
        self._grad_fn = node
        self._output_nr = 0
        self._requires_grad = True
        retain_on_new_grad_fn(self)
        return
    copy_slices = CopySlices(root, self._view_steps, node, self)
    if not root._requires_grad:
        views_follow_root(root)  # Note [Views of a tensor that starts requiring grad]
    root._grad_fn = copy_slices
    root._output_nr = 0
    root._requires_grad = True
    retain_on_new_grad_fn(root)
    refresh_view_grad_fn(self)


def _direct_update(self, other, scale, ufunc) -> bool:
    """``self = ufunc(self, other * scale)`` straight into ``self``'s memory, when nothing is
    recorded and no promotion or broadcasting of ``self`` is involved (optimizer-style
    updates under no_grad); False when the general path must run."""
    data = self._data
    if self._fw_grads is not None or getattr(other, "_fw_grads", None) is not None:
        return False  # tangents update through the op (Note [Forward grads])
    if other.__class__ in (int, float):
        if data.dtype.kind not in "fV" or not data.flags.writeable:
            return False
        if ufunc is xp.multiply and data.dtype.itemsize == 2:  # float16, bfloat16
            return False  # the number unrounded (Note [Half-precision scalars] in dispatch.py)
        ufunc(data, other * scale, out=data)
        return True
    if (
        not isinstance(other, Tensor)
        or (other._requires_grad and _grad_enabled())
        or other._batched
    ):
        return False
    source = other._data
    if source.dtype != data.dtype or not data.flags.writeable or data.dtype.kind not in "fV":
        return False
    if source.shape != data.shape:
        try:
            if xp.broadcast_shapes(source.shape, data.shape) != data.shape:
                return False
        except ValueError:  # the general path raises torch's error
            return False
    if ufunc is not xp.multiply and source.shape == data.shape:
        alpha = scale if ufunc is xp.add else -scale
        if lapack.axpy(source, data, alpha):
            return True
    if scale != 1:
        alpha = scale if ufunc is xp.add else -scale
        if ufunc is not xp.multiply and add_scaled(data, source, alpha, out=data) is not None:
            return True  # Note [Fused alpha] in backend/fused.py
        source = source * scale
    ufunc(data, source, out=data)
    return True


# In-place arithmetic with a direct NumPy form: name -> (ufunc, scale from the call).
_DIRECT = {
    "add_": (xp.add, lambda kwargs: kwargs.get("alpha", 1)),
    "sub_": (xp.subtract, lambda kwargs: kwargs.get("alpha", 1)),
    "mul_": (xp.multiply, lambda kwargs: 1),
}


def _root(data):
    base = data.base
    return data if base is None else base


def dense(data) -> bool:
    # torch only compares memory ranges of non-overlapping dense tensors (else "too hard")
    flags = data.flags
    return flags.c_contiguous or flags.f_contiguous


def check_no_partial_overlap(self: Tensor, others) -> None:
    """torch refuses an in-place op whose input overlaps the written tensor in part (exactly
    the same elements, e.g. ``x.add_(x)``, is fine)."""
    data = self._data
    root = _root(data)
    for other in others:
        if other.__class__ is not Tensor and not isinstance(other, Tensor):
            continue
        source = other._data
        if source is data or _root(source) is not root or not (dense(data) and dense(source)):
            continue
        same = (
            source.__array_interface__["data"][0] == data.__array_interface__["data"][0]
            and source.shape == data.shape
            and source.strides == data.strides
        )
        if not same and xp.may_share_memory(data, source):
            raise RuntimeError(
                "unsupported operation: some elements of the input tensor and the written-to "
                "tensor refer to a single memory location. Please clone() the tensor before "
                "performing the operation."
            )


_OPERANDS = ("other", "min", "max", "exponent", "end")


def _refuse_output(op, self, args, kwargs) -> None:
    """torch's checks of an in-place op's output, which come before its kernel's dtypes
    (Note [Kernel dtypes]): the operands broadcast, to ``self``'s shape, and their result
    type casts to ``self``'s dtype (``int_tensor |= 2.0`` is that cast's error, not the
    missing float kernel's). Run on the refusal path only."""
    try:
        given = dict(zip(list(inspect.signature(op).parameters)[1:], args), **kwargs)
    except (TypeError, ValueError):  # no signature to read, or arguments it does not take
        return
    operands = [self]
    for name in _OPERANDS:  # the tensor operands (a slope or alpha is the kernel's own)
        if isinstance(given.get(name), (Tensor, int, float, complex)):
            operands.append(given[name])
    shapes = [tuple(a._data.shape) for a in operands if isinstance(a, Tensor)]
    shape = broadcast_shape(*shapes)
    if shape != shapes[0]:
        raise RuntimeError(
            f"output with shape {list(shapes[0])} doesn't match the broadcast shape {list(shape)}"
        )
    common = _dtypes.result_type(*operands)
    if not _can_cast(common, self.dtype):
        raise RuntimeError(
            f"result type {common.scalar_name} can't be cast to the desired output type "
            f"{self.dtype.scalar_name}"
        )


def _refuse_arguments(op, self, args, kwargs) -> None:
    """torch parses an in-place method's arguments before checking its target: a number
    where the op takes only tensors (``atan2_(2.0)``) is its TypeError, even on a leaf. Run
    on the refusal path only, on a copy that records nothing."""
    with grad_mode.no_grad():
        try:
            op(Tensor._make(self._data.copy()), *args, **kwargs)
        except TypeError:
            raise
        except Exception:  # any other refusal comes after the target's check
            pass


def inplace_variant(op, name: str):
    """Build ``Tensor.<name>`` (e.g. ``add_``) from the functional ``op``."""
    direct = _DIRECT.get(name)

    def method(self, *args, **kwargs):
        if dispatch.torch_function is not None:  # Note [Torch function dispatch]
            taken = dispatch.torch_function(method, (self, *args), kwargs)
            if taken is not NotImplemented:
                return taken
        if args:
            check_no_partial_overlap(self, args)
        if (
            direct is not None
            and len(args) == 1
            and (not _grad_enabled() or (not self._requires_grad and self._base is None))
            and set(kwargs) <= {"alpha"}
            and kwargs.get("alpha", 1).__class__ in (int, float)  # bool alphas raise
            and (self._vc is None or not self._vc.inference)  # check_inplace refuses those
            and _direct_update(self, args[0], direct[1](kwargs), direct[0])
        ):
            self._bump_version()
            return self
        try:
            check_inplace(self, name)
        except RuntimeError:
            _refuse_arguments(op, self, args, kwargs)
            raise
        try:
            out = op(self, *args, **kwargs)
        except NotImplementedError as error:
            if getattr(error, "refused_dtype", None) != self._data.dtype:
                _refuse_output(op, self, args, kwargs)
            raise
        return write_inplace(self, out, name)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"In-place version of :func:`{op.__name__}`."
    if name in _REAL_RESULTS:
        return _refusing_complex(method, _REAL_RESULTS[name])
    return method


# in-place ops torch refuses on a complex tensor, whose result would be real
_REAL_RESULTS = {"abs_": "abs", "absolute_": "abs"}


def _refusing_complex(method, op_name: str):
    def refusing(self, *args, **kwargs):
        if self.is_complex():
            raise RuntimeError(f"In-place {op_name} is not supported for complex tensors.")
        return method(self, *args, **kwargs)

    refusing.__name__ = refusing.__qualname__ = method.__name__
    refusing.__doc__ = method.__doc__
    return refusing
