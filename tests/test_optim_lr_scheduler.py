"""lr_scheduler against hand-computed schedules, plus resume, warnings and errors."""

import math
import warnings

import numpy as np
import pytest

import numtorch as torch
from numtorch.optim import SGD
from numtorch.optim.lr_scheduler import CosineAnnealingLR, LambdaLR, LRScheduler, StepLR


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
    with pytest.raises(TypeError, match="list is not an Optimizer"):
        StepLR([], step_size=1)
    with pytest.raises(NotImplementedError):
        LRScheduler(make_optimizer())
