"""Corners the differential fuzzer found in random op graphs: argument shapes torch checks in its
own order and words, where NumPy would fail inside the op. Each is checked against torch where
it is installed."""

from __future__ import annotations

import pytest

import numtorch


def test_native_group_norm_checks_the_element_count():
    x = numtorch.ones(2, 3, dtype=numtorch.float64)
    with pytest.raises(RuntimeError, match=r"X.numel\(\) == N \* C \* HxW"):
        numtorch.native_group_norm(x, None, None, 2, 2, 2, 1, 1e-5)


@pytest.mark.parametrize("b_shape, left", [((0, 4), True), ((2, 4), True), ((4, 2), False)])
def test_solve_triangular_refuses_incompatible_shapes(b_shape, left):
    A, B = numtorch.ones(3, 3), numtorch.ones(*b_shape)
    equation = "AX = B" if left else "XA = B"
    with pytest.raises(
        RuntimeError, match=f"Incompatible shapes of A and B for the equation {equation}"
    ):
        numtorch.linalg.solve_triangular(A, B, upper=True, left=left)


@pytest.mark.parametrize(
    "shapes", [((3, 2, 4), (1, 2, 5), 0), ((3, 2, 4), (1, 3, 5), 0), ((3, 2), (), 0)]
)
def test_index_copy_names_both_slice_shapes(shapes):
    input_shape, source_shape, dim = shapes
    torch = pytest.importorskip("torch")
    messages = []
    for lib in (numtorch, torch):
        with pytest.raises(RuntimeError) as error:
            lib.ones(input_shape).index_copy(dim, lib.tensor([0]), lib.ones(source_shape))
        messages.append(str(error.value))
    assert messages[0] == messages[1]


# input shape, src shape, index: torch's checks in its order (self's sizes, src's sizes read
# per index dim, src's number of dims) where NumPy would fail inside the write
SCATTER_SHAPES = [
    ((3, 4), (), [[0, 1, 0, 2], [0, 1, 2, 2]]),
    ((3, 4), (4,), [[0, 1, 0, 2], [0, 1, 2, 2]]),
    ((3, 4), (4,), [[0, 1, 0, 2, 1]]),
    ((3, 4), (3, 4, 1), [[0, 1, 0, 2], [0, 1, 2, 2]]),
    ((3, 4), (1, 4), [[0, 1, 0, 2], [0, 1, 2, 2]]),
    ((3, 4), (2, 5), [[0, 1, 0, 2, 1]]),
]


@pytest.mark.parametrize("method", ["scatter", "scatter_add", "scatter_reduce"])
@pytest.mark.parametrize("shapes", SCATTER_SHAPES)
def test_scatter_checks_index_against_self_and_src_as_torch(method, shapes):
    input_shape, src_shape, index = shapes

    def outcome(lib):
        x, src, i = lib.zeros(input_shape), lib.ones(src_shape), lib.tensor(index)
        extra = ("sum",) if method == "scatter_reduce" else ()
        with pytest.raises((RuntimeError, IndexError)) as error:
            getattr(x, method)(0, i, src, *extra)
        return type(error.value).__name__, str(error.value)

    ours = outcome(numtorch)
    torch = pytest.importorskip("torch")
    assert ours == outcome(torch)


def _error_type(call):
    try:
        call()
    except Exception as exc:  # compared by type with torch's
        return type(exc).__name__
    return None


def _lstsq_batches_mismatch(lib):
    a, b = lib.ones(2, 4, 2, dtype=lib.float64), lib.ones(0, 4, 3, dtype=lib.float64)
    return _error_type(lambda: lib.linalg.lstsq(a, b))


def test_lstsq_refuses_batches_that_do_not_broadcast():
    assert _lstsq_batches_mismatch(numtorch) == "RuntimeError"
    torch = pytest.importorskip("torch")
    assert _lstsq_batches_mismatch(torch) == "RuntimeError"


def _dense_times_sparse_errors(lib):
    sparse = lib.sparse_coo_tensor(
        lib.tensor([[0, 1], [1, 2]]), lib.tensor([1.0, 2.0], dtype=lib.float64), (3, 4)
    )
    denses = [lib.tensor(1.0), lib.tensor(1.0, dtype=lib.float64), lib.ones(3), lib.ones(2, 3)]
    return [_error_type(lambda d=d: lib.mm(d, sparse)) for d in denses]


def test_dense_times_sparse_checks_the_dense_dims_first():
    errors = _dense_times_sparse_errors(numtorch)
    assert errors == ["IndexError"] * 3 + ["RuntimeError"]
    torch = pytest.importorskip("torch")
    assert errors == _dense_times_sparse_errors(torch)


@pytest.mark.parametrize("dims", [2, 3])
@pytest.mark.parametrize("ndim", [0, 1, 2, 3])
def test_adaptive_max_pool_fills_sizes_before_checking_the_rank(dims, ndim):
    # a size list with no fewer entries than the input has dims: the filler's ValueError
    torch = pytest.importorskip("torch")
    found = []
    for lib in (numtorch, torch):
        pool = getattr(lib.nn.functional, f"adaptive_max_pool{dims}d")
        try:
            found.append(pool(lib.ones((2,) * ndim), [2] * dims).shape)
        except (RuntimeError, ValueError) as e:
            found.append((type(e).__name__, str(e).split(",")[0]))
    assert found[0] == found[1]


@pytest.mark.parametrize("sizes", [(3, 3), (4, -1), (), (-1, -1)])
def test_unflatten_refuses_sizes_in_torchs_words(sizes):
    # torch's own messages for sizes that do not multiply up or are empty; an inference
    # error comes wrapped as "unexpected"
    torch = pytest.importorskip("torch")
    messages = []
    for lib in (numtorch, torch):
        with pytest.raises(RuntimeError) as error:
            lib.ones(2, 6 if sizes != (3, 3) else 2).unflatten(1, sizes)
        messages.append(str(error.value).split("\nException raised from")[0])
    assert messages[0] == messages[1]


CLAMP_SHAPES = [
    ((), (), (3,)),
    ((), (3,), ()),
    ((1,), (), (3,)),
    ((), (2, 1), (3,)),
    ((), (3,), (3,)),
]


@pytest.mark.parametrize("shapes", CLAMP_SHAPES)
@pytest.mark.parametrize("needs", [(1, 1, 1), (1, 0, 0), (0, 1, 0), (0, 0, 1)])
@pytest.mark.parametrize("create_graph", [False, True])
def test_clamp_backward_combines_its_masks_in_place_as_torch(shapes, needs, create_graph):
    """torch's gradients of clamp with tensor bounds combine two comparison masks in place
    (``(x >= min).logical_and_(x <= max)``, and so on for each bound): where the first mask
    is narrower than the broadcast of both, the backward raises the in-place error, even
    where the forward broadcast all three."""
    torch = pytest.importorskip("torch")

    def run(lib):
        x, low, high = (
            lib.full(s, v).requires_grad_(bool(n))
            for s, v, n in zip(shapes, (0.5, 0.2, 0.1), needs)
        )
        try:
            grads = lib.autograd.grad(
                lib.clamp(x, low, high).sum(),
                [t for t in (x, low, high) if t.requires_grad],
                create_graph=create_graph,
            )
        except RuntimeError as error:
            return type(error).__name__
        return [g.tolist() for g in grads]

    assert run(numtorch) == run(torch)
