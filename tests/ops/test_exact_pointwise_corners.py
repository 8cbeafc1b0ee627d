"""Pointwise gradients at torch's corners (NaN, +-inf, +-0, poles), each checked against
torch's values there."""

from __future__ import annotations

import math

import pytest

import numtorch as nt
from numtorch.ops import activations

nan = float("nan")


def _grad(fn, values, create_graph=False, dtype=nt.float64):
    x = nt.tensor(values, dtype=dtype, requires_grad=True)
    (g,) = nt.autograd.grad(fn(x).sum(), x, create_graph=create_graph)
    return g


def _same(actual, expected):
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected):
        if math.isnan(e):
            assert math.isnan(a), (actual, expected)
        else:
            assert a == e and math.copysign(1, a) == math.copysign(1, e), (actual, expected)


@pytest.mark.parametrize("create_graph", [False, True])
def test_logit_with_eps_gives_nan_input_a_zero_gradient_but_in_the_kernels_tail(create_graph):
    # torch keeps the derivative only where eps <= x <= 1 - eps: its differentiable backward
    # puts a NaN input outside (0), its kernel's scalar tail (all of a short tensor) inside
    g = _grad(lambda x: nt.logit(x, 0.1), [nan, 0.0, 0.5, 1.5], create_graph)
    _same(g.tolist(), [0.0 if create_graph else nan, 0.0, 4.0, 0.0])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("size", [9, 16, 17, 31, 33, 40])
def test_logit_with_eps_gradient_at_nan_follows_torchs_simd_lanes(dtype, size):
    # the kernel steps two vectors at a time: Note [SIMD lanes and NaN]
    torch = pytest.importorskip("torch")
    values = [nan if i % 3 == 0 else 0.3 for i in range(size)]
    grads = []
    for lib in (nt, torch):
        x = lib.tensor(values, dtype=getattr(lib, dtype), requires_grad=True)
        (g,) = lib.autograd.grad(lib.logit(x, 0.1).sum(), x)
        grads.append(g.tolist())
    _same(*grads)


def test_logit_with_eps_second_order_is_nan_at_poles():
    x = nt.tensor([0.0, 1.0, 0.5, -0.5, nan], dtype=nt.float64, requires_grad=True)
    (g,) = nt.autograd.grad(nt.logit(x, 0.1).sum(), x, create_graph=True)
    (gg,) = nt.autograd.grad(g.sum(), x)
    _same(gg.tolist(), [nan, nan, 0.0, -0.0, nan])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_trigamma_follows_torchs_kernel_at_poles_and_tiny_inputs(dtype):
    # torch's trigamma reflects with sin(pi x) of the unreduced argument: at the negative
    # integers it is large but finite (~6.6e32 at -1 in float64), at 0 it is inf; elsewhere
    # its series is good to ~1e-9, numtorch's to ~1e-15
    torch = pytest.importorskip("torch")
    values = [-1.0, -2.0, -1.0 + 1e-7, -0.5, 0.0, -0.0, 3.9e-17, 1e-3, 0.5, 7.25, float("inf")]
    values += [-float("inf"), nan, 1e20, -30.5]
    expected = torch.polygamma(1, torch.tensor(values, dtype=getattr(torch, dtype))).tolist()
    actual = nt.polygamma(1, nt.tensor(values, dtype=getattr(nt, dtype))).tolist()
    assert actual == pytest.approx(expected, rel=1e-6 if dtype == "float32" else 1e-8, nan_ok=True)


def test_trigamma_of_a_half_reflects_in_float():
    # a half's kernel runs in float: sin(pi x) at a half's large negative integers is tiny
    # there, and the value overflows the half to inf (in the half itself it stayed finite)
    torch = pytest.importorskip("torch")
    values = [-3000.0, -3000.5, -0.3, -2.5, -100.25, -1.0, 0.5]
    expected = torch.polygamma(1, torch.tensor(values, dtype=torch.float16)).tolist()
    assert nt.polygamma(1, nt.tensor(values, dtype=nt.float16)).tolist() == expected


def test_digamma_gradient_is_torchs_trigamma():
    x = nt.tensor([-1.0, -3.0], dtype=nt.float64, requires_grad=True)
    nt.digamma(x).sum().backward()
    sin_pi = math.sin(math.pi)
    assert x.grad.tolist()[0] == pytest.approx(math.pi**2 / sin_pi**2, rel=1e-6)
    assert math.isfinite(x.grad.tolist()[1])


def test_pow_exponent_gradient_at_a_zero_base():
    # torch zeroes x**y * log(x) only where x == 0 and y >= 0: a negative exponent gives
    # inf * -inf = -inf, a NaN exponent NaN
    inf = float("inf")
    base = nt.tensor([0.0, 0.0, 0.0, -0.0, 0.0], dtype=nt.float64)
    exponent = nt.tensor([2.0, 0.0, -2.0, -1.5, nan], dtype=nt.float64, requires_grad=True)
    (g,) = nt.autograd.grad(nt.pow(base, exponent).sum(), exponent)
    _same(g.tolist(), [0.0, 0.0, -inf, -inf, nan])
    exponent = nt.tensor([2.0, 0.0, -2.0, nan], dtype=nt.float64, requires_grad=True)
    (g,) = nt.autograd.grad(nt.pow(0.0, exponent).sum(), exponent)
    _same(g.tolist(), [0.0, 0.0, -inf, nan])


@pytest.mark.parametrize("name", ["xlogy", "xlog1py"])
def test_xlogy_with_a_nan_number_gives_zero_input_gradient_at_zero(name):
    # with a number as other, torch masks x == 0 unless other > 0 (> -1 for xlog1py): a NaN
    # other is masked too (a NaN tensor other is not)
    fn = getattr(nt.special, name)
    g = _grad(lambda x: fn(x, nan), [0.0, -0.0, 1.0])
    _same(g.tolist(), [0.0, 0.0, nan])
    x = nt.tensor([0.0, 1.0], dtype=nt.float64, requires_grad=True)
    (g,) = nt.autograd.grad(fn(x, nt.tensor([nan, nan], dtype=nt.float64)).sum(), x)
    _same(g.tolist(), [nan, nan])


@pytest.mark.parametrize("name", ["tanh", "sigmoid"])
@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_tanh_and_sigmoid_backward_round_as_torch_does(name, dtype):
    # given torch's forward values, the fused backward rounds bit for bit as torch's kernel
    # (tanh: 1 - y*y in one fused step; sigmoid: (1 - y) * y; half types through float32)
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    x = torch.randn(4096, dtype=getattr(torch, dtype), requires_grad=True)
    g = torch.randn(4096, dtype=getattr(torch, dtype))
    y = getattr(torch, name)(x)
    (expected,) = torch.autograd.grad(y, x, g)
    wanted = getattr(nt, dtype)
    y_ours = nt.tensor(y.detach().float().numpy()).to(wanted)
    g_ours = nt.tensor(g.float().numpy()).to(wanted)
    result = getattr(activations, f"{name}_backward")(g_ours, y_ours)
    assert result.dtype == wanted
    assert (result.float().numpy() == expected.float().numpy()).all()


@pytest.mark.parametrize("exponent", [0, 0.0])
def test_pow_by_number_zero_gives_zero_gradient_even_for_nonfinite_grad(exponent):
    # torch's pow_backward returns zeros_like(self) for a zero exponent: a NaN or inf
    # incoming gradient (as a max pool's third derivative meets) does not become NaN
    x = nt.tensor([0.0, 2.0, nan, math.inf], dtype=nt.float64, requires_grad=True)
    grad = nt.tensor([nan, 1.0, 1.0, math.inf], dtype=nt.float64)
    (g,) = nt.autograd.grad(x.pow(exponent), x, grad, create_graph=True)
    _same(g.tolist(), [0.0, 0.0, 0.0, 0.0])
    assert g.grad_fn is None


def test_logit_gradient_at_zero_and_one_is_grad_times_inf_whatever_the_zeros_sign():
    # torch's kernel: grad * inf at exactly 0 or 1, so -0 gives +inf for a positive grad;
    # its differentiable formula (create_graph) divides instead: 1 / -0 = -inf
    x = nt.tensor([-0.0, 0.0, 1.0, -0.0], requires_grad=True)
    (g,) = nt.autograd.grad(nt.logit(x), x, nt.tensor([1.0, -1.0, -2.0, -1.0]))
    _same(g.tolist(), [math.inf, -math.inf, -math.inf, -math.inf])
    (g,) = nt.autograd.grad(nt.logit(x), x, nt.tensor([1.0, 1.0, 1.0, 1.0]), create_graph=True)
    _same(g.tolist()[:2], [-math.inf, math.inf])


def test_logit_with_eps_gradient_of_a_zero_dim_nan():
    x = nt.tensor(nan, requires_grad=True)
    nt.logit(x, eps=1e-3).backward()
    assert math.isnan(x.grad.item())


@pytest.mark.parametrize("name", ["elu", "celu", "selu"])
def test_elu_family_keeps_the_sign_of_zero(name):
    # the negative side expm1(x) keeps -0, as torch's kernel does: rsqrt or log2 after it
    # sees -0 (-inf) and not +0
    out = getattr(nt.nn.functional, name)(nt.tensor([-0.0, 0.0]))
    _same(out.tolist(), [-0.0, 0.0])


@pytest.mark.parametrize("name", ["erf", "erfc"])
def test_erf_second_order_at_a_huge_input_is_nan_as_torchs_pow_formula(name):
    # torch's formula takes x.pow(2), whose derivative 2 * x overflows to inf: 0 * inf
    x = nt.tensor([1.7976931348623157e308, 0.5], dtype=nt.float64, requires_grad=True)
    (g,) = nt.autograd.grad(getattr(nt, name)(x).sum(), x, create_graph=True)
    (gg,) = nt.autograd.grad(g.sum(), x)
    assert math.isnan(gg[0].item()) and abs(gg[1].item()) == pytest.approx(0.8787825789354448)


def test_pow_by_minus_one_half_is_rsqrt_as_torchs_kernel():
    # torch takes x ** -0.5 as 1 / sqrt(x): -0 gives -inf and -inf gives NaN; the gradient
    # of x ** 0.5 takes that power, so at -0 it is -inf for a positive grad
    x = nt.tensor([-0.0, 0.0, -math.inf, 4.0])
    _same((x**-0.5).tolist(), [-math.inf, math.inf, nan, 0.5])
    g = _grad(lambda x: x**0.5, [-0.0, 0.0])
    _same(g.tolist(), [-math.inf, math.inf])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(
    "bounds",
    [
        {"min": 0.0},
        {"min": -0.0},
        {"max": 0.0},
        {"max": -0.0},
        {"min": -0.0, "max": 0.0},
        {"min": 0.0, "max": -0.0},
        {"min": -1.0, "max": 0.0},
    ],
)
@pytest.mark.parametrize("form", ["clamp", "clamp tensor", "clamp_min/max", "clamp_min/max tensor"])
def test_clamp_keeps_the_sign_of_a_zero_on_a_zero_bound(form, bounds, dtype):
    # torch replaces a value only where it is strictly outside a bound: -0.0 clamped at
    # min=0.0 stays -0.0 (and digamma or 1/x of it then differ by an infinity's sign)
    torch = pytest.importorskip("torch")
    if form.startswith("clamp_min") and len(bounds) > 1:
        pytest.skip("one bound at a time")
    results = []
    for lib in (nt, torch):
        x = lib.tensor([-0.0, 0.0, -1.0, 1.0, 0.5, -0.5], dtype=getattr(lib, dtype))
        given = {
            k: lib.tensor(v, dtype=x.dtype) if "tensor" in form else v for k, v in bounds.items()
        }
        if form.startswith("clamp_min"):
            ((name, bound),) = given.items()
            y = x.clamp_min(bound) if name == "min" else x.clamp_max(bound)
        else:
            y = lib.clamp(x, **given)
        results.append([math.copysign(1.0, v) * (abs(v) + 1) for v in y.tolist()])
    assert results[0] == results[1]


def test_bfloat16_nextafter_steps_by_its_own_spacing():
    # fuzz seed 8500540: computed in float32 and rounded back, the step vanished
    torch = pytest.importorskip("torch")
    values = [1000.0, 4672, -4320, 0.0, -0.0, 0.0, float("nan"), float("inf"), 1e-40, 3.0]
    targets = [0.0, 1e9, 0.0, 1.0, -1.0, -0.0, 1.0, 0.0, 0.0, 3.0]
    bits = []
    for lib in (nt, torch):
        out = lib.nextafter(
            lib.tensor(values, dtype=lib.bfloat16), lib.tensor(targets, dtype=lib.bfloat16)
        )
        bits.append(out.view(lib.int16).tolist())
    assert bits[0] == bits[1]


@pytest.mark.parametrize("wanted", ["input", "min", "max"])
@pytest.mark.parametrize("shapes", [((), (2,), ()), ((), (), (3,)), ((1,), (1, 4), (1,))], ids=str)
def test_clamp_tensor_backward_combines_its_conditions_in_place_as_torch(shapes, wanted):
    # torch's backward of clamp with tensor bounds combines two conditions in place into the
    # first (logical_and_/logical_or_): where the first is smaller than their broadcast,
    # the gradient of that argument fails as torch's does
    torch = pytest.importorskip("torch")
    outcomes = []
    for lib in (nt, torch):
        args = [
            lib.full(s, v, dtype=lib.float64, requires_grad=True)
            for s, v in zip(shapes, (0.5, 0.7, 0.2))
        ]
        y = lib.clamp(*args)
        try:
            (g,) = lib.autograd.grad(y.sum(), args[("input", "min", "max").index(wanted)])
            outcomes.append(g.tolist())
        except RuntimeError as error:
            outcomes.append(str(error))
    assert outcomes[0] == outcomes[1]
