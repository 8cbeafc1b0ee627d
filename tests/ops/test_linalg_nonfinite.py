"""Decompositions of non-finite matrices: torch refuses NaN in an SVD with its LinAlgError
and returns NaN for inf; LAPACK itself is never called on inf (OpenBLAS's SVD can loop
forever there). torch's own factors for inf depend on its LAPACK build, so the values
checked here are NaN throughout."""

from __future__ import annotations

import math

import numpy as np
import pytest

import numtorch as torch


def _with(value):
    a = torch.eye(3, dtype=torch.float64) + 0.1
    a[1, 2] = value
    return a


def test_svd_of_inf_is_nan_without_lapack():
    a = _with(math.inf)
    U, S, Vh = torch.linalg.svd(a)
    assert U.shape == (3, 3) and Vh.shape == (3, 3)
    assert np.isnan(S.numpy()).all() and np.isnan(U.numpy()).all()
    assert torch.linalg.svd(a[:, :2], full_matrices=False).U.shape == (3, 2)
    assert np.isnan(torch.linalg.svdvals(a).numpy()).all()
    assert math.isnan(torch.linalg.matrix_norm(a, "nuc").item())


@pytest.mark.parametrize(
    "call",
    [torch.linalg.svd, torch.linalg.svdvals, torch.linalg.pinv, lambda a: torch.linalg.cond(a)],
)
def test_svd_of_nan_raises_linalg_error(call):
    with pytest.raises(torch.linalg.LinAlgError, match="non-finite"):
        call(_with(math.nan))
