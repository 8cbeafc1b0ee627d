"""torch.autocast on the CPU and GradScaler, against torch's CPU build: which ops run in
bfloat16, which are forced to float32, values, grad_fn names, warnings and state."""

import warnings

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

LOWER = {
    "mm": lambda lib, F, a: lib.mm(a, a),
    "matmul": lambda lib, F, a: a @ a,
    "bmm": lambda lib, F, a: lib.bmm(a.expand(2, 4, 4), a.expand(2, 4, 4)),
    "addmm": lambda lib, F, a: lib.addmm(a, a, a),
    "baddbmm": lambda lib, F, a: lib.baddbmm(
        a.expand(2, 4, 4), a.expand(2, 4, 4), a.expand(2, 4, 4)
    ),
    "addbmm": lambda lib, F, a: lib.addbmm(a, a.expand(2, 4, 4), a.expand(2, 4, 4)),
    "linear": lambda lib, F, a: F.linear(a, a, a[0]),
    "conv1d": lambda lib, F, a: F.conv1d(a.reshape(1, 2, 8), a[:3].reshape(3, 2, 2)),
    "conv2d": lambda lib, F, a: F.conv2d(a.reshape(1, 1, 4, 4), a[:2, :2].reshape(2, 1, 1, 2)),
    "conv_transpose1d": lambda lib, F, a: F.conv_transpose1d(
        a.reshape(1, 2, 8), a[:1].reshape(2, 1, 2)
    ),
    "einsum": lambda lib, F, a: lib.einsum("ij,jk->ik", a, a),
    "prelu": lambda lib, F, a: F.prelu(a, a[0, :1]),
    "sdpa": lambda lib, F, a: F.scaled_dot_product_attention(a[None], a[None], a[None]),
    # left in float32 by torch's CPU lists
    "mv": lambda lib, F, a: lib.mv(a, a[0]),
    "softmax": lambda lib, F, a: a.softmax(-1),
    "sum": lambda lib, F, a: a.sum(),
    "layer_norm": lambda lib, F, a: F.layer_norm(a, (4,)),
    "relu": lambda lib, F, a: F.relu(a),
}

FLOAT32 = {
    "prod": lambda lib, F, a: a.prod(),
    "cross_entropy": lambda lib, F, a: F.cross_entropy(a, lib.tensor([0, 1, 2, 3])),
    "nll_loss": lambda lib, F, a: F.nll_loss(a, lib.tensor([0, 1, 2, 3])),
    "mse_loss": lambda lib, F, a: F.mse_loss(a, a * 0),
    "l1_loss": lambda lib, F, a: F.l1_loss(a, a * 0),
    "smooth_l1": lambda lib, F, a: F.smooth_l1_loss(a, a * 0),
    "bce_logits": lambda lib, F, a: F.binary_cross_entropy_with_logits(a, a * 0),
    "kl_div": lambda lib, F, a: F.kl_div(a, a, reduction="batchmean"),
    "hinge": lambda lib, F, a: F.hinge_embedding_loss(a, a.sign()),
    "margin_ranking": lambda lib, F, a: F.margin_ranking_loss(a[0], a[1], a[2].sign()),
    "triplet": lambda lib, F, a: F.triplet_margin_loss(a, a * 2, a),
    "cosine_embedding": lambda lib, F, a: F.cosine_embedding_loss(a, a * 2, a[0].sign()),
    "poisson_nll": lambda lib, F, a: F.poisson_nll_loss(a, a.abs()),
    "reflect_pad": lambda lib, F, a: F.pad(a.reshape(1, 4, 4), (1, 1), mode="reflect"),
    "replicate_pad": lambda lib, F, a: F.pad(a.reshape(1, 1, 4, 4), (1, 1, 1, 1), mode="replicate"),
    "avg_pool3d": lambda lib, F, a: F.avg_pool3d(a.reshape(1, 1, 2, 2, 4), 2),
    "trace": lambda lib, F, a: lib.trace(a),
    "inverse": lambda lib, F, a: lib.inverse(a + 4 * lib.eye(4, dtype=a.dtype)),
    "cdist": lambda lib, F, a: lib.cdist(a, a),
}

X = np.array(
    [
        [0.5, -1.25, 2.0, 0.75],
        [1.5, 0.25, -0.5, 1.0],
        [-2.0, 0.5, 1.25, -0.25],
        [0.1, 0.2, 0.3, 0.4],
    ],
    dtype=np.float32,
)


def _run(lib, fn, dtype):
    F = lib.nn.functional
    a = lib.tensor(X).to(getattr(lib, dtype)).requires_grad_()
    with lib.autocast("cpu", dtype=lib.bfloat16):
        out = fn(lib, F, a)
    out.float().sum().backward()
    return out, a.grad


@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
@pytest.mark.parametrize("name", list(LOWER) + list(FLOAT32))
def test_op_dtype_value_and_gradient_under_autocast(name, dtype):
    fn = {**LOWER, **FLOAT32}[name]
    ours, our_grad = _run(numtorch, fn, dtype)
    theirs, their_grad = _run(torch, fn, dtype)
    assert str(ours.dtype) == str(theirs.dtype)
    assert str(our_grad.dtype) == str(their_grad.dtype)
    tol = 2e-2 if "bfloat16" in str(theirs.dtype) + dtype else 1e-5
    np.testing.assert_allclose(
        ours.detach().float().numpy(), theirs.detach().float().numpy(), rtol=tol, atol=tol
    )
    np.testing.assert_allclose(
        our_grad.float().numpy(), their_grad.float().numpy(), rtol=tol, atol=tol
    )


def test_linear_casts_are_recorded_and_mm_values_are_exact():
    for lib in (numtorch, torch):
        lib.manual_seed(0)
    x = X[:2]
    w = X[1:4]
    results = []
    for lib in (numtorch, torch):
        xt = lib.tensor(x)
        wt = lib.tensor(w, requires_grad=True)
        with lib.autocast("cpu"):
            y = lib.nn.functional.linear(xt, wt)
        names, node = [], y.grad_fn
        while node is not None:  # down the weight's side: mm, t, the cast, the leaf
            names.append(type(node).__name__)
            node = ([f for f, _ in node.next_functions if f is not None] or [None])[-1]
        results.append((names, y.float().tolist(), str(y.dtype)))
    assert results[0] == results[1]


def _state(lib):
    with lib.autocast("cpu"):
        inside = (lib.is_autocast_enabled("cpu"), lib.is_autocast_enabled())
        with lib.autocast("cpu", enabled=False):
            off = (lib.is_autocast_enabled("cpu"), (lib.ones(2, 2) @ lib.ones(2, 2)).dtype)
        back = (lib.ones(2, 2) @ lib.ones(2, 2)).dtype
    after = (lib.is_autocast_enabled("cpu"), (lib.ones(2, 2) @ lib.ones(2, 2)).dtype)

    @lib.autocast("cpu", dtype=lib.float16)
    def decorated():
        return (lib.ones(2, 2) @ lib.ones(2, 2)).dtype, lib.get_autocast_dtype("cpu")

    return [inside, str(off), str(back), str(after), str(decorated())]


def test_nesting_enabled_false_and_decorator():
    assert _state(numtorch) == _state(torch)


def _warnings(lib, make):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            obj = make(lib)
            result = ("made", getattr(obj, "_enabled", None))
        except Exception as e:  # the type is what gets compared
            result = ("raised", type(e).__name__)
    return result, sorted((w.category.__name__, str(w.message)[:60]) for w in caught)


@pytest.mark.parametrize(
    "make",
    [
        lambda lib: lib.cuda.amp.GradScaler(enabled=False),
        lambda lib: lib.cuda.amp.GradScaler(),
        lambda lib: lib.amp.GradScaler(),
        lambda lib: lib.amp.GradScaler("cpu"),
        lambda lib: lib.amp.GradScaler(enabled=False),
        lambda lib: lib.cuda.amp.autocast(enabled=False),
        lambda lib: lib.cuda.amp.autocast(),
        lambda lib: lib.cpu.amp.autocast(),
        lambda lib: lib.amp.autocast("cpu", dtype=lib.bfloat16),
        lambda lib: lib.autocast("cuda"),
        lambda lib: lib.autocast("cpu", dtype=lib.float32),
        lambda lib: lib.autocast("cpu", dtype=lib.float64),
        lambda lib: lib.autocast("foo"),
        lambda lib: lib.autocast(1),
    ],
)
def test_construction_warnings_and_errors(make):
    assert _warnings(numtorch, make) == _warnings(torch, make)


def _scaler_run(lib):
    w = lib.nn.Parameter(lib.ones(2))
    opt = lib.optim.SGD([w], lr=0.1)
    scaler = lib.amp.GradScaler("cpu", init_scale=4.0, growth_interval=2)
    record = []
    for i in range(5):
        opt.zero_grad()
        loss = (w * (float("inf") if i == 1 else 1.0)).sum()
        scaled = scaler.scale(loss)
        scaled.backward()
        scaler.step(opt)
        scaler.update()
        record.append((scaled.item(), w.tolist(), scaler.get_scale(), scaler.state_dict()))
    for bad in (lambda: (scaler.step(opt), scaler.step(opt)), lambda: scaler.unscale_(opt)):
        try:
            bad()
        except Exception as e:  # the type is what gets compared
            record.append(type(e).__name__)
    off = lib.amp.GradScaler(enabled=False)
    record.append((off.scale(lib.tensor(3.0)).item(), off.get_scale(), off.state_dict()))
    record.append(type(scaler.scale(lib.tensor(2.0, requires_grad=True)).grad_fn).__name__)
    return record


def test_grad_scaler_skips_overflowing_steps_and_adapts_its_scale():
    assert _scaler_run(numtorch) == _scaler_run(torch)
