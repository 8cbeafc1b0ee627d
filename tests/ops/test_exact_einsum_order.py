"""einsum evaluated in torch's order: diagonals and subscripts only one operand has are
summed first, then the operands are multiplied left to right. With infinities the order
decides between inf and NaN, in values and in gradients."""

from __future__ import annotations

import math

import numpy as np
import pytest

import numtorch

INF = math.inf


def test_a_subscript_of_one_operand_is_summed_before_the_product():
    # out[i, j] = a[i, i] * sum_k b[j, k, k]: inf * (2 - 1) is inf, where summing the
    # products inf * 2 + inf * -1 gives NaN
    a = numtorch.tensor([[INF, 0.0], [0.0, 1.0]])
    b = numtorch.tensor([[[2.0, 0.0], [0.0, -1.0]]])
    assert numtorch.einsum("ii,jkk->ij", a, b).tolist() == [[INF], [1.0]]


def test_a_broadcast_subscript_is_summed_in_the_operand_that_has_it_wide():
    # "...": b's size-1 dim broadcasts; a sums it alone first, as torch does
    a = numtorch.tensor([[[INF, 1.0], [-1.0, 1.0]]])
    b = numtorch.tensor([[2.0, 3.0]])
    assert numtorch.einsum("i...,...->i", a, b).tolist() == [INF]


def test_the_gradient_of_a_diagonal_is_zero_off_it():
    a = numtorch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    b = numtorch.tensor([INF, 1.0])
    numtorch.einsum("ii,i->i", a, b).sum().backward()
    assert a.grad.tolist() == [[INF, 0.0], [0.0, 1.0]]


EQUATIONS = [
    ("ii,jkk->ij", [(3, 3), (2, 4, 4)]),
    ("ij,jj,iji->i", [(3, 3), (3, 3), (3, 3, 3)]),
    ("i...,...->i", [(3, 2, 2), (1, 2)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
    ("bij,bjk->bik", [(2, 3, 4), (1, 4, 2)]),
    ("iij->j", [(2, 2, 3)]),
    ("ij,ij->ij", [(3, 1), (3, 4)]),
    ("xy,yz,x->z", [(2, 3), (3, 2), (1,)]),
    ("abc,cd,ad->b", [(2, 3, 4), (4, 2), (2, 2)]),
]


def _run(lib, equation, arrays, weights):
    tensors = [lib.tensor(a, requires_grad=True) for a in arrays]
    out = lib.einsum(equation, *tensors)
    grads = lib.autograd.grad((out * lib.tensor(weights)).sum(), tensors)
    return [out.detach().numpy(), *(g.numpy() for g in grads)]


@pytest.mark.parametrize("equation, shapes", EQUATIONS)
def test_values_and_gradients_with_infinities_match_torch(equation, shapes):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(len(equation))
    for _ in range(20):
        arrays = []
        for shape in shapes:
            a = rng.normal(size=shape)
            u = rng.random(shape)
            a[u < 0.15] = INF
            a[(u > 0.15) & (u < 0.25)] = -INF
            a[(u > 0.25) & (u < 0.3)] = 0.0
            arrays.append(a)
        out_shape = tuple(torch.einsum(equation, *map(torch.tensor, arrays)).shape)
        weights = rng.normal(size=out_shape)
        with np.errstate(all="ignore"):
            ours = _run(numtorch, equation, arrays, weights)
        theirs = _run(torch, equation, arrays, weights)
        for x, y in zip(ours, theirs):
            np.testing.assert_allclose(x, y, rtol=1e-10)


SUBLISTS = {
    "implicit": lambda a, b, c: (a, [0, 1], b, [1, 2]),
    "explicit": lambda a, b, c: (a, [0, 1], b, [1, 2], [2, 0]),
    "ellipsis": lambda a, b, c: (c, [..., 0, 1], c, [..., 1, 0], [..., 0]),
    "one_operand": lambda a, b, c: (a, [1, 0]),
    "out_of_range": lambda a, b, c: (a, [0, 52]),
}


@pytest.mark.parametrize("name", sorted(SUBLISTS))
def test_sublist_form_matches_torch(name):
    # einsum(op, [dims], op, [dims], ..., [output]): dims 0-51 name the subscripts
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s) for s in ((2, 3), (3, 4), (2, 3, 3))]
    outcomes = []
    for lib in (numtorch, torch):
        args = SUBLISTS[name](*[lib.tensor(x, requires_grad=True) for x in arrays])
        try:
            result = lib.einsum(*args)
        except ValueError as error:
            outcomes.append(str(error))
            continue
        node = type(result.grad_fn).__name__
        outcomes.append((result.detach().numpy().round(10).tolist(), node))
    assert outcomes[0] == outcomes[1]


def test_an_expanded_operand_is_multiplied_into_each_product():
    # b is one -inf broadcast (stride 0): each row sums a[i, j] * -inf, NaN where the signs
    # of a's row differ, not (sum_j a[i, j]) * -inf
    a = numtorch.tensor([[0.75, -1.0, -0.5], [-0.25, -0.5, -0.75]])
    b = numtorch.tensor(-INF).expand(3, 2)
    got = numtorch.einsum("ij,jk->ik", a, b).tolist()
    assert all(math.isnan(v) for v in got[0]) and got[1] == [INF, INF]
    batched = numtorch.einsum("...ij,...jk->...ik", a.expand(2, 2, 3), b.expand(2, 3, 2))
    assert batched[:, 0].isnan().all() and (batched[:, 1] == INF).all()


@pytest.mark.parametrize(
    "equation", ["i,j->ij", "ij,ij->ij", "ij,jk->ijk", "ii,jkk->ij", "i,i,i->i", "ij,j->ji"]
)
def test_a_product_with_nothing_to_sum_is_a_multiplication(equation):
    # torch multiplies (MulBackward0): 0 * -4 stays -0, where a sum of products from 0 is +0
    torch = pytest.importorskip("torch")
    specs = equation.split("->")[0].split(",")
    sizes = {"i": 2, "j": 3, "k": 2}
    results = []
    for lib in (numtorch, torch):
        operands = [
            lib.tensor(np.where(np.arange(math.prod(sizes[c] for c in s)) % 2, -4.0, 0.0))
            .reshape([sizes[c] for c in s])
            .requires_grad_()
            for s in specs
        ]
        y = lib.einsum(equation, *operands)
        results.append((type(y.grad_fn).__name__, y.detach().numpy()))
    assert results[0][0] == results[1][0]
    np.testing.assert_array_equal(results[0][1], results[1][1])
    assert (np.signbit(results[0][1]) == np.signbit(results[1][1])).all()


INTEGRAL_EQUATIONS = [
    ("ij->j", [(2, 3)]),
    ("ii->", [(3, 3)]),
    ("ii->i", [(3, 3)]),
    ("ii,jkk->ij", [(3, 3), (2, 4, 4)]),
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ij,jk->", [(2, 3), (3, 4)]),
    ("ij,k->ik", [(2, 3), (4,)]),
    ("ij,j->ij", [(2, 3), (3,)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
]


@pytest.mark.parametrize("equation, shapes", INTEGRAL_EQUATIONS)
@pytest.mark.parametrize(
    "dtypes", [("bool", "bool"), ("uint8", "uint8"), ("int32", "int16"), ("bool", "int32")]
)
def test_integral_operands_sum_alone_as_int64_and_bools_do_not_contract(equation, shapes, dtypes):
    # torch sums an operand's own subscripts with sum (bools and integers give int64) and
    # contracts a pair with bmm, which has no bool kernel
    torch = pytest.importorskip("torch")
    outcomes = []
    for lib in (numtorch, torch):
        operands = [
            lib.ones(shape, dtype=getattr(lib, dtypes[k % 2])) for k, shape in enumerate(shapes)
        ]
        try:
            out = lib.einsum(equation, *operands)
            outcomes.append((str(out.dtype), out.long().tolist()))
        except (RuntimeError, NotImplementedError) as error:
            outcomes.append((type(error).__name__, str(error)))
    assert outcomes[0] == outcomes[1]
