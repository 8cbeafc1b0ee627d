"""native_dropout: dropout that also returns its boolean keep mask
(``NativeDropoutBackward0``)."""

from __future__ import annotations

from ..._core import batch_rules
from ..._core.op import defop
from ..._core.tensor import Tensor
from ..._creation import bernoulli_mask
from ...autograd.forward_grad import batched


@defop(
    batch=batch_rules.pointwise,
    name="native_dropout",
    node="NativeDropoutBackward0",
    input=lambda grad, mask, backward_scale: grad * mask * backward_scale,
    jvp=batched(lambda input_t, mask, scale: input_t * mask * scale),
)
def native_dropout_op(input, mask, scale, backward_scale):
    return (input * mask).astype(input.dtype, copy=False) * input.dtype.type(scale)


def keep_mask(shape, p: float, like=None) -> Tensor:
    """Bernoulli(1 - p) samples as a boolean tensor (in the memory order of ``like``)."""
    return Tensor._make(bernoulli_mask(shape, 1.0 - p, like))
