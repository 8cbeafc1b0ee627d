"""torch.optim.Muon against torch: several steps of parameters and momentum buffers for each
option (Nesterov, learning-rate adjustments, weight decay, tall and wide matrices, custom
Newton-Schulz coefficients), and its errors."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

OPTIONS = [
    {},
    {"nesterov": False},
    {"adjust_lr_fn": "match_rms_adamw"},
    {"adjust_lr_fn": "original", "weight_decay": 0.0},
    {"momentum": 0.0, "lr": 0.1},
    {"ns_coefficients": (2.0, -1.5, 0.5), "ns_steps": 3, "eps": 1e-5},
]


def _train(lib, options, lr_tensor=False, steps=4):
    rng = np.random.default_rng(0)
    w1 = lib.tensor(rng.standard_normal((6, 4)).astype(np.float32), requires_grad=True)
    w2 = lib.tensor(rng.standard_normal((3, 6)).astype(np.float32), requires_grad=True)
    x = lib.tensor(rng.standard_normal((5, 4)).astype(np.float32))
    options = dict(options)
    lr = options.pop("lr", 0.02)
    opt = lib.optim.Muon([w1, w2], lr=lib.tensor(lr) if lr_tensor else lr, **options)
    for _ in range(steps):
        opt.zero_grad()
        loss = ((x @ w1.T).relu() @ w2.T).pow(2).mean()
        loss.backward()
        opt.step()
    buffers = [opt.state[w]["momentum_buffer"] for w in (w1, w2)]
    return [t.detach().numpy() for t in (w1, w2, *buffers)], str(buffers[0].dtype)


@pytest.mark.parity
@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_muon_steps_match_torch(options):
    (ours, our_dtype), (theirs, their_dtype) = _train(numtorch, options), _train(torch, options)
    assert our_dtype == their_dtype
    for a, b in zip(ours, theirs):
        # the orthogonalization runs in bfloat16 in both: rounding may differ by an ulp
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)


@pytest.mark.parity
def test_muon_takes_a_tensor_learning_rate():
    ours, theirs = _train(numtorch, {}, lr_tensor=True)[0], _train(torch, {}, lr_tensor=True)[0]
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)


def test_newton_schulz_pushes_singular_values_towards_one():
    from numtorch.optim.muon import _zeropower_via_newtonschulz

    g = numtorch.randn(8, 5, dtype=numtorch.float64)
    ortho = _zeropower_via_newtonschulz(g, (3.4445, -4.7750, 2.0315), 5, 1e-7)
    assert ortho.dtype == numtorch.bfloat16 and ortho.shape == (8, 5)
    singular = numtorch.linalg.svdvals(ortho.double())
    assert bool((singular > 0.5).all()) and bool((singular < 1.5).all())


@pytest.mark.parity
@pytest.mark.parametrize(
    "kwargs",
    [
        {"lr": -1.0},
        {"momentum": -0.1},
        {"weight_decay": -0.1},
        {"adjust_lr_fn": "other"},
    ],
    ids=str,
)
def test_muon_rejects_bad_hyperparameters_as_torch(kwargs):
    messages = []
    for lib in (numtorch, torch):
        with pytest.raises(ValueError) as info:
            lib.optim.Muon([lib.zeros(2, 2, requires_grad=True)], **kwargs)
        messages.append(str(info.value))
    assert messages[0] == messages[1]


@pytest.mark.parity
def test_muon_refuses_what_torch_refuses():
    messages = []
    for lib in (numtorch, torch):
        got = []
        with pytest.raises(ValueError) as info:
            lib.optim.Muon([lib.zeros(3, requires_grad=True)])
        got.append(str(info.value))
        with pytest.raises(ValueError) as info:
            lib.optim.Muon([lib.zeros(2, 2, requires_grad=True)], lr=lib.tensor([0.1, 0.2]))
        got.append(str(info.value))
        w = lib.zeros(2, 2, dtype=lib.complex64, requires_grad=True)
        opt = lib.optim.Muon([w])
        w.grad = lib.ones(2, 2, dtype=lib.complex64)
        with pytest.raises(RuntimeError) as info:
            opt.step()
        got.append(str(info.value))
        for bad, error in (
            ({"ns_steps": 100}, ValueError),
            ({"ns_coefficients": (1.0,)}, ValueError),
        ):
            w = lib.ones(2, 2, requires_grad=True)
            opt = lib.optim.Muon([w], **bad)
            w.grad = lib.ones(2, 2)
            with pytest.raises(error) as info:
                opt.step()
            got.append(str(info.value))
        messages.append(got)
    assert messages[0] == messages[1]


def test_muon_state_dict_round_trips():
    w = numtorch.ones(3, 2, requires_grad=True)
    opt = numtorch.optim.Muon([w], lr=0.05)
    w.grad = numtorch.arange(6.0).reshape(3, 2)
    opt.step()
    again = numtorch.optim.Muon([w], lr=0.05)
    again.load_state_dict(opt.state_dict())
    assert numtorch.equal(again.state[w]["momentum_buffer"], opt.state[w]["momentum_buffer"])
    assert again.param_groups[0]["ns_coefficients"] == (3.4445, -4.7750, 2.0315)
