"""torch.testing.assert_close: default tolerances by dtype and mappings, as torch's."""

from __future__ import annotations

import collections

import pytest

import numtorch

torch = pytest.importorskip("torch")


def _outcome(lib, make):
    try:
        lib.testing.assert_close(*make(lib))
    except AssertionError:
        return "raised"
    return "passed"


CASES = {
    "complex64_rounding": lambda lib: (lib.tensor([1 + 1j, 2j]), lib.tensor([1 + 1j, 2j]) + 1e-6),
    "complex64_far": lambda lib: (lib.tensor([1 + 1j, 2j]), lib.tensor([1 + 1j, 2j]) + 1e-3),
    "complex128_rounding": lambda lib: (
        lib.tensor([1 + 1j], dtype=lib.complex128),
        lib.tensor([1 + 1j], dtype=lib.complex128) + 1e-9,
    ),
    "dict_against_ordered_dict": lambda lib: (
        {"a": lib.ones(2), "b": 1.0},
        collections.OrderedDict(b=1.0, a=lib.ones(2)),
    ),
    "mapping_keys_differ": lambda lib: ({"a": lib.ones(2)}, {"b": lib.ones(2)}),
    "mapping_values_differ": lambda lib: ({"a": lib.ones(2)}, {"a": lib.zeros(2)}),
}

# unequal dtypes compared with check_dtype=False take the looser default tolerance
MIXED = (lambda lib: lib.tensor([1.0], dtype=lib.float64), lambda lib: lib.tensor([1.0 + 2e-6]))


@pytest.mark.parametrize("name", sorted(CASES))
def test_assert_close_matches_torch(name):
    assert _outcome(numtorch, CASES[name]) == _outcome(torch, CASES[name])


def test_mixed_dtypes_take_the_looser_tolerance():
    outcomes = []
    for lib in (numtorch, torch):
        try:
            lib.testing.assert_close(*(make(lib) for make in MIXED), check_dtype=False)
            outcomes.append("passed")
        except AssertionError:
            outcomes.append("raised")
    assert outcomes == ["passed", "passed"]


PAIRS = {
    "subclass_refused": lambda lib: (
        (lib.nn.Parameter(lib.ones(2)), lib.ones(2)),
        {"allow_subclasses": False},
    ),
    "array_against_tensor": lambda lib: ((lib.ones(2).numpy(), lib.ones(2)), {}),
    "tensor_against_number": lambda lib: ((lib.tensor(1.0), 1.0), {}),
    "float_against_int": lambda lib: ((1.0, 1), {}),
    "float_against_int_unchecked": lambda lib: ((1.0, 1), {"check_dtype": False}),
    "strings": lambda lib: (("a", "a"), {}),
}


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_which_values_compare_matches_torch(name):
    # torch refuses a pair it has no comparison for with TypeError, a dtype mismatch with
    # AssertionError
    outcomes = []
    for lib in (numtorch, torch):
        args, kwargs = PAIRS[name](lib)
        try:
            lib.testing.assert_close(*args, **kwargs)
            outcomes.append("passed")
        except (AssertionError, TypeError) as error:
            outcomes.append(type(error).__name__)
    assert outcomes[0] == outcomes[1]


def test_a_callable_msg_builds_the_message():
    with pytest.raises(AssertionError, match="^Header: Tensor-likes are not close"):
        numtorch.testing.assert_close(
            numtorch.ones(2), numtorch.zeros(2), msg=lambda text: "Header: " + text
        )


MESSAGES = {
    "float_tensors": lambda lib: ((lib.tensor([1.0, 2.0]), lib.tensor([1.0, 2.5])), {}),
    "int_grid": lambda lib: ((lib.arange(4).view(2, 2), lib.arange(4).view(2, 2).flip(0)), {}),
    "zero_dim_nan": lambda lib: ((lib.tensor(float("nan")), lib.tensor(float("nan"))), {}),
    "numbers": lambda lib: ((1, 2), {}),
    "dtype": lambda lib: ((lib.ones(2), lib.ones(2).double()), {}),
    "shape": lambda lib: ((lib.ones(2), lib.ones(3)), {}),
    "nested_item": lambda lib: (
        ([1.0, {"b": lib.ones(2), "a": lib.zeros(2)}], [1.0, {"a": lib.ones(2), "b": lib.ones(2)}]),
        {},
    ),
    "rtol_alone": lambda lib: ((lib.ones(2), lib.ones(2)), {"rtol": 1e-3}),
    "string_msg": lambda lib: ((lib.ones(2), lib.zeros(2)), {"msg": "mine"}),
}


@pytest.mark.parametrize("name", sorted(MESSAGES))
def test_failure_messages_match_torch(name):
    # printed by scripts that catch the failure: the counts, greatest differences and their
    # indices, the item path into nested inputs, and ValueError for one tolerance alone
    messages = []
    for lib in (numtorch, torch):
        args, kwargs = MESSAGES[name](lib)
        with pytest.raises((AssertionError, ValueError)) as info:
            lib.testing.assert_close(*args, **kwargs)
        messages.append((info.type, str(info.value).replace("numtorch", "torch")))
    assert messages[0] == messages[1]
