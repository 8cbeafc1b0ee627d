"""``_trilinear``, the op behind ``bilinear`` (grad_fn ``TrilinearBackward0``), in the one
layout bilinear gives it: ``out[b, o] = sum_ij input1[b, i] weight[o, i, j] input2[b, j]``.

As torch's, each operand is saved only when a gradient that reads it will run (its
derivatives.yaml wraps the three in wrap_opt_if), and the gradients are products of the
other two operands, written with einsum so that they are differentiable again.
"""

from __future__ import annotations

from ..._core.op import defop
from ...autograd.forward_grad import add_terms
from ...backend import xp
from ..linalg import einsum


def _trilinear_jvp(i1_t, i2_t, i3_t, i1, i2, i3):
    return add_terms(
        None if i1_t is None else einsum("bi,oij,bj->bo", i1_t, i2, i3),
        None if i2_t is None else einsum("bi,oij,bj->bo", i1, i2_t, i3),
        None if i3_t is None else einsum("bi,oij,bj->bo", i1, i2, i3_t),
    )


@defop(
    name="_trilinear",
    schema_args=8,  # (i1, i2, i3, expand1, expand2, expand3, sumdim, unroll_dim)
    optional_saves=("i1", "i2", "i3"),
    i1=lambda grad, i2, i3: einsum("bo,oij,bj->bi", grad, i2, i3),
    i2=lambda grad, i1, i3: einsum("bo,bi,bj->oij", grad, i1, i3),
    i3=lambda grad, i1, i2: einsum("bo,bi,oij->bj", grad, i1, i2),
    jvp=_trilinear_jvp,
)
def trilinear(i1, i2, i3):
    # torch's order: per output feature o, input1 @ weight[o] first, then the dot with input2
    return (xp.matmul(i1, i2) * i3).sum(-1).T.copy()
