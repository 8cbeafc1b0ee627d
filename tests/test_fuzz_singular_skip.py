"""The differential fuzzer skips LAPACK steps on numerically singular matrices (see
``fuzz.graphs.LAPACK``): what LAPACK returns there is the build's rounding noise."""

from __future__ import annotations

import numpy as np
import pytest
from fuzz.compare import first_difference
from fuzz.execute import Record, _full_rank

import numtorch


@pytest.mark.parametrize("dtype", [numtorch.float64, numtorch.float32])
def test_rank_deficient_matrices_are_told_apart_from_full_rank_ones(dtype):
    rng = np.random.default_rng(0)
    full = rng.standard_normal((2, 4, 3))
    repeated = full.copy()
    repeated[1, 2] = repeated[1, 0]  # one square matrix of the batch loses a rank
    assert _full_rank(numtorch.tensor(full, dtype=dtype))
    assert not _full_rank(numtorch.tensor(repeated[:, :3], dtype=dtype))
    assert not _full_rank(numtorch.full((3, 3), 2.5, dtype=dtype))  # an expanded scalar
    # not matrices: vectors, empty tensors and integers are never skipped for this
    assert _full_rank(numtorch.zeros(3, dtype=dtype))
    assert _full_rank(numtorch.zeros(0, 3, dtype=dtype))
    assert _full_rank(numtorch.zeros(3, 3, dtype=numtorch.int64))


def test_a_tensor_is_also_checked_as_the_square_matrix_tensorinv_sees():
    rng = np.random.default_rng(1)
    square = rng.standard_normal((4, 4))
    square[3] = square[0]  # singular as a 4 x 4 matrix, its 2 x 2 blocks are not
    tensor = numtorch.tensor(square.reshape(4, 2, 2))
    assert _full_rank(numtorch.tensor(square.reshape(4, 2, 2)[:2]))
    assert not _full_rank(tensor)


def test_a_wide_matrix_with_dependent_leading_columns_is_skipped():
    # rank 2, but LU's second pivot (and QR's second diagonal) is mathematically 0: rows
    # [a, a, b, b] and [c, c, d, d] have equal first two columns
    wide = numtorch.tensor([[0.4, 0.4, 0.02, 0.02], [-0.7, -0.7, 1.3, 1.3]])
    assert not _full_rank(wide)
    assert _full_rank(numtorch.tensor([[0.4, 0.3, 0.02, 0.02], [-0.7, -0.7, 1.3, 1.3]]))
    assert _full_rank(wide.t())  # tall: full column rank is all LU and QR need


def test_a_step_skipped_by_one_library_ends_the_comparison():
    # its input is singular in one library's rounding and not the other's: what the other
    # computed from it (and every later step) is that rounding's noise
    ours = [Record("cholesky_solve", skipped=True), Record("exp", error="RuntimeError")]
    theirs = [Record("cholesky_solve"), Record("exp")]
    assert first_difference(ours, theirs) is None
    ours[0].skipped = False
    assert first_difference(ours, theirs).kind == "error type"


def test_matrices_with_a_repeated_singular_value_or_eigenvalue_are_told_apart():
    from fuzz.execute import _spectrum_ties
    from fuzz.graphs import reads_spectral_vectors

    # singular values 6.08, 1, 1: V's last two columns are any basis of their plane
    tied = numtorch.tensor([[1.0, 2.0, 2.0], [2.0, 1.0, 2.0], [2.0, 2.0, 1.0], [2.0, 2.0, 2.0]])
    assert _spectrum_ties(tied) and _spectrum_ties(tied.double())
    rng = np.random.default_rng(2)
    assert not _spectrum_ties(numtorch.tensor(rng.standard_normal((2, 4, 3))))
    # a + a^T, the symmetric matrix the eigh entries decompose, has a double eigenvalue
    a = numtorch.tensor([[1.0, 0.5, 0.0], [-0.5, 1.0, 0.0], [0.0, 0.0, 3.0]])
    assert _spectrum_ties(a)
    assert all(map(reads_spectral_vectors, ["torch_svd", "linalg_eigh_vectors", "linalg.eig"]))
    assert reads_spectral_vectors("linalg_cond")  # second order: svdvals' vectors
    assert not any(map(reads_spectral_vectors, ["linalg_pinv", "linalg_cross", "where_condition"]))


_SVD_OF_A_TIED_MATRIX = {
    "dtype": "float64",
    "seed": 100492039,
    "steps": [
        {
            "kind": "op",
            "op": "dist",
            "sample": 2,
            "inputs": [
                {"dtype": "float64", "grad": True, "shape": "sample", "special": False},
                {"dtype": "float64", "grad": False, "shape": "sample", "special": False},
            ],
            "seed": 978863506,
        },
        {
            "kind": "op",
            "op": "acosh_",
            "sample": 0,
            "inputs": [
                {
                    "dtype": "float64",
                    "grad": True,
                    "shape": "sample",
                    "special": False,
                    "ref": 2,
                    "fit": "reshape",
                }
            ],
            "seed": 138376071,
        },
        {
            "kind": "op",
            "op": "diagonal_scatter",
            "sample": 0,
            "inputs": [
                {
                    "dtype": "float64",
                    "grad": True,
                    "shape": "sample",
                    "special": False,
                    "ref": 3,
                    "fit": "reshape",
                },
                {
                    "dtype": "float64",
                    "grad": True,
                    "shape": "sample",
                    "special": False,
                    "ref": 0,
                    "fit": "expand",
                },
            ],
            "seed": 678288832,
        },
        {
            "kind": "inplace",
            "method": "asinh_",
            "target": 0,
            "view": "transpose",
            "seed": 906274609,
        },
        {
            "kind": "op",
            "op": "var_mean",
            "sample": 1,
            "inputs": [
                {
                    "dtype": "float64",
                    "grad": True,
                    "shape": "sample",
                    "special": False,
                    "ref": 0,
                    "fit": "expand",
                }
            ],
            "seed": 2061514902,
        },
        {
            "kind": "inplace",
            "method": "floor_",
            "target": 1,
            "view": "unsqueeze",
            "seed": 451588557,
        },
        {
            "kind": "op",
            "op": "torch_svd",
            "sample": 0,
            "inputs": [
                {
                    "dtype": "float64",
                    "grad": True,
                    "shape": "sample",
                    "special": False,
                    "ref": 3,
                    "fit": "reshape",
                }
            ],
            "seed": 103358404,
        },
    ],
}


def test_an_svd_step_on_a_matrix_with_tied_singular_values_is_skipped():
    # its input reshapes floor's 1s and 2s into the tied matrix above: torch's V there is
    # MKL's choice of a basis (0.67 where NumPy's LAPACK has 0)
    torch = pytest.importorskip("torch")
    from fuzz.compare import differential
    from fuzz.execute import execute

    ours = execute(numtorch, _SVD_OF_A_TIED_MATRIX)
    (svd,) = [record for record in ours if record.label == "torch_svd"]
    assert svd.skipped
    assert differential(numtorch, torch, _SVD_OF_A_TIED_MATRIX) is None


# vander's rows of powers [1, x, x^2] make a column proportional to the first one over the
# rows the first reflection eliminates: the second column's part below the diagonal is 0
# after it, exactly in torch's arithmetic and 1.7e-17 in NumPy's, so geqrf's second tau was
# 0 in one and 2 in the other (and that row's signs flipped)
_VANDER_ROWS = [1.0, 0.0, 0.0, 1.0, -2.2667544330103593, 5.1381756595721155]
_VANDER_ROWS += [1.0, -0.7966322242854426, 0.6346229007699716]


def test_a_householder_column_that_vanishes_to_rounding_is_told_apart():
    from fuzz.execute import _reflector_vanishes

    rng = np.random.default_rng(2)
    assert _reflector_vanishes(numtorch.tensor(np.resize(_VANDER_ROWS, 30).reshape(2, 3, 5)))
    assert not _reflector_vanishes(numtorch.tensor(rng.standard_normal((3, 4, 3))))
    # an input's own zeros meet no arithmetic: the reflectors are the identity in both
    assert not _reflector_vanishes(numtorch.tensor(np.triu(rng.standard_normal((4, 3)))))


def test_a_geqrf_step_whose_reflector_vanishes_to_rounding_is_skipped():
    from fuzz.compare import differential
    from fuzz.execute import execute

    torch = pytest.importorskip("torch")
    vander = {"dtype": "float64", "grad": True, "shape": "sample", "special": True}
    program = {
        "dtype": "float64",
        "seed": 1,
        "steps": [
            {"kind": "op", "op": "vander", "sample": 0, "inputs": [vander], "seed": 60241028},
            {"kind": "op", "op": "geqrf", "sample": 1, "seed": 1165892577,
             "inputs": [{**vander, "special": False, "ref": 0, "fit": "reshape"}]},
        ],
    }  # fmt: skip
    skipped = execute(numtorch, program)[1].skipped
    assert skipped and execute(torch, program)[1].skipped
    assert differential(numtorch, torch, program) is None


def test_a_cholesky_factor_conditioned_past_the_dtype_is_told_apart():
    # the whole matrix is well conditioned (singular values 4e11, 4e11, 6e8), its lower
    # triangle is not (diagonal 1.4e7, -1540, -1.5e10 under entries of 4e11): cholesky_inverse
    # of it in float32 was 369 in torch and -1e-7 here
    from fuzz.execute import _factor_conditioned

    matrix = [
        [14418112.0, -426725277696.0, 130.44769287109375],
        [-15204415488.0, -1540.33447265625, 14418112.0],
        [-426725277696.0, 130.44769287109375, -15204415488.0],
    ]
    assert _full_rank(numtorch.tensor(matrix))
    assert not _factor_conditioned(numtorch.tensor(matrix))
    rng = np.random.default_rng(3)
    factor = np.tril(rng.standard_normal((2, 3, 3))) + 3 * np.eye(3)
    assert _factor_conditioned(numtorch.tensor(factor, dtype=numtorch.float32))
