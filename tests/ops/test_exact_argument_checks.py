"""Argument checks in torch's order, with torch's exception types: narrow's start and
length, index_copy's index, shapes and dtypes."""

from __future__ import annotations

import itertools

import pytest

import numtorch as nt


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: nt.zeros(3, 0).narrow(1, 1, 2), IndexError, r"start out of range .*\[0, 0\]"),
        (lambda: nt.zeros(3).narrow(0, -4, 1), IndexError, r"\[-3, 3\], but got -4"),
        (lambda: nt.zeros(3).narrow(0, 0, -1), RuntimeError, "length must be non-negative"),
        (lambda: nt.zeros(3).narrow(0, 2, 2), RuntimeError, "exceeds dimension size"),
        (lambda: nt.zeros(3).narrow_copy(0, 4, 1), IndexError, "start out of range"),
        (lambda: nt.zeros(3).narrow_copy(0, 0, -1), RuntimeError, "exceeds dimension size"),
    ],
)
def test_narrow_checks_start_before_length(call, error, message):
    with pytest.raises(error, match=message):
        call()


def _copy(shape, index, source, dim=0):
    return nt.zeros(shape).index_copy(dim, nt.tensor(index), source)


@pytest.mark.parametrize(
    "call, error, message",
    [
        # a 0-d source takes one index, before the dtypes are compared
        (lambda: _copy(3, [0, 1], nt.tensor(1.0, dtype=nt.float64)), IndexError, "one element"),
        (lambda: _copy(3, [[0, 1]], nt.tensor(1.0)), IndexError, "dimension 1 or 0"),
        (lambda: _copy(3, [[0, 1]], nt.tensor(1.0), dim=2), IndexError, "Dimension out of range"),
        (lambda: _copy((3, 2), [0, 1], nt.zeros(2)), IndexError, "dimensionality must match"),
        (lambda: _copy((3, 2), [0.0, 1.0], nt.zeros(2, 2)), RuntimeError, "long tensor"),
        (lambda: _copy((3, 2), [0, 1], nt.zeros(2, 3, dtype=nt.float64)), RuntimeError, "dtype"),
    ],
)
def test_index_copy_checks_in_torchs_order(call, error, message):
    with pytest.raises(error, match=message):
        call()


INDEX_ADD_CASES = {
    "0-d source, two indices": ((3, 2), 0, [1, 1], ()),
    "0-d source, one index": ((3, 2), 0, [1], ()),
    "dim past the source's": ((3, 2), 1, [1], ()),
    "indices and source rows differ": ((3, 2), 0, [1, 1], (3, 2)),
    "empty matrix": ((0, 2), 0, [1, 1], (2, 2)),
    "empty vector": ((0,), 0, [1, 1], (2,)),
    "matrix index out of range": ((3, 2), 0, [5, 1], (2, 2)),
    "0-d input": ((), 0, [0, 0], ()),
}


def _index_add_outcome(lib, case):
    shape, dim, index, source_shape = INDEX_ADD_CASES[case]
    input = lib.zeros(shape, requires_grad=True)
    source = lib.ones(source_shape, requires_grad=True)
    try:
        out = input.index_add(dim, lib.tensor(index), source)
        out.sum().backward()  # an empty matrix: torch's index_select refuses in backward
    except (RuntimeError, IndexError) as error:
        return type(error).__name__
    return tuple(out.shape)


@pytest.mark.parametrize("case", INDEX_ADD_CASES)
def test_index_add_checks_in_torchs_order(case):
    torch = pytest.importorskip("torch")
    assert _index_add_outcome(nt, case) == _index_add_outcome(torch, case)


@pytest.mark.parametrize(
    "shape, count, values_dtype",
    [((), 1, "float32"), ((3,), 2, "float32"), ((3,), 2, "float64"), ((3, 2), 1, "float32")],
)
def test_index_put_counts_indices_before_comparing_dtypes(shape, count, values_dtype):
    torch = pytest.importorskip("torch")
    raised = []
    for lib in (nt, torch):
        index = tuple(lib.tensor([0, 0]) for _ in range(count))
        values = lib.ones(2, dtype=getattr(lib, values_dtype))
        with pytest.raises((IndexError, RuntimeError)) as info:
            lib.zeros(shape, dtype=lib.float64).index_put(index, values, accumulate=True)
        raised.append(type(info.value))
    assert raised[0] is raised[1]


@pytest.mark.parametrize(
    "shape, dim, index",
    [((0, 3), 0, [1]), ((0, 3), 0, [0]), ((0, 3), 1, [1]), ((2, 3), 0, [5]), ((0,), 0, [1])],
)
def test_index_fill_of_an_empty_dim_raises_as_torch(shape, dim, index):
    torch = pytest.importorskip("torch")
    outcomes = []
    for lib in (nt, torch):
        try:
            out = lib.zeros(shape).index_fill(dim, lib.tensor(index), lib.tensor(2.0))
            outcomes.append(tuple(out.shape))
        except (RuntimeError, IndexError) as error:
            outcomes.append(type(error).__name__)
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize(
    "shape, dim, index, source",
    [((2, 0), 1, [2, 0], (2, 2)), ((0, 3), 0, [1], (1, 3)), ((0,), 0, [1], (1,))],
)
def test_index_copy_into_an_empty_dim_raises_as_torch(shape, dim, index, source):
    torch = pytest.importorskip("torch")
    raised = []
    for lib in (nt, torch):
        with pytest.raises((RuntimeError, IndexError)) as info:
            lib.zeros(shape).index_copy(dim, lib.tensor(index), lib.ones(source))
        raised.append(type(info.value))
    assert raised[0] is raised[1] is RuntimeError


@pytest.mark.parametrize("method", ["scatter_add", "scatter", "scatter_reduce"])
@pytest.mark.parametrize("shape, dim", [((), 1), ((2, 3), 2), ((), 0)])
def test_scatter_wraps_dim_before_comparing_dtypes(method, shape, dim):
    torch = pytest.importorskip("torch")
    raised = []
    for lib in (nt, torch):
        x, index, src = lib.zeros(shape, dtype=lib.float64), lib.tensor([[0]]), lib.ones(1, 1)
        extra = ("sum",) if method == "scatter_reduce" else ()
        with pytest.raises((IndexError, RuntimeError)) as info:
            getattr(x, method)(dim, index, src, *extra)
        raised.append(type(info.value))
    assert raised[0] is raised[1]


@pytest.mark.parametrize("weights", [[1.0, float("nan"), 1.0], [1.0, -1.0, 1.0]])
def test_cov_refuses_nan_aweights_as_negative_ones(weights):
    # torch checks all(aweights >= 0), which a NaN fails
    torch = pytest.importorskip("torch")
    messages = []
    for lib in (nt, torch):
        with pytest.raises(RuntimeError) as info:
            lib.cov(lib.ones(2, 3), aweights=lib.tensor(weights))
        messages.append(str(info.value))
    assert messages[0] == messages[1] == "cov(): aweights cannot be negative"


@pytest.mark.parametrize(
    "cell, gates", [("rnn_tanh_cell", 1), ("rnn_relu_cell", 1), ("gru_cell", 3)]
)
@pytest.mark.parametrize(
    "shapes",
    [
        [(), (3, 2), (2, 4), (2, 2)],  # a 0-d input: torch reads its size(1)
        [(), (3, 2), (2, 4), (3, 2)],  # the weights are checked before the input
        [(4,), (3, 2), (2, 4), (2, 2)],
        [(3, 4), (3, 2), (2, 4), (2, 3)],  # weight_ih against w_hh's hidden size
        [(3, 4), (3, 2), (2, 3), (2, 2)],
    ],
)
def test_rnn_cells_check_weights_then_input_as_torch(cell, gates, shapes):
    torch = pytest.importorskip("torch")
    outcomes = []
    for lib in (nt, torch):
        x, hx, w_ih, w_hh = (lib.ones(s) for s in shapes)
        if gates == 3:
            w_ih, w_hh = lib.cat([w_ih] * 3), lib.cat([w_hh] * 3)
        try:
            getattr(lib, cell)(x, hx, w_ih, w_hh)
            outcomes.append("ok")
        except (RuntimeError, IndexError) as error:
            outcomes.append(f"{type(error).__name__}: {error}")
    assert outcomes[0] == outcomes[1]


def test_lstm_cell_checks_its_four_gates_as_torch():
    torch = pytest.importorskip("torch")
    outcomes = []
    for lib in (nt, torch):
        hx = (lib.ones(3, 2), lib.ones(3, 2))
        try:
            lib.lstm_cell(lib.ones(3, 4), hx, lib.ones(7, 4), lib.ones(8, 2))
        except RuntimeError as error:
            outcomes.append(str(error))
    assert (
        outcomes[0] == outcomes[1] == "weight_ih first dim must be 4 * hidden_size = 8, but got 7"
    )


@pytest.mark.parametrize("dim", [0, -1, 1, -2])
@pytest.mark.parametrize("query", ["size", "stride"])
def test_size_and_stride_of_a_0d_tensor_raise_as_torch(query, dim):
    torch = pytest.importorskip("torch")
    messages = []
    for lib in (nt, torch):
        with pytest.raises(IndexError) as info:
            getattr(lib.tensor(1.0), query)(dim)
        messages.append(str(info.value))
    assert messages[0] == messages[1]


@pytest.mark.parametrize("cell, gates", [("rnn_tanh_cell", 1), ("gru_cell", 3), ("lstm_cell", 4)])
def test_rnn_cells_check_in_torchs_order_with_several_faults(cell, gates):
    # every pair of faults among: weight_ih's gates, weight_hh's gates, the input size, the
    # batch size and the hidden size; each cell reports the one torch checks first
    torch = pytest.importorskip("torch")
    hidden, features, batch = 4, 3, 2
    for faults in itertools.product((0, 1), repeat=5):
        if sum(faults) not in (1, 2):
            continue
        ih, hh, inp, bat, hid = faults
        outcomes = []
        for lib in (nt, torch):
            w_ih = lib.ones(gates * hidden + ih, features)
            w_hh = lib.ones(gates * hidden + hh, hidden)
            x, hx = lib.ones(batch, features + inp), lib.ones(batch + bat, hidden + hid)
            try:
                getattr(lib, cell)(x, (hx, hx) if gates == 4 else hx, w_ih, w_hh)
                outcomes.append("ok")
            except RuntimeError as error:
                outcomes.append(str(error))
        assert outcomes[0] == outcomes[1], faults


@pytest.mark.parametrize("cell, gates", [("rnn_tanh_cell", 1), ("gru_cell", 3), ("lstm_cell", 4)])
def test_rnn_cells_read_weight_sizes_in_torchs_order(cell, gates):
    # a 0-d weight_hh with an empty weight_ih: gru_cell compares the input size (0) first,
    # the other cells read hidden_size from weight_hh first (IndexError)
    torch = pytest.importorskip("torch")
    outcomes = []
    for lib in (nt, torch):
        x, hx = lib.ones(2, 3), lib.ones(2, 4)
        try:
            getattr(lib, cell)(
                x, (hx, hx) if gates == 4 else hx, lib.ones(gates * 4, 0), lib.ones(())
            )
        except (RuntimeError, IndexError) as error:
            outcomes.append(f"{type(error).__name__}: {error}")
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: nt.take(nt.zeros(3), nt.tensor([0], dtype=nt.int32)), RuntimeError, "got Int"),
        (lambda: nt.take(nt.zeros(3), nt.tensor([], dtype=nt.float32)), RuntimeError, "got Float"),
        (lambda: nt.take(nt.zeros(3), nt.tensor([True])), RuntimeError, "long tensor"),
        (lambda: nt.zeros(1, 2).squeeze((-2, 0)), RuntimeError, "dim 0 appears multiple"),
        (lambda: nt.tensor(1.0).squeeze([0, -1]), RuntimeError, "dim 0 appears multiple"),
        (
            lambda: nt.zeros(2, 3, 0).__setitem__((nt.tensor([0, 1]), [], []), 1.0),
            IndexError,
            r"could not be broadcast together with shapes \[2\], \[0\], \[0\]",
        ),
    ],
)
def test_index_dtypes_repeated_dims_and_unbroadcastable_indices(call, error, message):
    with pytest.raises(error, match=message):
        call()


@pytest.mark.parametrize("count", [0, 2])
def test_index_reduce_of_a_0d_source_reads_its_size_first(count):
    with pytest.raises(IndexError, match="Dimension specified as 0 but tensor has no dimensions"):
        nt.tensor(1.5).index_reduce(0, nt.zeros(count, dtype=nt.long), nt.tensor(2.0), "prod")


@pytest.mark.parametrize("empty", ["tensor", "list", "array"])
def test_an_empty_float_index_is_refused_only_as_a_tensor(empty):
    key = {"tensor": nt.tensor([]), "list": [], "array": __import__("numpy").array([])}[empty]
    if empty == "tensor":
        with pytest.raises(IndexError, match="tensors used as indices must be long"):
            nt.ones(3)[key, ...]
    else:
        assert nt.ones(3)[key].shape == (0,)


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.ones(0).reshape(-1, 0),
        lambda lib: lib.ones(2, 0).view(0, -1),
        lambda lib: lib.nn.functional.bilinear(lib.ones(2, 0), lib.ones(2, 3), lib.ones(3, 0, 3)),
    ],
)
def test_an_ambiguous_minus_one_over_no_elements_raises_torchs_message(call):
    torch = pytest.importorskip("torch")
    messages = []
    for lib in (nt, torch):
        with pytest.raises(RuntimeError) as info:
            call(lib)
        messages.append(str(info.value))
    assert messages[0] == messages[1]
