"""NumPy scalars where torch takes a Python number: torch's argument parser reads an integer
one as ``int``, ``complex128`` as ``complex`` and every other (float of any width, ``bool_``,
``complex64``) as ``float``, so they promote as Python numbers do, not as 0-d arrays.
(``complex128`` is read as a Python complex, whose corners are tested with complex numbers.)"""

import warnings

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

SCALARS = {
    "float64": np.float64(2.5),
    "float32": np.float32(2.5),
    "float16": np.float16(2.5),
    "int64": np.int64(3),
    "int8": np.int8(3),
    "uint8": np.uint8(3),
    "bool_": np.bool_(True),
    "complex64": np.complex64(1 + 1j),
}

CASES = {
    "t * s": lambda lib, t, s: t * s,
    "s * t": lambda lib, t, s: s * t,
    "s - t": lambda lib, t, s: s - t,
    "t / s": lambda lib, t, s: t / s,
    "t // s": lambda lib, t, s: t // s,
    "s ** t": lambda lib, t, s: s**t,
    "t.pow(s)": lambda lib, t, s: t.pow(s),
    "t < s": lambda lib, t, s: t < s,
    "t & s": lambda lib, t, s: t & s,
    "t.add(s)": lambda lib, t, s: t.add(s),
    "clamp(min=s)": lambda lib, t, s: t.clamp(min=s),
    "where(c, t, s)": lambda lib, t, s: lib.where(t > 1, t, s),
    "masked_fill": lambda lib, t, s: t.masked_fill(t > 1, s),
    "full": lambda lib, t, s: lib.full((2,), s),
    "div floor": lambda lib, t, s: t.div(s, rounding_mode="floor"),
}

TENSORS = {
    "int64": lambda lib: lib.tensor([1, 2, 3]),
    "uint8": lambda lib: lib.tensor([1, 2, 3], dtype=lib.uint8),
    "float16": lambda lib: lib.tensor([1.0, 2.0, 3.0], dtype=lib.float16),
    "float32": lambda lib: lib.tensor([1.0, 2.0, 3.0]),
}


def _outcome(lib, case, tensor, scalar):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            r = CASES[case](lib, TENSORS[tensor](lib), SCALARS[scalar])
        except Exception as e:  # the type is what gets compared
            return ("raised", type(e).__name__)
    return (str(r.dtype).split(".")[-1], r.tolist())


@pytest.mark.parametrize("tensor", list(TENSORS))
@pytest.mark.parametrize("scalar", list(SCALARS))
@pytest.mark.parametrize("case", list(CASES))
def test_numpy_scalar_operand_matches_torch(case, scalar, tensor):
    ours = _outcome(numtorch, case, tensor, scalar)
    theirs = _outcome(torch, case, tensor, scalar)
    assert ours == theirs


PARAMETERS = {
    "leaky_relu slope": lambda lib, s: lib.nn.functional.leaky_relu(lib.tensor([-1.0, 2.0]), s),
    "elu alpha": lambda lib, s: lib.nn.functional.elu(lib.tensor([-1.0, 2.0]), alpha=s),
    "hardtanh bounds": lambda lib, s: lib.nn.functional.hardtanh(lib.tensor([-3.0, 3.0]), -s, s),
    "topk k": lambda lib, s: lib.arange(5.0).topk(int(s) if isinstance(s, np.bool_) else s).values,
    "repeat": lambda lib, s: lib.ones(2, dtype=lib.float16).repeat(np.int64(2)) * s,
}


@pytest.mark.parametrize("scalar", ["float64", "float32", "int64", "uint8"])
@pytest.mark.parametrize("case", list(PARAMETERS))
def test_numpy_scalar_parameter_matches_torch(case, scalar):
    results = []
    for lib in (numtorch, torch):
        try:
            r = PARAMETERS[case](lib, SCALARS[scalar])
            results.append((str(r.dtype).split(".")[-1], r.tolist()))
        except Exception as e:  # the type is what gets compared
            results.append(("raised", type(e).__name__))
    assert results[0] == results[1]
