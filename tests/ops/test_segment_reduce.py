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


def _edge_calls(lib):
    """NaNs in max and min, infinities in prod, empty data or segments, data with fewer dims
    than its lengths, and the order of torch's checks."""
    nan, inf = float("nan"), float("inf")
    f64 = lib.float64
    calls = {
        "max_nan": ([1.0, nan, 3.0, nan], "max", [4], 0, None),
        "min_nan_initial": ([1.0, nan, 3.0, 2.0], "min", [4], 0, 0.0),
        "prod_inf": ([1.0, inf, 3.0, 2.0], "prod", [4], 0, None),
        "prod_inf_and_zero": ([1.0, inf, 0.0, 2.0], "prod", [4], 0, None),
        "prod_initial_zero": ([1.0, inf, 3.0, 2.0], "prod", [4], 0, 0.0),
    }
    out = {
        name: lambda a=a: lib.segment_reduce(
            lib.tensor(a[0], dtype=f64, requires_grad=True),
            a[1],
            lengths=lib.tensor(a[2]),
            axis=a[3],
            initial=a[4],
        )
        for name, a in calls.items()
    }

    def empty(shape, lengths, axis, reduce="sum", **kw):
        data = lib.zeros(shape, dtype=f64, requires_grad=True)
        return lambda: lib.segment_reduce(data, reduce, lengths=lengths, axis=axis, **kw)

    long = lib.int64
    out.update(
        empty_data=empty((0,), lib.tensor([0, 0]), 0, "max"),
        empty_rows_axis1=empty((2, 0, 3), lib.tensor([[0, 0], [0, 0]]), 1),
        empty_columns=empty((3, 0), lib.tensor([1, 2]), 0, "prod", initial=2.0),
        no_segments_unsafe=empty((0, 3), lib.zeros(0, dtype=long), 0, unsafe=True),
        no_segments_axis1_unsafe=empty((2, 3), lib.zeros((2, 0), dtype=long), 1, unsafe=True),
        no_lengths_elements=empty((0,), lib.zeros(0, dtype=long), 0),
        scalar_data=empty((), lib.tensor([1]), 0),
        scalar_lengths=empty((), lib.tensor(1), 0),
        axis_not_last_of_lengths=empty((2, 3), lib.tensor([3]), 1),
        axis_out_of_range=empty((2, 3), lib.tensor([1, 1]), 5),
        scalar_data_offsets=lambda: lib.segment_reduce(
            lib.tensor(3.0), "sum", offsets=lib.tensor([0, 1])
        ),
        integer_data_bad_lengths=lambda: lib.segment_reduce(
            lib.ones(3, dtype=long), "sum", lengths=lib.tensor([2])
        ),
    )
    return out


def _edge_outcome(lib, name):
    try:
        out = _edge_calls(lib)[name]()
    except Exception as e:
        # torch's check of the dims ends with its own request for a better message
        return type(e).__name__, str(e).split("  (")[0]
    data = out.grad_fn.next_functions[0][0].variable
    weights = lib.arange(1.0, out.numel() + 1, dtype=out.dtype).reshape(out.shape)
    (out * weights).sum().backward()
    return out.tolist(), list(out.shape), data.grad.tolist()


@pytest.mark.parametrize("name", sorted(_edge_calls(numtorch)))
def test_edge_cases_match_torch(name):
    assert repr(_edge_outcome(numtorch, name)) == repr(_edge_outcome(torch, name))


@pytest.mark.parametrize("reduce", ["max", "min"])
def test_ties_share_only_a_positive_gradient(reduce):
    # torch divides a positive gradient among the tied extremes and hands a negative one
    # whole to each of them
    def grads(lib):
        # two tied maxima and a single minimum in the columns of the first segment, the
        # other way round in the second
        d = lib.tensor([[1.0, 2.0], [1.0, 2.0], [0.5, 3.0], [4.0, 0.0], [0.0, 0.0]])
        d = d.double().requires_grad_()
        out = lib.segment_reduce(d, reduce, lengths=lib.tensor([3, 2]))
        out.backward(lib.tensor([[-3.0, 4.0], [5.0, -6.0]], dtype=lib.float64))
        return d.grad.tolist()

    assert grads(numtorch) == grads(torch)
