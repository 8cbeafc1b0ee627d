"""torch.utils.checkpoint: recompute in backward with identical outputs and gradients."""

import gc
import math
import tracemalloc
import warnings
import weakref

import numpy as np
import pytest

import numtorch
from numtorch.utils.checkpoint import (
    CheckpointError,
    checkpoint,
    checkpoint_sequential,
    set_checkpoint_early_stop,
)

RNG = np.random.default_rng(0)
WEIGHTS = [RNG.standard_normal((6, 6)) / 2 for _ in range(4)]


def params(lib=numtorch):
    return [lib.tensor(w, requires_grad=True) for w in WEIGHTS]


def block(x, w):
    """A layer with randomness: dropout-like masking drawn from the global generator."""
    h = (x @ w).tanh()
    keep = (numtorch.rand_like(h) > 0.3).to(h.dtype)
    return h * keep / 0.7 + x


def network(x, ws, mode):
    for w in ws:
        if mode == "plain":
            x = block(x, w)
        else:
            x = checkpoint(block, x, w, use_reentrant=mode == "reentrant")
    return (x**2).sum()


def run(mode, x_requires_grad=True, seed=5):
    ws = params()
    x = numtorch.tensor(RNG.standard_normal((3, 6)) * 0 + 0.5, requires_grad=x_requires_grad)
    numtorch.manual_seed(seed)
    loss = network(x, ws, mode)
    loss.backward()
    return loss, [w.grad for w in ws], x.grad, numtorch.get_rng_state()


@pytest.mark.parametrize("mode", ["non-reentrant", "reentrant"])
def test_outputs_gradients_and_rng_identical_to_the_plain_run(mode):
    expected = run("plain")
    got = run(mode)
    assert got[0].item() == expected[0].item()
    for a, b in zip(got[1], expected[1]):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    np.testing.assert_array_equal(got[2].numpy(), expected[2].numpy())
    # the generator ends where the plain run left it: recomputation forks and restores it
    np.testing.assert_array_equal(got[3].numpy(), expected[3].numpy())


def test_without_preserved_rng_the_recomputation_draws_new_numbers():
    ws = params()
    x = numtorch.full((3, 6), 0.5, dtype=numtorch.float64, requires_grad=True)
    numtorch.manual_seed(5)
    loss = 0
    for w in ws:
        x = checkpoint(block, x, w, use_reentrant=False, preserve_rng_state=False)
    loss = (x**2).sum()
    loss.backward()
    expected = run("plain")
    assert not all(np.array_equal(w.grad.numpy(), e.numpy()) for w, e in zip(ws, expected[1]))


def test_non_reentrant_gives_parameter_grads_when_no_input_requires_grad():
    ws = params()
    x = numtorch.full((3, 6), 0.5, dtype=numtorch.float64)
    out = checkpoint(lambda t: block(t, ws[0]), x, use_reentrant=False)
    out.sum().backward()
    assert ws[0].grad is not None
    ws2 = params()
    with pytest.warns(UserWarning, match="None of the inputs have requires_grad=True"):
        out = checkpoint(lambda t: block(t, ws2[0]), x, use_reentrant=True)
    assert not out.requires_grad and ws2[0].grad is None


def test_matches_torch_gradients_and_parameter_behaviour():
    torch = pytest.importorskip("torch")
    results = []
    for lib in (numtorch, torch):
        ws = params(lib)
        x = lib.tensor(np.full((3, 6), 0.5), requires_grad=True)
        h = x
        for w in ws[:2]:
            h = lib.utils.checkpoint.checkpoint(
                lambda t, w=w: (t @ w).tanh() + t, h, use_reentrant=False
            )
        h = lib.utils.checkpoint.checkpoint(lambda t: (t @ ws[2]).sigmoid(), h, use_reentrant=True)
        (h**2).sum().backward()
        x2 = lib.tensor(np.full((3, 6), 0.5))  # no input requires grad
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            out = lib.utils.checkpoint.checkpoint(lambda t: t @ ws[3], x2, use_reentrant=True)
        messages = [str(r.message) for r in record]
        out2 = lib.utils.checkpoint.checkpoint(lambda t: t @ ws[3], x2, use_reentrant=False)
        out2.sum().backward()
        results.append(
            ([w.grad.numpy().copy() for w in ws], x.grad.numpy(), out.requires_grad, messages)
        )
    ours, theirs = results
    for a, b in zip(ours[0], theirs[0]):
        np.testing.assert_allclose(a, b, rtol=1e-12)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-12)
    assert ours[2:] == theirs[2:]


def test_use_reentrant_warning_matches_torch():
    torch = pytest.importorskip("torch")
    texts = []
    for lib in (numtorch, torch):
        x = lib.ones(2, requires_grad=True)
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            lib.utils.checkpoint.checkpoint(lambda t: t * 2, x)
            lib.utils.checkpoint.checkpoint_sequential([lambda t: t * 2, lambda t: t + 1], 2, x)
        texts.append([str(r.message) for r in record if "use_reentrant" in str(r.message)])
    assert texts[0] == texts[1] and len(texts[0]) == 2


def test_use_reentrant_warning_without_torch():
    with pytest.warns(UserWarning, match="use_reentrant parameter should be passed explicitly"):
        checkpoint(lambda t: t * 2, numtorch.ones(2, requires_grad=True))


def errors(lib):
    cp = lib.utils.checkpoint.checkpoint
    out = []
    x = lib.ones(2, requires_grad=True)
    for call in (
        lambda: lib.autograd.grad(cp(lambda t: t.exp(), x, use_reentrant=True).sum(), x),
        lambda: cp(lambda t, a: t * a, x, a=2, use_reentrant=True),
        lambda: cp(lambda t: t, x, use_reentrant=True, debug=True),
        lambda: cp(lambda t: t, x, use_reentrant=False, determinism_check="bits"),
        lambda: lib.utils.checkpoint.checkpoint_sequential(
            [lambda t: t], 1, x, use_reentrant=False, foo=1
        ),
    ):
        with pytest.raises(Exception) as error:
            call()
        out.append((type(error.value).__name__, str(error.value)))
    return out


def test_errors_match_torch():
    torch = pytest.importorskip("torch")
    assert errors(numtorch) == errors(torch)


def test_non_reentrant_works_with_autograd_grad_and_kwargs():
    x = numtorch.tensor([1.0, 2.0], dtype=numtorch.float64, requires_grad=True)
    out = checkpoint(lambda t, scale: (t * scale).exp(), x, scale=3.0, use_reentrant=False)
    (g,) = numtorch.autograd.grad(out.sum(), x)
    np.testing.assert_allclose(g.numpy(), 3 * np.exp(3 * np.array([1.0, 2.0])))


def test_double_backward_through_a_checkpoint():
    for use_reentrant in (False,):
        x = numtorch.tensor([0.3, -0.7], dtype=numtorch.float64, requires_grad=True)
        y = checkpoint(lambda t: (t**3).sin().sum(), x, use_reentrant=use_reentrant)
        (g,) = numtorch.autograd.grad(y, x, create_graph=True)
        (gg,) = numtorch.autograd.grad(g.sum(), x)
        x2 = x.detach().requires_grad_()
        (g2,) = numtorch.autograd.grad((x2**3).sin().sum(), x2, create_graph=True)
        (gg2,) = numtorch.autograd.grad(g2.sum(), x2)
        np.testing.assert_allclose(gg.numpy(), gg2.numpy(), rtol=1e-12)


def test_retain_graph_recomputes_for_each_backward():
    calls = []

    def fn(t):
        calls.append(1)
        return (t * t).exp()

    x = numtorch.tensor([0.1, 0.2], dtype=numtorch.float64, requires_grad=True)
    y = checkpoint(fn, x, use_reentrant=False).sum()
    y.backward(retain_graph=True)
    y.backward()
    assert len(calls) == 3  # forward + one recomputation per backward
    np.testing.assert_allclose(x.grad.numpy(), 2 * 2 * x.detach().numpy() * np.exp([0.01, 0.04]))


def test_nested_checkpoints_equal_the_plain_run():
    def inner(t):
        return (t * 1.5).tanh() * t

    def outer(t):
        return checkpoint(inner, t.sin(), use_reentrant=False).exp()

    x = numtorch.tensor([0.1, 0.5, -0.3], dtype=numtorch.float64, requires_grad=True)
    checkpoint(outer, x, use_reentrant=False).sum().backward()
    x2 = x.detach().requires_grad_()
    inner(x2.sin()).exp().sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), x2.grad.numpy(), rtol=1e-12)


def test_recompute_that_changes_shapes_names_the_tensor_position():
    state = {"n": 2}

    def fn(t):
        out = t[: state["n"]].exp()
        state["n"] = 1  # the recomputation sees a different shape
        return out

    x = numtorch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = checkpoint(fn, x, use_reentrant=False)
    with pytest.raises(CheckpointError, match="tensor at position 0") as error:
        y.sum().backward()
    assert isinstance(error.value, RuntimeError)
    assert "torch.Size([2])" in str(error.value) and "torch.Size([1])" in str(error.value)


def test_recompute_that_saves_fewer_tensors_raises():
    state = {"extra": True}

    def fn(t):
        out = t.exp()
        if state["extra"]:
            out = out.sin()
        state["extra"] = False
        return out

    x = numtorch.tensor([1.0, 2.0], requires_grad=True)
    y = checkpoint(fn, x, use_reentrant=False)
    with pytest.raises(CheckpointError, match="A different number of tensors was saved"):
        y.sum().backward()


def test_modifying_an_input_in_place_before_backward_raises():
    x = numtorch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 1
    y = checkpoint(lambda t: t.exp(), h, use_reentrant=False)
    h.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def test_early_stop_stops_recomputation():
    seen = []

    def fn(t):
        b = t.exp().sin()  # the last op that saves a tensor
        seen.append("after the last save")
        return b.sum() * 1

    for enable, expected in ((True, 1), (False, 2)):
        seen.clear()
        x = numtorch.tensor([1.0, 2.0], requires_grad=True)
        with set_checkpoint_early_stop(enable):
            y = checkpoint(lambda t: fn(t) + t.sum(), x, use_reentrant=False)
        y.backward()
        assert len(seen) == expected


def test_under_no_grad_it_just_runs():
    x = numtorch.ones(2, requires_grad=True)
    with numtorch.no_grad():
        y = checkpoint(lambda t: t * 2, x, use_reentrant=False)
        z = checkpoint(lambda t: t * 2, x, use_reentrant=True)
    assert not y.requires_grad and not z.requires_grad


def test_graph_is_freed_after_backward_without_gc():
    gc.disable()
    try:
        x = numtorch.ones(4, requires_grad=True)
        y = checkpoint(lambda t: t.exp().sin(), x, use_reentrant=False)
        node = weakref.ref(y.grad_fn)
        y.sum().backward()
        del y
        assert node() is None
    finally:
        gc.enable()


# -- checkpoint_sequential -----------------------------------------------------------------------
def layers(lib):
    ws = [lib.tensor(w, requires_grad=True) for w in WEIGHTS]
    return [lambda t, w=w: (t @ w).tanh() + t for w in ws] + [lambda t: t.exp().mean()], ws


@pytest.mark.parametrize("segments", [1, 2, 3, 5])
@pytest.mark.parametrize("use_reentrant", [False, True])
def test_checkpoint_sequential_equals_plain(segments, use_reentrant):
    fns, ws = layers(numtorch)
    x = numtorch.tensor(np.full((2, 6), 0.2), requires_grad=True)
    checkpoint_sequential(fns, segments, x, use_reentrant=use_reentrant).backward()
    fns2, ws2 = layers(numtorch)
    x2 = numtorch.tensor(np.full((2, 6), 0.2), requires_grad=True)
    h = x2
    for f in fns2:
        h = f(h)
    h.backward()
    for a, b in zip(ws + [x], ws2 + [x2]):
        np.testing.assert_array_equal(a.grad.numpy(), b.grad.numpy())


def test_checkpoint_sequential_matches_torch():
    torch = pytest.importorskip("torch")
    grads = []
    for lib in (numtorch, torch):
        fns, ws = layers(lib)
        x = lib.tensor(np.full((2, 6), 0.2), requires_grad=True)
        out = lib.utils.checkpoint.checkpoint_sequential(fns, 2, x, use_reentrant=False)
        out.backward()
        grads.append([t.grad.numpy().copy() for t in ws + [x]] + [out.item()])
    for a, b in zip(*grads):
        np.testing.assert_allclose(a, b, rtol=1e-12)


# -- memory --------------------------------------------------------------------------------------
def peak_memory(mode, depth=12, width=64, batch=512):
    rng = np.random.default_rng(1)
    ws = [
        numtorch.tensor(
            rng.standard_normal((width, width)).astype(np.float32) / math.sqrt(width)
        ).requires_grad_()
        for _ in range(depth)
    ]
    fns = [lambda t, w=w: t + (t @ w).tanh() * (t * 0.5).sigmoid() for w in ws]
    x = numtorch.ones(batch, width, requires_grad=True)
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    if mode == "plain":
        h = x
        for f in fns:
            h = f(h)
    elif mode == "sequential":
        h = checkpoint_sequential(fns, 3, x, use_reentrant=False)
    else:
        h = x
        for f in fns:
            h = checkpoint(f, h, use_reentrant=mode == "reentrant")
    h.pow(2).mean().backward()
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    return peak


def test_checkpointing_lowers_peak_memory():
    plain = peak_memory("plain")
    for mode in ("non-reentrant", "reentrant", "sequential"):
        assert peak_memory(mode) < 0.7 * plain, mode
