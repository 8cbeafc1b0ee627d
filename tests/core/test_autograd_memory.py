"""Memory: graphs are freed by reference counting alone (gc disabled), and loops that users
write (hooks closing over tensors, create_graph backward, functional transforms) stay flat.

Bounds are generous: one step of each loop allocates far more than the bound, so a leak of
even one step per iteration fails clearly."""

import gc
import tracemalloc
import warnings
import weakref
from contextlib import contextmanager

import numpy as np
import pytest

import numtorch
from numtorch.autograd.functional import hessian, jacobian


@contextmanager
def no_gc():
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def growth(step, iterations, warmup=20):
    """Bytes still allocated after ``iterations`` more steps than after ``warmup`` steps (the
    warm-up fills CPython's free lists and caches, which tracemalloc also counts)."""
    with no_gc():
        tracemalloc.start()
        for _ in range(warmup):
            step()
        base = tracemalloc.get_traced_memory()[0]
        for _ in range(iterations):
            step()
        grown = tracemalloc.get_traced_memory()[0] - base
        tracemalloc.stop()
    return grown


def test_hook_closing_over_another_tensor_keeps_memory_flat():
    p = numtorch.ones(1000, requires_grad=True)

    def step():
        other = numtorch.full((1000,), 0.5)
        y = p * 2
        y.register_hook(lambda g: g * other)  # the closure holds `other` (4 kB)
        (y * y).sum().backward()
        p.grad = None

    assert growth(step, 300) < 50_000  # a leak would keep >= 300 x 12 kB


def hook_using(t):
    t.register_hook(lambda g: g * t.detach())


def test_hook_closing_over_its_own_tensor_is_collected():
    # A hook that refers to its own tensor is a Python cycle (tensor -> grad_fn -> hook ->
    # tensor), as in torch (#82528): it is freed by gc, and nothing else is kept with it.
    with no_gc():
        x = numtorch.ones(10, requires_grad=True)
        y = x.exp()
        hook_using(y)
        hook_using(x)
        refs = [weakref.ref(y), weakref.ref(y.grad_fn), weakref.ref(x)]
        y.sum().backward()
        del x, y
    gc.collect()
    assert all(r() is None for r in refs)


def test_create_graph_backward_1000_times_with_grad_reset_stays_flat():
    p = numtorch.tensor(np.linspace(-1, 1, 256), requires_grad=True)

    def step():
        loss = (p.sin() * p).sum()
        loss.backward(create_graph=True)
        (p.grad**2).sum().backward()  # a second-order use of the graph in .grad
        p.grad = None  # breaks the cycle param -> .grad -> grad_fn -> param

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert growth(step, 1000) < 100_000  # each step's graph holds > 10 kB


def test_create_graph_backward_warns_once():
    numtorch.autograd.api._warned_create_graph[0] = False
    p = numtorch.ones(2, requires_grad=True)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        for _ in range(3):
            (p * p).sum().backward(create_graph=True)
            p.grad = None
    messages = [str(r.message) for r in record if "reference cycle" in str(r.message)]
    assert len(messages) == 1


def test_graph_dies_without_gc_after_del():
    with no_gc():
        x = numtorch.ones(100, requires_grad=True)
        y = (x.exp() * x).sin()
        loss = y.sum()
        refs = [weakref.ref(loss.grad_fn), weakref.ref(y), weakref.ref(y.grad_fn)]
        node = y.grad_fn
        while node is not None and not node._is_accumulator:
            refs.append(weakref.ref(node))
            node = node.next_functions[0][0]
        del y, loss, node
        assert all(r() is None for r in refs)


def test_saved_intermediate_freed_by_backward_unless_retained():
    with no_gc():
        x = numtorch.ones(1000, requires_grad=True)
        h = x.exp()  # saved by sin (as input) and by exp (as output data)
        out = h.sin()
        saved = weakref.ref(out.grad_fn._saved_self)
        del h
        out.sum().backward()
        assert saved() is None  # freed by backward while `out` is still alive
        x.grad = None
        h = x.exp()
        out = h.sin()
        del h
        node = out.grad_fn
        array = weakref.ref(node._saved_self)
        out.sum().backward(retain_graph=True)
        assert array() is not None  # kept for a second backward
        out.sum().backward()
        del out, node
        assert array() is None


def test_custom_function_saving_its_output_has_no_cycle():
    class Exp(numtorch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            result = x.exp()
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx, grad):
            (result,) = ctx.saved_tensors
            return grad * result

    with no_gc():
        x = numtorch.ones(10, requires_grad=True)
        y = Exp.apply(x)
        ctx = weakref.ref(y.grad_fn)
        del y
        assert ctx() is None
        y = Exp.apply(x)
        y.sum().backward()
        np.testing.assert_allclose(x.grad.numpy(), np.e)


def test_functional_transforms_keep_memory_flat():
    # 8 kB weights and Jacobians: a graph or result leaked per step would add > 16 kB a step
    w = numtorch.tensor(np.linspace(-1, 1, 32 * 32).reshape(32, 32))
    x = numtorch.tensor(np.linspace(0, 1, 32))

    def step():
        jacobian(lambda t: (w @ t).tanh(), x)
        jacobian(lambda t: (w @ t).tanh(), x, vectorize=True)
        hessian(lambda t: (w @ t).tanh().sum(), x, vectorize=True)

    assert growth(step, 30, warmup=10) < 200_000


def test_functional_graphs_die_without_gc():
    with no_gc():
        x = numtorch.ones(5, requires_grad=True)
        seen = []

        def f(t):
            y = t.exp() * t
            seen.append(weakref.ref(y.grad_fn))
            return y

        jacobian(f, x, vectorize=True)
        jacobian(f, x)
        numtorch.autograd.functional.hvp(lambda t: f(t).sum(), x, numtorch.ones(5))
        assert seen and all(r() is None for r in seen)


@pytest.mark.parametrize("use_reentrant", [False, True])
def test_checkpoint_loop_keeps_memory_flat(use_reentrant):
    from numtorch.utils.checkpoint import checkpoint

    w = numtorch.tensor(np.linspace(-1, 1, 64 * 64).reshape(64, 64), requires_grad=True)
    x = numtorch.ones(16, 64, dtype=numtorch.float64)

    def step():
        h = checkpoint(lambda t, v: (t @ v).tanh() @ v, x, w, use_reentrant=use_reentrant)
        h.sum().backward()
        w.grad = None

    assert growth(step, 100) < 50_000


def test_custom_function_storing_its_output_on_ctx_is_collected():
    # ctx.out = out is a cycle (out -> grad_fn -> out), as in torch (#25340): gc frees it;
    # save_for_backward (above) needs no gc.
    class Keep(numtorch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            out = x * 2
            ctx.out = out
            return out

        @staticmethod
        def backward(ctx, g):
            return g * 2

    with no_gc():
        x = numtorch.ones(2, requires_grad=True)
        out = Keep.apply(x)
        ctx = weakref.ref(out.grad_fn)
        del out
    gc.collect()
    assert ctx() is None


def test_recorded_ops_leave_little_for_the_cyclic_gc():
    # A recorded op keeps its node and, while a later node saves it, its output tensor:
    # saved values sit in node slots and edges need no tuples (Note [Saved values in slots],
    # Note [Edges without a tuple]), so large graphs do not make Python's full collections
    # dominate. A per-op dict or tuple would push this past the bound.
    x = numtorch.full((16,), 0.9, requires_grad=True)
    w = numtorch.ones(16, requires_grad=True)
    y = x
    with no_gc():
        before = len(gc.get_objects())
        for _ in range(200):
            y = (y * w).sin().asin()
        tracked = (len(gc.get_objects()) - before) / 600
    assert tracked < 2.2
    y.sum().backward()
    assert np.allclose(x.grad.numpy(), 1.0)
    mul = y.grad_fn.next_functions[0][0].next_functions[0][0]
    assert mul.name() == "MulBackward0"
    (prev, nr), (leaf, leaf_nr) = mul.next_functions
    assert (prev.name(), nr, leaf_nr, leaf.variable is w) == ("AsinBackward0", 0, 0, True)
