"""lr_scheduler against hand-computed schedules, plus resume, warnings and errors."""

import copy
import math
import warnings

import numpy as np
import pytest

import numtorch as torch
from numtorch import optim
from numtorch.optim import SGD
from numtorch.optim.lr_scheduler import (
    CosineAnnealingLR,
    CosineAnnealingWarmRestarts,
    CyclicLR,
    ExponentialLR,
    LambdaLR,
    LinearLR,
    LRScheduler,
    MultiStepLR,
    OneCycleLR,
    ReduceLROnPlateau,
    SequentialLR,
    StepLR,
)


def make_optimizer(lrs=(0.1,)):
    return SGD([{"params": [torch.zeros(1, requires_grad=True)], "lr": lr} for lr in lrs], lr=1.0)


def run(scheduler, epochs):
    out = [scheduler.get_last_lr()]
    for _ in range(epochs):
        scheduler.optimizer.step()
        scheduler.step()
        out.append(scheduler.get_last_lr())
    return out


def test_step_lr():
    lrs = run(StepLR(make_optimizer((1.0, 0.5)), step_size=3, gamma=0.1), 7)
    expected = [[0.1 ** (t // 3), 0.5 * 0.1 ** (t // 3)] for t in range(8)]
    np.testing.assert_allclose(lrs, expected, rtol=1e-12)


def test_cosine_annealing_follows_the_closed_form():
    opt = make_optimizer((0.2,))
    sched = CosineAnnealingLR(opt, T_max=6, eta_min=0.02)
    lrs = run(sched, 6)
    expected = [0.02 + (0.2 - 0.02) * (1 + math.cos(math.pi * t / 6)) / 2 for t in range(7)]
    assert [lr[0] for lr in lrs] == pytest.approx(expected, rel=1e-12)
    assert opt.param_groups[0]["lr"] == pytest.approx(0.02)


def test_lambda_lr_one_function_per_group():
    opt = make_optimizer((1.0, 2.0))
    lrs = run(LambdaLR(opt, [lambda e: 0.5**e, lambda e: e + 1]), 3)
    assert lrs == [[1.0, 2.0], [0.5, 4.0], [0.25, 6.0], [0.125, 8.0]]
    with pytest.raises(ValueError, match="Expected 2 lr_lambdas, but got 1"):
        LambdaLR(opt, [lambda e: 1.0])


def test_state_dict_resume_continues_the_schedule():
    opt = make_optimizer((0.3,))
    sched = CosineAnnealingLR(opt, T_max=10)
    run(sched, 4)
    saved_sched, saved_opt = sched.state_dict(), opt.state_dict()
    rest = run(sched, 5)[1:]

    opt2 = make_optimizer((0.3,))
    sched2 = CosineAnnealingLR(opt2, T_max=10)
    opt2.load_state_dict(saved_opt)
    sched2.load_state_dict(saved_sched)
    assert "optimizer" not in saved_sched and saved_sched["last_epoch"] == 4
    assert run(sched2, 5)[1:] == rest


def test_lambda_lr_state_dict_keeps_callable_objects_state():
    class Decay:
        def __init__(self):
            self.rate = 0.5

        def __call__(self, epoch):
            return self.rate**epoch

    decay = Decay()
    sched = LambdaLR(make_optimizer(), [decay])
    decay.rate = 0.25
    state = sched.state_dict()
    assert state["lr_lambdas"] == [{"rate": 0.25}]
    other = Decay()
    LambdaLR(make_optimizer(), [other]).load_state_dict(state)
    assert other.rate == 0.25
    assert LambdaLR(make_optimizer(), lambda e: 1.0).state_dict()["lr_lambdas"] == [None]


def test_resuming_with_last_epoch_needs_initial_lr():
    with pytest.raises(KeyError, match="param 'initial_lr' is not specified in param_groups"):
        StepLR(make_optimizer(), step_size=2, last_epoch=3)
    opt = make_optimizer((0.8,))
    StepLR(opt, step_size=2)
    assert opt.param_groups[0]["initial_lr"] == 0.8
    resumed = StepLR(opt, step_size=2, gamma=0.5, last_epoch=3)
    assert resumed.last_epoch == 4  # construction takes one step, as in torch


def test_warnings_and_type_errors():
    opt = make_optimizer()
    sched = StepLR(opt, step_size=1)
    with pytest.warns(UserWarning, match=r"lr_scheduler.step\(\)` before `optimizer.step\(\)"):
        sched.step()
    with pytest.warns(UserWarning, match="please use `get_last_lr\\(\\)`"):
        sched.get_lr()
    opt2 = make_optimizer()
    sched2 = StepLR(opt2, step_size=1)
    opt2.step()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sched2.step()
    # a step taken before the scheduler existed does not count (torch tracks the steps
    # from the scheduler's construction on)
    opt3 = make_optimizer()
    opt3.step()
    sched3 = StepLR(opt3, step_size=1)
    with pytest.warns(UserWarning, match=r"lr_scheduler.step\(\)` before `optimizer.step\(\)"):
        sched3.step()
    with pytest.raises(TypeError, match="list is not an Optimizer"):
        StepLR([], step_size=1)
    with pytest.raises(NotImplementedError):
        LRScheduler(make_optimizer())


# -- every scheduler: builders shared with the torch parity tests -------------------------------
def sgd(lib):
    """SGD with two groups (lr 0.1 and 0.3) and momentum, so momentum can cycle."""
    return lib.optim.SGD(
        [{"params": [lib.zeros(1, requires_grad=True)]}, {"params": [lib.zeros(1)], "lr": 0.3}],
        lr=0.1,
        momentum=0.9,
    )


def adam(lib):
    return lib.optim.Adam([lib.zeros(1, requires_grad=True)], lr=0.01, betas=(0.9, 0.99))


def make(name, **options):
    return lambda lib, opt: getattr(lib.optim.lr_scheduler, name)(opt, **options)


def sequential(lib, opt):
    s = lib.optim.lr_scheduler
    parts = [
        s.LinearLR(opt, start_factor=0.1, total_iters=4),
        s.StepLR(opt, step_size=2, gamma=0.5),
        s.CosineAnnealingLR(opt, T_max=6, eta_min=0.01),
    ]
    return s.SequentialLR(opt, parts, milestones=[4, 10])


def warmup_then_decay(lib, opt):
    s = lib.optim.lr_scheduler
    parts = [s.ConstantLR(opt, factor=0.2, total_iters=5), s.ExponentialLR(opt, gamma=0.8)]
    return s.SequentialLR(opt, parts, milestones=[5])


def chained(lib, opt):
    s = lib.optim.lr_scheduler
    parts = [s.LinearLR(opt, start_factor=0.5, total_iters=4), s.MultiStepLR(opt, [3, 8])]
    return s.ChainedScheduler(parts)


def chained_cosine(lib, opt):
    s = lib.optim.lr_scheduler
    parts = [s.ConstantLR(opt, factor=0.5, total_iters=3), s.CosineAnnealingLR(opt, T_max=9)]
    return s.ChainedScheduler(parts, optimizer=opt)


class Halving:
    """A callable object: its __dict__ is what the state dict keeps."""

    def __init__(self):
        self.base = 0.5

    def __call__(self, x):
        return self.base ** (x - 1)


# (label, optimizer builder, scheduler builder, epochs)
CASES = [
    ("StepLR", sgd, make("StepLR", step_size=3), 25),
    ("StepLR-gamma", sgd, make("StepLR", step_size=2, gamma=0.5), 25),
    ("MultiStepLR", sgd, make("MultiStepLR", milestones=[3, 7, 7, 12], gamma=0.5), 25),
    ("ExponentialLR", sgd, make("ExponentialLR", gamma=0.8), 25),
    ("MultiplicativeLR", sgd, make("MultiplicativeLR", lr_lambda=lambda e: 0.95), 25),
    (
        "MultiplicativeLR-groups",
        sgd,
        make("MultiplicativeLR", lr_lambda=[lambda e: 0.9, lambda e: 1.0 + 0.1 * (e % 2)]),
        25,
    ),
    ("LambdaLR", sgd, make("LambdaLR", lr_lambda=lambda e: 0.9**e), 25),
    (
        "LambdaLR-groups",
        sgd,
        make("LambdaLR", lr_lambda=[lambda e: 1 / (e + 1), lambda e: e % 3]),
        25,
    ),
    ("ConstantLR", sgd, make("ConstantLR"), 10),
    ("ConstantLR-factor", sgd, make("ConstantLR", factor=0.5, total_iters=4), 10),
    ("LinearLR", sgd, make("LinearLR"), 10),
    (
        "LinearLR-factors",
        sgd,
        make("LinearLR", start_factor=0.2, end_factor=0.9, total_iters=6),
        12,
    ),
    ("PolynomialLR", sgd, make("PolynomialLR"), 10),
    ("PolynomialLR-power", sgd, make("PolynomialLR", total_iters=8, power=2.0), 12),
    ("CosineAnnealingLR", sgd, make("CosineAnnealingLR", T_max=7), 25),
    ("CosineAnnealingLR-eta_min", sgd, make("CosineAnnealingLR", T_max=5, eta_min=0.01), 25),
    ("WarmRestarts", sgd, make("CosineAnnealingWarmRestarts", T_0=3), 25),
    (
        "WarmRestarts-T_mult",
        sgd,
        make("CosineAnnealingWarmRestarts", T_0=2, T_mult=2, eta_min=0.01),
        25,
    ),
    (
        "CyclicLR-triangular",
        sgd,
        make("CyclicLR", base_lr=0.01, max_lr=0.1, step_size_up=3, step_size_down=5),
        25,
    ),
    (
        "CyclicLR-triangular2",
        sgd,
        make("CyclicLR", base_lr=[0.01, 0.02], max_lr=0.1, step_size_up=2, mode="triangular2"),
        25,
    ),
    (
        "CyclicLR-exp_range",
        sgd,
        make("CyclicLR", base_lr=0.01, max_lr=0.1, step_size_up=3, mode="exp_range", gamma=0.9),
        25,
    ),
    (
        "CyclicLR-adam",
        adam,
        make("CyclicLR", base_lr=0.001, max_lr=0.01, step_size_up=4, base_momentum=0.7),
        25,
    ),
    (
        "CyclicLR-no-momentum",
        sgd,
        make("CyclicLR", base_lr=0.01, max_lr=0.1, step_size_up=4, cycle_momentum=False),
        25,
    ),
    (
        "CyclicLR-scale_fn",
        sgd,
        make("CyclicLR", base_lr=0.01, max_lr=0.1, step_size_up=2, scale_fn=Halving()),
        25,
    ),
    (
        "CyclicLR-scale_fn-iterations",
        sgd,
        make(
            "CyclicLR",
            base_lr=0.01,
            max_lr=0.1,
            step_size_up=2,
            scale_fn=lambda x: 0.95**x,
            scale_mode="iterations",
        ),
        25,
    ),
    ("OneCycleLR-cos", sgd, make("OneCycleLR", max_lr=1.0, total_steps=25), 25),
    (
        "OneCycleLR-linear",
        sgd,
        make("OneCycleLR", max_lr=[1.0, 2.0], total_steps=25, anneal_strategy="linear"),
        25,
    ),
    (
        "OneCycleLR-three_phase",
        sgd,
        make("OneCycleLR", max_lr=0.5, epochs=5, steps_per_epoch=5, three_phase=True),
        25,
    ),
    (
        "OneCycleLR-adam",
        adam,
        make("OneCycleLR", max_lr=0.1, total_steps=20, pct_start=0.4, div_factor=10.0),
        20,
    ),
    (
        "OneCycleLR-no-momentum",
        sgd,
        make("OneCycleLR", max_lr=0.5, total_steps=15, cycle_momentum=False),
        15,
    ),
    ("SequentialLR", sgd, sequential, 25),
    ("SequentialLR-warmup", sgd, warmup_then_decay, 25),
    ("ChainedScheduler", sgd, chained, 25),
    ("ChainedScheduler-cosine", sgd, chained_cosine, 25),
]


def momentum_of(group):
    return group["betas"][0] if "betas" in group else group["momentum"]


def history(lib, make_optimizer, make_scheduler, epochs):
    opt = make_optimizer(lib)
    sched = make_scheduler(lib, opt)
    lrs, momenta = [sched.get_last_lr()], [[momentum_of(g) for g in opt.param_groups]]
    for _ in range(epochs):
        opt.step()
        sched.step()
        lrs.append(sched.get_last_lr())
        momenta.append([momentum_of(g) for g in opt.param_groups])
    return lrs, momenta, sched


@pytest.mark.parametrize(("label", "make_optimizer", "make_scheduler", "epochs"), CASES)
def test_every_scheduler_resumes_from_state_dicts(label, make_optimizer, make_scheduler, epochs):
    opt = make_optimizer(torch)
    sched = make_scheduler(torch, opt)
    half = epochs // 2
    for _ in range(half):
        opt.step()
        sched.step()
    saved = copy.deepcopy((opt.state_dict(), sched.state_dict()))
    rest = continue_history(opt, sched, epochs - half)

    opt2 = make_optimizer(torch)
    sched2 = make_scheduler(torch, opt2)
    opt2.load_state_dict(saved[0])
    sched2.load_state_dict(saved[1])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert continue_history(opt2, sched2, epochs - half) == rest


def continue_history(opt, sched, epochs):
    out = []
    for _ in range(epochs):
        opt.step()
        sched.step()
        out.append((sched.get_last_lr(), [momentum_of(g) for g in opt.param_groups]))
    return out


def test_reduce_lr_on_plateau_resumes_from_state_dicts():
    def build():
        opt = sgd(torch)
        return opt, ReduceLROnPlateau(opt, patience=1, cooldown=1, factor=0.5)

    opt, sched = build()
    metrics = [1.0, 1.0, 1.0, 0.5, 0.6, 0.6, 0.6, 0.6, 0.4, 0.4, 0.4]
    for metric in metrics[:5]:
        sched.step(metric)
    saved = copy.deepcopy((opt.state_dict(), sched.state_dict()))
    rest = []
    for metric in metrics[5:]:
        sched.step(metric)
        rest.append((sched.get_last_lr(), sched.num_bad_epochs, sched.cooldown_counter))
    opt2, sched2 = build()
    opt2.load_state_dict(saved[0])
    sched2.load_state_dict(saved[1])
    for metric, expected in zip(metrics[5:], rest):
        sched2.step(metric)
        assert (sched2.get_last_lr(), sched2.num_bad_epochs, sched2.cooldown_counter) == expected


def test_multistep_and_exponential_by_hand():
    lrs = run(MultiStepLR(make_optimizer((1.0,)), milestones=[2, 4, 4], gamma=0.5), 5)
    assert lrs == [[1.0], [1.0], [0.5], [0.5], [0.125], [0.125]]
    lrs = run(ExponentialLR(make_optimizer((1.0,)), gamma=0.5), 3)
    assert lrs == [[1.0], [0.5], [0.25], [0.125]]


def test_warm_restarts_periods_grow_by_t_mult():
    sched = CosineAnnealingWarmRestarts(make_optimizer((1.0,)), T_0=2, T_mult=2)
    periods = []
    for _ in range(13):
        sched.optimizer.step()
        sched.step()
        periods.append((sched.T_cur, sched.T_i))
    # restarts after epochs 2, 6 (2 + 4) and 14 (6 + 8)
    assert periods[:7] == [(1, 2), (0, 4), (1, 4), (2, 4), (3, 4), (0, 8), (1, 8)]
    sched.step(6.5)  # fractional epoch: half an epoch into the 8-long period
    assert (sched.T_cur, sched.T_i, sched.last_epoch) == (0.5, 8, 6)
    expected = (1 + math.cos(math.pi * 0.5 / 8)) / 2
    assert sched.get_last_lr()[0] == pytest.approx(expected, rel=1e-12)


def test_cyclic_lr_cycles_adam_beta1_and_keeps_beta2():
    opt = optim.Adam([torch.zeros(1, requires_grad=True)], lr=0.01, betas=(0.9, 0.99))
    sched = CyclicLR(opt, base_lr=0.001, max_lr=0.01, step_size_up=2, base_momentum=0.8)
    betas = [opt.param_groups[0]["betas"]]
    for _ in range(4):
        opt.step()
        sched.step()
        betas.append(opt.param_groups[0]["betas"])
    assert [round(b[0], 12) for b in betas] == [0.9, 0.85, 0.8, 0.85, 0.9]
    assert {b[1] for b in betas} == {0.99}


def test_one_cycle_lr_refuses_steps_past_the_end():
    sched = OneCycleLR(make_optimizer((0.1,)), max_lr=1.0, total_steps=3, cycle_momentum=False)
    for _ in range(3):
        sched.optimizer.step()
        sched.step()
    with pytest.raises(ValueError, match="Tried to step 4 times"):
        sched.step()


def test_sequential_lr_switches_to_the_next_schedule_at_its_start():
    opt = make_optimizer((1.0,))
    warmup = LinearLR(opt, start_factor=0.25, total_iters=2)
    decay = StepLR(opt, step_size=2, gamma=0.5)
    sched = SequentialLR(opt, [warmup, decay], milestones=[3])
    assert run(sched, 6) == [[0.25], [0.625], [1.0], [1.0], [1.0], [0.5], [0.5]]


def test_tensor_lr_is_filled_in_place():
    lr = torch.tensor(0.5)
    opt = SGD([torch.zeros(1, requires_grad=True)], lr=lr)
    sched = ExponentialLR(opt, gamma=0.5)
    opt.step()
    sched.step()
    assert opt.param_groups[0]["lr"] is lr and lr.item() == 0.25
    last = sched.get_last_lr()[0]
    assert isinstance(last, torch.Tensor) and last is not lr and last.item() == 0.25
