"""Ops torch's CPU kernels compute with fused multiply-adds, bit for bit in float32:
add/sub with alpha (an explicit fmadd), addcmul and lerp (contracted by the compiler)."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

R = np.random.default_rng(0)
S, A, B = (R.standard_normal((40, 25)).astype(np.float32) for _ in range(3))
W = R.random((40, 25)).astype(np.float32)

CASES = {
    "add": lambda L: L.from_numpy(S).add(L.from_numpy(A), alpha=0.37),
    "sub": lambda L: L.from_numpy(S).sub(L.from_numpy(A), alpha=-2.5),
    "add-broadcast": lambda L: L.add(L.from_numpy(S), L.from_numpy(A[0]), alpha=3),
    "sub-transposed": lambda L: L.from_numpy(S).T.sub(L.from_numpy(A).T, alpha=0.1),
    "add_": lambda L: L.from_numpy(S.copy()).add_(L.from_numpy(A), alpha=0.1),
    "sub_-broadcast": lambda L: L.from_numpy(S.copy()).sub_(L.from_numpy(A[0]), alpha=1.7),
    "add-recorded": lambda L: L.from_numpy(S).requires_grad_().add(L.from_numpy(A), alpha=0.3),
    "addcmul": lambda L: L.from_numpy(S).addcmul(L.from_numpy(A), L.from_numpy(B), value=0.37),
    "addcmul_": lambda L: L.from_numpy(S.copy()).addcmul_(L.from_numpy(A), L.from_numpy(B[0])),
    "lerp-small": lambda L: L.from_numpy(S).lerp(L.from_numpy(A), 0.1),
    "lerp-large": lambda L: L.from_numpy(S).lerp(L.from_numpy(A), 0.7),
    "lerp-tensor-weight": lambda L: L.lerp(L.from_numpy(S), L.from_numpy(A), L.from_numpy(W)),
    "lerp_": lambda L: L.from_numpy(S.copy()).lerp_(L.from_numpy(A), -0.3),
}


@pytest.mark.parity
@pytest.mark.parametrize("name", sorted(CASES))
def test_float32_results_are_torchs_bit_for_bit(name):
    ours, theirs = CASES[name](numtorch), CASES[name](torch)
    assert ours.dtype == numtorch.float32
    np.testing.assert_array_equal(ours.detach().numpy(), theirs.detach().numpy())
