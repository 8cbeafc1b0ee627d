"""nll_loss of a plain batch (no weight, no ignored target) adds its picked values in torch's
cascade (Note [nll_loss's cascade]), so printed mean losses carry torch's last bit."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch


def _picked(batch, seed=0):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal((batch, 5)) * 10).astype(np.float32)
    y = rng.integers(0, 5, batch)
    return x, y, -x[np.arange(batch), y]


def test_a_batch_of_seventeen_adds_the_first_value_last():
    x, y, v = _picked(17)
    level0 = np.float32(0)
    for value in v[1:]:
        level0 = np.float32(level0 + value)
    expected = np.float32(np.float32(np.float32(0) + level0) + v[0])
    got = numtorch.nn.functional.nll_loss(
        numtorch.from_numpy(x), numtorch.from_numpy(y), reduction="sum"
    )
    assert got.item() == expected


def test_blocks_of_sixteen_hand_their_sums_up():
    x, y, v = _picked(40, seed=1)
    blocks = [np.cumsum(v[1:17])[-1], np.cumsum(v[17:33])[-1]]
    level1 = np.float32(blocks[0] + blocks[1])
    level0 = np.cumsum(v[33:])[-1]
    expected = np.float32(np.float32(np.float32(0 + level0) + level1) + v[0])
    got = numtorch.nn.functional.nll_loss(
        numtorch.from_numpy(x), numtorch.from_numpy(y), reduction="sum"
    )
    assert got.item() == expected
    mean = numtorch.nn.functional.nll_loss(numtorch.from_numpy(x), numtorch.from_numpy(y))
    assert mean.item() == np.float32(expected / np.float32(40))


@pytest.mark.parametrize("batch", [1, 2, 15, 16, 17, 33, 100, 257, 300, 1000, 5000])
def test_nll_loss_sums_match_torch(batch):
    torch = pytest.importorskip("torch")
    x, y, _ = _picked(batch, seed=batch)
    for reduction in ("sum", "mean"):
        theirs = torch.nn.functional.nll_loss(
            torch.from_numpy(x), torch.from_numpy(y), reduction=reduction
        )
        ours = numtorch.nn.functional.nll_loss(
            numtorch.from_numpy(x), numtorch.from_numpy(y), reduction=reduction
        )
        assert ours.item() == theirs.item(), reduction


@pytest.mark.parametrize(
    "targets,ignore_index",
    [
        ([0, 4, 2], -100),  # plain, tested by one maximum of the unsigned view
        ([0, 4, 2], 3),  # an ignore_index among the classes: tested by minimum and maximum
        ([0, 4, 3], 3),  # a target ignored: the general layout
        ([0, -1, 2], -100),  # a negative target: torch's IndexError
        ([0, 5, 2], -100),  # a target past the classes: torch's IndexError
        ([0, -100, 2], -100),  # the default ignore_index as a target
    ],
)
@pytest.mark.parametrize("dtype", [np.int64, np.uint8])
def test_plain_target_bounds_match_torch(targets, ignore_index, dtype):
    torch = pytest.importorskip("torch")
    if dtype == np.uint8 and min(targets) < 0:
        pytest.skip("no negative Byte targets")
    x = np.random.default_rng(3).standard_normal((3, 5)).astype(np.float32)
    y = np.array(targets, dtype=dtype)
    results = []
    for lib in (numtorch, torch):
        xt = lib.tensor(x, requires_grad=True)
        try:
            loss = lib.nn.functional.nll_loss(xt, lib.from_numpy(y), ignore_index=ignore_index)
            loss.backward()
            results.append((loss.item(), xt.grad.numpy().tolist()))
        except IndexError as error:
            results.append(type(error))
    assert results[0] == results[1]
