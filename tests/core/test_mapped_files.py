"""torch.from_file against torch: values, dtypes, shared writes, size checks, errors."""

from __future__ import annotations

import os

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")


def _story(lib, folder):
    os.chdir(folder)
    np.arange(10, dtype=np.float64).tofile("s.bin")
    out = []

    def step(fn):
        try:
            result = fn()
            out.append(("ok", repr(result)))
        except Exception as e:  # compared with torch's
            out.append((type(e).__name__, str(e)))

    step(lambda: lib.from_file("s.bin", shared=False, size=10, dtype=lib.float64))
    step(lambda: lib.from_file("s.bin", size=3, dtype=lib.float64))
    step(lambda: lib.from_file("s.bin", size=4, dtype=lib.float32))
    step(lambda: lib.from_file("s.bin", size=3, dtype=lib.int64))
    step(lambda: lib.from_file("s.bin", size=0))
    step(lambda: lib.from_file("s.bin"))
    step(lambda: lib.from_file("s.bin", size=11, dtype=lib.float64))  # past the file's end
    step(lambda: lib.from_file("s.bin", size=10**15, dtype=lib.float64))  # never allocated
    step(lambda: lib.from_file("s.bin", size=-1))
    step(lambda: lib.from_file("missing.bin", size=2))
    private = lib.from_file("s.bin", size=2, dtype=lib.float64, shared=False)
    private[0] = 100
    step(lambda: np.fromfile("s.bin")[:2].tolist())
    shared = lib.from_file("s.bin", size=2, dtype=lib.float64, shared=True)
    shared[0] = 100
    step(lambda: np.fromfile("s.bin")[:2].tolist())
    created = lib.from_file("new.bin", size=3, dtype=lib.float64, shared=True)
    created[:] = 7
    del created
    step(lambda: np.fromfile("new.bin").tolist())
    step(lambda: lib.from_file("s.bin", size=12, dtype=lib.float64, shared=True)[-2:])
    step(lambda: os.path.getsize("s.bin"))
    return out


def test_from_file_matches_torch(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ours").mkdir()
    (tmp_path / "theirs").mkdir()
    ours = _story(numtorch, tmp_path / "ours")
    theirs = _story(torch, tmp_path / "theirs")
    for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        assert a == b, f"step {i}: {a} != {b}"
