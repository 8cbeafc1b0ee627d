"""The fuzzer's rule for rounding that an op amplifies (``fuzz.compare``): a forward step
that differs only because earlier results differ by rounding, and that gives torch's
numbers from torch's very inputs, is not a difference; a step that differs on the same
inputs, or after a difference that is no rounding (the sign of a zero), still is."""

from __future__ import annotations

import numpy as np
import pytest
from fuzz import compare
from fuzz.compare import _rounding_apart, differential, first_difference
from fuzz.execute import execute

import numtorch

torch = pytest.importorskip("torch")

# instance norm of a constant gives rounding noise around 0 (-1.2e-15 in torch, 0 here),
# which sign turns into -1 against 0
SIGN_OF_NOISE = {
    "dtype": "float64",
    "seed": 652521611,
    "steps": [
        {"kind": "op", "op": "multilabel_margin_loss", "sample": 2, "seed": 864835241,
         "inputs": [{"dtype": "float64", "grad": True, "shape": "sample", "special": False}]},
        {"kind": "op", "op": "instance_norm_running_stats", "sample": 0, "seed": 459758490,
         "inputs": [{"dtype": "float64", "grad": True, "shape": "sample", "special": False,
                     "ref": 2, "fit": "expand"}]},
        {"kind": "op", "op": "sum", "sample": 2, "seed": 404356121,
         "inputs": [{"dtype": "float64", "grad": True, "shape": "sample", "special": False,
                     "ref": 0, "fit": "reshape"}]},
        {"kind": "op", "op": "sign", "sample": 1, "seed": 77051788,
         "inputs": [{"dtype": "float64", "grad": False, "shape": "sample", "special": False,
                     "ref": 1, "fit": "reshape"}]},
    ],
}  # fmt: skip


def test_a_step_that_amplifies_earlier_rounding_is_no_difference():
    found = first_difference(execute(numtorch, SIGN_OF_NOISE), execute(torch, SIGN_OF_NOISE))
    if found is None:
        pytest.skip("the earlier steps now agree bit for bit: nothing is amplified")
    assert (found.kind, found.label) == ("value", "sign")
    assert differential(numtorch, torch, SIGN_OF_NOISE) is None


def test_a_step_that_differs_on_the_same_inputs_is_still_a_difference(monkeypatch):
    sign = numtorch.sign
    monkeypatch.setattr(numtorch, "sign", lambda x: sign(x + 1))  # wrong, with its node
    found = differential(numtorch, torch, SIGN_OF_NOISE)
    assert found is not None and (found.kind, found.label) == ("value", "sign")


def test_only_rounding_counts_as_rounding():
    assert _rounding_apart(np.array([1.0, 0.0]), np.array([1.0 + 1e-15, 1e-17]))
    assert not _rounding_apart(np.array([-0.0]), np.array([0.0]))  # log gives -inf vs inf
    assert not _rounding_apart(np.array([np.nan]), np.array([1.0]))
    assert not _rounding_apart(np.array([1.0]), np.array([1.1]))
    assert not _rounding_apart(np.zeros(2), np.zeros(3))


def test_the_zero_signs_of_an_fft_are_its_librarys_rounding():
    # the imaginary parts of a constant row's transform cancel to 0 in both runs, with the
    # sign its library's butterflies leave; elsewhere a zero's sign is the op's
    assert _rounding_apart(np.array([6.45, 0.0, -0.0]), np.array([6.45, -0.0, 0.0]), "fft.rfft")
    assert not _rounding_apart(np.array([6.45, 0.0]), np.array([6.45, -0.0]), "renorm")


# rfft of renorm's constant rows: -0.0 in one imaginary part in torch, 0.0 here, which an
# in-place digamma through a view turns into inf against -inf. Run on torch's very values
# (their zero signs written in too) numtorch's digamma agrees
_DIGAMMA_OF_AN_FFT_ZERO = {
    "dtype": "float32",
    "seed": 1524090817,
    "steps": [
        {
            "kind": "op",
            "op": "expand_copy",
            "sample": 0,
            "inputs": [{"dtype": "float32", "grad": True, "shape": "sample", "special": False}],
            "seed": 593382683,
        },
        {"kind": "inplace", "method": "cosh_", "target": 1, "view": "diagonal", "seed": 232567126},
        {
            "kind": "op",
            "op": "renorm",
            "sample": 0,
            "inputs": [
                {
                    "dtype": "float32",
                    "grad": True,
                    "shape": "sample",
                    "special": False,
                    "ref": 1,
                    "fit": "reshape",
                }
            ],
            "seed": 922326463,
        },
        {
            "kind": "op",
            "op": "column_stack",
            "sample": 0,
            "inputs": [
                {
                    "dtype": "float32",
                    "grad": True,
                    "shape": "sample",
                    "special": False,
                    "ref": 0,
                    "fit": "reshape",
                },
                {"dtype": "float32", "grad": True, "shape": "sample", "special": False},
                {
                    "dtype": "float32",
                    "grad": False,
                    "shape": "sample",
                    "special": False,
                    "ref": 2,
                    "fit": "reshape",
                },
            ],
            "seed": 118741510,
        },
        {
            "kind": "inplace",
            "method": "fmod_",
            "target": 1,
            "view": "unsqueeze",
            "seed": 1552153068,
            "other": "last",
            "special": False,
        },
        {
            "kind": "op",
            "op": "fft.rfft",
            "sample": 0,
            "inputs": [
                {
                    "dtype": "float32",
                    "grad": True,
                    "shape": "sample",
                    "special": False,
                    "ref": 3,
                    "fit": "reshape",
                }
            ],
            "seed": 1633220613,
        },
        {
            "kind": "op",
            "op": "sparse.mm",
            "sample": 0,
            "inputs": [
                {
                    "dtype": "float32",
                    "grad": True,
                    "shape": "sample",
                    "special": False,
                    "ref": 3,
                    "fit": "expand",
                },
                {"dtype": "float32", "grad": True, "shape": "sample", "special": False},
            ],
            "seed": 1553453178,
        },
        {"kind": "inplace", "method": "digamma_", "target": 1, "view": "whole", "seed": 937038292},
    ],
}


def test_a_step_given_torchs_values_takes_their_zero_signs():
    program = _DIGAMMA_OF_AN_FFT_ZERO
    found = first_difference(execute(numtorch, program), execute(torch, program))
    assert found is not None and found.label == "digamma_", found
    assert differential(numtorch, torch, program) is None


# aminmax of a max_unpool3d output holding -0.0 among +0.0s: torch's vectorized min keeps
# -0.0, NumPy's +0.0 (which of two equal zeros a min keeps is its SIMD layout's); lgamma's
# gradient at the zero after it is -inf in one run and +inf in the other
ZERO_SIGN_OF_A_MIN = {
    "dtype": "float64",
    "seed": 812157169,
    "steps": [
        {"kind": "op", "op": "unflatten", "sample": 0, "seed": 762858789,
         "inputs": [{"dtype": "float64", "grad": True, "shape": "sample", "special": False}]},
        {"kind": "op", "op": "square", "sample": 0, "seed": 633965647,
         "inputs": [{"dtype": "float64", "grad": True, "shape": "sample", "special": False,
                     "ref": 2, "fit": "reshape"}]},
        {"kind": "op", "op": "max_unpool3d", "sample": 0, "seed": 879492141,
         "inputs": [{"dtype": "float64", "grad": True, "shape": "sample", "special": True}]},
        {"kind": "op", "op": "aminmax", "sample": 1, "seed": 44833908,
         "inputs": [{"dtype": "float64", "grad": True, "shape": "sample", "special": True,
                     "ref": 3, "fit": "reshape"}]},
        {"kind": "op", "op": "meshgrid", "sample": 0, "seed": 34170270,
         "inputs": [{"dtype": "float64", "grad": True, "shape": "sample", "special": False,
                     "ref": 0, "fit": "expand"},
                    {"dtype": "float64", "grad": False, "shape": "sample", "special": True,
                     "ref": 3, "fit": "expand"}]},
        {"kind": "inplace", "method": "lgamma_", "target": 1, "view": "transpose",
         "seed": 124900876},
    ],
}  # fmt: skip


def test_what_follows_from_a_reductions_choice_of_zero_sign_is_no_difference():
    ours, theirs = execute(numtorch, ZERO_SIGN_OF_A_MIN), execute(torch, ZERO_SIGN_OF_A_MIN)
    found = first_difference(ours, theirs)
    if found is None:
        pytest.skip("both runs keep the same zero now: nothing follows from it")
    assert (found.kind, found.label) == ("gradient", "backward")
    assert differential(numtorch, torch, ZERO_SIGN_OF_A_MIN) is None


def test_a_zero_sign_elsewhere_still_makes_a_difference(monkeypatch):
    # the same sign difference from an op that is no such reduction is still one
    monkeypatch.setattr(compare, "ZERO_SIGN_CHOICE", frozenset())
    assert differential(numtorch, torch, ZERO_SIGN_OF_A_MIN) is not None


# cholesky_inverse of a diagonal factor with negative pivots: torch's potri leaves -0.0 off
# the diagonal where NumPy's inverse through LU leaves +0.0; unfold and t_ carry those zeros
# on, and rsqrt_ makes them -inf and inf
LAPACK_ZERO_SIGNS = {
    "dtype": "float32",
    "seed": 1645074462,
    "steps": [
        {"kind": "op", "op": "linalg_ldl_factor_ex", "sample": 1, "seed": 128699280,
         "inputs": [{"dtype": "float32", "grad": True, "shape": "sample", "special": False}]},
        {"kind": "op", "op": "cholesky_inverse", "sample": 1, "seed": 1209006018,
         "inputs": [{"dtype": "float32", "grad": True, "shape": "empty", "special": False,
                     "ref": 3, "fit": "reshape"}]},
        {"kind": "op", "op": "unfold_copy", "sample": 0, "seed": 1941961182,
         "inputs": [{"dtype": "float32", "grad": True, "shape": "sample", "special": False,
                     "ref": 2, "fit": "expand"}]},
        {"kind": "inplace", "method": "t_", "target": 3, "view": "flatten",
         "seed": 1780637991},
        {"kind": "inplace", "method": "rsqrt_", "target": 0, "view": "transpose",
         "seed": 1445594181},
    ],
}  # fmt: skip


def test_what_follows_from_a_lapack_routines_zero_signs_is_no_difference():
    ours, theirs = execute(numtorch, LAPACK_ZERO_SIGNS), execute(torch, LAPACK_ZERO_SIGNS)
    found = first_difference(ours, theirs)
    if found is None:
        pytest.skip("both runs give the zeros one sign now: nothing follows from them")
    assert (found.kind, found.label) == ("value", "rsqrt_")
    assert differential(numtorch, torch, LAPACK_ZERO_SIGNS) is None
