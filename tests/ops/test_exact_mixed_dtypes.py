"""Corners the differential fuzzer found in random op graphs: operands of mixed float dtypes, where
torch refuses, promotes or keeps the first operand's dtype. Each is checked against torch where
it is installed."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch


def _ones(lib, shape, dtype):
    return lib.ones(shape, dtype=getattr(lib, dtype))


MIXED = {
    "linalg.cross": lambda lib, a, b: lib.linalg.cross(
        _ones(lib, (2, 3), a), _ones(lib, (2, 3), b)
    ),
    "cross empty": lambda lib, a, b: lib.cross(_ones(lib, (0, 3), a), _ones(lib, (0, 3), b), 1),
    "bilinear": lambda lib, a, b: lib.bilinear(
        _ones(lib, (2, 3), a), _ones(lib, (2, 4), a), _ones(lib, (5, 3, 4), a), _ones(lib, 5, b)
    ),
    "cdist": lambda lib, a, b: lib.cdist(_ones(lib, (2, 3), a), _ones(lib, (4, 3), b), 1.0),
    "cdist mm": lambda lib, a, b: lib.cdist(_ones(lib, (30, 3), a), _ones(lib, (4, 3), b)),
    "cdist empty": lambda lib, a, b: lib.cdist(_ones(lib, (0, 3), a), _ones(lib, (4, 3), b)),
    "weight_norm": lambda lib, a, b: lib._weight_norm(_ones(lib, (2, 3), a), _ones(lib, (2, 1), b)),
    "weight_norm whole": lambda lib, a, b: lib._weight_norm(
        _ones(lib, (2, 3), a), _ones(lib, (), b), -1
    ),
    "lerp": lambda lib, a, b: lib.lerp(
        _ones(lib, (2, 3), a), _ones(lib, (2, 3), a), _ones(lib, (2, 3), b)
    ),
    "lerp 0-d weight": lambda lib, a, b: lib.lerp(
        _ones(lib, (2, 3), a), _ones(lib, (2, 3), a), _ones(lib, (), b)
    ),
    "_standard_gamma_grad": lambda lib, a, b: lib._standard_gamma_grad(
        _ones(lib, (2, 3), a), _ones(lib, (), b)
    ),
}


def _outcome(lib, fn, a, b):
    try:
        return str(fn(lib, a, b).dtype)
    except RuntimeError as exc:
        return f"RuntimeError: {exc}"


@pytest.mark.parametrize("dtypes", [("float64", "float32"), ("float32", "float64")])
@pytest.mark.parametrize("case", sorted(MIXED))
def test_mixed_float_operands_where_torch_refuses_or_keeps_the_first_dtype(case, dtypes):
    ours = _outcome(numtorch, MIXED[case], *dtypes)
    if case in ("cdist empty", "weight_norm whole", "lerp 0-d weight"):  # composed or empty
        assert not ours.startswith("RuntimeError")
    else:
        assert ours.startswith("RuntimeError")
    torch = pytest.importorskip("torch")
    assert ours == _outcome(torch, MIXED[case], *dtypes)


def test_mse_and_l1_loss_broadcast_before_promoting():
    # torch broadcasts a 0-d operand first, so it counts as dimensioned: float64 wins
    a = numtorch.tensor(0.5, dtype=numtorch.float64)
    b = numtorch.ones(2, 3)
    F = numtorch.nn.functional
    with pytest.warns(UserWarning, match="target size"):
        assert F.mse_loss(a, b).dtype is numtorch.float64
        assert F.l1_loss(b, a, reduction="none").dtype is numtorch.float64


def _solve_in_mixed_dtypes(lib, a, b):
    A = lib.tensor([[2.0, 0.0], [1.0, 3.0]], dtype=getattr(lib, a), requires_grad=True)
    B = lib.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=getattr(lib, b), requires_grad=True)
    X = lib.linalg.solve_triangular(A, B, upper=False)
    X.sum().backward()
    return str(X.dtype), X.detach().double().numpy(), str(A.grad.dtype), str(B.grad.dtype)


@pytest.mark.parametrize("dtypes", [("float32", "float64"), ("float64", "float32")])
def test_solve_triangular_solves_in_the_dtype_of_A(dtypes):
    dtype, values, grad_a, grad_b = _solve_in_mixed_dtypes(numtorch, *dtypes)
    assert (dtype, grad_a, grad_b) == tuple(f"torch.{d}" for d in (dtypes[0], *dtypes))
    torch = pytest.importorskip("torch")
    t_dtype, t_values, t_grad_a, t_grad_b = _solve_in_mixed_dtypes(torch, *dtypes)
    assert (dtype, grad_a, grad_b) == (t_dtype, t_grad_a, t_grad_b)
    np.testing.assert_allclose(values, t_values, rtol=1e-6)


# equation, shapes, dtypes, whether torch refuses: a pair sharing a summed subscript of size >
# 1 is contracted by a batched matrix product (one dtype); any other pair is multiplied and
# promotes. Operands are contracted left to right.
EINSUM_DTYPES = [
    ("i,i->", [(3,), (3,)], ("float32", "float64"), True),
    ("ij,jk", [(2, 3), (3, 4)], ("float64", "float32"), True),
    ("...ij,...jk", [(2, 2, 3), (3, 4)], ("float32", "float64"), True),
    ("ii,i->", [(3, 3), (3,)], ("float64", "float32"), True),
    ("i,j,i->", [(3,), (2,), (3,)], ("float64", "float32", "float32"), True),
    ("i,j,i->", [(3,), (2,), (3,)], ("float32", "float64", "float64"), False),
    ("i,j->ij", [(2,), (3,)], ("float32", "float64"), False),
    ("i,i->i", [(3,), (3,)], ("float64", "float32"), False),
    ("ij,j->i", [(2, 1), (3,)], ("float32", "float64"), False),
    ("i,i->", [(1,), (1,)], ("float32", "float64"), False),
    ("i,i->", [(0,), (0,)], ("float64", "float32"), False),  # empty: the second's dtype
    ("ij,jk->ik", [(0, 3), (3, 2)], ("float32", "float64"), False),
]


def _einsum_outcome(lib, equation, shapes, dtypes):
    operands = [
        lib.ones(shape, dtype=getattr(lib, dtype), requires_grad=True)
        for shape, dtype in zip(shapes, dtypes)
    ]
    try:
        result = lib.einsum(equation, *operands)
    except RuntimeError as exc:
        return f"RuntimeError: {exc}"
    result.sum().backward()
    return str(result.dtype), [str(t.grad.dtype) for t in operands]


@pytest.mark.parametrize("equation, shapes, dtypes, refused", EINSUM_DTYPES)
def test_einsum_of_mixed_dtypes_refuses_contractions_and_promotes_products(
    equation, shapes, dtypes, refused
):
    ours = _einsum_outcome(numtorch, equation, shapes, dtypes)
    assert isinstance(ours, str) == refused
    torch = pytest.importorskip("torch")
    assert ours == _einsum_outcome(torch, equation, shapes, dtypes)


@pytest.mark.parametrize("mixed", ["weight", "bias", "running_var", "input"])
@pytest.mark.parametrize("training", [True, False])
def test_native_batch_norm_refuses_mixed_dtypes(mixed, training):
    def call(lib):
        tensors = {
            name: lib.ones(shape, dtype=lib.float64 if name == mixed else lib.float32)
            for name, shape in (("input", (2, 3)), ("weight", (3,)), ("bias", (3,)))
        }
        tensors["running_mean"] = lib.zeros(3)
        tensors["running_var"] = lib.ones(3, dtype=lib.float64 if mixed == "running_var" else None)
        with pytest.raises(RuntimeError) as error:
            lib.native_batch_norm(*tensors.values(), training, 0.1, 1e-5)
        return str(error.value)

    ours = call(numtorch)
    assert "dtype" in ours
    torch = pytest.importorskip("torch")
    call(torch)


def _error_type(call):
    try:
        call()
    except Exception as exc:  # compared by type with torch's
        return type(exc).__name__
    return None


def _recurrence_with_one_float64(lib, mode, which):
    lib.manual_seed(0)
    module = getattr(lib.nn, mode)(4, 2)
    params = [p.detach() for p in module._flat_weights]
    x, h = lib.randn(2, 3, 4), lib.zeros(1, 3, 2)
    if which == "h0":
        h = h.double()
    else:
        params[3] = params[3].double()  # the recurrent bias
    hx = (h, lib.zeros(1, 3, 2)) if mode == "LSTM" else h
    run = {"LSTM": lib.lstm, "GRU": lib.gru, "RNN": lib.rnn_tanh}[mode]
    return _error_type(lambda: run(x, hx, params, True, 1, 0.0, False, False, False))


@pytest.mark.parametrize("which", ["h0", "bias"])
@pytest.mark.parametrize("mode", ["LSTM", "GRU", "RNN"])
def test_recurrences_refuse_mixed_dtypes(mode, which):
    assert _recurrence_with_one_float64(numtorch, mode, which) == "RuntimeError"
    torch = pytest.importorskip("torch")
    assert _recurrence_with_one_float64(torch, mode, which) == "RuntimeError"


def _huber_mixed_backward(lib, input_dtype, target_dtype, wrt):
    x = lib.ones(2, 3, dtype=getattr(lib, input_dtype), requires_grad=wrt == "input")
    t = lib.zeros(2, 3, dtype=getattr(lib, target_dtype), requires_grad=wrt == "target")
    loss = lib.nn.functional.huber_loss(x, t)
    return str(loss.dtype).split(".")[1], _error_type(loss.backward)


@pytest.mark.parametrize("wrt", ["input", "target"])
@pytest.mark.parametrize("dtypes", [("float32", "float64"), ("float64", "float32")])
def test_huber_loss_backward_refuses_mixed_dtypes(dtypes, wrt):
    # the forward returns the input's dtype; torch's backward kernel then refuses the mix
    dtype, error = _huber_mixed_backward(numtorch, *dtypes, wrt)
    assert (dtype, error) == (dtypes[0], "RuntimeError")
    torch = pytest.importorskip("torch")
    assert (dtype, error) == _huber_mixed_backward(torch, *dtypes, wrt)


def _recurrence_outcome(lib, op, shapes, dtypes, **options):
    # every float input in one of two dtypes: torch's composed layers add the input
    # projection into the state in place, so the state's dtype decides (Note [Recurrence
    # dtypes]); a matmul that meets two dtypes raises
    rng = np.random.default_rng(0)
    tensors = [
        lib.tensor(rng.standard_normal(shape), dtype=getattr(lib, dtype))
        for shape, dtype in zip(shapes, dtypes)
    ]
    try:
        result = op(lib, *tensors, **options)
    except RuntimeError:
        return "RuntimeError"
    return [str(t.dtype) for t in result]


_RECURRENCES = {
    "rnn_tanh batch_first": (
        lambda t, x, h, *w: t.rnn_tanh(x, h, list(w), True, 1, 0.0, False, False, True),
        [(2, 3, 2), (1, 2, 2), (2, 2), (2, 2), (2,), (2,)],
    ),
    "lstm": (
        lambda t, x, h, c, *w: t.lstm(x, (h, c), list(w), True, 1, 0.0, False, False, False),
        [(3, 2, 2), (1, 2, 2), (1, 2, 2), (8, 2), (8, 2), (8,), (8,)],
    ),
    "gru packed": (
        lambda t, x, h, *w: t.gru(
            x, t.tensor(np.array([3, 2, 1])), h, list(w), True, 1, 0.0, False, True
        ),
        [(6, 2), (2, 3, 2), (6, 2), (6, 2), (6,), (6,), (6, 2), (6, 2), (6,), (6,)],
    ),
    "rnn_relu_cell": (lambda t, *a: (t.rnn_relu_cell(*a),), [(2, 3), (2, 2), (2, 3), (2, 2)]),
    "lstm_cell": (
        lambda t, x, h, c, *w: t.lstm_cell(x, (h, c), *w),
        [(2, 3), (2, 2), (2, 2), (8, 3), (8, 2), (8,), (8,)],
    ),
}


@pytest.mark.parametrize("name", sorted(_RECURRENCES))
def test_recurrences_take_mixed_dtypes_as_torch(name):
    torch = pytest.importorskip("torch")
    op, shapes = _RECURRENCES[name]
    rng = np.random.default_rng(1)
    for _ in range(24):
        dtypes = [("float32", "float64")[i] for i in rng.integers(0, 2, len(shapes))]
        expected = _recurrence_outcome(torch, op, shapes, dtypes)
        assert _recurrence_outcome(numtorch, op, shapes, dtypes) == expected, dtypes


@pytest.mark.parametrize(
    "shapes", [((0, 3, 4), (0, 4, 5)), ((0, 3, 0), (0, 0, 5)), ((2, 3, 0), (2, 0, 5))]
)
def test_addbmm_over_no_batches_skips_the_dtype_check(shapes):
    # a sum over no batches is beta * input, in input's dtype, whatever the batches' dtypes
    torch = pytest.importorskip("torch")
    found = []
    for lib in (numtorch, torch):
        c = lib.ones(3, 5, requires_grad=True)
        a, b = (lib.ones(s, dtype=lib.float64, requires_grad=True) for s in shapes)
        try:
            r = lib.addbmm(c, a, b, beta=2.0)
        except RuntimeError as e:
            found.append(str(e))
            continue
        grads = lib.autograd.grad(r.sum(), (c, a, b))
        found.append((r.tolist(), str(r.dtype), [str(g.dtype) for g in grads]))
    assert found[0] == found[1]


@pytest.mark.parametrize("input_dtype", ["float64", "int64", "float16"])
def test_addr_promotes_a_zero_dim_input_as_a_dimensioned_one(input_dtype):
    # torch expands input to the result's shape first: a 0-d float64 input makes float64 of
    # float32 vectors, and backward then meets mv of float64 and float32 (torch refuses)
    torch = pytest.importorskip("torch")
    seen = []
    for lib in (numtorch, torch):
        vec1 = lib.ones(2, requires_grad=True)
        out = lib.addr(lib.tensor(2, dtype=getattr(lib, input_dtype)), vec1, lib.ones(3))
        try:
            out.sum().backward()
            error = None
        except RuntimeError:
            error = "RuntimeError"
        seen.append((str(out.dtype), type(out.grad_fn).__name__, error))
    assert seen[0] == seen[1]


@pytest.mark.parametrize("mask", [True, False])
@pytest.mark.parametrize(
    "shapes",
    [((), ()), ((), (1,)), ((), (1, 1)), ((), (3, 2)), ((3, 2), (2,)), ((3, 2), (4,))],
)
@pytest.mark.parametrize("value_dtype", ["float32", "float64"])
def test_setitem_under_a_zero_dim_mask_is_an_index_put(mask, shapes, value_dtype):
    # a 0-d bool key is a new dim of size 1 (or 0) indexed: torch writes it with index_put,
    # which broadcasts the value to that result and refuses another dtype
    torch = pytest.importorskip("torch")
    outcomes = []
    for lib in (numtorch, torch):
        x = _ones(lib, shapes[0], "float32")
        try:
            x[lib.tensor(mask)] = _ones(lib, shapes[1], value_dtype) * 2
            outcomes.append(x.tolist())
        except RuntimeError as error:
            outcomes.append(str(error))
    assert outcomes[0] == outcomes[1]
