"""``torch.masked.MaskedTensor``: a tensor whose masked-out elements are not part of its value.

A MaskedTensor is a Tensor holding its data (so shape, dtype and autograd fields are the
data's) plus a boolean ``mask`` of the same shape. It takes over the torch functions it is
passed to (``__torch_function__``, opted in with ``_dispatches_torch_function``):

- elementwise unary ops run on the data and keep the mask; binary ops require equal masks
  when both operands are masked (``ValueError`` otherwise);
- reductions (``sum``, ``mean``, ``amax``, ...) are ``torch.masked``'s, and their result is
  masked where no element was masked in;
- shape ops (``reshape``, ``transpose``, indexing, ...) apply to data and mask alike.

Autograd follows torch's MaskedTensor: ops record on the MaskedTensor itself (``ExpBackward0``,
``MulBackward0``), reductions through a differentiable constructor (``ConstructorBackward``),
``get_data()`` through ``GetDataBackward``, and ``.grad`` of a MaskedTensor is a MaskedTensor
under its mask.

Example:
    >>> import warnings
    >>> import numtorch as torch
    >>> warnings.simplefilter("ignore")  # the prototype warning torch gives too
    >>> data = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> mask = torch.tensor([[True, False, True], [False, False, True]])
    >>> mt = torch.masked.masked_tensor(data, mask)
    >>> mt.sum(1)
    MaskedTensor(
      [  4.0000,   6.0000]
    )
"""

from __future__ import annotations

import warnings
from typing import Any

import numtorch as torch
from numtorch._core.tensor import Tensor
from numtorch.masked import _ops
from numtorch.overrides import DisableTorchFunctionSubclass, install_dispatch

__all__ = ["MaskedTensor", "is_masked_tensor", "masked_tensor", "as_masked_tensor"]

_SUPPORTED_DTYPES = (
    torch.float16,
    torch.float32,
    torch.float64,
    torch.bool,
    torch.int8,
    torch.int16,
    torch.int32,
    torch.int64,
)
_PROTOTYPE_WARNING = (
    "The PyTorch API of MaskedTensors is in prototype stage and will change in the near "
    "future. Please open a Github issue for features requests and see our documentation on "
    "the torch.masked module for further information about the project."
)

UNARY_NAMES = frozenset(
    """abs absolute acos arccos acosh arccosh angle asin arcsin asinh arcsinh atan arctan
    atanh arctanh bitwise_not ceil clamp clip conj_physical cos cosh deg2rad digamma erf
    erfc erfinv exp exp2 expm1 fix floor frac lgamma log log10 log1p log2 logit i0 isnan
    nan_to_num neg negative positive pow rad2deg reciprocal round rsqrt sigmoid sign sgn
    signbit sin sinc sinh sqrt square tan tanh trunc logical_not""".split()  # noqa: SIM905
)
BINARY_NAMES = frozenset(
    """add atan2 arctan2 bitwise_and bitwise_or bitwise_xor bitwise_left_shift
    bitwise_right_shift div divide floor_divide fmod logaddexp logaddexp2 mul multiply
    nextafter remainder sub subtract true_divide eq ne le ge greater greater_equal gt
    less_equal lt less maximum minimum fmax fmin not_equal""".split()  # noqa: SIM905
)
REDUCE_NAMES = frozenset(
    """sum mean amin amax argmin argmax prod all norm var std""".split()  # noqa: SIM905
)
# ops that move elements without computing: run on the data and the mask alike
PASSTHROUGH_NAMES = frozenset(
    """select slice transpose split t view reshape expand expand_as unsqueeze squeeze
    permute flatten unflatten cat concat concatenate stack narrow movedim swapaxes
    swapdims unbind chunk flip contiguous __getitem__""".split()  # noqa: SIM905
)
# conversions: the data changes type, the mask stays
CONVERSION_NAMES = frozenset(
    """_to_copy to float double half int long bool clone detach type""".split()  # noqa: SIM905
)


def is_masked_tensor(obj: Any, /) -> bool:
    """Whether ``obj`` is a MaskedTensor.

    Example:
        >>> import warnings
        >>> import numtorch as torch
        >>> from numtorch.masked import MaskedTensor, is_masked_tensor
        >>> warnings.simplefilter("ignore")
        >>> data = torch.arange(6).reshape(2, 3)
        >>> mt = MaskedTensor(data, torch.tensor([[True, False, False], [True, True, False]]))
        >>> is_masked_tensor(mt), is_masked_tensor(data)
        (True, False)
    """
    return isinstance(obj, MaskedTensor)


def _format_element(value, formatter: str) -> str:
    return formatter.format(value) if isinstance(value, float) else str(value)


def _masked_str(data: Tensor, mask: Tensor, formatter: str) -> str:
    """torch's layout: one bracketed row per line, masked-out elements as ``--``."""
    if data.dim() == 1:
        texts = [_format_element(v, formatter) for v in data.tolist()]
        flags = mask.tolist()
        width = max((len(t) if m else 8) for t, m in zip(texts, flags)) if texts else 0
        return "[" + ", ".join(t if m else "--".rjust(width) for t, m in zip(texts, flags)) + "]"
    rows = [_masked_str(d, m, formatter) for d, m in zip(data, mask)]
    rows = ["\n".join("  " + line for line in row.split("\n")) for row in rows]
    return "[\n" + ",\n".join(rows) + "\n]"


def _plain(value):
    """A MaskedTensor's data as a plain Tensor in the same graph; other values unchanged."""
    if isinstance(value, MaskedTensor):
        with DisableTorchFunctionSubclass():
            return value.view_as(value)
    if isinstance(value, (list, tuple)):
        return type(value)(_plain(v) for v in value)
    return value


def _masks(value):
    if isinstance(value, MaskedTensor):
        return value._masked_mask
    if isinstance(value, (list, tuple)):
        return type(value)(_masks(v) for v in value)
    return value


def _wrap(result: Tensor, mask: Tensor) -> MaskedTensor:
    """``result`` (a tensor no one else holds) turned into a MaskedTensor in place."""
    result.__class__ = MaskedTensor
    result._masked_mask = mask
    return result


def _rebuild(data: Tensor, mask: Tensor, requires_grad: bool) -> MaskedTensor:
    """A copied or unpickled MaskedTensor (without the construction warnings)."""
    install_dispatch()
    return _wrap(data, mask).requires_grad_(requires_grad)


def _check_members(data: Tensor, mask: Tensor) -> None:
    if data.layout != mask.layout:
        raise TypeError("data and mask must have the same layout.")
    if data.layout != torch.strided:
        raise TypeError(
            f"data layout of {data.layout} is not supported by numtorch's MaskedTensor "
            "(strided data is); call .to_dense() first"
        )
    if mask.dtype != torch.bool:
        raise TypeError("mask must have dtype bool.")
    if data.dtype not in _SUPPORTED_DTYPES:
        raise TypeError(f"{data.dtype} is not supported in MaskedTensor.")
    if data.dim() != mask.dim():
        raise ValueError("data.dim() must equal mask.dim()")
    if data.size() != mask.size():
        raise ValueError("data.size() must equal mask.size()")


class MaskedTensor(Tensor):
    """A tensor with a boolean mask: ``MaskedTensor(data, mask, requires_grad=False)``.

    Prefer :func:`masked_tensor` (a leaf) or :func:`as_masked_tensor` (keeps ``data``'s
    history), as in torch.
    """

    _dispatches_torch_function = True

    def __new__(cls, data, mask, requires_grad=False):
        if is_masked_tensor(data) or not isinstance(data, Tensor):
            raise TypeError("data must be a Tensor")
        if is_masked_tensor(mask) or not isinstance(mask, Tensor):
            raise TypeError("mask must be a Tensor")
        warnings.warn(_PROTOTYPE_WARNING, UserWarning, stacklevel=2)
        if data.requires_grad:
            warnings.warn(
                "It is not recommended to create a MaskedTensor with a tensor that "
                "requires_grad. To avoid this, you can use data.detach().clone()",
                UserWarning,
                stacklevel=2,
            )
        _check_members(data, mask)
        install_dispatch()
        result = Tensor._make(data.detach().clone()._data, cls)
        result._masked_mask = mask.clone()
        return result.requires_grad_(bool(requires_grad))

    def __init__(self, data, mask, requires_grad=False):
        pass  # everything happens in __new__ (Tensor.__init__ would allocate)

    def get_data(self) -> Tensor:
        """The data, masked-out elements included, in the graph (``GetDataBackward``)."""
        return GetData.apply(self)

    def get_mask(self) -> Tensor:
        """The boolean mask: True where an element is part of the value."""
        return self._masked_mask

    def to_tensor(self, value) -> Tensor:
        """A plain tensor with the masked-out elements set to ``value``."""
        return self.get_data().masked_fill(~self.get_mask(), value)

    def is_sparse_coo(self) -> bool:
        return False

    def is_sparse_csr(self) -> bool:
        return False

    def detach(self) -> MaskedTensor:
        return _wrap(_plain(self).detach(), self._masked_mask)

    def sum(self, dim=None, keepdim=False, dtype=None):
        return _reduce("sum", self, dim, keepdim, dtype=dtype)

    def mean(self, dim=None, keepdim=False, dtype=None):
        return _reduce("mean", self, dim, keepdim, dtype=dtype)

    def prod(self, dim=None, keepdim=False, dtype=None):
        return _reduce("prod", self, dim, keepdim, dtype=dtype)

    def amax(self, dim=None, keepdim=False):
        return _reduce("amax", self, dim, keepdim)

    def amin(self, dim=None, keepdim=False):
        return _reduce("amin", self, dim, keepdim)

    def argmax(self, dim=None, keepdim=False):
        return _reduce("argmax", self, dim, keepdim)

    def argmin(self, dim=None, keepdim=False):
        return _reduce("argmin", self, dim, keepdim)

    def all(self, dim=None, keepdim=False):
        return _reduce("all", self, dim, keepdim)

    def norm(self, dim=None, keepdim=False, dtype=None):
        return _reduce("norm", self, dim, keepdim, dtype=dtype)

    def var(self, dim=None, keepdim=False, dtype=None):
        return _reduce("var", self, dim, keepdim, dtype=dtype)

    def std(self, dim=None, keepdim=False, dtype=None):
        return _reduce("std", self, dim, keepdim, dtype=dtype)

    @property
    def grad(self):
        grad = Tensor.grad.__get__(self)
        if grad is None or isinstance(grad, MaskedTensor):
            return grad
        return _wrap(grad.detach(), self._masked_mask)

    @grad.setter
    def grad(self, value):
        Tensor.grad.__set__(self, _plain(value))

    def __repr__(self):
        formatter = "{0:8.4f}"
        data = _plain(self).detach()
        if self.dim() == 0:
            value = data.item()
            present = bool(self._masked_mask.item())
            text = _format_element(value, formatter) if present else "--"
            return f"MaskedTensor({text}, {present})"
        body = _masked_str(data, self._masked_mask, formatter)
        return "MaskedTensor(\n" + "\n".join("  " + line for line in body.split("\n")) + "\n)"

    __str__ = __repr__

    def __deepcopy__(self, memo):
        result = _rebuild(_plain(self).detach().clone(), self._masked_mask.clone(), False)
        result.requires_grad_(self.requires_grad and self.is_leaf)
        memo[id(self)] = result
        return result

    def __reduce_ex__(self, protocol):
        data = _plain(self).detach().clone()
        return (_rebuild, (data, self._masked_mask, self.requires_grad and self.is_leaf))

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = getattr(func, "__name__", "")
        if name in REDUCE_NAMES and isinstance(args[0], MaskedTensor):
            # torch.sum(mt, ...) and friends: the caller's arguments, as the methods take them
            return getattr(MaskedTensor, name)(*args, **kwargs)
        if name.endswith("_") and name[:-1] in UNARY_NAMES | BINARY_NAMES:
            return _inplace(func, args, kwargs)
        if name in BINARY_NAMES:
            return _binary(func, args, kwargs)
        if name in UNARY_NAMES:
            return _unary(func, args, kwargs)
        if name in PASSTHROUGH_NAMES:
            with DisableTorchFunctionSubclass():
                data = func(*_plain(args), **_plain(kwargs))
                mask = func(*_masks(args), **_masks(kwargs))
            if isinstance(data, (tuple, list)):
                return type(data)(_wrap(d, m) for d, m in zip(data, mask))
            return _wrap(data, mask)
        if name in CONVERSION_NAMES:
            with DisableTorchFunctionSubclass():
                data = func(*_plain(args), **kwargs)
            return _wrap(data, args[0]._masked_mask) if isinstance(data, Tensor) else data
        if name in ("softmax", "log_softmax"):
            op = _ops.log_softmax if name == "log_softmax" else _ops.softmax
            return _wrap(op(args[0], args[1], mask=args[0]._masked_mask), args[0]._masked_mask)
        if name == "where":
            return _where(*args, **kwargs)
        if name.endswith("_"):  # refused before it changes anything
            raise TypeError(f"{name} is not implemented for MaskedTensor")
        with DisableTorchFunctionSubclass():
            result = func(*_plain(args), **_plain(kwargs))
        if isinstance(result, Tensor):
            raise TypeError(
                f"{name} is not implemented for MaskedTensor (numtorch runs elementwise ops, "
                "reductions, shape ops and conversions on it); call .get_data() or "
                ".to_tensor(value) for a plain tensor first"
            )
        return result


def masked_tensor(data, mask, requires_grad: bool = False) -> MaskedTensor:
    """A MaskedTensor leaf holding a copy of ``data`` under ``mask`` (like ``torch.tensor``).

    Example:
        >>> import warnings
        >>> import numtorch as torch
        >>> warnings.simplefilter("ignore")
        >>> torch.masked.masked_tensor(torch.tensor([1, 2, 3]), torch.tensor([True, False, True]))
        MaskedTensor(
          [1,       --, 3]
        )
    """
    return MaskedTensor(data, mask, requires_grad)


class Constructor(torch.autograd.Function):
    """``as_masked_tensor``: the gradient passes through to ``data`` unchanged."""

    @staticmethod
    def forward(ctx, data, mask):
        return data.view_as(data)

    @staticmethod
    def backward(ctx, grad_output):
        return _plain(grad_output), None


def as_masked_tensor(data, mask) -> MaskedTensor:
    """A MaskedTensor of ``data`` under ``mask`` that keeps ``data``'s autograd history
    (``ConstructorBackward``), like ``torch.as_tensor``."""
    if is_masked_tensor(data) or not isinstance(data, Tensor):
        raise TypeError("data must be a Tensor")
    if is_masked_tensor(mask) or not isinstance(mask, Tensor):
        raise TypeError("mask must be a Tensor")
    _check_members(data, mask)
    install_dispatch()
    return _wrap(Constructor.apply(data, mask), mask.clone())


class GetData(torch.autograd.Function):
    @staticmethod
    def forward(ctx, self):
        return _plain(self).detach()

    @staticmethod
    def backward(ctx, grad_output):
        return _plain(grad_output)


def _unary(func, args, kwargs):
    with DisableTorchFunctionSubclass():
        data = func(*_plain(args), **_plain(kwargs))
    return _wrap(data, args[0]._masked_mask)


def _binary(func, args, kwargs):
    first, second = args[0], args[1] if len(args) > 1 else kwargs.get("other")
    for extra in args[2:]:
        if isinstance(extra, Tensor):
            raise TypeError(
                "MaskedTensor binary ops do not support Tensor arguments aside from the lhs and rhs"
            )
    if is_masked_tensor(first) and is_masked_tensor(second):
        a, b = first._masked_mask, second._masked_mask
        if a.shape != b.shape or not bool(torch.equal(a, b)):
            raise ValueError(
                "Input masks must match. If you need support for this, please open an issue "
                "on Github."
            )
    mask = first._masked_mask if is_masked_tensor(first) else second._masked_mask
    with DisableTorchFunctionSubclass():
        data = func(*_plain(args), **_plain(kwargs))
    if data is NotImplemented:
        return data
    return _wrap(data, mask.expand_as(data))


def _inplace(func, args, kwargs):
    """``mt.add_(other)``, ``mt.exp_()``: the data changes in place, the mask stays."""
    target = args[0]
    if len(args) > 1 and is_masked_tensor(target) and is_masked_tensor(args[1]):
        a, b = target._masked_mask, args[1]._masked_mask
        if a.shape != b.shape or not bool(torch.equal(a, b)):
            raise ValueError(
                "Input masks must match. If you need support for this, please open an issue "
                "on Github."
            )
    with DisableTorchFunctionSubclass():
        func(target, *_plain(args[1:]), **_plain(kwargs))
    return target


def _any_over(mask, dim, keepdim):
    dims = [dim] if isinstance(dim, int) else list(dim)
    for d in sorted(dims, reverse=True):
        mask = torch.any(mask, dim=d, keepdim=keepdim)
    return mask


def _reduce(name, self, dim=None, keepdim=False, dtype=None):
    """A reduction of a MaskedTensor: ``torch.masked``'s, masked where nothing was masked in
    (torch's MaskedTensor reductions take dim, keepdim and dtype only)."""
    mask = self._masked_mask
    if dim is None:
        if name == "all":
            data = _plain(self).masked_fill(~mask, True).all()
        else:
            data = getattr(_ops, name)(self, mask=mask)
        return as_masked_tensor(data, torch.any(mask))
    keepdim = bool(keepdim)
    if name == "all":
        data = torch.all(_plain(self).masked_fill(~mask, True), dim=dim, keepdim=keepdim)
    elif name in ("amax", "amin", "argmax", "argmin"):
        data = getattr(_ops, name)(self, dim=dim, keepdim=keepdim, mask=mask)
    else:
        data = getattr(_ops, name)(self, dim=dim, keepdim=keepdim, dtype=dtype, mask=mask)
    return as_masked_tensor(data, _any_over(mask, dim, keepdim))


def _where(condition, input, other=None):
    mask = input._masked_mask if is_masked_tensor(input) else other._masked_mask
    with DisableTorchFunctionSubclass():
        data = torch.where(_plain(condition), _plain(input), _plain(other))
    return _wrap(data, mask)
