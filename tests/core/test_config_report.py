"""torch.__config__: show() and parallel_info() give numtorch's own build facts in the shape
of torch's reports."""

from __future__ import annotations

import re

import numpy as np
import pytest

import numtorch


def test_show_lists_the_build_as_torch_does():
    text = numtorch.__config__.show()
    lines = text.splitlines()
    assert lines[0] == "numtorch built with:" and text.endswith("\n")
    assert all(line.startswith("  - ") for line in lines[1:])
    assert f"  - NumPy {np.__version__}" in lines
    (settings,) = [line for line in lines if line.startswith("  - Build settings: ")]
    pairs = dict(re.findall(r"(\w+)=([^,]*), ", settings))
    assert pairs["TORCH_VERSION"] == numtorch.__version__
    assert pairs["USE_CUDA"] == "0" and pairs["USE_MKL"] == "OFF"


def test_show_has_the_shape_of_torchs():
    torch = pytest.importorskip("torch")
    ours, theirs = numtorch.__config__.show(), torch.__config__.show()
    assert type(ours) is type(theirs) is str
    assert ours.splitlines()[0].replace("numtorch", "PyTorch") == theirs.splitlines()[0]
    assert theirs.splitlines()[-1].startswith("  - Build settings: ")
    assert ours.splitlines()[-1].startswith("  - Build settings: ")


def test_parallel_info_reports_threads_and_environment(monkeypatch):
    pytest.importorskip("threadpoolctl")  # set_num_threads only warns without it
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    monkeypatch.delenv("MKL_NUM_THREADS", raising=False)
    before = numtorch.get_num_threads()
    numtorch.set_num_threads(1)
    try:
        text = numtorch.__config__.parallel_info()
    finally:
        numtorch.set_num_threads(before)
    assert "\tget_num_threads() : 1\n" in text
    assert "\tOMP_NUM_THREADS : 3\n" in text
    assert "\tMKL_NUM_THREADS : [not set]\n" in text
