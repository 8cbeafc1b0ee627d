"""torch.embedding_bag (ATen's form of F.embedding_bag) against torch: the bags, their
gradient, and the offset2bag / bag_size / max_indices outputs per mode and padding."""

from __future__ import annotations

import pytest

import numtorch

torch = pytest.importorskip("torch")

WEIGHT = [
    [0.3, -1.0, 2.0],
    [1.5, 0.2, -0.7],
    [0.9, 0.9, 0.1],
    [-2.0, 3.0, 0.5],
    [0.0, 0.4, 2.5],
    [1.1, -0.3, 0.8],
]
CASES = [
    dict(mode=mode, padding_idx=padding, include_last_offset=last, offsets=offsets)
    for mode in (0, 1, 2)
    for padding in (None, 2, -1)
    for last, offsets in ((False, [0, 3, 3, 6]), (True, [0, 3, 3, 8]))
]


def _run(lib, mode, padding_idx, include_last_offset, offsets, per_sample=False):
    w = lib.tensor(WEIGHT, requires_grad=True)
    i = lib.tensor([1, 2, 4, 5, 4, 3, 2, 0])
    psw = lib.linspace(0, 1, 8) if per_sample else None
    out = lib.embedding_bag(
        w, i, lib.tensor(offsets), False, mode, False, psw, include_last_offset, padding_idx
    )
    out[0].pow(2).sum().backward()
    return (
        out[0].detach().numpy().round(6).tolist(),
        type(out[0].grad_fn).__name__,
        [t.tolist() for t in out[1:]],
        [str(t.dtype) for t in out],
        w.grad.numpy().round(6).tolist(),
    )


@pytest.mark.parametrize("case", CASES, ids=str)
def test_outputs_match_torch(case):
    assert _run(numtorch, **case) == _run(torch, **case)


@pytest.mark.parametrize("padding_idx", [None, 2])
def test_per_sample_weights_match_torch(padding_idx):
    case = dict(mode=0, padding_idx=padding_idx, include_last_offset=False, offsets=[0, 3, 3, 6])
    assert _run(numtorch, **case, per_sample=True) == _run(torch, **case, per_sample=True)


@pytest.mark.parametrize("mode", [0, 1, 2])
def test_bags_of_padding_only_match_torch(mode):
    # every index is the padding: each bag is empty (max mode has no row to point at)
    def run(lib):
        w = lib.tensor(WEIGHT, requires_grad=True)
        out = lib.embedding_bag(
            w, lib.tensor([2, 2, 2]), lib.tensor([0, 1]), False, mode, False, None, False, 2
        )
        out[0].sum().backward()
        return [t.tolist() for t in out], w.grad.tolist()

    assert run(numtorch) == run(torch)


def test_refusals_match_torch():
    for lib in (numtorch, torch):
        w, i = lib.ones(4, 2), lib.tensor([0, 1])
        with pytest.raises(TypeError):
            lib.embedding_bag(w, i, None, False, 1)
        with pytest.raises(ValueError):  # max mode cannot scale by frequency
            lib.nn.functional.embedding_bag(
                i, w, lib.tensor([0]), mode="max", scale_grad_by_freq=True
            )
