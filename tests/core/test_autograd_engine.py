"""Engine semantics: accumulation, retain_graph, create_graph, grad(), inputs=, errors,
atomicity, deep graphs, freeing by reference counting, threads."""

from __future__ import annotations

import gc
import sys
import threading
import weakref

import numpy as np
import pytest

import numtorch as torch
from numtorch.autograd import Function


def test_grad_accumulates_in_place_across_backward_calls():
    x = torch.ones(2, requires_grad=True)
    (x * 2).sum().backward()
    first = x.grad
    (x * 3).sum().backward()
    assert x.grad is first  # same tensor, updated in place (as torch)
    assert x.grad.tolist() == [5.0, 5.0]


def test_first_grad_does_not_alias_other_leaves_or_user_tensors():
    a = torch.ones(3, requires_grad=True)
    b = torch.ones(3, requires_grad=True)
    (a + b).sum().backward()
    a.grad.add_(1)
    assert b.grad.tolist() == [1.0, 1.0, 1.0]
    x = torch.ones(3, requires_grad=True)
    g = torch.ones(3)
    (x + 0).backward(g)
    x.grad.mul_(5)
    assert g.tolist() == [1.0, 1.0, 1.0]


def test_second_backward_raises_naming_the_node():
    x = torch.ones(2, requires_grad=True)
    y = (x * x).sum()
    y.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.backward()
    assert x.grad.tolist() == [2.0, 2.0]  # no partial accumulation from the failed call
    with pytest.raises(RuntimeError, match="MulBackward0"):
        y.backward()


def test_graph_without_saved_values_can_run_twice():
    x = torch.ones(2, requires_grad=True)
    y = (x + 1).sum()
    y.backward()
    y.backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_retain_graph_allows_second_backward():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x.exp() * x).sum()
    y.backward(retain_graph=True)
    once = x.grad.clone()
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * once.numpy())


def test_create_graph_gives_higher_derivatives():
    x = torch.tensor(2.0, requires_grad=True)
    y = x**4
    (g,) = torch.autograd.grad(y, x, create_graph=True)
    (h,) = torch.autograd.grad(g, x, create_graph=True)
    (t,) = torch.autograd.grad(h, x)
    assert (g.item(), h.item(), t.item()) == (32.0, 48.0, 48.0)
    assert g.requires_grad and not t.requires_grad


def test_backward_create_graph_leaves_differentiable_grad(monkeypatch):
    # torch warns once per process: forget an earlier test's warning
    monkeypatch.setattr(torch._core.backward, "_warned_create_graph", [False])
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.warns(UserWarning, match="reference cycle"):
        (x**3).sum().backward(create_graph=True)
    assert x.grad.requires_grad and x.grad.grad_fn.name() == "torch::autograd::CopyBackwards"
    (x.grad.sum()).backward()
    assert x.grad.requires_grad  # 3x^2 + 6x accumulated out of place with its graph


def test_allow_unused_and_materialize_grads():
    a = torch.ones(2, requires_grad=True)
    b = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="index 1 appears to not have been used"):
        torch.autograd.grad((a * 2).sum(), [a, b])
    ga, gb = torch.autograd.grad((a * 2).sum(), [a, b], allow_unused=True)
    assert gb is None and ga.tolist() == [2.0, 2.0]
    ga, gb = torch.autograd.grad((a * 2).sum(), [a, b], materialize_grads=True)
    assert gb.tolist() == [0.0, 0.0] and not gb.requires_grad
    with pytest.raises(ValueError, match="allow_unused"):
        torch.autograd.grad((a * 2).sum(), [a, b], materialize_grads=True, allow_unused=False)
    with pytest.raises(RuntimeError, match="does not require grad"):
        torch.autograd.grad((a * 2).sum(), torch.ones(2))


class Counting(Function):
    calls = 0

    @staticmethod
    def forward(ctx, x):
        return x * 1

    @staticmethod
    def backward(ctx, grad):
        Counting.calls += 1
        return grad


def test_grad_runs_only_the_part_of_the_graph_that_leads_to_inputs():
    a = torch.ones(2, requires_grad=True)
    b = torch.ones(2, requires_grad=True)
    Counting.calls = 0
    loss = (a * 3).sum() + Counting.apply(b).sum()
    (ga,) = torch.autograd.grad(loss, a)
    assert ga.tolist() == [3.0, 3.0] and Counting.calls == 0
    assert a.grad is None and b.grad is None


def test_grad_of_a_non_leaf():
    a = torch.tensor(2.0, requires_grad=True)
    c = a * 0.5
    d = c.exp()
    (gc_,) = torch.autograd.grad(d, c)
    assert abs(gc_.item() - np.exp(1.0)) < 1e-6


def test_backward_inputs_restricts_accumulation():
    a = torch.ones(2, requires_grad=True)
    b = torch.ones(2, requires_grad=True)
    c = a * 2
    (c * b).sum().backward(inputs=[b])
    assert a.grad is None and b.grad.tolist() == [2.0, 2.0]
    d = a * 3
    e = d.sum()
    e.backward(inputs=[d])
    assert d.grad.tolist() == [1.0, 1.0] and a.grad is None
    with pytest.raises(RuntimeError, match="cannot be empty"):
        e.backward(inputs=[])


def test_implicit_gradient_only_for_one_element_outputs():
    x = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar"):
        (x * 2).backward()
    with pytest.raises(RuntimeError, match="does not require grad and does not have a grad_fn"):
        torch.ones(2).sum().backward()
    with torch.no_grad():
        y = (x * 2).sum()
    with pytest.raises(RuntimeError, match="element 0 of tensors does not require grad"):
        y.backward()
    with pytest.raises(RuntimeError, match=r"Mismatch in shape: grad_output\[0\] has a shape"):
        (x * 2).backward(torch.ones(3))
    x.backward(torch.tensor([1.0, 2.0]))  # backward on a leaf accumulates directly
    assert x.grad.tolist() == [1.0, 2.0]


def test_gradient_dtype_is_cast_to_output_dtype():
    x = torch.ones(2, requires_grad=True)
    (x * 2).backward(torch.ones(2, dtype=torch.float64))
    assert x.grad.dtype is torch.float32


class Boom(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 1

    @staticmethod
    def backward(ctx, grad):
        raise ValueError("boom")


def test_failed_backward_leaves_grads_and_grad_mode_untouched():
    a = torch.ones(2, requires_grad=True)
    b = torch.ones(2, requires_grad=True)
    a.grad = torch.full((2,), 7.0)
    loss = (a * 2).sum() + Boom.apply(b).sum()
    with pytest.raises(ValueError, match="boom"):
        loss.backward(retain_graph=True)
    assert a.grad.tolist() == [7.0, 7.0] and b.grad is None
    assert torch.is_grad_enabled()


def test_nodes_run_in_deterministic_order():
    order = []
    x = torch.ones(1, requires_grad=True)
    branches = [x * float(k) for k in range(5)]
    for k, branch in enumerate(branches):
        branch.grad_fn.register_hook(lambda gi, go, k=k: order.append(k))
    sum(branches).sum().backward()
    assert order == [4, 3, 2, 1, 0]  # latest-created first, as torch


def test_deep_chain_has_no_recursion_limit():
    x = torch.ones(1, requires_grad=True)
    y = x
    for _ in range(100_000):
        y = y * 1.0
    y.sum().backward()
    assert x.grad.tolist() == [1.0]
    del y  # freeing a 100k-node graph must not recurse either
    assert sys.getrecursionlimit() < 100_000


def test_graph_is_freed_by_reference_counting_alone():
    gc.disable()
    try:
        x = torch.ones(4, requires_grad=True)
        y = x.exp()
        z = (y * x).tanh()
        loss = z.sum()
        refs = [weakref.ref(t) for t in (y, z, loss)]
        refs += [weakref.ref(t.grad_fn) for t in (y, z, loss)]
        arrays = [weakref.ref(y._data.base if y._data.base is not None else y._data)]
        del y, z
        loss.backward()
        del loss
        assert all(r() is None for r in refs)
        assert all(r() is None for r in arrays)
    finally:
        gc.enable()


def test_saved_values_are_freed_after_backward_without_retain_graph():
    gc.disable()
    try:
        x = torch.ones(1000, requires_grad=True)
        hidden = x * 2
        saved = weakref.ref(hidden)
        out = (hidden * hidden).sum()
        del hidden  # only the graph holds it now
        assert saved() is not None
        out.backward()
        assert saved() is None  # released with the node's saved values, out still alive
        out2_hidden = x * 2
        out2 = (out2_hidden * out2_hidden).sum()
        kept = weakref.ref(out2_hidden)
        del out2_hidden
        out2.backward(retain_graph=True)
        assert kept() is not None
        del out2
        assert kept() is None
    finally:
        gc.enable()


def test_grad_mode_is_thread_local():
    seen = []

    def worker():
        seen.append(torch.is_grad_enabled())
        x = torch.ones(1, requires_grad=True)
        seen.append((x * 2).requires_grad)

    with torch.no_grad():
        t = threading.Thread(target=worker)
        t.start()
        t.join()
        assert not torch.is_grad_enabled()
    assert seen == [True, True]
    assert torch.is_grad_enabled()


def test_grad_modes_as_decorators_context_managers_and_calls():
    @torch.no_grad()
    def f(x):
        return x * 2

    @torch.no_grad
    def g(x):
        return x * 2

    @torch.enable_grad()
    def h(x):
        return x * 2

    x = torch.ones(1, requires_grad=True)
    assert not f(x).requires_grad and not g(x).requires_grad
    with torch.no_grad():
        assert h(x).requires_grad
    mode = torch.set_grad_enabled(False)
    assert not torch.is_grad_enabled() and "mode=False" in repr(mode)
    torch.set_grad_enabled(True)
    with torch.set_grad_enabled(False):
        assert not torch.is_grad_enabled()
    assert torch.is_grad_enabled()
    with pytest.raises(KeyError), torch.no_grad():
        raise KeyError
    assert torch.is_grad_enabled()
    with torch.inference_mode():
        assert not torch.is_grad_enabled() and torch.is_inference_mode_enabled()
    assert torch.is_grad_enabled() and not torch.is_inference_mode_enabled()


def test_inference_mode_false_turns_grad_mode_on():
    # torch's guard sets grad mode to `not mode`: inference_mode(False) records a graph even
    # inside no_grad() or inference_mode(), and restores the outer modes on exit
    x = torch.ones(2, requires_grad=True)
    for outer in (torch.no_grad, torch.inference_mode):
        with outer():
            with torch.inference_mode(False):
                assert torch.is_grad_enabled() and not torch.is_inference_mode_enabled()
                y = x * 2
            assert not torch.is_grad_enabled()
        assert y.requires_grad and not y.is_inference()
    assert torch.is_grad_enabled() and not torch.is_inference_mode_enabled()


def test_inference_tensors_have_no_version_counter():
    # torch: reading _version of an inference tensor (or a view of one) is a RuntimeError
    x = torch.ones(2, requires_grad=True)
    with torch.inference_mode():
        y = x * x
    for t in (y, y[0]):
        with pytest.raises(RuntimeError, match="do not track version counter"):
            _ = t._version
    assert x._version == 0


def test_no_grad_on_a_generator_restores_mode_between_yields():
    @torch.no_grad()
    def gen():
        for _ in range(2):
            yield torch.is_grad_enabled()

    it = gen()
    assert next(it) is False
    assert torch.is_grad_enabled()
    assert next(it) is False
    assert torch.is_grad_enabled()


def test_concurrent_backward_on_a_shared_leaf_accumulates_every_contribution():
    w = torch.ones(8, requires_grad=True)

    def worker():
        for _ in range(20):
            (w * 2).sum().backward()

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert w.grad.tolist() == [8 * 20 * 2.0] * 8


def test_retain_grad_and_non_leaf_grad_warning():
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    y.retain_grad()
    z = y * 3
    z.sum().backward()
    assert y.grad.tolist() == [3.0, 3.0]
    with pytest.warns(UserWarning, match="not a leaf Tensor"):
        assert z.grad is None


def test_tensor_hook_replaces_gradient_and_bad_shape_raises():
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: g * 10)
    y.sum().backward()
    assert x.grad.tolist() == [20.0, 20.0]
    x2 = torch.ones(2, requires_grad=True)
    y2 = x2 * 2
    y2.register_hook(lambda g: torch.ones(3))
    with pytest.raises(RuntimeError, match="hook '<lambda>' has changed the size"):
        y2.sum().backward()
    assert x2.grad is None


def test_broadcast_gradients_are_reduced_by_the_engine():
    cases = [((3, 1), (1, 4)), ((), (5, 4)), ((1,), (5, 4)), ((4,), (2, 3, 4))]
    for sa, sb in cases:
        a = torch.ones(sa, dtype=torch.float64, requires_grad=True)
        b = torch.ones(sb, dtype=torch.float64, requires_grad=True)
        (a * b).sum().backward()
        assert a.grad.shape == a.shape and b.grad.shape == b.shape
        assert a.grad.dtype == a.dtype
        assert a.grad.sum().item() == np.prod(np.broadcast_shapes(sa, sb))


def test_mixed_dtype_inputs_get_gradients_in_their_own_dtype():
    a = torch.ones(2, dtype=torch.float32, requires_grad=True)
    b = torch.ones(2, dtype=torch.float64, requires_grad=True)
    (a * b).sum().backward()
    assert a.grad.dtype is torch.float32 and b.grad.dtype is torch.float64
    i = torch.tensor([1, 2])
    (a * i).sum().backward()
    assert a.grad.tolist() == [2.0, 3.0]


class InnerGrad(Function):
    """A backward that itself runs autograd.grad on another graph (reentrant backward)."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 1

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        with torch.enable_grad():
            inner = x.detach().requires_grad_()
            (g,) = torch.autograd.grad((inner**2).sum(), inner)
        return grad * g


def test_reentrant_backward_inside_a_custom_function():
    x = torch.tensor([1.0, 3.0], requires_grad=True)
    InnerGrad.apply(x).sum().backward()
    assert x.grad.tolist() == [2.0, 6.0]


def test_deeply_nested_reentrant_backward_fails_cleanly():
    class Nest(Function):
        @staticmethod
        def forward(ctx, x, depth):
            ctx.depth = depth
            return x * 1

        @staticmethod
        def backward(ctx, grad):
            if ctx.depth == 0:
                return grad, None
            inner = torch.ones(1, requires_grad=True)
            with torch.enable_grad():
                (g,) = torch.autograd.grad(Nest.apply(inner, ctx.depth - 1).sum(), inner)
            return grad * g, None

    x = torch.ones(1, requires_grad=True)
    Nest.apply(x, 5).sum().backward()
    assert x.grad.tolist() == [1.0]
    y = torch.ones(1, requires_grad=True)
    with pytest.raises(RecursionError):
        Nest.apply(y, 2000).sum().backward()
    assert y.grad is None and torch.is_grad_enabled()


def test_inplace_on_a_non_leaf_rebases_its_history():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.mul_(x)
    assert type(y.grad_fn).__name__ == "MulBackward0" and y._version == 1
    y.sum().backward()
    assert x.grad.tolist() == [4.0, 8.0]  # d/dx (2x * x) = 4x


def test_grad_never_aliases_a_tensor_the_user_holds():
    kept = torch.ones(3)

    class ReturnsKept(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, grad):
            return kept

    x = torch.ones(3, requires_grad=True)
    ReturnsKept.apply(x).sum().backward()
    x.grad.mul_(3)
    assert kept.tolist() == [1.0, 1.0, 1.0]
    hooked = torch.ones(3, requires_grad=True)
    from_hook = torch.full((3,), 2.0)
    hooked.register_hook(lambda g: from_hook)
    (hooked * 1).sum().backward()
    hooked.grad.zero_()
    assert from_hook.tolist() == [2.0, 2.0, 2.0]


def test_weight_and_bias_gradients_reach_grad_without_a_copy(monkeypatch):
    taken = []
    owned_copy = torch.Tensor._owned_copy

    def spy(self):
        result = owned_copy(self)
        taken.append(result._data is self._data)
        return result

    monkeypatch.setattr(torch.Tensor, "_owned_copy", spy)
    w = torch.randn(4, 3, requires_grad=True)
    b = torch.randn(4, requires_grad=True)
    x = torch.randn(5, 3)
    torch.addmm(b, x, w.t()).sum().backward()
    # taken over, not copied: the weight's as a transposed view, the bias's as its sum
    assert taken == [True, True]
    assert w.grad._data.base is not None
    assert w.grad.is_contiguous() and b.grad.is_contiguous()


def test_an_inference_tensor_cannot_require_grad_outside_inference_mode():
    # numtorch let it and failed later, saving it for backward; torch refuses at once
    oracle = pytest.importorskip("torch")
    for lib in (torch, oracle):
        with lib.inference_mode():
            inside = lib.ones(2).requires_grad_()  # allowed inside
            outside = lib.ones(2)
        assert inside.requires_grad
        outside.requires_grad_(False)
        with pytest.raises(RuntimeError, match="Setting requires_grad=True on inference tensor"):
            outside.requires_grad_()
        with pytest.raises(RuntimeError, match="outside InferenceMode is not allowed"):
            outside.requires_grad = True


def test_grad_runs_no_formula_for_an_input_it_does_not_need():
    # torch computes an input's gradient only where an edge leads to grad()'s inputs: the
    # derivative igammac lacks for its first argument is not asked for x's gradient
    a = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
    x = torch.tensor([0.5, 1.0, 2.0], dtype=torch.float64, requires_grad=True)
    y = torch.igammac(a * 2, x).sum()
    (gx,) = torch.autograd.grad(y, x, retain_graph=True)
    assert np.allclose(gx.numpy(), [-0.30326533, -0.06131324, -0.03608941])
    with pytest.raises(NotImplementedError, match="igammac: input"):
        torch.autograd.grad(y, a)


def test_an_in_place_op_on_a_view_computes_the_gradients_grad_wants():
    # CopySlices runs the in-place op's node for the edges it needs itself: the written
    # tensor's refusal shows only where the base's gradient is wanted
    a = torch.tensor([0.1, 0.2, 0.3], dtype=torch.float64, requires_grad=True)
    x = torch.tensor([0.5, 1.0], dtype=torch.float64, requires_grad=True)
    b = a * 1
    b[1:].igammac_(x)
    (gx,) = torch.autograd.grad(b.sum(), x, retain_graph=True)
    assert np.allclose(gx.numpy(), [-0.23002988, -0.12297207])
    with pytest.raises(NotImplementedError, match="igammac: input"):
        torch.autograd.grad(b.sum(), a)
    c = a * 1
    c[1:].atanh_()
    with pytest.raises(NotImplementedError, match="inplace version of atanh"):
        torch.autograd.grad(c.sum(), a)
