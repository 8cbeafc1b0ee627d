"""numtorch.optim and lr_scheduler against an installed torch: trajectories and state dicts."""

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.parity

RNG = np.random.default_rng(0)
X = RNG.standard_normal((16, 5)).astype(np.float32)
Y = RNG.standard_normal((16, 3)).astype(np.float32)
W0 = (RNG.standard_normal((5, 3)) * 0.5).astype(np.float32)
B0 = RNG.standard_normal(3).astype(np.float32)

CASES = [
    ("SGD", {"lr": 0.1}),
    ("SGD", {"lr": 0.1, "momentum": 0.9}),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "dampening": 0.3, "weight_decay": 0.05}),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True, "weight_decay": 0.05}),
    ("SGD", {"lr": 0.05, "momentum": 0.5, "maximize": True}),
    ("Adam", {"lr": 0.05}),
    ("Adam", {"lr": 0.05, "amsgrad": True}),
    ("Adam", {"lr": 0.05, "weight_decay": 0.1, "betas": (0.3, 0.8), "eps": 1e-4}),
    ("Adam", {"lr": 0.05, "maximize": True, "amsgrad": True, "weight_decay": 0.1}),
    ("Adam", {"lr": 0.05, "weight_decay": 0.1, "decoupled_weight_decay": True}),
    ("AdamW", {"lr": 0.05}),
    ("AdamW", {"lr": 0.05, "amsgrad": True, "weight_decay": 0.3}),
    ("AdamW", {"lr": 0.05, "maximize": True}),
    ("RMSprop", {"lr": 0.01}),
    ("RMSprop", {"lr": 0.01, "alpha": 0.9, "centered": True}),
    ("RMSprop", {"lr": 0.01, "momentum": 0.9, "weight_decay": 0.1}),
    ("RMSprop", {"lr": 0.01, "momentum": 0.5, "centered": True, "maximize": True, "eps": 1e-3}),
]


def loss_fn(lib, w, b):
    x, y = lib.tensor(X), lib.tensor(Y)
    return ((x @ w + b).tanh() - y).pow(2).mean()


def trajectory(lib, name, options, steps=20, group_lr=None):
    w = lib.tensor(W0, requires_grad=True)
    b = lib.tensor(B0, requires_grad=True)
    groups = [{"params": [w]}, {"params": [b]}]
    if group_lr is not None:
        groups[1]["lr"] = group_lr
    opt = getattr(lib.optim, name)(groups, **options)
    sign = -1.0 if options.get("maximize") else 1.0  # maximize climbs the negated loss
    out = []
    for _ in range(steps):
        opt.zero_grad()
        (sign * loss_fn(lib, w, b)).backward()
        opt.step()
        out.append(np.concatenate([w.detach().numpy().ravel(), b.detach().numpy().ravel()]))
    return np.array(out), opt


@pytest.mark.parametrize(("name", "options"), CASES)
def test_trajectory_matches_torch(name, options):
    ours, opt = trajectory(numtorch, name, options, group_lr=0.02)
    theirs, topt = trajectory(torch, name, options, group_lr=0.02)
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-5)
    # Same state dict layout: group options, state keys and values.
    ours_sd, theirs_sd = opt.state_dict(), topt.state_dict()
    assert ours_sd["param_groups"] == theirs_sd["param_groups"]
    assert list(ours_sd["state"]) == list(theirs_sd["state"])
    for i, state in theirs_sd["state"].items():
        assert list(ours_sd["state"][i]) == list(state)
        for key, value in state.items():
            mine = ours_sd["state"][i][key]
            assert str(mine.dtype) == str(value.dtype)
            np.testing.assert_allclose(mine.numpy(), value.numpy(), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize(("name", "options"), [CASES[3], CASES[8], CASES[11], CASES[16]])
def test_resume_from_torch_state_dict(name, options):
    """A torch optimizer state (tensors converted) continues in numtorch like in torch."""
    _, topt = trajectory(torch, name, options, steps=10)
    w_t, b_t = (p for g in topt.param_groups for p in g["params"])
    sd = topt.state_dict()
    converted = {
        "state": {
            i: {k: numtorch.tensor(v.numpy().copy()) for k, v in s.items()}
            for i, s in sd["state"].items()
        },
        "param_groups": sd["param_groups"],
    }
    w = numtorch.tensor(w_t.detach().numpy().copy(), requires_grad=True)
    b = numtorch.tensor(b_t.detach().numpy().copy(), requires_grad=True)
    opt = getattr(numtorch.optim, name)([{"params": [w]}, {"params": [b]}], lr=123.0)
    opt.load_state_dict(converted)
    sign = -1.0 if options.get("maximize") else 1.0
    for lib, params, optimizer in ((numtorch, (w, b), opt), (torch, (w_t, b_t), topt)):
        for _ in range(10):
            optimizer.zero_grad()
            (sign * loss_fn(lib, *params)).backward()
            optimizer.step()
    np.testing.assert_allclose(w.detach().numpy(), w_t.detach().numpy(), rtol=0, atol=1e-5)
    np.testing.assert_allclose(b.detach().numpy(), b_t.detach().numpy(), rtol=0, atol=1e-5)


# -- schedulers ---------------------------------------------------------------------------------
SCHEDULERS = [
    ("StepLR", {"step_size": 3}),
    ("StepLR", {"step_size": 2, "gamma": 0.5}),
    ("CosineAnnealingLR", {"T_max": 7}),
    ("CosineAnnealingLR", {"T_max": 5, "eta_min": 0.01}),
    ("LambdaLR", {"lr_lambda": lambda epoch: 0.9**epoch}),
    ("LambdaLR", {"lr_lambda": [lambda e: 1.0 / (e + 1), lambda e: e % 3]}),
]


def lr_history(lib, name, options, epochs=25):
    opt = lib.optim.SGD(
        [{"params": [lib.zeros(1, requires_grad=True)]}, {"params": [lib.zeros(1)], "lr": 0.3}],
        lr=0.1,
    )
    sched = getattr(lib.optim.lr_scheduler, name)(opt, **options)
    out = [sched.get_last_lr()]
    for _ in range(epochs):
        opt.step()
        sched.step()
        out.append(sched.get_last_lr())
    return out, sched


@pytest.mark.parametrize(("name", "options"), SCHEDULERS)
def test_scheduler_matches_torch(name, options):
    ours, sched = lr_history(numtorch, name, options)
    theirs, tsched = lr_history(torch, name, options)
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-15)
    ours_sd, theirs_sd = sched.state_dict(), tsched.state_dict()
    assert set(ours_sd) == set(theirs_sd)
    for key in ("last_epoch", "_step_count", "base_lrs"):
        assert ours_sd[key] == theirs_sd[key]


@pytest.mark.parametrize(("name", "options"), [SCHEDULERS[1], SCHEDULERS[3]])
def test_scheduler_epoch_argument_uses_closed_form_like_torch(name, options):
    results = []
    for lib in (numtorch, torch):
        opt = lib.optim.SGD([lib.zeros(1, requires_grad=True)], lr=0.1)
        sched = getattr(lib.optim.lr_scheduler, name)(opt, **options)
        opt.step()
        with pytest.warns(UserWarning, match="epoch parameter"):
            sched.step(4)
        results.append(sched.get_last_lr())
    np.testing.assert_allclose(results[0], results[1], rtol=1e-12)
