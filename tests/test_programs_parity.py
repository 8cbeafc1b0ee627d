"""Torch programs run twice, under torch and under numtorch, with the results compared.

Each file in ``tests/programs/`` holds short programs separated by ``# ---`` lines, written
against ``torch`` (with ``nn``, ``F`` and ``np`` in scope). A program reports through two
functions: ``out(*values)`` records values (tensors as shape, dtype, values, requires_grad,
is_leaf and grad_fn name) and ``err(fn)`` records the exception type ``fn()`` raises (or
its result). What a program prints is compared too, so reprs must match character for
character. Skipped when torch is not installed.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import pathlib
import re
import warnings

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

PROGRAMS = pathlib.Path(__file__).parent / "programs"


def _programs():
    for path in sorted(PROGRAMS.glob("*.py")):
        for text in re.split(r"^# ---$", path.read_text(), flags=re.MULTILINE):
            title = text.strip().splitlines()[0].lstrip("# ")
            yield pytest.param(text, id=f"{path.stem}: {title}")


def _summary(lib, value):
    """A library-neutral description of a program's value."""
    if isinstance(value, lib.Tensor):
        node = value.grad_fn
        return {
            "shape": tuple(value.shape),
            "dtype": str(value.dtype),
            "values": value.detach().numpy(),
            "requires_grad": value.requires_grad,
            "is_leaf": value.is_leaf,
            "grad_fn": None if node is None else type(node).__name__,
        }
    if isinstance(value, (tuple, list)):
        return [_summary(lib, v) for v in value]
    if isinstance(value, dict):
        return {k: _summary(lib, v) for k, v in value.items()}
    if isinstance(value, (lib.dtype, lib.device)):
        return str(value)
    return value


def _run(lib, text):
    record = []

    def out(*values):
        record.append([_summary(lib, v) for v in values])

    def err(fn):
        try:
            record.append(("returned", _summary(lib, fn())))
        except Exception as e:  # the type is what gets compared
            record.append(("raised", type(e).__name__))

    scope = {
        "__name__": "__main__",  # programs are scripts: their main guard runs
        "torch": lib,
        "nn": importlib.import_module(f"{lib.__name__}.nn"),
        "F": importlib.import_module(f"{lib.__name__}.nn.functional"),
        "np": np,
        "out": out,
        "err": err,
    }
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lib.manual_seed(0)
        try:
            exec(text, scope)
        finally:  # a program may leave global modes changed: undo that for the next one
            lib.set_grad_enabled(True)
            lib.autograd.set_detect_anomaly(False)
            lib.set_default_dtype(lib.float32)
            lib.set_float32_matmul_precision("highest")  # also the tf32 flags' setting
    return record, printed.getvalue()


def _assert_same(ours, theirs, where="result"):
    if isinstance(theirs, np.ndarray):
        assert isinstance(ours, np.ndarray), where
        assert ours.shape == theirs.shape, where
        if theirs.dtype.kind in "fc":
            np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6, err_msg=where)
        else:
            np.testing.assert_array_equal(ours, theirs, err_msg=where)
    elif isinstance(theirs, (list, tuple)) and not isinstance(theirs, str):
        assert isinstance(ours, (list, tuple)) and len(ours) == len(theirs), f"{where}: {ours}"
        for i, (a, b) in enumerate(zip(ours, theirs)):
            _assert_same(a, b, f"{where}[{i}]")
    elif isinstance(theirs, dict):
        assert isinstance(ours, dict) and ours.keys() == theirs.keys(), f"{where}: {ours}"
        for k in theirs:
            _assert_same(ours[k], theirs[k], f"{where}.{k}")
    elif isinstance(theirs, float):
        assert ours == pytest.approx(theirs, rel=1e-5, nan_ok=True), where
    else:
        assert ours == theirs, where


@pytest.mark.parity
@pytest.mark.parametrize("text", list(_programs()))
def test_program_matches_torch(text):
    theirs, their_print = _run(torch, text)
    ours, our_print = _run(numtorch, text)
    _assert_same(ours, theirs)
    our_print = our_print.replace("numtorch", "torch")
    if not _same_print(our_print, their_print):
        assert our_print == their_print


_NUMBER = re.compile(r"-?\d+\.\d+(?:e[-+]?\d+)?")


def _same_print(ours: str, theirs: str) -> bool:
    """The printed text is torch's, with each printed decimal number allowed float32's
    rounding: one unit of its last printed digit, or a relative 1e-5 (a loss printed with
    six decimals lands on either side of a digit depending on the BLAS build)."""
    if ours == theirs:
        return True
    if _NUMBER.split(ours) != _NUMBER.split(theirs):
        return False
    for mine, torchs in zip(_NUMBER.findall(ours), _NUMBER.findall(theirs)):
        if mine == torchs:
            continue
        mantissa, _, exponent = torchs.partition("e")
        unit = 10.0 ** (int(exponent or 0) - len(mantissa.split(".")[1]))
        if abs(float(mine) - float(torchs)) > max(1.01 * unit, 1e-5 * abs(float(torchs))):
            return False
    return True


@pytest.mark.parametrize(
    ("ours", "theirs", "same"),
    [
        ("Loss: 1.598628 after 19\n", "Loss: 1.598629 after 19\n", True),
        ("Loss: 1.598429 after 19\n", "Loss: 1.598629 after 19\n", False),
        ("lr 1.0000e-03\n", "lr 1.0001e-03\n", True),
        ("lr 1.0003e-03\n", "lr 1.0001e-03\n", False),
        ("loss 0.25 step 3\n", "loss 0.25 step 4\n", False),
        ("tensor(0.2500)\n", "tensor(0.2501)\n", True),
        ("tensor(0.2500)\n", "Tensor(0.2500)\n", False),
    ],
)
def test_printed_numbers_may_differ_by_float32_rounding_only(ours, theirs, same):
    assert _same_print(ours, theirs) is same


def test_programs_reach_the_library_only_through_the_name_in_scope():
    # an import statement would bind real torch's module under both libraries
    for path in sorted(PROGRAMS.glob("*.py")):
        text = path.read_text()
        assert not re.search(r"^\s*(import|from)\s+torch\b", text, re.MULTILINE), path.name
