"""The differential fuzzer skips FFT steps on non-finite input (see ``fuzz.graphs.SPECTRAL``):
where infinities meet in the butterflies, torch's answer is its FFT library's order of
operations, not the transform's."""

from __future__ import annotations

import pytest
from fuzz.execute import execute
from fuzz.graphs import uses_fft

import numtorch

torch = pytest.importorskip("torch")


def _program(op, special):
    # one step of `op` on a fresh leaf; with `special`, this seed puts -inf into the leaf
    leaf = {"dtype": "float32", "grad": True, "shape": "sample", "special": special}
    step = {"kind": "op", "op": op, "sample": 0, "inputs": [leaf], "seed": 1044729811}
    return {"dtype": "float32", "seed": 846235503, "steps": [step]}


@pytest.mark.parametrize("lib", [numtorch, torch], ids=["numtorch", "torch"])
def test_an_fft_of_an_infinite_input_is_skipped_in_both_libraries(lib):
    first = execute(lib, _program("fft.rfft", special=True))[0]
    assert first.skipped and not first.tensors


@pytest.mark.parametrize("lib", [numtorch, torch], ids=["numtorch", "torch"])
def test_an_fft_of_a_finite_input_runs(lib):
    first = execute(lib, _program("fft.rfft", special=False))[0]
    assert not first.skipped and first.tensors


def test_the_shifts_and_the_short_time_transforms_are_told_apart():
    assert uses_fft("fft.hfftn") and uses_fft("stft") and uses_fft("istft")
    assert not uses_fft("fft.fftshift") and not uses_fft("fft.ifftshift")
    assert not uses_fft("conv1d")


@pytest.mark.parametrize("lib", [numtorch, torch], ids=["numtorch", "torch"])
def test_an_fft_of_an_empty_input_is_skipped_in_both_libraries(lib):
    # torch's MKL build refuses an empty batch of transforms, a pocketfft build does not
    program = _program("fft.ihfftn", special=False)
    program["steps"][0]["inputs"][0]["shape"] = "empty"
    program["steps"][0]["sample"] = 1
    first = execute(lib, program)[0]
    assert first.skipped and not first.tensors
