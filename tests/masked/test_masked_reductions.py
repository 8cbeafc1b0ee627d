"""``torch.masked``'s reductions and normalizations of ordinary tensors under ``mask=``,
against torch: values (fully masked-out slices included), dtypes, ``grad_fn`` names,
gradients, mask broadcasting and errors."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

DATA = [[-3.0, -2.0, -1.0, 0.5], [0.0, 1.0, 2.0, 4.0], [5.0, -6.0, 7.0, 8.0]]
# the middle row is masked out entirely
MASK = [[True, False, True, True], [False, False, False, False], [True, True, False, True]]

REDUCTIONS = ["sum", "prod", "amax", "amin", "mean", "logsumexp", "var", "std", "norm"]
NORMALIZATIONS = ["softmax", "log_softmax", "softmin", "cumsum", "cumprod"]


def _both(fn):
    return fn(numtorch), fn(torch)


def _same(ours, theirs, grad_fn=True):
    assert str(ours.dtype) == str(theirs.dtype)
    assert tuple(ours.shape) == tuple(theirs.shape)
    np.testing.assert_allclose(
        ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-6, atol=1e-6, equal_nan=True
    )
    if grad_fn:
        ours_node, theirs_node = ours.grad_fn, theirs.grad_fn
        assert (ours_node is None) == (theirs_node is None)
        if theirs_node is not None:
            assert type(ours_node).__name__ == type(theirs_node).__name__


def _call(name, t, x, mask, **kwargs):
    fn = getattr(t.masked, name)
    if name == "norm":
        return fn(x, 2.0, kwargs.pop("dim", None), mask=mask, **kwargs)
    return fn(x, mask=mask, **kwargs)


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("dim", [None, 0, 1, (0, 1), -1])
@pytest.mark.parametrize("keepdim", [False, True])
def test_reduction_matches_torch(name, dim, keepdim):
    results = []
    for t in (numtorch, torch):
        x = t.tensor(DATA, requires_grad=True)
        out = _call(name, t, x, t.tensor(MASK), dim=dim, keepdim=keepdim)
        finite = out.detach().isfinite()
        out.masked_fill(~finite, 0).sum().backward()
        results.append((out, x.grad))
    (ours, ours_grad), (theirs, theirs_grad) = results
    _same(ours, theirs)
    np.testing.assert_allclose(ours_grad.numpy(), theirs_grad.numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", NORMALIZATIONS)
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_normalization_matches_torch(name, dim):
    results = []
    for t in (numtorch, torch):
        x = t.tensor(DATA, requires_grad=True)
        out = getattr(t.masked, name)(x, dim, mask=t.tensor(MASK))
        out.masked_fill(~out.detach().isfinite(), 0).sum().backward()
        results.append((out, x.grad))
    (ours, ours_grad), (theirs, theirs_grad) = results
    _same(ours, theirs)
    np.testing.assert_allclose(ours_grad.numpy(), theirs_grad.numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", ["argmax", "argmin", "median"])
@pytest.mark.parametrize("dim", [0, 1])
def test_index_reductions_and_median_match_torch(name, dim):
    ours, theirs = _both(
        lambda t: getattr(t.masked, name)(t.tensor(DATA), dim, mask=t.tensor(MASK))
    )
    _same(ours, theirs)


def test_normalize_matches_torch():
    for ord in (1.0, 2.0, float("inf")):
        ours, theirs = _both(
            lambda t: t.masked.normalize(
                t.tensor(DATA, requires_grad=True), ord, 1, mask=t.tensor(MASK)
            )
        )
        _same(ours, theirs)


def test_logaddexp_matches_torch():
    ours, theirs = _both(
        lambda t: t.masked.logaddexp(
            t.tensor(DATA[0], requires_grad=True),
            t.tensor(DATA[2]),
            input_mask=t.tensor(MASK[0]),
            other_mask=t.tensor(MASK[2]),
        )
    )
    _same(ours, theirs)
    ours, theirs = _both(lambda t: t.masked._ops.logaddexp(t.tensor([1.0]), t.tensor([2.0])))
    _same(ours, theirs)


@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8", "bool", "float64"])
@pytest.mark.parametrize("name", ["sum", "prod", "amax", "amin", "argmax", "cumsum"])
def test_dtypes_follow_torch(name, dtype):
    def run(t):
        x = t.tensor([[3, 1, 2], [0, 4, 1]]).to(getattr(t, dtype))
        mask = t.tensor([[True, False, True], [False, False, False]])
        if name == "cumsum":
            return t.masked.cumsum(x, 1, mask=mask)
        return getattr(t.masked, name)(x, 1, mask=mask)

    ours, theirs = _outcome(run, numtorch), _outcome(run, torch)
    if isinstance(theirs, type):
        assert ours is theirs
    else:
        _same(ours, theirs)


def _outcome(fn, lib):
    try:
        return fn(lib)
    except Exception as e:  # the type is compared
        return type(e)


def test_explicit_dtype_and_no_mask_match_torch():
    for kwargs in ({}, {"dtype": "float64"}):
        ours, theirs = (
            t.masked.sum(
                t.tensor(DATA),
                1,
                **({"dtype": getattr(t, kwargs["dtype"])} if kwargs else {}),
            )
            for t in (numtorch, torch)
        )
        _same(ours, theirs)
    for name in ("mean", "var", "std", "amax"):
        ours, theirs = _both(lambda t: getattr(t.masked, name)(t.tensor(DATA), 0))
        _same(ours, theirs)


def test_mask_broadcasts_and_converts_as_torch():
    row = [True, False, True, True]
    ours, theirs = _both(lambda t: t.masked.sum(t.tensor(DATA), 1, mask=t.tensor(row)))
    _same(ours, theirs)
    ours, theirs = _both(lambda t: t.masked.mean(t.tensor(DATA), 0, mask=t.tensor([1, 0, 1, 1])))
    _same(ours, theirs)


def test_var_correction_and_unbiased_match_torch():
    for kwargs in ({"unbiased": False}, {"correction": 0}, {"correction": 2}):
        ours, theirs = _both(
            lambda t: t.masked.var(t.tensor(DATA), 1, mask=t.tensor(MASK), **kwargs)
        )
        _same(ours, theirs)


ERRORS = [
    lambda t: t.masked.mean(t.tensor([[1, 2]]), 1, mask=t.tensor([[True, False]])),
    lambda t: t.masked.sum(t.ones(2, 3), mask=t.ones(1, 2, 3, dtype=t.bool)),
    lambda t: t.masked.sum(t.ones(2, 3), (0, 0), mask=t.ones(2, 3, dtype=t.bool)),
    lambda t: t.masked.sum(t.ones(2, 3), 5, mask=t.ones(2, 3, dtype=t.bool)),
    lambda t: t.masked.median(t.tensor([[1, 2]]), 1, mask=t.tensor([[False, False]])),
    lambda t: t.masked.var(t.ones(3), unbiased=True, correction=1, mask=t.ones(3) > 0),
    lambda t: t.masked._ops._input_mask(t.ones(2)),
]


@pytest.mark.parametrize("index", range(len(ERRORS)))
def test_errors_are_torchs(index):
    fn = ERRORS[index]
    theirs = _outcome(fn, torch)
    assert isinstance(theirs, type) and issubclass(theirs, Exception)
    assert _outcome(fn, numtorch) is theirs


def test_median_of_integers_with_a_full_row_matches_torch():
    ours, theirs = _both(
        lambda t: t.masked.median(t.tensor([[1, 5, 3]]), 1, mask=t.tensor([True, False, True]))
    )
    _same(ours, theirs)


def test_importing_torch_masked_keeps_ops_on_the_fast_path():
    # MaskedTensor installs __torch_function__ dispatch with its first instance, not on import
    src = pathlib.Path(numtorch.__file__).parents[1]
    code = (
        "import warnings, numtorch\n"
        "from numtorch._core.dispatch import dispatch\n"
        "x = numtorch.ones(3)\n"
        "numtorch.masked.sum(x, mask=x > 0)\n"
        "print(dispatch.torch_function is None)\n"
        "warnings.simplefilter('ignore')\n"
        "numtorch.masked.masked_tensor(x, x > 0)\n"
        "print(dispatch.torch_function is None)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(src), "PATH": ""},
    )
    assert result.stdout.split() == ["True", "False"]
