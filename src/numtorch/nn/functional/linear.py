"""``linear`` and ``bilinear`` of ``numtorch.nn.functional``."""

from __future__ import annotations

import math

from ..._core.dispatch import require_tensor
from ..._core.meta import check_same_device
from ..._core.observers import composite, dispatch
from ..._core.tensor import Tensor
from ...ops.linalg import addmm
from ...ops.nn.bilinear import trilinear


@composite("aten::linear")
def linear(input: Tensor, weight: Tensor, bias=None) -> Tensor:
    """``input @ weight.T + bias`` (weight: (out_features, in_features)).

    A 2-D input with a bias is one ``addmm`` (grad_fn ``AddmmBackward0``); other ranks are
    folded to 2-D and back, as torch does.

    Example:
        >>> import numtorch as torch
        >>> x = torch.tensor([[1.0, 2.0]])
        >>> torch.nn.functional.linear(x, torch.tensor([[1.0, 1.0]]), torch.tensor([0.5]))
        tensor([[3.5000]])
    """
    require_tensor("linear", "input", 1, input)
    require_tensor("linear", "weight", 2, weight)
    if input.is_nested:  # per constituent, as one LinearBackward0 node (numtorch.nested)
        return input._linear(weight, bias)
    if input.ndim == 0 or weight.ndim == 0:
        raise RuntimeError(
            f"both arguments to linear need to be at least 1D, but they are {input.ndim}D and "
            f"{weight.ndim}D"
        )
    if input._data.dtype != weight._data.dtype:
        if bias is not None and input.ndim in (2, 3):  # torch's addmm path words it so
            raise RuntimeError(
                f"mat1 and mat2 must have the same dtype, but got {input.dtype.scalar_name} and "
                f"{weight.dtype.scalar_name}"
            )
        raise RuntimeError(
            "expected m1 and m2 to have the same dtype, but got: "
            f"{input.dtype.c_name} != {weight.dtype.c_name}"
        )
    if bias is not None and bias._data.dtype != input._data.dtype:
        raise RuntimeError(
            f"self and mat2 must have the same dtype, but got {bias.dtype.scalar_name} and "
            f"{weight.dtype.scalar_name}"
        )
    if dispatch.meta:  # torch compares devices with the input's, before addmm reorders them
        check_same_device((input, weight, bias))
    if bias is None:
        return input.matmul(weight.t())
    if input._batched and not weight._batched:
        # as torch's vmap, which decomposes linear (grad_fn AddBackward0); per-sample weights
        # (vmap of grad) keep addmm's batched rule, which is faster here
        return input.matmul(weight.t()) + bias
    if input.ndim == 2:
        return addmm(bias, input, weight.t())
    if not input.is_contiguous():  # torch folds only a contiguous input into one addmm
        return input.matmul(weight.t()) + bias
    lead = input.shape[:-1]
    # the batch size spelled out: reshape(-1, 0) is ambiguous for an empty input
    out = addmm(bias, input.reshape(math.prod(lead), input.shape[-1]), weight.t())
    return out.view(*lead, out.shape[-1])


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias=None) -> Tensor:
    """``y_k = input1^T weight_k input2 + bias_k`` for weight (out, in1, in2)."""
    if input1.ndim != input2.ndim:
        raise RuntimeError(
            f"bilinear(): input dimensions do not match: got {input1.ndim} and {input2.ndim}"
        )
    operands = {"input1": input1, "input2": input2, "weight": weight}
    if bias is not None:
        operands["bias"] = bias
    if len({t._data.dtype for t in operands.values()}) > 1:  # torch takes no mixed operands
        named = ", ".join(f"{name}: {t.dtype.c_name}" for name, t in operands.items())
        raise RuntimeError(f"All tensors must have the same dtype, got {named}")
    for i in range(input1.ndim - 1):
        if input1.shape[i] != input2.shape[i]:
            raise RuntimeError(
                f"bilinear(): input batch dimensions do not match: got {list(input1.shape)} "
                f"and {list(input2.shape)}"
            )
    if input1.shape[-1] != weight.shape[1]:
        raise RuntimeError(
            f"bilinear(): input1 size does not match weight size: got {input1.shape[-1]} but "
            f"expected {weight.shape[1]}"
        )
    if input2.shape[-1] != weight.shape[2]:
        raise RuntimeError(
            f"bilinear(): input2 size does not match weight size: got {input2.shape[-1]} but "
            f"expected {weight.shape[2]}"
        )
    if bias is not None and bias.shape[-1] != weight.shape[0]:
        raise RuntimeError(
            f"bilinear(): bias size does not match weight size: got {bias.shape[-1]} but "
            f"expected {weight.shape[0]}"
        )
    lead = input1.shape[:-1]
    # torch flattens with -1, which a feature dim of 0 leaves ambiguous (its error)
    x1 = input1.reshape(-1, input1.shape[-1])
    x2 = input2.reshape(-1, input2.shape[-1])
    out = trilinear(x1, weight, x2).reshape(*lead, weight.shape[0])
    return out if bias is None else out + bias
