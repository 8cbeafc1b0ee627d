"""Steps the fuzzer skips in both libraries, where torch's result is the platform's: copysign
where its sign operand holds a NaN (a NaN's sign bit is the platform's: x86 and ARM default
NaNs differ, torch's vectorized log of a negative number is a positive NaN where NumPy's is
negative), and LAPACK steps on non-finite input (named by their ops, detach_copy not)."""

from __future__ import annotations

import copy

import pytest
from fuzz.compare import differential
from fuzz.execute import _no_columns, execute

import numtorch

torch = pytest.importorskip("torch")

# log10 of a negative number is a NaN whose sign NumPy and torch's kernel disagree on
NAN_SIGN = {
    "dtype": "float32",
    "seed": 1467401803,
    "steps": [
        {"kind": "op", "op": "log10", "sample": 2, "seed": 1444765179,
         "inputs": [{"dtype": "float32", "grad": True, "shape": "sample", "special": True}]},
        {"kind": "op", "op": "copysign", "sample": 1, "seed": 284571229,
         "inputs": [{"dtype": "float32", "grad": True, "shape": "sample", "special": False},
                    {"dtype": "float32", "grad": True, "shape": "sample", "special": False,
                     "ref": 0, "fit": "expand"}]},
    ],
}  # fmt: skip


def test_copysign_by_a_computed_nan_is_skipped_in_both_libraries():
    for lib in (numtorch, torch):
        records = execute(lib, NAN_SIGN)
        assert records[1].label == "copysign" and records[1].skipped
    assert differential(numtorch, torch, NAN_SIGN) is None


def test_copysign_by_numbers_is_still_compared():
    program = copy.deepcopy(dict(NAN_SIGN, steps=NAN_SIGN["steps"][1:]))
    program["steps"][0]["inputs"][1].pop("ref")
    assert not execute(numtorch, program)[0].skipped


def test_detach_copy_is_no_lapack_step():
    # LAPACK steps skip non-finite input; "det" in their list names determinants only
    from fuzz.graphs import uses_lapack

    assert uses_lapack("logdet") and uses_lapack("linalg_det")
    assert not uses_lapack("detach_copy")


def test_lapack_names_are_whole_words():
    # a substring match made relu ("lu"), sqrt and kthvalue LAPACK steps, so their steps on
    # non-finite input went uncompared
    from fuzz.graphs import uses_lapack

    assert uses_lapack("linalg.lu_factor") and uses_lapack("lu_unpack_L")
    assert uses_lapack("cholesky_inverse") and uses_lapack("triangular_solve_both")
    for name in ("relu", "rnn_relu_cell", "sqrt", "rsqrt", "kthvalue", "unique_inverse"):
        assert not uses_lapack(name), name
    assert not uses_lapack("matmul_matrix_batch") and not uses_lapack("elu_")


def test_pdist_of_an_input_without_rows_is_skipped():
    # torch's pdist backward crashes the process on a (0, n) input: the step is skipped in
    # both libraries (run here under numtorch only, since a regression would end the run)
    program = {
        "dtype": "float64",
        "seed": 2079161078,
        "steps": [
            {"kind": "op", "op": "pdist", "sample": 0, "seed": 592815893,
             "inputs": [{"dtype": "float64", "grad": True, "shape": "empty", "special": True}]},
        ],
    }  # fmt: skip
    assert execute(numtorch, program)[0].skipped
    program["steps"][0]["inputs"][0]["shape"] = "sample"
    assert not execute(numtorch, program)[0].skipped


def test_lstsq_by_gelsd_of_a_right_hand_side_without_columns_is_skipped():
    # torch hands MKL's gelsd (gelss) a right-hand side without columns that it refuses: an
    # INTERNAL ASSERT (a crash); the step is skipped in both libraries
    program = {
        "dtype": "float32",
        "seed": 887444778,
        "steps": [
            {"kind": "op", "op": "sqrt", "sample": 1, "seed": 1759386815,
             "inputs": [{"dtype": "float32", "grad": True, "shape": "sample", "special": False}]},
            {"kind": "inplace", "method": "tril_", "target": 1, "view": "expand",
             "seed": 435418560},
            {"kind": "op", "op": "linalg.lstsq", "sample": 1, "seed": 859089037,
             "inputs": [{"dtype": "float32", "grad": True, "shape": "scalar", "special": True,
                         "ref": 3, "fit": "expand"},
                        {"dtype": "float32", "grad": False, "shape": "empty", "special": True}]},
        ],
    }  # fmt: skip
    records = execute(numtorch, program)
    assert records[2].label == "linalg.lstsq" and records[2].skipped
    assert _no_columns(numtorch.empty(2, 4, 0)) and not _no_columns(numtorch.empty(2, 4, 3))
