"""lr_scheduler against an installed torch: rate (and momentum) sequences over every phase,
state dicts, the epoch argument, warnings and errors."""

import types
import warnings

import numpy as np
import pytest
from nn_parity import assert_same_error
from test_optim_lr_scheduler import CASES, history, make, sgd

import numtorch

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.parity


def assert_same_state(mine, theirs, key):
    """Equal state-dict values, numbers to 1e-12 (torch's containers may be other types)."""
    if isinstance(theirs, dict):
        assert set(mine) == set(theirs), key
        for k in theirs:
            assert_same_state(mine[k], theirs[k], key)
    elif isinstance(theirs, (list, tuple)):
        assert len(mine) == len(theirs), key
        for a, b in zip(mine, theirs):
            assert_same_state(a, b, key)
    elif isinstance(theirs, float) and not isinstance(mine, bool):
        assert mine == pytest.approx(theirs, rel=1e-12), key
    else:
        assert mine == theirs, key


@pytest.mark.parametrize(("label", "make_optimizer", "make_scheduler", "epochs"), CASES)
def test_scheduler_matches_torch(label, make_optimizer, make_scheduler, epochs):
    ours, our_momenta, sched = history(numtorch, make_optimizer, make_scheduler, epochs)
    theirs, their_momenta, tsched = history(torch, make_optimizer, make_scheduler, epochs)
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(our_momenta, their_momenta, rtol=1e-12, atol=1e-15)
    ours_sd, theirs_sd = sched.state_dict(), tsched.state_dict()
    assert set(ours_sd) == set(theirs_sd)
    for key, value in theirs_sd.items():
        if key == "_schedulers":
            for mine, other in zip(ours_sd[key], value):
                assert set(mine) == set(other)
        elif key not in ("lr_lambdas", "_scale_fn_custom") or value is None:
            assert_same_state(ours_sd[key], value, key)


CLOSED_FORM = [
    make("StepLR", step_size=3, gamma=0.5),
    make("MultiStepLR", milestones=[2, 5, 5], gamma=0.5),
    make("ConstantLR", factor=0.5, total_iters=4),
    make("LinearLR", start_factor=0.2, end_factor=0.8, total_iters=6),
    make("ExponentialLR", gamma=0.8),
    make("PolynomialLR", total_iters=6, power=1.5),
    make("CosineAnnealingLR", T_max=5, eta_min=0.01),
    make("LambdaLR", lr_lambda=lambda e: 1 / (e + 1)),
    make("MultiplicativeLR", lr_lambda=lambda e: 0.9),
]


@pytest.mark.parametrize("make_scheduler", CLOSED_FORM)
def test_epoch_argument_uses_the_closed_form_like_torch(make_scheduler):
    results = []
    for lib in (numtorch, torch):
        opt = sgd(lib)
        sched = make_scheduler(lib, opt)
        out = []
        for epoch in (1, 4, 3, 9, 2):
            opt.step()
            with pytest.warns(UserWarning, match="epoch parameter"):
                sched.step(epoch)
            out.append(sched.get_last_lr())
        results.append(out)
    np.testing.assert_allclose(results[0], results[1], rtol=1e-12)


@pytest.mark.parametrize("T_mult", [1, 2, 3])
def test_warm_restarts_fractional_epochs_like_torch(T_mult):
    results = []
    for lib in (numtorch, torch):
        opt = sgd(lib)
        sched = lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(
            opt, T_0=2, T_mult=T_mult, eta_min=0.001
        )
        out = []
        for epoch in range(12):
            for i in range(4):
                opt.step()
                with warnings.catch_warnings():
                    warnings.simplefilter("error")  # no deprecation warning here, as torch
                    sched.step(epoch + i / 4)
                out.append([*sched.get_last_lr(), sched.T_cur, sched.T_i, sched.last_epoch])
        sched.step()  # an epoch-less step carries on from the fractional position
        out.append([*sched.get_last_lr(), sched.T_cur, sched.T_i, sched.last_epoch])
        results.append(out)
    np.testing.assert_allclose(results[0], results[1], rtol=1e-12)


PLATEAU_METRICS = [1.0, 0.9, 0.95, 0.9, 0.9, 0.89999, 0.91, 0.92, 0.7, 0.7, 0.71, 0.7]
PLATEAU_METRICS += [0.69, 0.9, 0.9, 0.9, 0.9, 0.9, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]
PLATEAU_CASES = [
    {},
    {"patience": 1, "factor": 0.5},
    {"patience": 2, "cooldown": 2, "factor": 0.5, "threshold": 0.05},
    {"patience": 0, "threshold_mode": "abs", "threshold": 0.01, "min_lr": [0.02, 0.05]},
    {"mode": "max", "patience": 1, "factor": 0.3},
    {"mode": "max", "patience": 0, "threshold_mode": "abs", "cooldown": 1, "min_lr": 0.01},
    {"patience": 0, "factor": 0.9, "eps": 0.02},
]


@pytest.mark.parametrize("options", PLATEAU_CASES)
def test_reduce_lr_on_plateau_matches_torch(options):
    results, states = [], []
    for lib in (numtorch, torch):
        opt = sgd(lib)
        sched = lib.optim.lr_scheduler.ReduceLROnPlateau(opt, **options)
        out = [sched.get_last_lr()]
        for metric in PLATEAU_METRICS:
            opt.step()
            sched.step(lib.tensor(metric) if lib is numtorch else metric)
            out.append(sched.get_last_lr())
        results.append(out)
        states.append(sched.state_dict())
    np.testing.assert_allclose(results[0], results[1], rtol=1e-12)
    assert states[0] == states[1]


def test_step_before_optimizer_step_warns_like_torch():
    for lib in (numtorch, torch):
        opt = sgd(lib)
        sched = lib.optim.lr_scheduler.StepLR(opt, step_size=1)
        with pytest.warns(UserWarning, match=r"before `optimizer.step\(\)`"):
            sched.step()
        opt = sgd(lib)
        sched = lib.optim.lr_scheduler.StepLR(opt, step_size=1)
        opt.step = lambda closure=None: None  # replaced after the scheduler was built
        with pytest.warns(UserWarning, match="has been overridden after learning rate"):
            sched.step()


def test_optimizer_step_replaced_before_the_scheduler_is_tracked_like_torch():
    for lib in (numtorch, torch):
        opt = sgd(lib)
        inner = opt.step
        # torch wraps a replacement's __func__: it must be a bound method
        opt.step = types.MethodType(lambda self, closure=None: inner(closure), opt)
        sched = lib.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
        opt.step()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            sched.step()


SCHEDULER_ERRORS = [
    lambda lib, opt: lib.optim.lr_scheduler.ConstantLR(opt, factor=1.5),
    lambda lib, opt: lib.optim.lr_scheduler.LinearLR(opt, start_factor=0),
    lambda lib, opt: lib.optim.lr_scheduler.LinearLR(opt, end_factor=2.0),
    lambda lib, opt: lib.optim.lr_scheduler.MultiplicativeLR(opt, lr_lambda=[0.5, 0.5]),
    lambda lib, opt: lib.optim.lr_scheduler.LambdaLR(opt, lr_lambda=[lambda e: 1.0]),
    lambda lib, opt: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=0),
    lambda lib, opt: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2.0),
    lambda lib, opt: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=0),
    lambda lib, opt: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, 2, eta_min="0"),
    lambda lib, opt: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2).step(-1),
    lambda lib, opt: lib.optim.lr_scheduler.CyclicLR(opt, 0.1, 1.0, mode="sawtooth"),
    lambda lib, opt: lib.optim.lr_scheduler.CyclicLR(opt, [0.1], 1.0),
    lambda lib, opt: lib.optim.lr_scheduler.CyclicLR(
        lib.optim.Adagrad(opt.param_groups[0]["params"]), 0.1, 1.0
    ),
    lambda lib, opt: lib.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0),
    lambda lib, opt: lib.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=0),
    lambda lib, opt: lib.optim.lr_scheduler.OneCycleLR(opt, 1.0, epochs=2, steps_per_epoch=0),
    lambda lib, opt: lib.optim.lr_scheduler.OneCycleLR(opt, 1.0, 10, pct_start=1),
    lambda lib, opt: lib.optim.lr_scheduler.OneCycleLR(opt, 1.0, 10, anneal_strategy="exp"),
    lambda lib, opt: [lib.optim.lr_scheduler.OneCycleLR(opt, 1.0, 2).step() for _ in range(3)],
    lambda lib, opt: lib.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=1.0),
    lambda lib, opt: lib.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="median"),
    lambda lib, opt: lib.optim.lr_scheduler.ReduceLROnPlateau(opt, threshold_mode="pct"),
    lambda lib, opt: lib.optim.lr_scheduler.ReduceLROnPlateau(opt, min_lr=[0.1]),
    lambda lib, opt: lib.optim.lr_scheduler.StepLR(object(), step_size=1),
    lambda lib, opt: lib.optim.lr_scheduler.SequentialLR(opt, [], milestones=[]),
    lambda lib, opt: lib.optim.lr_scheduler.SequentialLR(
        opt, [lib.optim.lr_scheduler.StepLR(opt, 2)], milestones=[3]
    ),
    lambda lib, opt: lib.optim.lr_scheduler.SequentialLR(
        opt, [lib.optim.lr_scheduler.StepLR(opt, 2), object()], milestones=[3]
    ),
    lambda lib, opt: lib.optim.lr_scheduler.SequentialLR(
        opt, [lib.optim.lr_scheduler.ReduceLROnPlateau(opt)], milestones=[]
    ),
    lambda lib, opt: lib.optim.lr_scheduler.ChainedScheduler([]),
    lambda lib, opt: lib.optim.lr_scheduler.ChainedScheduler(
        [lib.optim.lr_scheduler.StepLR(lib.optim.SGD([lib.zeros(1, requires_grad=True)]), 2)],
        optimizer=opt,
    ),
]


@pytest.mark.parametrize("build", SCHEDULER_ERRORS)
def test_scheduler_errors_like_torch(build):
    def run(lib):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            build(lib, sgd(lib))

    # Messages that print an optimizer differ in its repr only (torch lists more options).
    assert_same_error(run, torch, exact=build is not SCHEDULER_ERRORS[-1])
