"""Dynamic quantization of nn.LSTM against torch (x86/FBGEMM): outputs and states within
float32 rounding (the gates' sigmoid and tanh round in the last place as torch's vector
kernels may not), printing, errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.filterwarnings("ignore:torch.quantize_per_tensor:UserWarning")


def _quantized_pair(**kwargs):
    mods = [lib.nn.Sequential(lib.nn.LSTM(8, 16, **kwargs)) for lib in (numtorch, torch)]
    rng = np.random.default_rng(0)
    with numtorch.no_grad(), torch.no_grad():
        for a, b in zip(mods[0].parameters(), mods[1].parameters()):
            values = (rng.standard_normal(tuple(b.shape)) * 0.3).astype(np.float32)
            a.copy_(numtorch.tensor(values))
            b.copy_(torch.tensor(values))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [
            lib.ao.quantization.quantize_dynamic(m, {lib.nn.LSTM, lib.nn.Linear}, lib.qint8)
            for lib, m in zip((numtorch, torch), mods)
        ]


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"num_layers": 2}, {"batch_first": True}, {"bidirectional": True, "num_layers": 2}],
)
@pytest.mark.parametrize("with_state", [False, True])
def test_outputs_and_states_match_torch(kwargs, with_state):
    ours, theirs = _quantized_pair(**kwargs)
    assert repr(ours) == repr(theirs)
    rng = np.random.default_rng(1)
    x = rng.standard_normal((5, 3, 8)).astype(np.float32)
    layers = kwargs.get("num_layers", 1) * (2 if kwargs.get("bidirectional") else 1)
    batch = 5 if kwargs.get("batch_first") else 3
    h0 = rng.standard_normal((layers, batch, 16)).astype(np.float32)
    c0 = rng.standard_normal((layers, batch, 16)).astype(np.float32)
    results = []
    for lib, model in ((numtorch, ours), (torch, theirs)):
        args = (lib.tensor(x),)
        if with_state:
            args += ((lib.tensor(h0), lib.tensor(c0)),)
        out, (h, c) = model[0](*args)
        results.append([t.detach().numpy() for t in (out, h, c)])
    for a, b in zip(*results):
        assert a.shape == b.shape and a.dtype == b.dtype
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-6)


def test_errors_and_what_is_left():
    mods = [lib.nn.Sequential(lib.nn.LSTM(4, 3, bias=False)) for lib in (numtorch, torch)]
    for lib, model in zip((numtorch, torch), mods):
        with pytest.raises(AssertionError, match="mod.bias must be True"):
            lib.ao.quantization.quantize_dynamic(model, {lib.nn.LSTM})
    ours, _ = _quantized_pair()
    with pytest.raises(NotImplementedError, match="state_dict of a dynamic quantized LSTM"):
        ours.state_dict()
    assert numtorch.nn.quantized.dynamic.LSTM is numtorch.ao.nn.quantized.dynamic.LSTM
