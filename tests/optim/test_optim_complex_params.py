"""Complex parameters, as torch's optimizers take them: the elementwise ones update real and
imaginary parts as separate elements (torch's view_as_real), SGD in complex arithmetic."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

OPTIMIZERS = [
    ("Adam", {"lr": 0.1}),
    ("AdamW", {"lr": 0.1, "amsgrad": True}),
    ("RMSprop", {"lr": 0.05, "momentum": 0.5, "centered": True}),
    ("Adagrad", {"lr": 0.1}),
    ("Adadelta", {"lr": 1.0}),
    ("Adamax", {"lr": 0.1}),
    ("NAdam", {"lr": 0.1}),
    ("RAdam", {"lr": 0.1}),
    ("ASGD", {"lr": 0.1}),
    ("Rprop", {"lr": 0.1}),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True}),
]


def _run(lib, name, options):
    weight = lib.nn.Parameter(lib.tensor([[1 + 2j, -0.5j], [0.3 - 1j, 2.0 + 0j]]))
    bias = lib.nn.Parameter(lib.tensor([0.5 + 0.5j, -1.0 + 0j]))
    x = lib.tensor([[1 - 1j, 2j], [0.5 + 0j, -1 + 1j], [1j, 1 + 0j]])
    opt = getattr(lib.optim, name)([weight, bias], **options)
    for _ in range(3):
        opt.zero_grad()
        loss = (x @ weight.T + bias - 1j).abs().pow(2).mean()
        loss.backward()
        opt.step()
    state = opt.state[weight]
    moments = {k: v.numpy() for k, v in state.items() if k != "step" and v.shape == weight.shape}
    return weight.detach().numpy(), bias.detach().numpy(), moments


@pytest.mark.parity
@pytest.mark.parametrize("name, options", OPTIMIZERS, ids=[n for n, _ in OPTIMIZERS])
def test_complex_parameters_update_as_torch(name, options):
    ours, theirs = _run(numtorch, name, options), _run(torch, name, options)
    for a, b in zip(ours[:2], theirs[:2]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    assert ours[2].keys() == theirs[2].keys()
    for key in theirs[2]:
        assert ours[2][key].dtype == theirs[2][key].dtype, key
        np.testing.assert_allclose(ours[2][key], theirs[2][key], rtol=1e-5, atol=1e-6)
