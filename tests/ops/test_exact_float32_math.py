"""float32 exp, log, tanh and their kin are taken in float64 and rounded
once (Note [float32 math through float64]), as torch's kernels round nearly every value."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

_WIDE = {
    "exp": np.exp,
    "exp2": np.exp2,
    "expm1": np.expm1,
    "log": np.log,
    "log2": np.log2,
    "log1p": np.log1p,
    "sinh": np.sinh,
    "cosh": np.cosh,
    "tanh": np.tanh,
    "atanh": np.arctanh,
}


def _inputs(name, shape=(40, 25)):
    x = np.random.default_rng(len(name)).uniform(-3, 3, shape).astype(np.float32)
    if name.startswith("log"):
        return np.abs(x) + np.float32(0.01)
    if name == "atanh":
        return x / np.float32(3.5)
    return x


@pytest.mark.parametrize("name", sorted(_WIDE))
def test_float32_functions_round_the_float64_value_once(name):
    x = _inputs(name)
    expected = _WIDE[name](x.astype(np.float64)).astype(np.float32)
    got = getattr(numtorch, name)(numtorch.from_numpy(x))
    np.testing.assert_array_equal(got.numpy(), expected)
    inplace = numtorch.from_numpy(x.copy())
    getattr(inplace, name + "_")()
    np.testing.assert_array_equal(inplace.numpy(), expected)


def test_large_tensors_keep_the_float32_loop():
    x = np.random.default_rng(0).standard_normal(70000).astype(np.float32)
    np.testing.assert_array_equal(numtorch.from_numpy(x).exp().numpy(), np.exp(x))


def test_a_printed_exp_of_one_reads_torch_s_digits():
    # float32's e: NumPy's float32 exp gives the next float up
    assert numtorch.tensor([1.0]).exp().item() == float(np.float32(np.e))
    assert (
        numtorch.tensor([0.5, 1.0]).tanh().tolist()
        == np.tanh([0.5, 1.0]).astype(np.float32).tolist()
    )


@pytest.mark.parametrize("name", ["exp", "log", "tanh", "cosh", "log2"])
def test_float32_functions_agree_with_torch_in_nearly_every_value(name):
    torch = pytest.importorskip("torch")
    x = _inputs(name)
    theirs = getattr(torch, name)(torch.from_numpy(x)).numpy()
    ours = getattr(numtorch, name)(numtorch.from_numpy(x)).numpy()
    assert np.mean(ours == theirs) > 0.9
