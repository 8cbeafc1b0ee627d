"""End to end: a small CNN with batch norm trains the same in numtorch and torch."""

from __future__ import annotations

import numpy as np
import pytest
from nn_parity import copy_state


def _model(lib):
    nn = lib.nn
    return nn.Sequential(
        nn.Conv2d(1, 4, 3, padding=1),
        nn.BatchNorm2d(4),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(4, 6, 3, stride=2, padding=1, bias=False),
        nn.GELU(),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Linear(6, 3),
    )


def _train(lib, model, x, y, steps=15, lr=0.1):
    losses = []
    loss_fn = lib.nn.CrossEntropyLoss(label_smoothing=0.05)
    for _ in range(steps):
        loss = loss_fn(model(x), y)
        model.zero_grad()
        loss.backward()
        with lib.no_grad():
            for p in model.parameters():
                p.add_(p.grad, alpha=-lr)
        losses.append(loss.item())
    return losses


def test_cnn_training_trajectory_matches_torch():
    torch = pytest.importorskip("torch")
    import numtorch

    rng = np.random.default_rng(0)
    x = rng.standard_normal((8, 1, 8, 8)).astype(np.float64)
    y = rng.integers(0, 3, 8)
    theirs = _model(torch).double()
    ours = _model(numtorch).double()
    copy_state(theirs, ours, numtorch)
    their_losses = _train(torch, theirs, torch.tensor(x), torch.tensor(y))
    our_losses = _train(numtorch, ours, numtorch.tensor(x), numtorch.tensor(y))
    np.testing.assert_allclose(our_losses, their_losses, rtol=1e-9)
    assert our_losses[-1] < our_losses[0]
    for (name, a), b in zip(ours.state_dict().items(), theirs.state_dict().values()):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-8, atol=1e-10, err_msg=name)
    ours.eval()
    theirs.eval()
    np.testing.assert_allclose(
        ours(numtorch.tensor(x)).detach().numpy(),
        theirs(torch.tensor(x)).detach().numpy(),
        rtol=1e-8,
        atol=1e-10,
    )
