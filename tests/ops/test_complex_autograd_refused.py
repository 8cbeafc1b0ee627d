"""The ops torch does not differentiate for complex results refuse at the forward with
torch's error and type (Note [Complex autograd])."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

Z = np.array([[0.3 + 0.4j, -0.6 - 0.2j], [0.5 + 0.1j, -0.2j]])

CASES = {
    "silu": lambda t, z: t.nn.functional.silu(z),
    "nan_to_num": lambda t, z: t.nan_to_num(z),
    "slice_scatter": lambda t, z: t.slice_scatter(z, z[:1], 0, 0, 1),
    "scatter_reduce": lambda t, z: z.scatter_reduce(0, t.tensor([[1, 0]]), z[:1], "sum"),
    "to_sparse": lambda t, z: z.to_sparse(),
    "to_sparse_csr": lambda t, z: z.to_sparse_csr(),
    "geqrf": lambda t, z: t.geqrf(z),
}


def _error(lib, name):
    with pytest.raises(Exception) as info:
        CASES[name](lib, lib.tensor(Z, requires_grad=True))
    return type(info.value), str(info.value)


@pytest.mark.parity
@pytest.mark.parametrize("name", CASES)
def test_complex_autograd_refusals_match_torch(name):
    ours, theirs = _error(numtorch, name), _error(torch, name)
    assert (ours[0].__name__, ours[1]) == (theirs[0].__name__, theirs[1])
