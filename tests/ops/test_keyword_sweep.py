"""Keyword names, out= and the function and method forms, swept against torch over the calls
of every op sample (keyword_sweep.py records and replays them): each check compares what
numtorch answers with what torch does, and keyword_sweep_known.py lists the differences
left, by cause (the lists may only shrink)."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

import keyword_sweep as sweep  # noqa: E402
from keyword_sweep_known import KNOWN  # noqa: E402


@pytest.fixture(scope="module")
def calls():
    return sweep.recorded_calls()


def _check(found: dict, kind: str) -> None:
    known = KNOWN[kind]
    new = {label: why for label, why in found.items() if label not in known}
    assert not new, "\n".join(f"{label}: {why}" for label, why in sorted(new.items()))
    agreeing = sorted(set(known) - set(found))
    assert not agreeing, f"these agree with torch now: remove them from KNOWN[{kind!r}]: {agreeing}"


def test_calls_recorded(calls):
    # the sweep reaches the table: functions, methods and the other namespaces
    namespaces = {call.namespace for call in calls}
    assert {"torch", "Tensor", "torch.nn.functional", "torch.linalg"} <= namespaces
    assert len(calls) > 400


def test_keyword_names(calls):
    """Each call with its positional arguments given by name, as torch takes them."""
    _check(sweep.keyword_differences(calls), "keywords")


def test_out(calls):
    """out= of the right shape, empty, of a wrong shape and dtype, and with grad."""
    _check(sweep.out_differences(calls), "out")


def test_function_and_method_names():
    """numtorch has each of torch.f, Tensor.f and Tensor.f_ that torch has, for every name
    torch has both as a function and as a method."""
    _check(sweep.form_differences(), "forms")


def test_function_and_method_forms(calls):
    """The function, the method and the in-place method agree with torch's on each call."""
    _check(sweep.other_form_differences(calls), "other_forms")
