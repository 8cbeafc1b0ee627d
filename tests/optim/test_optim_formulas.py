"""Adagrad, Adadelta, Adamax, NAdam, RAdam, ASGD, Rprop and LBFGS against textbook formulas;
argument errors against torch's."""

import copy
import math

import numpy as np
import pytest
from nn_parity import assert_same_error
from test_optim import GRADS, START, run_fixed_grads

import numtorch as torch
from numtorch import optim


# -- textbook formulas (float64; the per-parameter scalars of NAdam and ASGD are float32) ------
def adagrad_reference(lr, lr_decay=0.0, weight_decay=0.0, initial_accumulator_value=0.0,
                      eps=1e-10):  # fmt: skip
    p, s, out = START.copy(), initial_accumulator_value, []
    for t, g in enumerate(GRADS, 1):
        g = g + weight_decay * p
        s = s + g * g
        p = p - lr / (1 + (t - 1) * lr_decay) * g / (np.sqrt(s) + eps)
        out.append(p)
    return out


def adadelta_reference(lr=1.0, rho=0.9, eps=1e-6, weight_decay=0.0):
    p, v, u, out = START.copy(), 0.0, 0.0, []
    for g in GRADS:
        g = g + weight_decay * p
        v = rho * v + (1 - rho) * g * g
        delta = np.sqrt(u + eps) / np.sqrt(v + eps) * g
        u = rho * u + (1 - rho) * delta * delta
        p = p - lr * delta
        out.append(p)
    return out


def adamax_reference(lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0):
    b1, b2 = betas
    p, m, u, out = START.copy(), 0.0, 0.0, []
    for t, g in enumerate(GRADS, 1):
        g = g + weight_decay * p
        m = b1 * m + (1 - b1) * g
        u = np.maximum(b2 * u, np.abs(g) + eps)
        p = p - lr / (1 - b1**t) * m / u
        out.append(p)
    return out


def nadam_reference(lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, momentum_decay=4e-3,
                    decoupled_weight_decay=False):  # fmt: skip
    b1, b2 = betas
    p, m, v, product, out = START.copy(), 0.0, 0.0, 1.0, []
    for t, g in enumerate(GRADS, 1):
        if decoupled_weight_decay:
            p = p * (1 - lr * weight_decay)
        else:
            g = g + weight_decay * p
        mu = b1 * (1 - 0.5 * 0.96 ** (t * momentum_decay))
        mu_next = b1 * (1 - 0.5 * 0.96 ** ((t + 1) * momentum_decay))
        product *= mu
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        denom = np.sqrt(v / (1 - b2**t)) + eps
        p = p - lr * (1 - mu) / (1 - product) * g / denom
        p = p - lr * mu_next / (1 - product * mu_next) * m / denom
        out.append(p)
    return out


def radam_reference(lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
                    decoupled_weight_decay=False):  # fmt: skip
    b1, b2 = betas
    rho_inf = 2 / (1 - b2) - 1
    p, m, v, out = START.copy(), 0.0, 0.0, []
    for t, g in enumerate(GRADS, 1):
        if decoupled_weight_decay:
            p = p * (1 - lr * weight_decay)
        else:
            g = g + weight_decay * p
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        m_hat = m / (1 - b1**t)
        rho_t = rho_inf - 2 * t * b2**t / (1 - b2**t)
        if rho_t > 5:
            adaptive = math.sqrt(1 - b2**t) / (np.sqrt(v) + eps)
            rect = math.sqrt(
                (rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)
            )
            p = p - lr * m_hat * adaptive * rect
        else:
            p = p - lr * m_hat
        out.append(p)
    return out


def asgd_reference(lr, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0.0):
    p, eta, mu, out, averages = START.copy(), lr, 1.0, [], []
    ax = np.zeros_like(p)
    for t, g in enumerate(GRADS, 1):
        g = g + weight_decay * p
        p = p * (1 - lambd * eta) - eta * g
        ax = ax + mu * (p - ax)
        eta = lr / (1 + lambd * lr * t) ** alpha
        mu = 1 / max(1, t - t0)
        out.append(p)
        averages.append(ax)
    return out, averages


def rprop_reference(lr, etas=(0.5, 1.2), step_sizes=(1e-6, 50)):
    p, prev, out = START.copy(), np.zeros_like(START), []
    size = np.full_like(START, lr)
    for g in GRADS:
        product = g * prev
        factor = np.where(product > 0, etas[1], np.where(product < 0, etas[0], 1.0))
        size = np.clip(size * factor, *step_sizes)
        g = np.where(product < 0, 0.0, g)
        p = p - np.sign(g) * size
        prev = g
        out.append(p)
    return out


FORMULA_CASES = [
    (optim.Adagrad, adagrad_reference, {"lr": 0.1}),
    (optim.Adagrad, adagrad_reference, {"lr": 0.1, "lr_decay": 0.3, "weight_decay": 0.2}),
    (optim.Adagrad, adagrad_reference, {"lr": 0.1, "initial_accumulator_value": 0.7}),
    (optim.Adadelta, adadelta_reference, {}),
    (optim.Adadelta, adadelta_reference, {"lr": 0.5, "rho": 0.6, "eps": 1e-3, "weight_decay": 0.1}),
    (optim.Adamax, adamax_reference, {"lr": 0.1}),
    (optim.Adamax, adamax_reference, {"lr": 0.1, "betas": (0.5, 0.7), "weight_decay": 0.2}),
    (optim.NAdam, nadam_reference, {"lr": 0.1}),
    (optim.NAdam, nadam_reference, {"lr": 0.1, "momentum_decay": 0.1, "weight_decay": 0.2}),
    (
        optim.NAdam,
        nadam_reference,
        {"lr": 0.1, "weight_decay": 0.2, "decoupled_weight_decay": True},
    ),
    (optim.RAdam, radam_reference, {"lr": 0.1, "betas": (0.9, 0.99)}),  # rectified at step 6
    (optim.RAdam, radam_reference, {"lr": 0.1, "betas": (0.8, 0.9), "weight_decay": 0.2}),
    (
        optim.RAdam,
        radam_reference,
        {"lr": 0.1, "weight_decay": 0.2, "decoupled_weight_decay": True},
    ),
    (optim.ASGD, lambda **o: asgd_reference(**o)[0], {"lr": 0.1, "lambd": 0.3, "t0": 2}),
    (optim.Rprop, rprop_reference, {"lr": 0.1}),
    (optim.Rprop, rprop_reference, {"lr": 0.1, "etas": (0.3, 1.7), "step_sizes": (0.05, 0.2)}),
]


@pytest.mark.parametrize(("cls", "reference", "options"), FORMULA_CASES)
def test_matches_formula(cls, reference, options):
    np.testing.assert_allclose(
        run_fixed_grads(cls, **options), reference(**options), rtol=1e-6, atol=1e-9
    )


@pytest.mark.parametrize(("cls", "reference", "options"), FORMULA_CASES)
def test_maximize_climbs_the_negated_gradient(cls, reference, options):
    if cls is optim.ASGD or options.get("weight_decay"):
        options = {**options, "weight_decay": 0.0}  # maximize negates the gradient alone
    p = torch.tensor(START, requires_grad=True)
    q = torch.tensor(START, requires_grad=True)
    up, down = cls([p], maximize=True, **options), cls([q], **options)
    for g in GRADS:
        p.grad, q.grad = torch.tensor(g), torch.tensor(-g)
        up.step()
        down.step()
    assert np.array_equal(p.detach().numpy(), q.detach().numpy())


def test_asgd_keeps_the_running_average():
    p = torch.tensor(START, requires_grad=True)
    opt = optim.ASGD([p], lr=0.1, lambd=0.3, t0=2)
    for g in GRADS:
        p.grad = torch.tensor(g)
        opt.step()
    _, averages = asgd_reference(lr=0.1, lambd=0.3, t0=2)
    np.testing.assert_allclose(opt.state[p]["ax"].numpy(), averages[-1], rtol=1e-6)
    assert opt.state[p]["eta"].dtype == torch.float32 and opt.state[p]["mu"].item() == 0.25


def test_adagrad_state_exists_from_the_constructor():
    a = torch.ones(2, requires_grad=True)
    opt = optim.Adagrad([a], initial_accumulator_value=0.5)
    assert list(opt.state[a]) == ["step", "sum"] and opt.state[a]["sum"].tolist() == [0.5, 0.5]
    b = torch.ones(1, requires_grad=True)
    opt.add_param_group({"params": [b], "initial_accumulator_value": 2.0})
    b.grad = torch.ones(1)
    opt.step()
    # Like torch, a later group's state starts from the constructor's value.
    assert opt.state[b]["sum"].tolist() == [1.5] and opt.state[a]["step"].item() == 0.0


# -- LBFGS --------------------------------------------------------------------------------------
def rosenbrock_problem(**options):
    xy = torch.tensor([-1.5, 2.0], dtype=torch.float64, requires_grad=True)
    opt = optim.LBFGS([xy], **options)

    def closure():
        opt.zero_grad()
        x, y = xy[0], xy[1]
        loss = (1 - x) ** 2 + 100 * (y - x * x) ** 2
        loss.backward()
        return loss

    return xy, opt, closure


@pytest.mark.parametrize("line_search_fn", [None, "strong_wolfe"])
def test_lbfgs_minimises_rosenbrock(line_search_fn):
    lr = 1 if line_search_fn else 0.2
    xy, opt, closure = rosenbrock_problem(lr=lr, line_search_fn=line_search_fn, max_iter=50)
    for _ in range(20):
        opt.step(closure)
    np.testing.assert_allclose(xy.detach().numpy(), [1.0, 1.0], atol=1e-4)


def test_lbfgs_state_dict_resume_gives_identical_trajectory():
    xy, opt, closure = rosenbrock_problem(line_search_fn="strong_wolfe", max_iter=3, history_size=4)
    for _ in range(3):
        opt.step(closure)
    saved, start = copy.deepcopy(opt.state_dict()), xy.detach().clone()
    for _ in range(3):
        opt.step(closure)

    xy2, opt2, closure2 = rosenbrock_problem(line_search_fn="strong_wolfe", max_iter=3)
    with torch.no_grad():
        xy2.copy_(start)
    opt2.load_state_dict(saved)
    assert opt2.param_groups[0]["history_size"] == 4 and opt2.param_groups[0]["params"] == [xy2]
    for _ in range(3):
        opt2.step(closure2)
    assert np.array_equal(xy2.detach().numpy(), xy.detach().numpy())
    assert opt2.state[xy2]["func_evals"] == opt.state[xy]["func_evals"]


def test_lbfgs_stops_at_a_stationary_point_and_returns_the_first_loss():
    w = torch.zeros(3, requires_grad=True)
    opt = optim.LBFGS([w])
    calls = []

    def closure():
        calls.append(1)
        opt.zero_grad()
        loss = (w * w).sum() + 1
        loss.backward()
        return loss

    assert opt.step(closure).item() == 1.0
    assert len(calls) == 1 and list(opt.state[w]) == ["func_evals", "n_iter"]


def test_lbfgs_errors():
    w = torch.zeros(2, requires_grad=True)
    with pytest.raises(ValueError, match="LBFGS doesn't support per-parameter options"):
        optim.LBFGS([{"params": [w]}, {"params": [torch.zeros(1, requires_grad=True)]}])
    opt = optim.LBFGS([w], line_search_fn="backtracking")

    def closure():
        opt.zero_grad()
        loss = ((w - 1) ** 2).sum()
        loss.backward()
        return loss

    with pytest.raises(RuntimeError, match="only 'strong_wolfe' is supported"):
        opt.step(closure)
    with pytest.raises(TypeError):
        opt.step()


# -- argument errors: torch's types and messages -------------------------------------------------
ERROR_CASES = [
    ("Adagrad", {"lr": -1}),
    ("Adagrad", {"lr_decay": -0.1}),
    ("Adagrad", {"weight_decay": -0.1}),
    ("Adagrad", {"initial_accumulator_value": -1.0}),
    ("Adagrad", {"eps": -1e-3}),
    ("Adadelta", {"lr": -0.5}),
    ("Adadelta", {"rho": 1.5}),
    ("Adadelta", {"eps": -1.0}),
    ("Adadelta", {"weight_decay": -1.0}),
    ("Adamax", {"betas": (1.0, 0.9)}),
    ("Adamax", {"betas": (0.9, -0.5)}),
    ("Adamax", {"eps": -1.0}),
    ("NAdam", {"momentum_decay": -1.0}),
    ("NAdam", {"betas": (0.9, 1.0)}),
    ("NAdam", {"weight_decay": -0.2}),
    ("RAdam", {"lr": -0.01}),
    ("RAdam", {"betas": (-0.1, 0.9)}),
    ("ASGD", {"lr": -0.01}),
    ("ASGD", {"weight_decay": -0.01}),
    ("Rprop", {"etas": (1.5, 1.2)}),
    ("Rprop", {"etas": (0.5, 0.9)}),
    ("Rprop", {"lr": -1.0}),
    ("LBFGS", {"lr": -1.0}),
    ("Adamax", {"lr": math.nan}),
]


@pytest.mark.parametrize(("name", "options"), ERROR_CASES)
def test_invalid_arguments_like_torch(name, options):
    real_torch = pytest.importorskip("torch")

    def build(lib):
        getattr(lib.optim, name)([lib.ones(1, requires_grad=True)], **options)

    assert_same_error(build, real_torch)
