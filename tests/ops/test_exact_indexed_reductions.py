"""scatter_reduce and index_reduce at torch's corners: amax/amin gradients where the result
is NaN, the double backward torch refuses for a product with two zeros in one slot, and the
order of index_reduce's argument checks."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import numtorch

NAN = math.nan


def test_amax_gradient_is_nan_where_the_result_is_nan():
    # no value equals a NaN result: torch divides the gradient by zero shares
    x = numtorch.tensor([NAN, 1.0, 2.0], requires_grad=True)
    src = numtorch.tensor([5.0, 3.0], requires_grad=True)
    out = x.scatter_reduce(0, numtorch.tensor([0, 1]), src, "amax")
    gx, gs = numtorch.autograd.grad(out.sum(), [x, src])
    assert math.isnan(gx[0]) and math.isnan(gs[0])
    assert gx[1:].tolist() == [0.0, 1.0] and gs[1] == 1.0


def _reduce(lib, op, x, index, src, reduce, include_self, weights, dim):
    a = lib.tensor(x, requires_grad=True)
    b = lib.tensor(src, requires_grad=True)
    i = lib.tensor(index)
    method = a.scatter_reduce if op == "scatter" else a.index_reduce
    out = method(dim, i, b, reduce, include_self=include_self)
    ga, gb = lib.autograd.grad((out * lib.tensor(weights)).sum(), [a, b])
    return out.detach().numpy(), ga.numpy(), gb.numpy()


@pytest.mark.parametrize("op", ["scatter", "index"])
@pytest.mark.parametrize("reduce", ["amax", "amin", "prod", "mean"])
@pytest.mark.parametrize("include_self", [True, False])
def test_gradients_with_nan_inf_and_ties_match_torch(op, reduce, include_self):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(7)
    values = [0.0, 1.0, 2.0, -1.0, NAN, math.inf, 0.5]
    for _ in range(15):
        x = rng.choice(values, size=(3, 4))
        dim = int(rng.integers(2))
        if op == "scatter":
            src = rng.choice(values, size=(3, 4))
            index = rng.integers(0, 3 if dim == 0 else 4, size=(3, 4))
        else:
            n = int(rng.integers(1, 6))
            src = rng.choice(values, size=(n, 4) if dim == 0 else (3, n))
            index = rng.integers(0, 3 if dim == 0 else 4, size=(n,))
        weights = rng.normal(size=(3, 4))
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            ours = _reduce(numtorch, op, x, index, src, reduce, include_self, weights, dim)
            theirs = _reduce(torch, op, x, index, src, reduce, include_self, weights, dim)
        for a, b in zip(ours, theirs):
            np.testing.assert_allclose(a, b, rtol=1e-12)


@pytest.mark.parametrize(
    "op, message",
    [
        ("scatter_reduce", "scatter_reduce\\(\\): Double backward is unsupported for src when"),
        ("index_reduce", "index_reduce\\(\\): Double backward is unsupported for source when"),
    ],
)
def test_product_with_two_zeros_in_a_slot_refuses_double_backward(op, message):
    x = numtorch.ones(3, requires_grad=True)
    src = numtorch.tensor([0.0, 0.0, 2.0], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = getattr(x, op)(0, numtorch.tensor([0, 0, 1]), src, "prod")
    gx, gs = numtorch.autograd.grad(out.sum(), [x, src], create_graph=True)
    assert type(gs.grad_fn).__name__ == "Error"
    numtorch.autograd.grad(gx.sum(), [src])  # the input's gradient differentiates again
    with pytest.raises(RuntimeError, match=message):
        numtorch.autograd.grad(gs.sum(), [x], allow_unused=True)
    _, gs = numtorch.autograd.grad(out.sum(), [x, src])  # first order: a plain tensor
    assert gs.grad_fn is None


@pytest.mark.parametrize(
    "shape, dim, index, source, include_self, error",
    [
        # dim is wrapped before the dtypes are compared
        ((3,), 1, [0, 1], (2, "float64"), True, IndexError),
        # no negative indices, no index past the end
        ((2, 2), 1, [-1, 0, 1], ((2, 3), "float32"), True, IndexError),
        ((2, 2), 1, [2, 0, 1], ((2, 3), "float32"), True, IndexError),
        ((2, 0), 1, [2, 0, 2], ((2, 3), "float32"), True, IndexError),
        ((2, 0), 1, [2, 0, 2], ((2, 3), "float32"), False, RuntimeError),
    ],
)
def test_index_reduce_argument_errors(shape, dim, index, source, include_self, error):
    source_shape, dtype = source
    args = (numtorch.zeros(shape), dim, numtorch.tensor(index))
    src = numtorch.ones(source_shape, dtype=getattr(numtorch, dtype))
    with warnings.catch_warnings(), pytest.raises(error):
        warnings.simplefilter("ignore")
        args[0].index_reduce(dim, args[2], src, "prod", include_self=include_self)


@pytest.mark.parametrize("reduce", ["add", "multiply"])
@pytest.mark.parametrize("source", ["tensor", "number"])
def test_scatter_reduce_argument_as_torch(reduce, source):
    # repeated indices combine; the node refuses backward (torch has no derivative for it)
    oracle = pytest.importorskip("torch")
    seen = []
    for lib in (numtorch, oracle):
        index = lib.tensor([[0, 1, 1, 3], [0, 0, 2, 2]])
        src = lib.arange(1.0, 13.0).reshape(2, 6) if source == "tensor" else 1.5
        x = lib.full((2, 4), 2.0, requires_grad=True).clone()
        out = x.scatter(1, index, src, reduce=reduce)
        with pytest.raises(RuntimeError, match="derivative for aten::scatter is not implemented"):
            out.sum().backward()
        seen.append((out.tolist(), type(out.grad_fn).__name__))
    assert seen[0] == seen[1]


@pytest.mark.parametrize("dtype", ["bool", "int32", "complex64"])
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("op", ["scatter_reduce", "index_reduce"])
def test_indexed_reductions_refuse_the_dtypes_torchs_kernels_lack(op, reduce, include_self, dtype):
    # a bool mean, a complex maximum; index_reduce's identity fill for real numbers only
    torch = pytest.importorskip("torch")
    if op == "index_reduce" and (reduce == "sum" or include_self):
        pytest.skip("torch's kernel for these depends on the layout")
    outcomes = []
    for lib in (numtorch, torch):
        x = lib.ones(3, dtype=getattr(lib, dtype))
        src = lib.ones(2, dtype=getattr(lib, dtype))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                out = getattr(x, op)(0, lib.tensor([0, 2]), src, reduce, include_self=include_self)
                outcomes.append((str(out.dtype), out.to(lib.complex128).tolist()))
            except NotImplementedError as error:
                outcomes.append(str(error))
    assert outcomes[0] == outcomes[1]
