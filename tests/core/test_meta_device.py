"""The meta device against torch: shapes, dtypes and grad_fns through ops, modules moved to
and from it, printing, and torch's errors for reading values that do not exist."""

import copy
import gc

import pytest

import numtorch
from numtorch._core.observers import dispatch

torch = pytest.importorskip("torch")

OPS = {
    "add": lambda lib, m: m + 1,
    "matmul": lambda lib, m: m @ lib.ones(3, 4, device="meta"),
    "sum": lambda lib, m: m.sum(),
    "mean dim": lambda lib, m: m.mean(1),
    "softmax": lambda lib, m: m.softmax(-1),
    "relu": lambda lib, m: lib.nn.functional.relu(m),
    "linear": lambda lib, m: lib.nn.functional.linear(m, lib.ones(5, 3, device="meta")),
    "view": lambda lib, m: m.view(3, 2),
    "transpose": lambda lib, m: m.T,
    "slice": lambda lib, m: m[:, 1:],
    "select": lambda lib, m: m[0],
    "expand": lambda lib, m: m.unsqueeze(0).expand(4, 2, 3),
    "cat": lambda lib, m: lib.cat([m, m]),
    "max dim": lambda lib, m: m.max(1).values,
    "to int": lambda lib, m: m.long(),
    "zeros_like": lambda lib, m: lib.zeros_like(m),
    "randn": lambda lib, m: lib.randn(2, device="meta", dtype=lib.float64),
    "tensor": lambda lib, m: lib.tensor([1.0, 2.0], device="meta"),
}


def _describe(lib, t):
    node = t.grad_fn
    return (repr(t), str(t.device), t.is_meta, tuple(t.shape), str(t.dtype),
            None if node is None else type(node).__name__)  # fmt: skip


@pytest.mark.parametrize("name", list(OPS))
def test_ops_give_meta_results(name):
    results = []
    for lib in (numtorch, torch):
        m = lib.empty(2, 3, device="meta", requires_grad=True)
        results.append(_describe(lib, OPS[name](lib, m)))
    assert results[0] == results[1]


def test_backward_on_meta_gives_meta_gradients():
    results = []
    for lib in (numtorch, torch):
        w = lib.randn(3, 2, device="meta", requires_grad=True)
        y = (w * 2).relu().sum()
        y.backward()
        results.append((_describe(lib, y), _describe(lib, w.grad)))
    assert results[0] == results[1]


@pytest.mark.parametrize(
    "read",
    [
        lambda m: m.item(),
        lambda m: m[0, 0].item(),
        lambda m: float(m[0, 0]),
        lambda m: bool(m[0, 0]),
        lambda m: m.tolist(),
        lambda m: m.numpy(),
        lambda m: m.to("cpu"),
    ],
)
def test_reading_values_raises_torch_errors(read):
    types = []
    for lib in (numtorch, torch):
        try:
            read(lib.empty(2, 3, device="meta"))
            types.append(None)
        except Exception as e:  # the type is what gets compared
            types.append(type(e).__name__)
    assert types[0] == types[1] and types[0] is not None


def _modules(lib):
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.ReLU(), lib.nn.Linear(3, 1))
    base = copy.deepcopy(model).to("meta")
    out = base(lib.ones(5, 2, device="meta"))
    moved = [repr(p) for p in base.parameters()]
    base.to_empty(device="cpu")
    back = [(str(p.device), tuple(p.shape), p.requires_grad) for p in base.parameters()]
    return repr(out), moved, back, str(model[0].weight.device)


def test_module_to_meta_and_to_empty():
    assert _modules(numtorch) == _modules(torch)


def test_meta_tensors_hold_no_memory_and_routing_turns_off_when_they_are_gone():
    big = numtorch.ones(10**6, 10**3, device="meta")  # filling 4 GB would take seconds
    assert big._data.strides == (0, 0) and big.shape == (10**6, 10**3)
    assert dispatch.meta and dispatch.slow
    del big
    gc.collect()
    assert not dispatch.meta
