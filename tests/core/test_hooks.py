"""Hooks with torch's ordering: tensor hooks, retain_grad, node pre/post hooks, post-accumulate
hooks, handles, and hooks under autograd.grad. Each scenario records an event log that is
compared with torch's when torch is installed, and checked by hand otherwise."""

import numpy as np
import pytest

import numtorch


def values(t):
    return None if t is None else [round(v, 6) for v in t.detach().reshape(-1).tolist()]


class Log(list):
    def tensor(self, tag):
        def hook(grad):
            self.append((tag, values(grad)))

        hook.__name__ = tag
        return hook

    def node_pre(self, tag):
        return lambda grad_outputs: self.append((tag, [values(g) for g in grad_outputs]))

    def node_post(self, tag):
        return lambda grad_inputs, grad_outputs: self.append(
            (tag, [values(g) for g in grad_inputs], [values(g) for g in grad_outputs])
        )

    def post_accumulate(self, tag):
        return lambda t: self.append((tag, values(t.grad)))


def leaf(lib, data=(1.0, 2.0)):
    return lib.tensor(list(data), dtype=lib.float64, requires_grad=True)


# -- scenarios: each returns something comparable (lists of events, values) -------------------
def non_leaf_ordering(lib):
    log = Log()
    x = leaf(lib)
    y = x * 2
    y.grad_fn.register_prehook(log.node_pre("node_pre"))  # registered first, still runs later
    y.register_hook(log.tensor("tensor_1"))
    y.retain_grad()  # registered in the middle, still runs after every tensor hook
    y.register_hook(lambda g: g * 10)
    y.register_hook(log.tensor("tensor_3"))
    y.grad_fn.register_hook(log.node_post("node_post"))
    x.register_hook(log.tensor("leaf"))
    x.register_post_accumulate_grad_hook(log.post_accumulate("post_accumulate"))
    (y * y).sum().backward()
    return log, values(y.grad), values(x.grad)


def leaf_used_twice(lib):
    log = Log()
    x = leaf(lib)
    x.register_hook(log.tensor("leaf"))
    x.register_post_accumulate_grad_hook(log.post_accumulate("post_accumulate"))
    (x * x + x.exp() + x.sin()).sum().backward()
    return log, values(x.grad)


def several_roots(lib):
    log = Log()
    x = leaf(lib)
    x.register_post_accumulate_grad_hook(log.post_accumulate("post_accumulate"))
    lib.autograd.backward([(x * 3).sum(), (x * x).sum()])
    return log, values(x.grad)


def accumulate_grad_node_hooks(lib):
    log = Log()
    x = leaf(lib)
    y = x * 2
    acc = y.grad_fn.next_functions[0][0]
    acc.register_prehook(log.node_pre("acc_pre"))
    acc.register_prehook(lambda go: (go[0] * 10,))
    acc.register_hook(log.node_post("acc_post"))
    x.register_post_accumulate_grad_hook(log.post_accumulate("post_accumulate"))
    x.register_hook(log.tensor("leaf"))
    y.sum().backward()
    return log, values(x.grad)


def grad_captures(lib):
    log = Log()
    x = leaf(lib)
    x.register_hook(lambda g: g * 3)
    x.register_post_accumulate_grad_hook(log.post_accumulate("post_accumulate"))
    y = x * 2
    y.register_hook(log.tensor("y"))
    y.register_hook(lambda g: g * 5)
    y.retain_grad()
    y.grad_fn.register_prehook(log.node_pre("y_node_pre"))
    grads = lib.autograd.grad((y * y).sum(), [x, y])
    return log, [values(g) for g in grads], values(y.grad), x.grad


def grad_capture_only(lib):
    # y's node is not needed to reach the inputs: it does not run, its tensor hooks do.
    log = Log()
    x = leaf(lib)
    y = x * 2
    y.register_hook(lambda g: g * 5)
    y.grad_fn.register_prehook(log.node_pre("y_node_pre"))
    (gy,) = lib.autograd.grad((y * y).sum(), y)
    return log, values(gy)


def backward_inputs(lib):
    log = Log()
    x, w = leaf(lib), leaf(lib, (3.0, 4.0))
    x.register_hook(log.tensor("x"))
    w.register_hook(log.tensor("w"))
    w.register_post_accumulate_grad_hook(log.post_accumulate("w_post_accumulate"))
    x.register_post_accumulate_grad_hook(log.post_accumulate("x_post_accumulate"))
    (x * w).sum().backward(inputs=[x])
    return log, values(x.grad), w.grad


def node_hooks_replace(lib):
    x = leaf(lib)
    y = x.exp()
    y.grad_fn.register_prehook(lambda go: (go[0] * 2,))
    y.grad_fn.register_hook(lambda gi, go: (gi[0] + 100,))
    y.sum().backward()
    return values(x.grad)


def removed_handles(lib):
    log = Log()
    x = leaf(lib)
    handle = x.register_hook(lambda g: g * 5)
    handle.remove()
    handle.remove()
    y = x * 1
    h2 = y.register_hook(log.tensor("removed"))
    h3 = y.grad_fn.register_prehook(log.node_pre("removed_pre"))
    h4 = x.register_post_accumulate_grad_hook(log.post_accumulate("removed_post"))
    for h in (h2, h3, h4, h2):
        h.remove()
    y.sum().backward()
    return log, values(x.grad)


def remove_during_backward(lib):
    log = Log()
    x = leaf(lib)
    handles = []

    def first(g):
        handles[1].remove()
        log.append("first")

    y = x * 2
    handles.append(y.register_hook(first))
    handles.append(y.register_hook(lambda g: log.append("second")))
    y.sum().backward(retain_graph=True)
    y.sum().backward()
    return log


def create_graph_hooks(lib):
    seen = []
    x = leaf(lib)
    y = x**3
    y.register_hook(lambda g: seen.append(("y", g.requires_grad)))
    x.register_hook(lambda g: seen.append(("x", g.requires_grad, type(g.grad_fn).__name__)))
    (g,) = lib.autograd.grad(y.sum(), x, create_graph=True)
    (gg,) = lib.autograd.grad(g.sum(), x)
    return seen, values(gg)


def retain_grad_accumulates(lib):
    x = leaf(lib)
    y = x * 2
    y.retain_grad()
    y.register_hook(lambda g: g * 7)
    y.sum().backward(retain_graph=True)
    y.sum().backward()
    return values(y.grad), values(x.grad)


def optimizer_in_backward(lib):
    p = leaf(lib)

    def step(t):
        with lib.no_grad():
            t.add_(t.grad, alpha=-0.1)
        t.grad = None

    p.register_post_accumulate_grad_hook(step)
    (p * p).sum().backward()
    return values(p), p.grad


def hook_raises(lib):
    x = leaf(lib)

    def boom(g):
        raise ValueError("boom")

    y = x * 2
    y.register_hook(boom)
    with pytest.raises(ValueError, match="boom"):
        y.sum().backward()
    return x.grad


def in_place_hook(lib):
    x = leaf(lib)
    y = x * 1
    y.register_hook(lambda g: g.mul_(2))
    (y * lib.tensor([1.0, 3.0], dtype=lib.float64)).sum().backward()
    return values(x.grad)


def norm_statistics_are_not_node_outputs(lib):
    # the statistics of native_layer_norm / native_batch_norm are floating outputs torch does
    # not differentiate: the node's hooks see one grad_output (group norm's sees three)
    F = lib.nn.functional
    x = lib.tensor(np.arange(12.0).reshape(3, 4) / 7, requires_grad=True)
    log = []
    for y in (
        F.layer_norm(x, (4,)),
        F.batch_norm(x, None, None, training=True),
        F.group_norm(x.reshape(3, 4, 1), 2),
        lib.native_layer_norm(x, (4,), None, None, 1e-5)[0],
    ):
        y.grad_fn.register_hook(lambda gi, go: log.append((len(gi), len(go))))
        y.grad_fn.register_prehook(lambda go: log.append(len(go)))
        y.sum().backward()
    stats = lib.native_layer_norm(x, (4,), None, None, 1e-5)[1:]
    log.append([(t.requires_grad, t.grad_fn) for t in stats])
    return log


def hooks_where_no_gradient_arrives(lib):
    # a backward that returns None for an input: torch still runs the nodes behind it, so
    # tensor hooks, node hooks and post-accumulate-grad hooks see None
    class NoneForSecond(lib.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            return a * 2 + b

        @staticmethod
        def backward(ctx, g):
            return g * 2, None

    log = []
    a = leaf(lib)
    b = leaf(lib)
    b.register_hook(lambda g: log.append(("leaf", g)))
    b.register_post_accumulate_grad_hook(lambda p: log.append(("post-accumulate", p.grad)))
    m = b * 1
    m.register_hook(lambda g: log.append(("tensor", g)))
    m.grad_fn.register_prehook(lambda go: log.append(("pre", go)))
    m.grad_fn.register_hook(lambda gi, go: log.append(("post", gi, go)))
    NoneForSecond.apply(a, m).sum().backward()
    log.append(("grads", values(a.grad), b.grad))
    c = leaf(lib)
    c.register_hook(lambda g: log.append(("captured", g)))
    out = NoneForSecond.apply(a, c).sum()
    log.append(values(lib.autograd.grad(out, [a, c], allow_unused=True)[0]))
    c.register_hook(lambda g: lib.ones(2))
    try:
        NoneForSecond.apply(a, c).sum().backward()
    except RuntimeError as e:
        log.append(str(e))
    return log


def post_hooks_see_reduced_gradients(lib):
    # torch reduces a broadcast gradient to its input's shape (and dtype) before the node's
    # post-hooks see it
    a = lib.tensor([1.0, 2.0, 3.0], dtype=lib.float64, requires_grad=True)
    b = lib.tensor([[0.5], [-1.0]], dtype=lib.float32, requires_grad=True)
    log = []
    y = a * b
    y.grad_fn.register_hook(
        lambda gi, go: log.append([(tuple(g.shape), str(g.dtype).split(".")[1]) for g in gi])
    )
    y.sum().backward()
    return log


SCENARIOS = [
    non_leaf_ordering,
    leaf_used_twice,
    several_roots,
    accumulate_grad_node_hooks,
    grad_captures,
    grad_capture_only,
    backward_inputs,
    node_hooks_replace,
    removed_handles,
    remove_during_backward,
    create_graph_hooks,
    retain_grad_accumulates,
    optimizer_in_backward,
    hook_raises,
    in_place_hook,
    norm_statistics_are_not_node_outputs,
    hooks_where_no_gradient_arrives,
    post_hooks_see_reduced_gradients,
]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda f: f.__name__)
def test_matches_torch(scenario):
    torch = pytest.importorskip("torch")
    assert scenario(numtorch) == scenario(torch)


# -- the same facts, checked without torch -----------------------------------------------------
def test_non_leaf_order_and_retain_grad_sees_hooked_gradient():
    log, y_grad, x_grad = non_leaf_ordering(numtorch)
    assert [event[0] for event in log] == [
        "tensor_1",
        "tensor_3",
        "node_pre",
        "node_post",
        "leaf",
        "post_accumulate",
    ]
    assert log[1] == ("tensor_3", [40.0, 80.0])  # after the x10 hook
    assert y_grad == [40.0, 80.0]
    assert x_grad == [80.0, 160.0]


def test_post_accumulate_hook_fires_once_after_all_contributions():
    log, grad = leaf_used_twice(numtorch)
    assert [event[0] for event in log] == ["leaf", "post_accumulate"]
    assert log[1][1] == grad
    log, grad = several_roots(numtorch)
    assert log == [("post_accumulate", [5.0, 7.0])]


def test_accumulate_grad_node_hooks_run_around_accumulation():
    log, grad = accumulate_grad_node_hooks(numtorch)
    assert [event[0] for event in log] == ["leaf", "acc_pre", "post_accumulate", "acc_post"]
    assert grad == [20.0, 20.0]


def test_hooks_fire_for_grad_captures():
    log, grads, y_grad, x_grad = grad_captures(numtorch)
    # y runs (it leads to x): captured before its hooks; x is captured after its hook (x3).
    assert grads == [[120.0, 240.0], [4.0, 8.0]]
    assert y_grad == [20.0, 40.0] and x_grad is None
    assert [event[0] for event in log] == ["y", "y_node_pre"]
    log, gy = grad_capture_only(numtorch)
    assert log == [] and gy == [20.0, 40.0]


def test_handles_remove_is_idempotent():
    log, grad = removed_handles(numtorch)
    assert log == [] and grad == [1.0, 1.0]
    assert remove_during_backward(numtorch) == ["first", "second", "first"]
    x = leaf(numtorch)
    with x.register_hook(lambda g: g * 0):
        pass
    (x * 1).sum().backward()
    assert values(x.grad) == [1.0, 1.0]


def test_hook_on_intermediate_seed_example():
    # The seed: register_hook on an intermediate, then handle.remove().
    torch = numtorch
    a = torch.tensor([2.0], requires_grad=True)
    b = a * 3
    handle = b.register_hook(lambda grad: grad * 2)
    (b * b).sum().backward()
    assert a.grad.tolist() == [72.0]
    handle.remove()
    a.grad = None
    b = a * 3
    (b * b).sum().backward()
    assert a.grad.tolist() == [36.0]


# -- errors --------------------------------------------------------------------------------------
def wrong_size(lib):
    def bad_hook(g):
        return lib.ones(3, dtype=lib.float64)

    x = leaf(lib)
    y = x * 2
    y.register_hook(bad_hook)
    y.sum().backward()


def wrong_size_leaf(lib):
    def bad_hook(g):
        return lib.ones(3, dtype=lib.float64)

    x = leaf(lib)
    x.register_hook(bad_hook)
    (x * 2).sum().backward()


def wrong_dtype(lib):
    def to_float(g):
        return g.float()

    x = leaf(lib)
    x.register_hook(to_float)
    (x * 2).sum().backward()


def not_a_tensor(lib):
    x = leaf(lib)
    (x * 2).register_hook(lambda g: 3.0)
    (x * 2).sum().backward()
    y = x * 2
    y.register_hook(lambda g: [g])
    y.sum().backward()


def pre_hook_count(lib):
    y = leaf(lib).exp()
    y.grad_fn.register_prehook(lambda go: (go[0], go[0]))
    y.sum().backward()


def post_hook_size(lib):
    y = leaf(lib).exp()
    y.grad_fn.register_hook(lambda gi, go: (lib.ones(3, dtype=lib.float64),))
    y.sum().backward()


def hook_without_grad(lib):
    lib.ones(2).register_hook(lambda g: g)


def post_accumulate_on_non_leaf(lib):
    (leaf(lib) * 2).register_post_accumulate_grad_hook(lambda t: None)


ERRORS = [
    wrong_size,
    wrong_size_leaf,
    wrong_dtype,
    not_a_tensor,
    pre_hook_count,
    post_hook_size,
    hook_without_grad,
    post_accumulate_on_non_leaf,
]


@pytest.mark.parametrize("case", ERRORS, ids=lambda f: f.__name__)
def test_errors_match_torch(case):
    torch = pytest.importorskip("torch")
    with pytest.raises(Exception) as theirs:
        case(torch)
    with pytest.raises(Exception) as ours:
        case(numtorch)
    assert type(ours.value) is type(theirs.value)
    # Same text; numtorch may add where and which shapes after torch's message.
    assert str(ours.value).startswith(str(theirs.value))


def test_wrong_size_names_the_hook_and_leaves_grad_untouched():
    with pytest.raises(RuntimeError, match="hook 'bad_hook' has changed the size of value") as e:
        wrong_size(numtorch)
    assert "expected [2], got [3]" in str(e.value)
    x = leaf(numtorch)
    x.grad = numtorch.ones(2, dtype=numtorch.float64)
    y = x * 2
    y.register_hook(lambda g: numtorch.ones(5, dtype=numtorch.float64))
    with pytest.raises(RuntimeError):
        (y + x).sum().backward()
    assert values(x.grad) == [1.0, 1.0]  # nothing accumulated by the failed backward


def test_hook_values_are_float64_exact():
    x = leaf(numtorch)
    seen = []
    y = x.exp()
    y.register_hook(lambda g: seen.append(g))
    y.sum().backward()
    np.testing.assert_array_equal(seen[0].numpy(), np.ones(2))
