"""Ops whose argument checks run in torch's order: where two arguments are wrong, the error
(type and message) is the one torch's first check raises (fuzz seeds 14142135, 61803398)."""

import pytest

import numtorch

torch = pytest.importorskip("torch")


def _index_fill(lib, index, value):
    return lib.zeros(3).index_fill(0, lib.tensor(index), value(lib))


def _ldl_solve(lib, ld_shape, pivots, b_shape, b_dtype):
    ld = lib.ones(ld_shape, dtype=lib.float64)
    return lib.linalg.ldl_solve(ld, lib.tensor(pivots), lib.ones(b_shape, dtype=b_dtype(lib)))


def _ormqr(lib, a, tau, other, left=True):
    ones = lambda shape: lib.ones(shape, dtype=lib.float64)
    return lib.ormqr(ones(a), ones(tau), ones(other), left=left)


CASES = {
    # the value's rank before the index's bounds and dtype
    "index_fill value rank, index out of range": lambda lib: _index_fill(
        lib, [5], lambda m: m.ones(2)
    ),
    "index_fill value rank, float index": lambda lib: _index_fill(lib, [1.0], lambda m: m.ones(2)),
    # LD's shape (named A), the dtypes, B's rank, the pivots
    "ldl_solve LD rank": lambda lib: _ldl_solve(lib, (3,), [1, 2, 3], (3, 1), lambda m: m.float64),
    "ldl_solve LD not square": lambda lib: _ldl_solve(
        lib, (3, 2), [1, 2, 3], (3,), lambda m: m.float32
    ),
    "ldl_solve dtype, 0-d B": lambda lib: _ldl_solve(
        lib, (3, 3), [1, 2, 3], (), lambda m: m.float32
    ),
    "ldl_solve dtype, pivots": lambda lib: _ldl_solve(
        lib, (3, 3), [1, 2], (3, 1), lambda m: m.float32
    ),
    "ldl_solve B rank, pivots": lambda lib: _ldl_solve(
        lib, (3, 3), [1, 2], (3,), lambda m: m.float64
    ),
    # ranks, other's size, tau's size (an IndexError for a 0-d tau), tau's rank and batch
    "ormqr other size, 0-d tau": lambda lib: _ormqr(lib, (0, 3), (), (4, 2)),
    "ormqr 0-d tau": lambda lib: _ormqr(lib, (4, 0), (), (4, 2)),
    "ormqr other size, ranks": lambda lib: _ormqr(lib, (2, 0, 3), (3,), (4, 2)),
    "ormqr tau size, rank": lambda lib: _ormqr(lib, (4, 3), (5, 2), (4, 2)),
    "ormqr right side": lambda lib: _ormqr(lib, (4, 3), (2,), (5, 3), left=False),
    # the float-only binary ops: the shapes broadcast before the kernel refuses integers
    **{
        f"{name} shapes before integer dtype": (
            lambda lib, name=name: getattr(lib, name)(
                lib.ones(3, dtype=lib.int64), lib.ones(2, dtype=lib.int64)
            )
        )
        for name in ("logaddexp", "logaddexp2", "hypot", "igamma", "igammac")
    },
}


def _error(lib, case):
    try:
        case(lib)
    except Exception as error:  # the type is what is compared
        return type(error).__name__, str(error)
    return None


@pytest.mark.parametrize("name", sorted(CASES))
def test_first_failing_check_is_torchs(name):
    ours, theirs = _error(numtorch, CASES[name]), _error(torch, CASES[name])
    assert theirs is not None
    assert ours == theirs
