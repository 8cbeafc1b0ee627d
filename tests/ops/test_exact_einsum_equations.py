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
