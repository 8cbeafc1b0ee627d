"""torch.segment_reduce against torch: every reduce with and without an initial value, by
lengths or offsets, along a later axis, its gradients, and its errors."""

from __future__ import annotations

import pytest

import numtorch

torch = pytest.importorskip("torch")

REDUCES = ("sum", "mean", "max", "min", "prod", "amax", "amin")


def _calls(lib):
    d = lib.tensor([1.0, 2.0, 3.0, 3.0, 5.0, 0.0], requires_grad=True)
    lengths = lib.tensor([2, 0, 3, 1])
    calls = {}
    for reduce in REDUCES:
        for initial in (None, 2.0, 10.0):
            calls[f"{reduce}-{initial}"] = lambda r=reduce, i=initial: lib.segment_reduce(
                d, r, lengths=lengths, initial=i
            )
    calls.update(
        offsets=lambda: lib.segment_reduce(d, "sum", offsets=lib.tensor([0, 2, 2, 5, 6])),
        lengths_and_offsets=lambda: lib.segment_reduce(
            d, "sum", lengths=lengths, offsets=lib.tensor([0, 2, 2, 5, 6])
        ),
        rows_axis0=lambda: lib.segment_reduce(d.view(3, 2), "mean", lengths=lib.tensor([1, 2])),
        axis1=lambda: lib.segment_reduce(
            d.view(2, 3), "prod", lengths=lib.tensor([[1, 2], [3, 0]]), axis=1
        ),
        axis1_offsets=lambda: lib.segment_reduce(
            d.view(2, 3), "max", offsets=lib.tensor([[0, 1, 3], [0, 3, 3]]), axis=1
        ),
        int32_lengths=lambda: lib.segment_reduce(d, "sum", lengths=lengths.int()),
        unsafe=lambda: lib.segment_reduce(d, "sum", lengths=lib.tensor([2, 2]), unsafe=True),
        float64=lambda: lib.segment_reduce(d.double(), "mean", lengths=lengths),
        # errors
        unknown_reduce=lambda: lib.segment_reduce(d, "std", lengths=lengths),
        no_lengths=lambda: lib.segment_reduce(d, "sum"),
        indices=lambda: lib.segment_reduce(d, "sum", indices=lib.tensor([0, 0, 1, 1, 1, 2])),
        lengths_do_not_add_up=lambda: lib.segment_reduce(d, "sum", lengths=lib.tensor([2, 2])),
        negative_length=lambda: lib.segment_reduce(d, "sum", lengths=lib.tensor([7, -1])),
        integer_data=lambda: lib.segment_reduce(lib.arange(6), "sum", lengths=lengths),
        float_lengths=lambda: lib.segment_reduce(d, "sum", lengths=lengths.float()),
    )
    return d, calls


def _outcome(lib, name):
    d, calls = _calls(lib)
    try:
        out = calls[name]()
    except Exception as e:
        return type(e).__name__, str(e)
    out.sum().backward()
    return (
        out.tolist(),
        str(out.dtype),
        type(out.grad_fn).__name__,
        d.grad.tolist(),
    )


@pytest.mark.parametrize("name", sorted(_calls(numtorch)[1]))
def test_matches_torch(name):
    # compared as text: an empty mean is NaN on both sides
    assert repr(_outcome(numtorch, name)) == repr(_outcome(torch, name))


def test_second_order_raises_torchs_error():
    x = numtorch.tensor([1.0, 2.0, 3.0], dtype=numtorch.float64, requires_grad=True)
    y = numtorch.segment_reduce(x * x, "sum", lengths=numtorch.tensor([1, 2]))
    (g,) = numtorch.autograd.grad(y.sum(), x, create_graph=True)
    with pytest.raises(RuntimeError, match="derivative for aten::_segment_reduce_backward"):
        g.sum().backward()
