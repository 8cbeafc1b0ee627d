"""The scaled products ``beta * input + alpha * product`` with a zero scalar. BLAS never
reads what a zero scales: with ``beta == 0`` the input is left out, and with ``alpha == 0``
addmm, addmv and addbmm leave the product out (its NaNs and infinities do not reach the
result, and ``beta * input`` keeps a -0.0), while baddbmm and addr form it and scale it."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

NAN, INF = float("nan"), float("inf")
CALLS = {
    "addmm": lambda lib, i, a, b, **k: lib.addmm(i, a, b, **k),
    "addmv": lambda lib, i, a, b, **k: lib.addmv(i[0], a, b[0], **k),
    "addbmm": lambda lib, i, a, b, **k: lib.addbmm(i, a[None], b[None], **k),
    "baddbmm": lambda lib, i, a, b, **k: lib.baddbmm(i[None], a[None], b[None], **k),
    "addr": lambda lib, i, a, b, **k: lib.addr(i, a[0], b[0], **k),
    "addmm_": lambda lib, i, a, b, **k: i.clone().addmm_(a, b, **k),
}


def _run(lib, call, beta, alpha):
    f64 = lib.float64
    i = lib.tensor([[-0.0, 1.0], [NAN, -0.0]], dtype=f64)
    a = lib.tensor([[NAN, 1.0], [2.0, -0.0]], dtype=f64)
    b = lib.tensor([[1.0, INF], [0.0, 2.0]], dtype=f64)
    return call(lib, i, a, b, beta=beta, alpha=alpha).numpy()


@pytest.mark.parametrize("beta", [0, 0.5, 1])
@pytest.mark.parametrize("alpha", [0, 1, -2.0])
@pytest.mark.parametrize("name", CALLS)
def test_a_zero_scalar_leaves_out_what_it_scales(name, beta, alpha):
    ours, theirs = _run(numtorch, CALLS[name], beta, alpha), _run(torch, CALLS[name], beta, alpha)
    np.testing.assert_array_equal(ours, theirs)
    np.testing.assert_array_equal(np.signbit(ours), np.signbit(theirs))
