"""float32 var, std, var_mean and std_mean accumulate in double and round once, as torch's
kernels do (std's root taken before rounding)."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch


@pytest.mark.parametrize("dim", [None, 0, 1, (0, 1)])
def test_float32_moments_round_the_double_result_once(dim):
    x = (np.random.default_rng(0).standard_normal((30, 11)) * 3 + 1).astype(np.float32)
    wide = x.astype(np.float64)
    t = numtorch.from_numpy(x)
    np.testing.assert_array_equal(t.var(dim).numpy(), wide.var(axis=dim, ddof=1).astype(np.float32))
    np.testing.assert_array_equal(
        t.std(dim).numpy(), np.sqrt(wide.var(axis=dim, ddof=1)).astype(np.float32)
    )
    var, mean = numtorch.var_mean(t, dim)
    np.testing.assert_array_equal(var.numpy(), wide.var(axis=dim, ddof=1).astype(np.float32))
    np.testing.assert_array_equal(mean.numpy(), wide.mean(axis=dim).astype(np.float32))


def test_float32_moments_agree_with_torch_bit_for_bit():
    torch = pytest.importorskip("torch")
    x = (np.random.default_rng(1).standard_normal((40, 9)) * 2).astype(np.float32)
    for name in ("var", "std"):
        theirs = getattr(torch.from_numpy(x), name)(1).numpy()
        np.testing.assert_array_equal(getattr(numtorch.from_numpy(x), name)(1).numpy(), theirs)
    theirs = torch.std_mean(torch.from_numpy(x), 0)
    ours = numtorch.std_mean(numtorch.from_numpy(x), 0)
    for a, b in zip(ours, theirs):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
