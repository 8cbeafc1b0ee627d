"""``_trilinear``, the op behind ``bilinear`` (grad_fn ``TrilinearBackward0``), in the one
layout bilinear gives it: ``out[b, o] = sum_ij input1[b, i] weight[o, i, j] input2[b, j]``.

As torch's, each operand is saved only when a gradient that reads it will run (its
derivatives.yaml wraps the three in wrap_opt_if), and the gradients are products of the
other two operands, written with differentiable ops so that they are differentiable again.
"""

from __future__ import annotations

from ..._core.kernel_dtypes import NUMBERS, kernel
from ..._core.op import defop
from ...autograd.forward_grad import add_terms
from ...backend import xp
from ..concatenation import stack
from ..linalg import einsum


def _trilinear_jvp(i1_t, i2_t, i3_t, i1, i2, i3):
    return add_terms(
        None if i1_t is None else einsum("bi,oij,bj->bo", i1_t, i2, i3),
        None if i2_t is None else einsum("bi,oij,bj->bo", i1, i2_t, i3),
        None if i3_t is None else einsum("bi,oij,bj->bo", i1, i2, i3_t),
    )


# torch's gradients are _trilinear calls again, unrolled over the output feature o: each
# feature's term is a product of two operands, contracted with the third (a batched matmul),
# and the terms are added to a zero tensor in order of o. The grouping decides which products
# overflow and where an inf meets a zero, so the gradients keep it.
#
# With no output features the gradients are zeros, but torch's are still _trilinear calls on
# the other two operands: under create_graph they require grad through them. Contracting the
# empty feature dim's operand with another first (an empty product) and the third after
# gives those zeros with the same edges, and no zero meets an infinite operand.
def _grad_input1(grad, weight, input2):
    if weight.shape[0] == 0:
        return einsum("bo,boi->bi", grad, einsum("oij,bj->boi", weight, input2))
    out = grad.new_zeros((grad.shape[0], weight.shape[1]))
    for o in range(weight.shape[0]):
        out = out + ((grad[:, o, None, None] * weight[o]) @ input2[:, :, None])[..., 0]
    return out


def _grad_weight(grad, input1, input2):
    if grad.shape[1] == 0:
        return einsum("boi,bj->oij", einsum("bo,bi->boi", grad, input1), input2)
    terms = [(input1 * grad[:, o, None]).T @ input2 for o in range(grad.shape[1])]
    return stack(terms) + 0.0


def _grad_input2(grad, input1, weight):
    if weight.shape[0] == 0:
        return einsum("bo,boj->bj", grad, einsum("bi,oij->boj", input1, weight))
    out = grad.new_zeros((grad.shape[0], weight.shape[2]))
    for o in range(weight.shape[0]):
        out = out + (input1 @ weight[o]) * grad[:, o, None]
    return out


@defop(
    name="_trilinear",
    schema_args=8,  # (i1, i2, i3, expand1, expand2, expand3, sumdim, unroll_dim)
    optional_saves=("i1", "i2", "i3"),
    i1=lambda grad, i2, i3: _grad_input1(grad, i2, i3),
    i2=lambda grad, i1, i3: _grad_weight(grad, i1, i3),
    i3=lambda grad, i1, i2: _grad_input2(grad, i1, i2),
    jvp=_trilinear_jvp,
    dtypes=kernel("bmm", NUMBERS),  # torch's products are batched matmuls
)
def trilinear(i1, i2, i3):
    # torch's order: per output feature o, input1 @ weight[o] first, then the dot with input2
    # (in the operands' dtype, where NumPy would sum small integers as int64)
    return (xp.matmul(i1, i2) * i3).sum(-1, dtype=i3.dtype).T.copy()
