"""optim.swa_utils: AveragedModel, SWALR and update_bn, by hand and against torch."""

import copy

import numpy as np
import pytest
from nn_parity import assert_same_error, copy_state

import numtorch
from numtorch.optim import swa_utils

RNG = np.random.default_rng(5)
X = RNG.standard_normal((12, 4)).astype(np.float32)
Y = RNG.standard_normal((12, 2)).astype(np.float32)


def make_model(lib):
    return lib.nn.Sequential(lib.nn.Linear(4, 3), lib.nn.BatchNorm1d(3), lib.nn.Linear(3, 2))


def train_and_average(lib, model, **options):
    """Six SGD steps; the average is updated after each from the third on."""
    averaged = lib.optim.swa_utils.AveragedModel(model, **options)
    opt = lib.optim.SGD(model.parameters(), lr=0.1)
    x, y = lib.tensor(X), lib.tensor(Y)
    for i in range(6):
        opt.zero_grad()
        ((model(x) - y) ** 2).mean().backward()
        opt.step()
        if i >= 2:
            averaged.update_parameters(model)
    return averaged


def arrays(module):
    return {k: v.detach().numpy().copy() for k, v in module.state_dict().items()}


def test_default_average_is_the_mean_of_the_snapshots():
    model = make_model(numtorch)
    snapshots = []
    averaged = swa_utils.AveragedModel(model)
    for value in (1.0, 2.0, 4.0, 9.0):
        with numtorch.no_grad():
            for p in model.parameters():
                p.fill_(value)
        snapshots.append(value)
        averaged.update_parameters(model)
    assert averaged.n_averaged.item() == 4 and averaged.n_averaged.dtype == numtorch.int64
    for p in averaged.module.parameters():
        np.testing.assert_allclose(p.detach().numpy(), np.mean(snapshots), rtol=1e-6)
    assert not any(p is q for p, q in zip(averaged.parameters(), model.parameters()))


def test_ema_and_custom_average():
    model = numtorch.nn.Linear(1, 1, bias=False)
    ema = swa_utils.AveragedModel(model, multi_avg_fn=swa_utils.get_ema_multi_avg_fn(0.5))
    custom = swa_utils.AveragedModel(model, avg_fn=lambda avg, cur, n: avg + cur)
    for value in (2.0, 4.0, 8.0):
        with numtorch.no_grad():
            model.weight.fill_(value)
        ema.update_parameters(model)
        custom.update_parameters(model)
    assert ema.module.weight.item() == pytest.approx(0.5 * (0.5 * 2 + 0.5 * 4) + 0.5 * 8)
    assert custom.module.weight.item() == 14.0


def test_buffers_follow_the_model_unless_averaged():
    model = make_model(numtorch)
    averaged = train_and_average(numtorch, model)
    np.testing.assert_array_equal(
        averaged.module[1].running_mean.numpy(), model[1].running_mean.numpy()
    )
    with_buffers = train_and_average(numtorch, make_model(numtorch), use_buffers=True)
    # The running mean of 3, 4, 5, 6, 7, truncated to an integer at every update (as torch)
    assert with_buffers.module[1].num_batches_tracked.item() == 3


def test_update_bn_recomputes_running_statistics():
    model = make_model(numtorch)
    model.eval()
    loader = [(numtorch.tensor(X[:6]), None), (numtorch.tensor(X[6:]), None)]
    swa_utils.update_bn(loader, model)
    assert not model.training and model[1].momentum == 0.1
    hidden = model[0](numtorch.tensor(X)).detach().numpy()
    np.testing.assert_allclose(model[1].running_mean.numpy(), hidden.mean(0), rtol=1e-5)
    swa_utils.update_bn(loader, numtorch.nn.Linear(4, 2))  # no batch norm: nothing to do


def test_swalr_anneals_then_holds_and_resumes():
    def build():
        opt = numtorch.optim.SGD([numtorch.zeros(1, requires_grad=True)], lr=1.0)
        return opt, swa_utils.SWALR(opt, swa_lr=0.1, anneal_epochs=4)

    opt, sched = build()
    lrs = [sched.get_last_lr()[0]]
    for _ in range(6):
        opt.step()
        sched.step()
        lrs.append(sched.get_last_lr()[0])
    assert lrs[0] == 1.0 and lrs[4:] == pytest.approx([0.1, 0.1, 0.1])
    assert all(a > b for a, b in zip(lrs[:4], lrs[1:5]))

    opt, sched = build()
    for _ in range(2):
        opt.step()
        sched.step()
    saved = copy.deepcopy((opt.state_dict(), sched.state_dict()))
    assert "anneal_func" not in saved[1] and saved[1]["_anneal_strategy"] == "cos"
    opt2, sched2 = build()
    opt2.load_state_dict(saved[0])
    sched2.load_state_dict(saved[1])
    for _ in range(3):
        for o, s in ((opt, sched), (opt2, sched2)):
            o.step()
            s.step()
        assert sched2.get_last_lr() == sched.get_last_lr()


# -- against torch ------------------------------------------------------------------------------
AVERAGE_CASES = [
    {},
    {"use_buffers": True},
    {"multi_avg_fn": "get_ema_multi_avg_fn(0.8)"},
    {"multi_avg_fn": "get_swa_multi_avg_fn()"},
    {"avg_fn": "get_ema_avg_fn(0.7)"},
    {"avg_fn": "get_swa_avg_fn()"},
]


@pytest.mark.parity
@pytest.mark.parametrize("options", AVERAGE_CASES)
def test_averaged_model_matches_torch(options):
    torch = pytest.importorskip("torch")
    results = []
    theirs = make_model(torch)
    ours = make_model(numtorch)
    copy_state(theirs, ours, numtorch)
    for lib, model in ((numtorch, ours), (torch, theirs)):
        built = {
            key: eval(value, {}, vars(lib.optim.swa_utils)) if isinstance(value, str) else value
            for key, value in options.items()
        }
        results.append(train_and_average(lib, model, **built))
    mine, other = arrays(results[0]), arrays(results[1])
    assert list(mine) == list(other)
    for key in other:
        np.testing.assert_allclose(mine[key], other[key], rtol=1e-5, atol=1e-6, err_msg=key)
        assert mine[key].dtype == other[key].dtype, key


@pytest.mark.parity
def test_update_bn_matches_torch():
    torch = pytest.importorskip("torch")
    theirs = make_model(torch)
    ours = make_model(numtorch)
    copy_state(theirs, ours, numtorch)
    for lib, model in ((numtorch, ours), (torch, theirs)):
        loader = [[lib.tensor(X[i : i + 4]), lib.tensor(Y[i : i + 4])] for i in (0, 4, 8)]
        lib.optim.swa_utils.update_bn(loader, model)
    mine, other = arrays(ours), arrays(theirs)
    for key in other:
        np.testing.assert_allclose(mine[key], other[key], rtol=1e-5, atol=1e-6, err_msg=key)


@pytest.mark.parity
@pytest.mark.parametrize(
    ("swa_lr", "anneal_epochs", "anneal_strategy"),
    [(0.05, 10, "cos"), ([0.05, 0.2], 3, "linear"), (0.05, 0, "cos"), (0.5, 1, "linear")],
)
def test_swalr_matches_torch(swa_lr, anneal_epochs, anneal_strategy):
    torch = pytest.importorskip("torch")
    results = []
    for lib in (numtorch, torch):
        opt = lib.optim.SGD(
            [{"params": [lib.zeros(1, requires_grad=True)]}, {"params": [lib.zeros(1)], "lr": 0.3}],
            lr=0.1,
        )
        cosine = lib.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=20)
        swa = lib.optim.swa_utils.SWALR(
            opt, swa_lr=swa_lr, anneal_epochs=anneal_epochs, anneal_strategy=anneal_strategy
        )
        out = [swa.get_last_lr()]
        for epoch in range(15):
            opt.step()
            (cosine if epoch < 4 else swa).step()  # SWA takes over after a few epochs
            out.append([g["lr"] for g in opt.param_groups])
        results.append(out)
    np.testing.assert_allclose(results[0], results[1], rtol=1e-12)


SWA_ERRORS = [
    lambda lib: lib.optim.swa_utils.get_ema_multi_avg_fn(1.5),
    lambda lib: lib.optim.swa_utils.get_ema_avg_fn(-0.1),
    lambda lib: lib.optim.swa_utils.AveragedModel(
        lib.nn.Linear(1, 1), avg_fn=lambda a, b, n: a, multi_avg_fn=lambda a, b, n: None
    ),
    lambda lib: lib.optim.swa_utils.SWALR(
        lib.optim.SGD([lib.zeros(1, requires_grad=True)]), 0.1, anneal_strategy="exp"
    ),
    lambda lib: lib.optim.swa_utils.SWALR(
        lib.optim.SGD([lib.zeros(1, requires_grad=True)]), 0.1, anneal_epochs=-1
    ),
    lambda lib: lib.optim.swa_utils.SWALR(
        lib.optim.SGD([lib.zeros(1, requires_grad=True)]), [0.1, 0.2]
    ),
]


@pytest.mark.parity
@pytest.mark.parametrize("build", SWA_ERRORS)
def test_errors_like_torch(build):
    assert_same_error(build, pytest.importorskip("torch"))


@pytest.mark.parity
def test_swa_multi_average_refuses_integer_buffers_like_torch():
    # torch's in-place integer division fails on BatchNorm's num_batches_tracked.
    def run(lib):
        model = lib.nn.BatchNorm1d(2)
        averaged = lib.optim.swa_utils.AveragedModel(
            model, multi_avg_fn=lib.optim.swa_utils.get_swa_multi_avg_fn(), use_buffers=True
        )
        model(lib.ones(3, 2))
        averaged.update_parameters(model)
        model(lib.ones(3, 2))
        averaged.update_parameters(model)

    assert_same_error(run, pytest.importorskip("torch"), exact=False)
