"""Core bugs found while building optim/data/serialization, kept as strict xfails until fixed."""

import pytest

import numtorch as torch


@pytest.mark.xfail(strict=True, raises=TypeError, reason="_tensor_str has no complex formatter")
def test_complex_tensor_repr():
    assert repr(torch.tensor([1 + 2j, 3 - 1j])) == "tensor([1.+2.j, 3.-1.j])"
