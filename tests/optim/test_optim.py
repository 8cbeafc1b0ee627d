"""numtorch.optim against hand-written formulas, plus groups, state dicts, versions, errors."""

import copy
import math

import numpy as np
import pytest

import numtorch as torch
from numtorch import optim

RNG = np.random.default_rng(0)
GRADS = [RNG.standard_normal((3, 4)) for _ in range(6)]
START = RNG.standard_normal((3, 4))


def run_fixed_grads(cls, **options):
    """Step ``cls`` through the fixed gradient sequence GRADS (float64); the trajectory."""
    p = torch.tensor(START, requires_grad=True)
    opt = cls([p], **options)
    out = []
    for g in GRADS:
        p.grad = torch.tensor(g)
        opt.step()
        out.append(p.detach().numpy().copy())
    return out


# -- textbook formulas, written independently of torch's rearrangements -------------------------
def sgd_reference(
    lr, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False, maximize=False
):
    p, buf, out = START.copy(), None, []
    for g in GRADS:
        g = -g if maximize else g
        g = g + weight_decay * p
        if momentum:
            buf = g.copy() if buf is None else momentum * buf + (1 - dampening) * g
            g = g + momentum * buf if nesterov else buf
        p = p - lr * g
        out.append(p)
    return out


def adam_reference(lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, amsgrad=False,
                   maximize=False, decoupled=False):  # fmt: skip
    b1, b2 = betas
    p, m, v, vmax, out = START.copy(), 0.0, 0.0, 0.0, []
    for t, g in enumerate(GRADS, 1):
        g = -g if maximize else g
        if decoupled:
            p = p * (1 - lr * weight_decay)
        else:
            g = g + weight_decay * p
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        vmax = np.maximum(vmax, v)
        m_hat = m / (1 - b1**t)
        v_hat = (vmax if amsgrad else v) / (1 - b2**t)
        p = p - lr * m_hat / (np.sqrt(v_hat) + eps)
        out.append(p)
    return out


def rmsprop_reference(lr, alpha=0.99, eps=1e-8, weight_decay=0.0, momentum=0.0, centered=False,
                      maximize=False):  # fmt: skip
    p, v, a, buf, out = START.copy(), 0.0, 0.0, 0.0, []
    for g in GRADS:
        g = -g if maximize else g
        g = g + weight_decay * p
        v = alpha * v + (1 - alpha) * g * g
        if centered:
            a = alpha * a + (1 - alpha) * g
            denom = np.sqrt(v - a * a) + eps
        else:
            denom = np.sqrt(v) + eps
        if momentum:
            buf = momentum * buf + g / denom
            p = p - lr * buf
        else:
            p = p - lr * g / denom
        out.append(p)
    return out


SGD_CASES = [
    {"lr": 0.1},
    {"lr": 0.1, "momentum": 0.9},
    {"lr": 0.1, "momentum": 0.9, "dampening": 0.25},
    {"lr": 0.1, "momentum": 0.9, "nesterov": True},
    {"lr": 0.05, "momentum": 0.5, "weight_decay": 0.1, "maximize": True},
]
ADAM_CASES = [
    {"lr": 0.1},
    {"lr": 0.1, "amsgrad": True},
    {"lr": 0.1, "weight_decay": 0.2, "maximize": True},
    {"lr": 0.1, "betas": (0.3, 0.8), "eps": 1e-3, "amsgrad": True, "weight_decay": 0.1},
]
RMSPROP_CASES = [
    {"lr": 0.01},
    {"lr": 0.01, "alpha": 0.9, "centered": True},
    {"lr": 0.01, "momentum": 0.9, "weight_decay": 0.1},
    {"lr": 0.01, "momentum": 0.5, "centered": True, "maximize": True, "eps": 1e-4},
]


@pytest.mark.parametrize("options", SGD_CASES)
def test_sgd_matches_formula(options):
    np.testing.assert_allclose(
        run_fixed_grads(optim.SGD, **options), sgd_reference(**options), rtol=1e-12, atol=1e-12
    )


@pytest.mark.parametrize("options", ADAM_CASES)
def test_adam_matches_formula(options):
    np.testing.assert_allclose(
        run_fixed_grads(optim.Adam, **options), adam_reference(**options), rtol=1e-10, atol=1e-12
    )


@pytest.mark.parametrize("options", ADAM_CASES)
def test_adamw_matches_formula(options):
    options = {"weight_decay": 1e-2, **options}  # AdamW's default decay
    expected = adam_reference(**options, decoupled=True)
    np.testing.assert_allclose(
        run_fixed_grads(optim.AdamW, **options), expected, rtol=1e-10, atol=1e-12
    )


def test_adamw_default_weight_decay_and_adam_decoupled_flag():
    assert optim.AdamW([torch.zeros(1, requires_grad=True)]).defaults["weight_decay"] == 1e-2
    np.testing.assert_allclose(
        run_fixed_grads(optim.Adam, lr=0.1, weight_decay=0.3, decoupled_weight_decay=True),
        run_fixed_grads(optim.AdamW, lr=0.1, weight_decay=0.3),
        rtol=0,
        atol=0,
    )


@pytest.mark.parametrize("options", RMSPROP_CASES)
def test_rmsprop_matches_formula(options):
    np.testing.assert_allclose(
        run_fixed_grads(optim.RMSprop, **options),
        rmsprop_reference(**options),
        rtol=1e-10,
        atol=1e-12,
    )


ELEMENTWISE_CASES = [
    (optim.SGD, {"lr": 0.1, "weight_decay": 0.1}),
    (optim.Adam, {"lr": 0.1, "weight_decay": 0.1}),
    (optim.AdamW, {"lr": 0.1, "weight_decay": 0.1}),
    (optim.RMSprop, {"lr": 0.1, "weight_decay": 0.1}),
    (optim.Adagrad, {"lr": 0.1, "lr_decay": 0.1, "weight_decay": 0.1}),
    (optim.Adadelta, {"weight_decay": 0.1}),
    (optim.Adamax, {"lr": 0.05, "weight_decay": 0.1}),
    (optim.NAdam, {"lr": 0.05, "weight_decay": 0.1, "decoupled_weight_decay": True}),
    (optim.RAdam, {"lr": 0.05, "weight_decay": 0.1}),
    (optim.ASGD, {"lr": 0.05, "t0": 1, "weight_decay": 0.1}),
    (optim.Rprop, {"lr": 0.01}),
]


@pytest.mark.parametrize(("cls", "options"), ELEMENTWISE_CASES)
def test_float32_params_stay_float32_and_grad_untouched(cls, options):
    p = torch.ones(3, requires_grad=True)
    opt = cls([p], maximize=True, **options)
    p.grad = torch.tensor([1.0, -2.0, 3.0])
    opt.step()
    assert p.dtype == torch.float32
    assert p.grad.tolist() == [1.0, -2.0, 3.0]
    for value in opt.state[p].values():
        if value.dim():
            assert value.dtype == torch.float32


# -- groups, grads, closures, hooks -------------------------------------------------------------
def test_param_groups_take_defaults_and_own_options():
    a = torch.ones(2, requires_grad=True)
    b = torch.ones(2, requires_grad=True)
    opt = optim.SGD([{"params": [a]}, {"params": b, "lr": 1.0}], lr=0.1, momentum=0.0)
    a.grad = torch.ones(2)
    b.grad = torch.ones(2)
    opt.step()
    assert a.tolist() == pytest.approx([0.9, 0.9])
    assert b.tolist() == [0.0, 0.0]
    assert opt.param_groups[1]["momentum"] == 0.0 and opt.param_groups[1]["params"] == [b]


def test_add_param_group_and_named_params():
    a = torch.ones(2, requires_grad=True)
    b = torch.ones(3, requires_grad=True)
    opt = optim.Adam([("w", a)], lr=0.1)
    opt.add_param_group({"params": [("v", b)], "lr": 0.5})
    assert [g["param_names"] for g in opt.param_groups] == [["w"], ["v"]]
    assert opt.param_groups[1]["betas"] == (0.9, 0.999)
    with pytest.raises(ValueError, match="some parameters appear in more than one"):
        opt.add_param_group({"params": [("a", a)]})
    with pytest.raises(ValueError, match="all optimizer param groups should be with/without"):
        opt.add_param_group({"params": [torch.ones(1, requires_grad=True)]})


def test_params_without_grad_are_skipped():
    a = torch.ones(2, requires_grad=True)
    b = torch.ones(2, requires_grad=True)
    opt = optim.Adam([a, b], lr=0.1)
    a.grad = torch.ones(2)
    opt.step()
    assert b.tolist() == [1.0, 1.0] and b not in opt.state and a in opt.state


@pytest.mark.parametrize("set_to_none", [True, False])
def test_zero_grad(set_to_none):
    p = torch.ones(2, requires_grad=True)
    opt = optim.SGD([p], lr=0.1)
    (p * 3).sum().backward()
    grad = p.grad
    opt.zero_grad(set_to_none=set_to_none)
    if set_to_none:
        assert p.grad is None
    else:
        assert p.grad is grad and p.grad.tolist() == [0.0, 0.0]


def test_step_closure_runs_with_grad_and_returns_loss():
    p = torch.tensor([2.0], requires_grad=True)
    opt = optim.SGD([p], lr=0.25)

    def closure():
        opt.zero_grad()
        loss = (p * p).sum()
        loss.backward()
        return loss

    with torch.no_grad():
        loss = opt.step(closure)
    assert loss.item() == 4.0
    assert p.tolist() == [1.0]  # 2 - 0.25 * 4


def test_step_hooks_run_around_step_and_can_be_removed():
    p = torch.ones(1, requires_grad=True)
    opt = optim.SGD([p], lr=0.1)
    calls = []
    pre = opt.register_step_pre_hook(lambda o, args, kwargs: calls.append(("pre", p.item())))
    opt.register_step_post_hook(lambda o, args, kwargs: calls.append(("post", p.item())))
    p.grad = torch.ones(1)
    opt.step()
    pre.remove()
    opt.step()
    assert [c[0] for c in calls] == ["pre", "post", "post"]
    assert calls[1][1] == pytest.approx(0.9)


def test_step_updates_bump_versions_and_break_saved_graphs():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    opt = optim.SGD([w], lr=0.1, momentum=0.9)
    (w * w).sum().backward()
    before = w._version
    loss = (w * w).sum()  # saves w for backward
    opt.step()
    assert w._version > before
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        loss.backward()


@pytest.mark.parametrize(
    "cls",
    [optim.Adam, optim.RMSprop, optim.Adagrad, optim.Adadelta, optim.Adamax, optim.NAdam]
    + [optim.RAdam, optim.ASGD, optim.Rprop],
)
def test_state_tensors_bump_versions(cls):
    w = torch.ones(2, requires_grad=True)
    opt = cls([w], lr=0.1)
    w.grad = torch.ones(2)
    opt.step()
    versions = {k: v._version for k, v in opt.state[w].items()}
    opt.step()
    assert all(opt.state[w][k]._version > n for k, n in versions.items())


# -- state dicts --------------------------------------------------------------------------------
def make_problem():
    rng = np.random.default_rng(1)
    x = torch.tensor(rng.standard_normal((8, 3)).astype(np.float32))
    y = torch.tensor(rng.standard_normal((8, 2)).astype(np.float32))
    w = torch.tensor(rng.standard_normal((3, 2)).astype(np.float32), requires_grad=True)
    b = torch.zeros(2, requires_grad=True)
    return x, y, w, b


def train(opt, params, x, y, steps):
    w, b = params
    for _ in range(steps):
        opt.zero_grad()
        ((x @ w + b).tanh() - y).pow(2).mean().backward()
        opt.step()


RESUME_CASES = [
    (optim.SGD, {"lr": 0.1, "momentum": 0.9, "nesterov": True}),
    (optim.Adam, {"lr": 0.05, "amsgrad": True}),
    (optim.AdamW, {"lr": 0.05}),
    (optim.RMSprop, {"lr": 0.01, "momentum": 0.5, "centered": True}),
    *ELEMENTWISE_CASES[4:],
]


@pytest.mark.parametrize(("cls", "options"), RESUME_CASES)
def test_state_dict_resume_gives_identical_trajectory(cls, options):
    x, y, w, b = make_problem()
    opt = cls([{"params": [w]}, {"params": [b], "lr": 0.02}], **options)
    train(opt, (w, b), x, y, 10)
    saved_params = (w.detach().clone(), b.detach().clone())
    saved = copy.deepcopy(opt.state_dict())
    train(opt, (w, b), x, y, 10)

    w2 = saved_params[0].requires_grad_()
    b2 = saved_params[1].requires_grad_()
    opt2 = cls([{"params": [w2]}, {"params": [b2], "lr": 0.5}], **options)
    opt2.load_state_dict(saved)
    assert opt2.param_groups[1]["lr"] == 0.02 and opt2.param_groups[1]["params"] == [b2]
    train(opt2, (w2, b2), x, y, 10)
    assert np.array_equal(w2.detach().numpy(), w.detach().numpy())
    assert np.array_equal(b2.detach().numpy(), b.detach().numpy())


def test_state_dict_format_is_torch_s():
    a = torch.ones(2, requires_grad=True)
    b = torch.ones(3, requires_grad=True)
    opt = optim.Adam([{"params": [a]}, {"params": [b], "lr": 0.5}], lr=0.1)
    a.grad = torch.ones(2)
    opt.step()
    sd = opt.state_dict()
    assert list(sd) == ["state", "param_groups"]
    assert list(sd["state"]) == [0]
    assert sorted(sd["state"][0]) == ["exp_avg", "exp_avg_sq", "step"]
    assert sd["state"][0]["step"].item() == 1.0 and sd["state"][0]["step"].dtype == torch.float32
    assert [g["params"] for g in sd["param_groups"]] == [[0], [1]]
    assert sd["param_groups"][1]["lr"] == 0.5
    assert opt.param_groups[0]["params"] == [a]  # packing does not touch the live groups


def test_load_state_dict_copies_and_casts_to_param_dtype():
    p = torch.ones(2, requires_grad=True)
    opt = optim.SGD([p], lr=0.1, momentum=0.9)
    buf = torch.tensor([1.0, 2.0], dtype=torch.float64)
    state = {
        "state": {0: {"momentum_buffer": buf}},
        "param_groups": opt.state_dict()["param_groups"],
    }
    opt.load_state_dict(state)
    loaded = opt.state[p]["momentum_buffer"]
    assert loaded.dtype == torch.float32 and loaded.tolist() == [1.0, 2.0]
    p.grad = torch.ones(2)
    opt.step()
    assert buf.tolist() == [1.0, 2.0]  # the given dict is not updated in place


def test_load_state_dict_rejects_mismatched_groups():
    a = torch.ones(2, requires_grad=True)
    b = torch.ones(2, requires_grad=True)
    opt = optim.SGD([a, b], lr=0.1)
    other = optim.SGD([{"params": [a]}, {"params": [b]}], lr=0.1)
    with pytest.raises(ValueError, match="different number of parameter groups"):
        opt.load_state_dict(other.state_dict())
    small = optim.SGD([a], lr=0.1)
    with pytest.raises(ValueError, match="doesn't match the size of optimizer's group"):
        opt.load_state_dict(small.state_dict())


# -- argument errors (torch's messages) ---------------------------------------------------------
@pytest.mark.parametrize(
    ("cls", "options", "message"),
    [
        (optim.SGD, {"lr": -0.1}, "Invalid learning rate: -0.1"),
        (optim.SGD, {"momentum": -1.0}, "Invalid momentum value: -1.0"),
        (optim.SGD, {"weight_decay": -1.0}, "Invalid weight_decay value: -1.0"),
        (optim.SGD, {"nesterov": True}, "Nesterov momentum requires a momentum and zero dampening"),
        (
            optim.SGD,
            {"nesterov": True, "momentum": 0.9, "dampening": 0.1},
            "Nesterov momentum requires a momentum and zero dampening",
        ),
        (optim.Adam, {"lr": -1.0}, "Invalid learning rate: -1.0"),
        (optim.Adam, {"eps": -1.0}, "Invalid epsilon value: -1.0"),
        (optim.Adam, {"betas": (1.0, 0.9)}, "Invalid beta parameter at index 0: 1.0"),
        (optim.Adam, {"betas": (0.9, -0.1)}, "Invalid beta parameter at index 1: -0.1"),
        (optim.Adam, {"betas": (0, 0.9)}, "betas must be either both floats or both Tensors"),
        (optim.AdamW, {"weight_decay": -0.1}, "Invalid weight_decay value: -0.1"),
        (optim.RMSprop, {"alpha": -0.5}, "Invalid alpha value: -0.5"),
        (optim.RMSprop, {"momentum": -0.5}, "Invalid momentum value: -0.5"),
        (optim.RMSprop, {"lr": math.nan}, "Invalid learning rate: nan"),
    ],
)
def test_invalid_arguments(cls, options, message):
    with pytest.raises(ValueError) as info:
        cls([torch.ones(1, requires_grad=True)], **options)
    assert str(info.value) == message


def test_invalid_params():
    with pytest.raises(ValueError, match="optimizer got an empty parameter list"):
        optim.SGD([], lr=0.1)
    with pytest.raises(TypeError, match="should be an iterable of Tensors or dicts"):
        optim.SGD(torch.ones(1, requires_grad=True), lr=0.1)
    with pytest.raises(TypeError, match="optimizer can only optimize Tensors"):
        optim.SGD([1.0], lr=0.1)
    with pytest.raises(ValueError, match="can't optimize a non-leaf Tensor"):
        optim.SGD([torch.ones(1, requires_grad=True) * 2], lr=0.1)
    with pytest.raises(TypeError, match="ordered collections"):
        optim.SGD([{"params": {torch.ones(1, requires_grad=True)}}], lr=0.1)
    # as torch: differentiable/capturable are accepted here and refused by step
    w = torch.ones(1, requires_grad=True)
    w.grad = torch.ones(1)
    with pytest.raises(RuntimeError, match="leaf Variable"):
        optim.Adam([w], differentiable=True).step()
    with pytest.raises(AssertionError, match="capturable=True"):
        optim.Adam([w], capturable=True).step()
    p = torch.ones(1, requires_grad=True)
    with pytest.warns(UserWarning, match="duplicate parameters"):
        optim.SGD([p, p], lr=0.1)


def test_repr_lists_group_options():
    text = repr(optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1))
    assert text.startswith("SGD (\nParameter Group 0\n") and "    lr: 0.1\n" in text


# -- threaded updates ---------------------------------------------------------------------------
@pytest.mark.parametrize(("cls", "options"), RESUME_CASES)
def test_threaded_update_is_bitwise_equal_to_serial(cls, options, monkeypatch):
    from numtorch.optim import _parallel

    rng = np.random.default_rng(2)
    start = [rng.standard_normal(shape).astype(np.float32) for shape in [(400, 500), (300,)]]
    grads = [[rng.standard_normal(a.shape).astype(np.float32) for a in start] for _ in range(3)]

    def run(workers):
        monkeypatch.setattr(_parallel, "_workers", lambda: workers)
        params = [torch.tensor(a, requires_grad=True) for a in start]
        opt = cls(params, **options)
        for step_grads in grads:
            for p, g in zip(params, step_grads):
                p.grad = torch.tensor(g)
            opt.step()
        return [p.detach().numpy() for p in params]

    for serial, threaded in zip(run(1), run(3)):
        assert np.array_equal(serial, threaded)


@pytest.mark.parametrize(("cls", "options"), RESUME_CASES)
def test_blocked_update_is_bitwise_equal_to_whole_arrays(cls, options, monkeypatch):
    from numtorch.optim import _parallel

    rng = np.random.default_rng(3)
    # Odd sizes leave a short last block; the transposed gradient can't be cut.
    start = [rng.standard_normal(shape).astype(np.float32) for shape in [(37, 29), (1001,)]]
    grads = [[rng.standard_normal(a.shape).astype(np.float32) for a in start] for _ in range(3)]

    def run(block_bytes, transposed):
        monkeypatch.setattr(_parallel, "BLOCK_BYTES", block_bytes)
        params = [torch.tensor(a, requires_grad=True) for a in start]
        opt = cls(params, **options)
        for step_grads in grads:
            for p, g in zip(params, step_grads):
                p.grad = (
                    torch.tensor(g.T.copy()).t() if transposed and g.ndim == 2 else torch.tensor(g)
                )
            opt.step()
        return [p.detach().numpy() for p in params]

    whole = run(1 << 30, False)
    for blocked in (run(256, False), run(256, True)):
        for expected, got in zip(whole, blocked):
            assert np.array_equal(expected, got)


@pytest.mark.parametrize(
    "cls", [optim.Adam, optim.RMSprop, optim.Adadelta, optim.Adamax, optim.RAdam, optim.Rprop]
)
def test_plain_number_step_from_old_checkpoints_is_accepted(cls):
    p = torch.ones(2, requires_grad=True)
    opt = cls([p], lr=0.1)
    p.grad = torch.ones(2)
    opt.step()
    state = opt.state_dict()
    state["state"][0]["step"] = 1  # torch < 1.12 stored the step as a Python number
    opt2 = cls([torch.ones(2, requires_grad=True)], lr=0.1)
    opt2.load_state_dict(state)
    param = opt2.param_groups[0]["params"][0]
    param.grad = torch.ones(2)
    opt2.step()
    assert opt2.state[param]["step"].item() == 2.0


def test_torch_style_custom_optimizer_subclass():
    class PlainSGD(optim.Optimizer):
        def __init__(self, params, lr):
            super().__init__(params, {"lr": lr})

        @torch.no_grad()
        def step(self, closure=None):
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is not None:
                        p.add_(p.grad, alpha=-group["lr"])
                        self.state[p]["steps"] = self.state[p].get("steps", 0) + 1

    p = torch.tensor([1.0, 2.0], requires_grad=True)
    opt = PlainSGD([p], lr=0.5)
    seen = []
    opt.register_step_post_hook(lambda o, args, kwargs: seen.append(p.tolist()))
    (p * p).sum().backward()
    opt.step()
    assert p.tolist() == [0.0, 0.0] and seen == [[0.0, 0.0]]
    assert opt.state_dict()["state"] == {0: {"steps": 1}}


def test_step_hooks_run_once_when_an_override_calls_super_step():
    class CountingSGD(optim.SGD):
        def step(self, closure=None):
            return super().step(closure)

    p = torch.ones(1, requires_grad=True)
    opt = CountingSGD([p], lr=0.1)
    calls = []
    opt.register_step_pre_hook(lambda o, args, kwargs: calls.append("pre"))
    opt.register_step_post_hook(lambda o, args, kwargs: calls.append("post"))
    p.grad = torch.ones(1)
    opt.step()
    assert calls == ["pre", "post"] and p.item() == pytest.approx(0.9)


def test_profiler_shows_torch_s_optimizer_labels():
    p = torch.ones(3, requires_grad=True)
    opt = optim.Adam([p], lr=0.1)
    p.grad = torch.ones(3)
    with torch.autograd.profiler.profile() as prof:
        opt.step()
        opt.zero_grad()
    names = [event.name for event in prof.events()]
    assert "Optimizer.step#Adam.step" in names and "Optimizer.zero_grad#Adam.zero_grad" in names


@pytest.mark.parametrize("momentum", [0, 0.9])
def test_sgd_update_is_torch_s_fused_multiply_add(momentum):
    # torch's param.add_(grad, alpha=-lr) rounds once per element; with SciPy's BLAS axpy
    # every element does, whatever the array's size, block or layout (a whole-block array, a
    # short last block, a small array, a transposed gradient)
    pytest.importorskip("scipy")
    reference = pytest.importorskip("torch")
    rng = np.random.default_rng(4)
    start = [rng.standard_normal(s).astype(np.float32) for s in [(263_144,), (1001,), (37, 29)]]
    grads = [[rng.standard_normal(a.shape).astype(np.float32) for a in start] for _ in range(2)]
    results = []
    for lib in (torch, reference):
        params = [lib.tensor(a, requires_grad=True) for a in start]
        opt = lib.optim.SGD(params, lr=0.0123, momentum=momentum)
        for step_grads in grads:
            for p, g in zip(params, step_grads):
                p.grad = lib.tensor(g.T.copy()).t() if g.ndim == 2 else lib.tensor(g)
            opt.step()
        results.append([p.detach().numpy() for p in params])
    for ours, theirs in zip(*results):
        np.testing.assert_array_equal(ours, theirs)
