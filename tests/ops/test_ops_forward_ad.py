"""Forward-mode AD from the op-sample table: every sample's Jacobian-vector product against
central finite differences, against the backward (<J u, v> == <u, J^T v>) and against
torch.func.jvp. Ops without a forward derivative must be listed in NO_FORWARD_AD, and every
op listed there must still lack one."""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from conftest import to_lib

import numtorch
from numtorch.testing.opinfo import OP_DB
from numtorch.testing.opinfo_nested import NESTED_OPS

# Ops whose forward derivative raises torch's NotImplementedError, as torch's does (their
# entries say so, or their backward formulas are not differentiable with respect to the
# incoming gradient, so no forward derivative can be derived from them). cdist's
# matrix-product form (cdist_mm, _euclidean_dist) refuses as torch's does.
NO_FORWARD_AD = {
    "cdist",
    "cdist_mm",
    "ctc_loss",
    "embedding_bag_max",
    "embedding_bag_mean",
    "embedding_bag_sum",
    "grid_sample_bicubic_border_1",
    "grid_sample_bicubic_reflection_0",
    "grid_sample_bicubic_zeros_0",
    "grid_sample_bilinear_border_1",
    "grid_sample_bilinear_reflection_0",
    "grid_sample_bilinear_reflection_1",
    "grid_sample_bilinear_zeros_0",
    "grid_sample_nearest_zeros_1",
    "mkldnn_rnn_layer",
    # torch differentiates lobpcg's iterations op by op; numtorch's run on arrays
    "lobpcg",
    "lobpcg_vectors",
    # nested tensors: torch's as_nested_tensor (_nested_tensor_from_tensor_list) has none
    *(info.name for info in NESTED_OPS),
    # index_reduce: torch writes no forward derivative for any of its reductions
    *(f"index_reduce_{r}_{s}" for r in ("prod", "mean", "amax", "amin") for s in (True, False)),
    "multi_margin_loss",
    "multi_margin_loss_weight",
    "multilabel_margin_loss",
    "ormqr",
    "pack_padded_sequence",
    "pdist",
    "rrelu_",
    # torch declares zeta's derivatives not implemented (x's is missing, q's only backward),
    # so forward AD refuses every overload
    "special_zeta",
    "special_zeta_self_scalar",
    "special_zeta_other_scalar",
    # torch refuses autograd through it for an input that requires grad (a complex output)
    "view_as_complex_copy",
    # segment_reduce: torch writes no forward derivative
    "segment_reduce_sum",
    "segment_reduce_mean_initial",
    "segment_reduce_max_initial",
    "segment_reduce_min_axis1_initial",
    "segment_reduce_prod_initial",
    "segment_reduce_sum_axis1",
}

# Ops whose forward derivative raises torch's NotImplementedError on some samples only: the
# predicate picks them from the sample's arguments. _weight_norm over the first or last dim
# runs torch's fused node (none); over the others it is composed (one).
NO_FORWARD_AD_SAMPLES = {
    "_weight_norm": lambda v, g, dim: dim in (0, v.ndim - 1),
}


def _without_forward_ad(info, sample) -> bool:
    if info.name in NO_FORWARD_AD:
        return True
    raises = NO_FORWARD_AD_SAMPLES.get(info.name)
    return raises is not None and raises(*sample.args, **sample.kwargs)


# Where torch's forward derivative differs from the derivative of the function computed:
# torch applies the formula to the whole tangent, numtorch differentiates what the op reads.
TORCH_DIFFERS = {
    # the op reads one triangle; torch's jvp also uses the other triangle of the tangent
    # (and, for cholesky_inverse, disagrees with finite differences even on a triangular
    # tangent; for triangular_solve with transpose=True, it takes dA X where dA^T X is due)
    "cholesky_inverse": "tangent's unread triangle",
    "triangular_solve": "tangent's unread triangle",
    "triangular_solve_both": "tangent's unread triangle",
    # torch's tangents disagree with finite differences (which numtorch's match) on these
    # samples: all zeros for scatter_reduce's prod
    "scatter_reduce_prod_False": "torch's jvp is zero",
    "scatter_reduce_prod_True": "torch's jvp is zero",
}

# Where numtorch follows torch's forward formula and both disagree with the reverse-mode
# Jacobian and finite differences: logcumsumexp divides by its running sum plus 1e-13,
# which is most of the denominator where exp(x - max) is below about 1e-13
FORMULA_AS_TORCH = {"logcumsumexp"}

# Registry entries whose forward derivative is not written in their entry but derived by
# transposing their backward formulas (Note [Forward grads]): correct where the backward is
# differentiable, at about twice the cost of a written one. All but one entry write their own;
# an entry listed here is an explicit exception, and one that gains a written derivative must
# leave the list (the test below fails either way).
TRANSPOSED = {
    "linalg_householder_product",  # torch writes one; the product of reflectors is not yet
}


CASES = [
    pytest.param(info, sample, id=f"{info.name}-{i}")
    for info in OP_DB
    if info.grad
    for i, sample in enumerate(info.samples(np.random.default_rng(zlib.crc32(info.name.encode()))))
]


def _setup(lib, info, sample, seed):
    args = [to_lib(lib, a, lib.float64, True) for a in sample.args]
    positions = [
        i for i, a in enumerate(args) if isinstance(a, lib.Tensor) and a.dtype == lib.float64
    ]
    rng = np.random.default_rng(seed)
    tangents = [rng.standard_normal(tuple(args[i].shape)) for i in positions]

    def fn(*tensors):
        full = list(args)
        for i, t in zip(positions, tensors):
            full[i] = t
        out = info.op(lib, *full, **sample.kwargs)
        outs = out if isinstance(out, (tuple, list)) else (out,)
        return tuple(o for o in outs if isinstance(o, lib.Tensor) and o.is_floating_point())

    primals = tuple(args[i] for i in positions)
    return fn, primals, tuple(lib.tensor(t) for t in tangents)


def _numpy(tensors):
    return [t.detach().numpy() for t in tensors]


def _jvp(info, sample):
    fn, primals, tangents = _setup(numtorch, info, sample, zlib.crc32(info.name.encode()))
    if not primals:
        pytest.skip("no floating-point tensor input")
    _, out_tangents = numtorch.func.jvp(fn, primals, tangents)
    return fn, primals, tangents, out_tangents


@pytest.mark.parametrize("info, sample", CASES)
def test_jvp_matches_finite_differences_and_backward(info, sample):
    if _without_forward_ad(info, sample):
        fn, primals, tangents = _setup(numtorch, info, sample, 0)
        with pytest.raises(NotImplementedError, match="forward AD"):
            numtorch.func.jvp(fn, primals, tangents)
        return
    if info.name in FORMULA_AS_TORCH:
        pytest.skip("torch's forward formula disagrees with finite differences here")
    fn, primals, tangents, out_tangents = _jvp(info, sample)
    eps = 1e-6
    with numtorch.no_grad():
        shifted = [
            [(p + sign * eps * t).requires_grad_() for p, t in zip(primals, tangents)]
            for sign in (1, -1)
        ]
    plus, minus = fn(*shifted[0]), fn(*shifted[1])
    for got, hi, lo in zip(out_tangents, plus, minus):
        expected = (hi - lo).detach().numpy() / (2 * eps)
        np.testing.assert_allclose(got.detach().numpy(), expected, atol=info.atol, rtol=info.rtol)
    # <J u, v> == <u, J^T v>
    rng = np.random.default_rng(1)
    inputs = tuple(p.detach().requires_grad_() for p in primals)
    outs = fn(*inputs)
    live = [k for k, o in enumerate(outs) if o.requires_grad]
    if not live:
        return
    vs = [numtorch.tensor(rng.standard_normal(tuple(outs[k].shape))) for k in live]
    vjps = numtorch.autograd.grad(
        [outs[k] for k in live], inputs, vs, allow_unused=True, materialize_grads=True
    )
    left = sum(float((out_tangents[k] * v).sum()) for k, v in zip(live, vs))
    right = sum(float((u * g).sum()) for u, g in zip(tangents, vjps))
    assert abs(left - right) <= 1e-6 * (1 + abs(left))


@pytest.mark.parametrize("info, sample", CASES)
def test_jvp_matches_torch(info, sample):
    torch = pytest.importorskip("torch")
    if _without_forward_ad(info, sample):
        pytest.skip("listed without a forward derivative")
    if info.name in TORCH_DIFFERS:
        pytest.skip(f"torch's jvp differs on purpose: {TORCH_DIFFERS[info.name]}")
    _, _, our_tangents, ours = _jvp(info, sample)
    if info.defined_grad is not None:
        # torch's own derivative here is its platform's (see the entry): check the defined
        # one, each output element's jvp as the defined gradient of that element
        arrays = [a for a in sample.args if isinstance(a, np.ndarray) and a.dtype.kind == "f"]
        (out,) = ours
        expected = np.zeros(tuple(out.shape))
        for k in np.ndindex(expected.shape):
            unit = np.zeros(expected.shape)
            unit[k] = 1.0
            grads = info.defined_grad(unit, *arrays)
            expected[k] = sum((g * t.detach().numpy()).sum() for g, t in zip(grads, our_tangents))
        np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-7, atol=1e-8)
        return
    fn, primals, tangents = _setup(torch, info, sample, zlib.crc32(info.name.encode()))
    try:
        _, theirs = torch.func.jvp(fn, primals, tangents)
    except (NotImplementedError, RuntimeError) as error:
        pytest.skip(f"torch has no forward derivative here: {str(error)[:80]}")
    assert len(ours) == len(theirs)
    tol = info.parity_rtol or 1e-7
    # torch's zero tangents are ZeroTensors, which convert only with force=True
    for a, b in zip(_numpy(ours), [t.detach().numpy(force=True) for t in theirs]):
        np.testing.assert_allclose(a, b, rtol=tol, atol=1e-8)


def test_exception_list_matches_the_registry():
    """An op in NO_FORWARD_AD that gained a forward derivative (or the reverse) fails here."""
    listed = {info.name for info in OP_DB if info.name in NO_FORWARD_AD}
    assert listed == NO_FORWARD_AD, NO_FORWARD_AD - listed
    assert {info.name for info in OP_DB} >= set(NO_FORWARD_AD_SAMPLES)


@pytest.mark.parametrize("info, sample", CASES)
def test_jacfwd_matches_jacrev(info, sample):
    """jacfwd pushes all basis tangents at once: the batched forward derivatives (and the
    row-by-row path of the others) against the reverse-mode Jacobian."""
    if _without_forward_ad(info, sample):
        pytest.skip("listed without a forward derivative")
    if info.name in FORMULA_AS_TORCH:
        pytest.skip("torch's forward formula disagrees with the reverse-mode Jacobian here")
    fn, primals, _ = _setup(numtorch, info, sample, 0)
    if not primals or sum(p.numel() for p in primals) > 200:
        pytest.skip("no floating-point input, or too many columns to be quick")
    argnums = tuple(range(len(primals)))
    try:
        forward = numtorch.func.jacfwd(fn, argnums=argnums)(*primals)
    except RuntimeError as error:
        if "randomness" not in str(error):
            raise
        pytest.skip("a random op: jacfwd refuses it, as torch's does")
    # row by row in reverse mode (the batched backward of func.jacrev is checked elsewhere)
    reverse = numtorch.autograd.functional.jacobian(fn, primals)
    if any(o.is_complex() for o in fn(*primals)):
        pytest.skip("complex outputs: the two Jacobians follow different conventions")
    for out_fwd, out_rev in zip(forward, reverse):
        for a, b in zip(out_fwd, out_rev):
            np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-7, atol=1e-9)


def test_every_entry_declares_its_forward_derivative():
    """A differentiable entry writes its forward derivative ("elementwise", "linear" or a
    formula), or is listed in TRANSPOSED; a listed entry that gained one fails here."""
    from numtorch._core.op import REGISTRY

    undeclared = {name for name, spec in REGISTRY.items() if spec.diff and spec.jvp is None}
    assert undeclared - TRANSPOSED == set(), "entries without a written forward derivative"
    assert TRANSPOSED - undeclared == set(), "listed entries that now declare one"


GRADGRAD_CASES = [
    pytest.param(info, sample, id=f"{info.name}-{i}")
    for info in OP_DB
    if info.grad and info.gradgrad and info.name not in NO_FORWARD_AD
    for i, sample in enumerate(info.samples(np.random.default_rng(zlib.crc32(info.name.encode()))))
    if not _without_forward_ad(info, sample)
]


@pytest.mark.parametrize("info, sample", GRADGRAD_CASES)
def test_forward_over_reverse_matches_finite_differences(info, sample):
    """jvp of the gradient (hessian-vector products, func.hessian): pushes tangents through
    the backward formulas' own entries (the *_backward ops among them)."""
    if info.name in FORMULA_AS_TORCH:
        pytest.skip("torch's forward formula disagrees with finite differences here")
    fn, primals, tangents = _setup(numtorch, info, sample, zlib.crc32(info.name.encode()))
    if not primals:
        pytest.skip("no floating-point tensor input")
    outs = fn(*primals)
    if not outs or any(o.is_complex() for o in outs):
        pytest.skip("no real floating-point output")
    rng = np.random.default_rng(2)
    vs = [numtorch.tensor(rng.standard_normal(tuple(o.shape))) for o in outs]

    def vjp(*xs):
        outs = fn(*xs)
        total = sum((o * v).sum() for o, v in zip(outs, vs))
        return numtorch.autograd.grad(
            total, xs, create_graph=True, allow_unused=True, materialize_grads=True
        )

    try:
        _, got = numtorch.func.jvp(vjp, primals, tangents)
    except RuntimeError as error:
        if "randomness" not in str(error) and "does not require grad" not in str(error):
            raise
        pytest.skip(f"not differentiable twice here: {str(error)[:80]}")
    eps = 1e-6
    with numtorch.no_grad():
        plus = [(p + eps * t).requires_grad_() for p, t in zip(primals, tangents)]
        minus = [(p - eps * t).requires_grad_() for p, t in zip(primals, tangents)]
    for g, hi, lo in zip(got, vjp(*plus), vjp(*minus)):
        expected = (hi - lo).detach().numpy() / (2 * eps)
        np.testing.assert_allclose(
            g.detach().numpy(), expected, atol=10 * info.atol, rtol=10 * info.rtol
        )
