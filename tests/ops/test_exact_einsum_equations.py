"""einsum's equation checks against torch: malformed equations raise torch's exception type
and message (never NumPy's ValueError), in torch's order of checks."""

from __future__ import annotations

import pytest

import numtorch

torch = pytest.importorskip("torch")

CASES = [
    ("ij->k", [(2, 3)]),
    ("ij->ii", [(2, 3)]),
    ("ij->J", [(2, 3)]),
    ("i1->i", [(2, 3)]),
    ("..i->i", [(2, 3)]),
    ("i...j...->ij", [(2, 3)]),
    ("ij->j->i", [(2, 3)]),
    ("ij-", [(2, 3)]),
    ("ij->...", [(2, 3)]),
    ("ij->i...", [(2, 3)]),
    ("i...->i....", [(2, 3)]),
    ("ij,jk", [(2, 3)]),
    ("ij", [(2, 3), (3, 4)]),
    ("ii->i", [(2, 3)]),
    ("ij->", []),
    ("i j -> j", [(2, 3)]),
    ("ij,jk->", [(2, 3), (3, 4)]),
]


def _run(lib, equation, shapes):
    try:
        result = lib.einsum(equation, *[lib.ones(s) for s in shapes])
    except Exception as e:  # the type is what is compared
        return type(e).__name__, str(e)
    return "ok", tuple(result.shape)


@pytest.mark.parametrize(("equation", "shapes"), CASES, ids=[c[0] for c in CASES])
def test_equation_checks_match_torch(equation, shapes):
    assert _run(numtorch, equation, shapes) == _run(torch, equation, shapes)


DTYPE_CASES = [
    ("ij->", [(2, 3)]),
    ("ij->i", [(2, 1)]),
    ("ii->", [(2, 2)]),
    ("ii->i", [(2, 2)]),
    ("ij,i->i", [(2, 3), (2,)]),
    ("ij,i->", [(2, 3), (2,)]),
    ("ij,i->ij", [(2, 3), (2,)]),
    ("i,ij->j", [(2,), (2, 3)]),
    ("ij,kl->ik", [(2, 3), (2, 3)]),
    ("ij,ij->i", [(2, 1), (2, 1)]),
    ("ij,ij->", [(2, 1), (2, 1)]),
    ("ij,jk->ik", [(0, 3), (3, 2)]),
    ("ij,ij,i->i", [(2, 3), (2, 3), (2,)]),
]


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int32", "int64"])
@pytest.mark.parametrize(("equation", "shapes"), DTYPE_CASES, ids=[c[0] for c in DTYPE_CASES])
def test_integer_and_bool_contractions_match_torch(equation, shapes, dtype):
    # torch sums an operand's own subscripts first (integers and bools to int64) and
    # contracts pairs with a batched matrix product, which has no bool kernel
    def run(lib):
        operands = [lib.ones(s, dtype=getattr(lib, dtype)) for s in shapes]
        try:
            result = lib.einsum(equation, *operands)
        except Exception as e:  # the type is what is compared
            return type(e).__name__, str(e)
        return str(result.dtype).split(".")[-1], result.tolist()

    assert run(numtorch) == run(torch)


MIXED_CASES = [
    # an empty operand whose empty subscript it sums alone is zeros once summed: the pair's
    # batched matrix product runs, and refuses two dtypes
    ("i...,...->i", [(3, 0, 2), (1, 2)]),
    ("i...,...->i", [(3, 0, 2), (2,)]),
    ("i...,...->i", [(0, 2, 2), (1, 2)]),
    # a skipped empty product leaves zeros that are not empty: the next product runs
    ("ij,jk,kl", [(2, 0), (0, 3), (3, 2)]),
    ("ij,jk,kl", [(2, 2), (2, 0), (0, 2)]),
    ("ij,jk,kl", [(0, 2), (2, 3), (3, 2)]),
    # ellipsis dims that do not broadcast: torch's message names the operand's dimension
    ("i...,...->i", [(3, 2, 2), (0,)]),
    ("i...,...->i", [(3, 0, 2), (3, 2, 2)]),
    ("...i,j...i->...", [(2, 3), (1, 4, 3)]),
]


@pytest.mark.parametrize(("equation", "shapes"), MIXED_CASES)
def test_mixed_dtype_contractions_of_empty_operands_match_torch(equation, shapes):
    def run(lib):
        dtypes = [lib.float64, lib.float32] * len(shapes)
        operands = [lib.ones(s, dtype=d) for s, d in zip(shapes, dtypes)]
        try:
            result = lib.einsum(equation, *operands)
        except Exception as e:  # the type is what is compared
            return type(e).__name__, str(e)
        return str(result.dtype), tuple(result.shape)

    assert run(numtorch) == run(torch)
