"""The constructors and functions of ``torch.nested`` (strided layout)."""

from __future__ import annotations

import warnings

import numtorch as torch

from .._core.tensor import Tensor
from ..overrides import DisableTorchFunctionSubclass
from ._graph import record
from ._tensor import NestedTensor, flatten, pieces, wrap

_PROTOTYPE_WARNING = (
    "The PyTorch API of nested tensors is in prototype stage and will change in the near "
    "future. We recommend specifying layout=torch.jagged when constructing a nested tensor, as "
    "this layout receives active development, has better operator coverage, and works with "
    "torch.compile."
)


def _check_layout(name: str, layout) -> None:
    if layout is not None and layout is not torch.strided:
        raise NotImplementedError(
            f"torch.nested.{name}: only the strided layout is supported by numtorch (layout "
            f"{layout} is not); leave layout unset"
        )


def _check_ranks(tensors) -> None:
    for i, t in enumerate(tensors[1:], 1):
        if t.dim() != tensors[0].dim():
            raise RuntimeError(
                "All Tensors given to nested_tensor must have the same dimension. Found "
                f"dimension {t.dim()} for Tensor at index {i} and dimension {tensors[0].dim()} "
                "for Tensor at index 0."
            )


def nested_tensor(tensor_list, *, dtype=None, layout=None, device=None, requires_grad=False,
                  pin_memory=False) -> NestedTensor:  # fmt: skip
    """A nested tensor (a leaf) holding copies of ``tensor_list``'s tensors (or of tensors
    made from its nested lists of numbers), which may differ in size but not in rank.

    Example:
        >>> import numtorch as torch
        >>> nt = torch.nested.nested_tensor([torch.arange(3), torch.arange(2)])
        >>> nt.to_padded_tensor(-1)
        tensor([[ 0,  1,  2],
                [ 0,  1, -1]])
    """
    _check_layout("nested_tensor", layout)
    if not isinstance(tensor_list, list):
        raise TypeError(
            "Only lists (List[Tensor] and List[List...[Scalar]]) are accepted in nested_tensor"
        )
    tensors = [t if isinstance(t, Tensor) else torch.tensor(t) for t in tensor_list]
    if any(isinstance(t, NestedTensor) for t in tensors):
        raise TypeError("nested_tensor: a nested tensor cannot hold nested tensors")
    _check_ranks(tensors)
    warnings.warn(_PROTOTYPE_WARNING, UserWarning, stacklevel=2)
    if dtype is None:
        dtype = tensors[0].dtype if tensors else torch.get_default_dtype()
    with torch.no_grad():
        buffer = flatten([t.detach() for t in tensors], dtype).clone()
    return wrap(buffer.requires_grad_(requires_grad), [tuple(t.shape) for t in tensors])


def as_nested_tensor(ts, dtype=None, device=None, layout=None) -> NestedTensor:
    """A nested tensor of ``ts``'s tensors that keeps their autograd history: gradients flow
    back to them (``NestedTensorFromTensorListBackward0``). A tensor is split along dim 0."""
    _check_layout("as_nested_tensor", layout)
    if isinstance(ts, NestedTensor):
        raise RuntimeError(
            "as_nested_tensor(): Converting between nested tensor layouts is not supported"
        )
    if isinstance(ts, Tensor):
        ts = list(ts.unbind(0))
    if not isinstance(ts, (list, tuple)) or not all(isinstance(t, Tensor) for t in ts):
        raise TypeError(
            "as_nested_tensor(): Expected first argument to be a tensor or a list / tuple of "
            "tensors"
        )
    ts = list(ts)
    _check_ranks(ts)
    warnings.warn(_PROTOTYPE_WARNING, UserWarning, stacklevel=2)
    if dtype is None:
        dtype = ts[0].dtype if ts else torch.get_default_dtype()
    sizes = [tuple(t.shape) for t in ts]
    if not ts:
        return wrap(torch.zeros(0, dtype=dtype), sizes)
    buffer = record(
        "NestedTensorFromTensorListBackward0",
        lambda *parts: flatten(parts, dtype),
        *ts,
        aten="_nested_tensor_from_tensor_list",
    )
    return wrap(buffer, sizes)


def to_padded_tensor(input, padding: float, output_size=None) -> Tensor:
    """``input``'s constituents padded with ``padding`` and stacked into one tensor."""
    if not isinstance(input, NestedTensor):
        return _plain_to_padded_tensor(input, padding, output_size)
    return input.to_padded_tensor(padding, output_size)


def _plain_to_padded_tensor(self, padding, output_size=None):
    raise NotImplementedError(
        "Could not run 'aten::to_padded_tensor' with arguments from the 'CPU' backend: "
        "to_padded_tensor takes a nested tensor (torch.nested.nested_tensor)"
    )


def narrow(tensor, dim: int, start, length, layout=torch.strided) -> NestedTensor:
    """The constituents ``start`` to ``start + length`` of a nested tensor (dim 0 only)."""
    _check_layout("narrow", layout)
    if not isinstance(tensor, NestedTensor):
        raise RuntimeError("narrow(): expected a nested tensor (torch.nested.nested_tensor)")
    if dim != 0:
        raise RuntimeError(f"narrow(): only dim=0 supported for nested tensors, but got: {dim}")
    sizes = tensor._nested_sizes
    start, length = int(start), int(length)
    if not (0 <= start <= len(sizes) and 0 <= length <= len(sizes) - start):
        raise RuntimeError(
            f"start ({start}) + length ({length}) exceeds dimension size ({len(sizes)})."
        )
    kept = sizes[start : start + length]

    def run(buffer):
        return flatten(pieces(buffer, sizes)[start : start + length])

    with DisableTorchFunctionSubclass():
        if not kept:
            return wrap(tensor._buffer[:0].detach(), kept)
        # torch's strided narrow records its node under this name too
        return wrap(record("NotImplemented", run, tensor._buffer), kept)
