"""Arguments of the wrong kind raise torch's exception type at the op boundary, before any
shape or dtype check, and never a Python or NumPy internal error (AttributeError, a NumPy
scalar "not iterable"). Calls torch accepts (a NumPy integer or a 0-d integer tensor as a
dim) run. With torch installed each outcome is also checked against it."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch


def _outcome(call, lib):
    try:
        out = call(lib)
    except Exception as error:  # the exception type is the outcome
        return type(error).__name__
    return tuple(out.shape) if isinstance(out, lib.Tensor) else "ok"


# name -> (outcome: an exception type's name or the result's shape, call)
CASES = {
    # a dim is an int: a bool, a float, a string or a 1-D tensor is refused by type, even
    # where its value would be in range (True as dim 1) or out of range (1.0 on a 1-D tensor)
    "transpose_bool_dim": ("TypeError", lambda t: t.ones(2, 3).transpose(True, 0)),
    "gather_bool_dim": ("TypeError", lambda t: t.ones(2, 1).gather(True, t.zeros(5, 5).long())),
    "flatten_float_dim": ("TypeError", lambda t: t.ones(4).flatten(1.0, -2)),
    "softmax_float_dim": ("TypeError", lambda t: t.ones(2, 3).softmax(1.0)),
    "cumsum_bool_dim": ("TypeError", lambda t: t.ones(2, 3).cumsum(True)),
    "max_bool_dim": ("TypeError", lambda t: t.ones(2, 3).max(True)),
    "median_bool_dim": ("TypeError", lambda t: t.ones(2, 3).median(True)),
    "select_bool_dim": ("TypeError", lambda t: t.ones(2, 3).select(True, 0)),
    "transpose_str_dim": ("TypeError", lambda t: t.ones(2, 3).transpose(1, "0")),
    "unsqueeze_1d_tensor_dim": ("TypeError", lambda t: t.ones(2, 3).unsqueeze(t.tensor([0]))),
    "transpose_numpy_bool_dim": ("TypeError", lambda t: t.ones(2, 3).transpose(np.bool_(1), 0)),
    "reduce_lone_bool_dim": ("TypeError", lambda t: t.ones(2, 3).sum(True)),
    "all_lone_bool_dim": ("TypeError", lambda t: t.ones(2, 3).all(True)),
    "count_nonzero_bool_dim": ("TypeError", lambda t: t.ones(2, 3).count_nonzero(True)),
    # ... and what converts to an index is one
    "transpose_numpy_dim": ((3, 2), lambda t: t.ones(2, 3).transpose(np.int64(0), 1)),
    "transpose_tensor_dim": ((3, 2), lambda t: t.ones(2, 3).transpose(t.tensor(0), 1)),
    "softmax_tensor_dim": ((2, 3), lambda t: t.ones(2, 3).softmax(t.tensor(1))),
    "sum_tensor_dim": ((3,), lambda t: t.ones(2, 3).sum(t.tensor(0))),
    "sum_tensor_in_dims": ((3,), lambda t: t.ones(2, 3).sum([t.tensor(0)])),
    "amin_tensor_dim": ((3,), lambda t: t.ones(2, 3).amin(t.tensor(0))),
    "sum_bool_in_dims": ((), lambda t: t.ones(2, 3).sum((0, True))),
    # movedim: an int each or a sequence each, as many sources as destinations, none twice
    "movedim_numpy_dim": ((2, 3, 4), lambda t: t.ones(2, 3, 4).movedim(np.int64(0), -3)),
    "movedim_tensor_dim": ((3, 2, 4), lambda t: t.ones(2, 3, 4).movedim(t.tensor(0), 1)),
    "movedim_mixed_kinds": ("TypeError", lambda t: t.ones(2, 3).movedim(0, [1])),
    "movedim_lengths": ("RuntimeError", lambda t: t.ones(2, 3, 4).movedim((0, 0), (0,))),
    "movedim_repeated_source": ("RuntimeError", lambda t: t.ones(2, 3, 4).movedim((0, -3), (1, 2))),
    "movedim_repeated_destination": (
        "RuntimeError",
        lambda t: t.ones(2, 3, 4).movedim((0, 1), (2, 2)),
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_outcome(name):
    expected, call = CASES[name]
    assert _outcome(call, numtorch) == expected


@pytest.mark.parametrize("name", sorted(CASES))
def test_outcome_matches_torch(name):
    torch = pytest.importorskip("torch")
    expected, call = CASES[name]
    assert _outcome(call, torch) == expected


def test_dim_type_error_names_the_type():
    with pytest.raises(TypeError, match="must be int, not bool"):
        numtorch.ones(2, 3).transpose(True, 0)
