"""torch.utils.dlpack and torch.from_dlpack against torch: shared memory both ways, with
NumPy arrays, tensors and legacy capsules."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch
import numtorch.utils.dlpack

torch = pytest.importorskip("torch")
pytest.importorskip("torch.utils.dlpack")


def _story(lib):
    out = []
    t = lib.arange(4)
    t2 = lib.from_dlpack(t)
    t2[:2] = -1
    out.append((t.tolist(), t2.tolist()))
    capsule = lib.utils.dlpack.to_dlpack(t)
    out.append(type(capsule).__name__)
    t3 = lib.from_dlpack(capsule)
    t3[0] = -9  # a legacy capsule carries no read-only flag: writes reach every sharer
    out.append((t.tolist(), t2.tolist(), t3.tolist(), str(t3.dtype)))
    strided = lib.arange(12.0).reshape(3, 4).t()[1:, ::2]
    t4 = lib.utils.dlpack.from_dlpack(lib.utils.dlpack.to_dlpack(strided))
    t4[0, 0] = 100.0
    out.append((strided.tolist(), t4.tolist(), str(t4.dtype)))
    a = np.zeros((2, 3), dtype=np.float32)
    t5 = lib.from_dlpack(a)
    a[1, 2] = 5.0
    out.append((t5.tolist(), str(t5.dtype)))
    out.append(int(lib.utils.dlpack.DLDeviceType.kDLCPU))
    return out


def test_dlpack_exchange_matches_torch():
    assert _story(numtorch) == _story(torch)


def test_device_codes_match_torch():
    ours = {k: int(v) for k, v in numtorch.utils.dlpack.DLDeviceType.__members__.items()}
    assert ours == {k: int(v) for k, v in torch.utils.dlpack.DLDeviceType.__members__.items()}
