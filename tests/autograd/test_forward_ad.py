"""torch.autograd.forward_ad semantics: levels, dual tensors, errors, views and in-place,
custom Functions, nesting and composition with reverse mode; against torch when installed."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch
import numtorch.autograd.forward_ad as fwAD
from numtorch._core.observers import dispatch
from numtorch.autograd import forward_grad


def test_no_observer_outside_a_level():
    assert not dispatch.observing
    with fwAD.dual_level():
        assert dispatch.observing and forward_grad.OBSERVER in dispatch.observers
    assert not dispatch.observing and forward_grad.OBSERVER not in dispatch.observers


def test_tangents_are_dropped_when_the_level_exits():
    x = numtorch.tensor([1.0, 2.0])
    with fwAD.dual_level():
        y = fwAD.make_dual(x, numtorch.ones(2)) * 3
        assert fwAD.unpack_dual(y).tangent is not None
    assert y._fw_grads is None
    assert fwAD.unpack_dual(y).tangent is None


def _errors(lib):
    ad = lib.autograd.forward_ad
    x = lib.randn(3)
    cases = {
        "outside": lambda: ad.make_dual(x, lib.ones(3)),
        "exit_none": lambda: ad.exit_dual_level(),
    }
    found = {}
    for name, fn in cases.items():
        with pytest.raises(Exception) as info:
            fn()
        found[name] = (type(info.value), str(info.value))
    with ad.dual_level():
        inside = {
            "shape": lambda: ad.make_dual(x, lib.ones(4)),
            "int_tangent": lambda: ad.make_dual(x, lib.ones(3, dtype=lib.int64)),
            "int_primal": lambda: ad.make_dual(lib.arange(3), lib.ones(3)),
            "nested": lambda: ad.enter_dual_level(),
        }
        for name, fn in inside.items():
            with pytest.raises(Exception) as info:
                fn()
            found[name] = (type(info.value), str(info.value))
    return found


def test_errors_match_torch():
    torch = pytest.importorskip("torch")
    ours, theirs = _errors(numtorch), _errors(torch)
    for name in theirs:
        assert ours[name][0] is theirs[name][0], name
        assert ours[name][1] == theirs[name][1], name


def _function_case(lib):
    class Exp(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            result = x.exp() * k
            ctx.save_for_forward(result)
            ctx.inside = lib.autograd.forward_ad.unpack_dual(x).tangent is None
            return result

        @staticmethod
        def jvp(ctx, x_t, k_t):
            (result,) = ctx.saved_tensors
            return x_t * result + (0 if k_t is None else k_t)

        @staticmethod
        def backward(ctx, grad):
            return grad, None

    class NoJvp(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    with lib.autograd.forward_ad.dual_level():
        d = lib.autograd.forward_ad.make_dual(lib.tensor([0.5, 1.0]), lib.tensor([1.0, -2.0]))
        out = Exp.apply(d, 2.0)
        tangent = lib.autograd.forward_ad.unpack_dual(out).tangent.numpy()
        with pytest.raises(NotImplementedError) as info:
            NoJvp.apply(d)
    return tangent, str(info.value)


def test_custom_function_jvp_matches_torch():
    torch = pytest.importorskip("torch")
    ours, theirs = _function_case(numtorch), _function_case(torch)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-6)
    assert ours[1] == theirs[1]


def _views_case(lib):
    ad = lib.autograd.forward_ad
    x, t = lib.tensor([1.0, 2.0, 3.0, 4.0]), lib.tensor([0.1, 0.2, 0.3, 0.4])
    found = []
    with ad.dual_level():
        d = ad.make_dual(x, t)
        found.append(ad.unpack_dual(d[1:]).tangent)
        z = lib.zeros(4)
        z[1:] = d[:3]
        found.append(ad.unpack_dual(z).tangent)
        c = d.clone()
        c[:2].mul_(d[2:])
        found.append(ad.unpack_dual(c).tangent)
        found.append(ad.unpack_dual(d).tangent)  # untouched by the clone's change
        s = (d * 1).t_().unsqueeze_(0).squeeze_()
        found.append(ad.unpack_dual(s).tangent)
    return [f.numpy() for f in found]


def test_views_and_inplace_match_torch():
    torch = pytest.importorskip("torch")
    for ours, theirs in zip(_views_case(numtorch), _views_case(torch)):
        np.testing.assert_allclose(ours, theirs, rtol=1e-6)


def test_reverse_over_forward():
    """The gradient of a tangent with respect to the primal: d/dx (J(x) v)."""
    x = numtorch.tensor([0.3, -0.8, 1.2], dtype=numtorch.float64, requires_grad=True)
    v = numtorch.tensor([1.0, 2.0, -1.0], dtype=numtorch.float64)

    def f(x):
        return (x.sin() * x.exp()).cumsum(0).prod()

    (tangent,) = numtorch.func.jvp(f, (x,), (v,))[1:]
    (ours,) = numtorch.autograd.grad(tangent, x)
    expected = numtorch.func.hessian(f)(x.detach()) @ v
    np.testing.assert_allclose(ours.numpy(), expected.numpy(), rtol=1e-9)


def test_nested_forward_levels():
    """jvp of jvp: the second derivative along v, u."""
    x = numtorch.tensor([0.4, -0.2], dtype=numtorch.float64)
    v = numtorch.tensor([1.0, 0.5], dtype=numtorch.float64)
    u = numtorch.tensor([-1.0, 2.0], dtype=numtorch.float64)

    def f(x):
        return (x.tanh() ** 2).sum() * x.softmax(0)[0]

    inner = lambda y: numtorch.func.jvp(f, (y,), (v,))[1]
    (ours,) = numtorch.func.jvp(inner, (x,), (u,))[1:]
    expected = u @ numtorch.func.hessian(f)(x) @ v
    np.testing.assert_allclose(float(ours), float(expected), rtol=1e-9)


def test_once_differentiable_function_with_jvp_in_func_jvp():
    """True forward mode: a Function whose backward is not differentiable still has jvp
    (torch.func needs the setup_context form)."""

    class Square(numtorch.autograd.Function):
        @staticmethod
        def forward(x):
            return x * x

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_forward(inputs[0])

        @staticmethod
        def jvp(ctx, x_t):
            (x,) = ctx.saved_tensors
            return 2 * x * x_t

        @staticmethod
        @numtorch.autograd.function.once_differentiable
        def backward(ctx, grad):
            raise AssertionError("forward mode must not run backward")

    x = numtorch.tensor([1.0, 3.0])
    _, tangent = numtorch.func.jvp(Square.apply, (x,), (numtorch.ones(2),))
    assert tangent.tolist() == [2.0, 6.0]


def test_jacfwd_is_one_batched_pass():
    """jacfwd runs the function once (not once per input element)."""
    calls = []

    def f(x):
        calls.append(1)
        return x.sin() * 2

    jac = numtorch.func.jacfwd(f)(numtorch.zeros(5))
    assert len(calls) == 1
    assert jac.tolist() == (2 * np.eye(5)).tolist()


def test_missing_forward_derivative_names_the_op():
    x = numtorch.randn(2, 3, dtype=numtorch.float64)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, numtorch.ones(2, 3, dtype=numtorch.float64))
        with pytest.raises(NotImplementedError, match="forward AD with .*pdist"):
            numtorch.nn.functional.pdist(d)


def test_gradcheck_checks_forward_ad():
    class WrongJvp(numtorch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * x

        @staticmethod
        def jvp(ctx, x_t):
            return x_t * 3

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    x = numtorch.tensor([0.5, -1.0, 2.0], dtype=numtorch.float64, requires_grad=True)
    gradcheck = numtorch.autograd.gradcheck
    assert gradcheck(lambda a: a.sin().cumsum(0) * a, (x,), check_forward_ad=True)
    with pytest.raises(
        numtorch.autograd.GradcheckError, match="Jacobian computed with forward mode mismatch"
    ):
        gradcheck(WrongJvp.apply, (x,), check_forward_ad=True, check_backward_ad=False)


# ops torch gives no forward derivative: forward AD raises NotImplementedError naming the op
_WITHOUT_FORWARD_AD = {
    "asinh_": lambda t, x: x.clone().asinh_(),
    "acosh_": lambda t, x: (x + 2).acosh_(),
    "atanh_": lambda t, x: (x / 4).atanh_(),
    "_unique2": lambda t, x: t.unique(x),
    "unique_dim": lambda t, x: t.unique(x, dim=0),
    "unique_consecutive": lambda t, x: t.unique_consecutive(x),
    "bincount": lambda t, x: t.bincount(t.tensor([0, 2, 2]), x),
    "histogram": lambda t, x: t.histogram(x, 3, weight=x).hist,
    "_standard_gamma": lambda t, x: t._standard_gamma(x + 1),
    "_standard_gamma_grad": lambda t, x: t._standard_gamma_grad(x + 1, x + 0.5),
    "binomial": lambda t, x: t.binomial(x * 0 + 3, x),
    # ops whose backward is not implemented (a NotImplemented node) either
    "floor_divide": lambda t, x: t.floor_divide(x, 0.3),
    "floordiv": lambda t, x: x // x,
    "heaviside": lambda t, x: t.heaviside(x, t.tensor([0.5], dtype=x.dtype)),
    "heaviside_values": lambda t, x: t.heaviside(t.tensor([0.5, 0.0, 1.0], dtype=x.dtype), x),
    "remainder_of_a_number": lambda t, x: t.remainder(2.0, x),
    # zeta's backward has a formula for q, but torch gives it no forward derivative
    "zeta_q": lambda t, x: t.special.zeta(t.tensor([2.0, 3.0, 4.0], dtype=x.dtype), x),
    "zeta_number_x": lambda t, x: t.special.zeta(2.0, x),
}


@pytest.mark.parametrize("name", sorted(_WITHOUT_FORWARD_AD))
def test_ops_without_forward_derivative_raise_as_torch(name):
    torch = pytest.importorskip("torch")
    fn = _WITHOUT_FORWARD_AD[name]
    messages = []
    for lib in (torch, numtorch):
        x = lib.tensor([0.2, 0.5, 0.9], dtype=lib.float64)
        with pytest.raises(NotImplementedError, match="forward AD with") as info:
            lib.func.jvp(lambda a, lib=lib: fn(lib, a), (x,), (lib.ones_like(x),))
        messages.append(str(info.value).split("\n")[0])
    assert messages[1] == messages[0]


@pytest.mark.parametrize("dim", [None, 1])
def test_zero_norm_tangent_is_zeros(dim):
    # counting nonzeros is flat: torch's tangent is zeros of the norm's shape
    torch = pytest.importorskip("torch")
    x = np.array([[0.5, -1.0, 0.0], [2.0, 0.0, 1.0]])
    ours, theirs = (
        lib.func.jvp(
            lambda a, lib=lib: lib.linalg.vector_norm(a, 0, dim),
            (lib.tensor(x),),
            (lib.ones(2, 3, dtype=lib.float64),),
        )[1].numpy()
        for lib in (numtorch, torch)
    )
    np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize(
    "name, fn",
    [
        ("max", lambda a: a.max()),
        ("median", lambda a: a.median()),
        ("nanmedian", lambda a: a.nanmedian()),
        ("amax", lambda a: a.amax(1)),
        ("norm_inf", lambda a: a.norm(float("inf"), 1)),
        ("max_dim", lambda a: a.max(1)[0]),
    ],
)
def test_reductions_of_nan_and_ties_match_torch(name, fn):
    """A NaN result reads no element (torch's evenly_read_jvp gives NaN); ties share."""
    torch = pytest.importorskip("torch")
    x = np.array([[1.0, np.nan, 3.0, 3.0], [2.0, -2.0, 0.5, 1.0], [1.0, 1.0, 1.0, 1.0]])
    t = np.arange(12.0).reshape(3, 4) + 1
    ours, theirs = (
        lib.func.jvp(fn, (lib.tensor(x),), (lib.tensor(t),))[1].detach().numpy()
        for lib in (numtorch, torch)
    )
    np.testing.assert_allclose(ours, theirs, equal_nan=True)
    grads = []
    for lib in (numtorch, torch):
        a = lib.tensor(x, requires_grad=True)
        fn(a).sum().backward()
        grads.append(a.grad.numpy())
    np.testing.assert_allclose(*grads, equal_nan=True)


_SPECIAL = [0.0, -0.0, 1.0, -1.0, 2.5, np.inf, -np.inf, np.nan]


@pytest.mark.parametrize(
    "name", ["atan2", "maximum", "minimum", "fmax", "fmin", "angle", "pow", "div", "copysign"]
)
@pytest.mark.parametrize("sides", ["input", "other", "both"])
def test_binary_forward_formulas_at_ties_zeros_and_nan_match_torch(name, sides):
    """torch's own forward formulas for these ops differ from their gradients: atan2's is NaN
    at the origin, ties of fmax go to ``other``, and a missing tangent drops out of the sum
    (it is not a zero that is multiplied, which would change the signs of zero), except in
    pow, whose base term is a ``where`` that adds real zeros even without a tangent."""
    torch = pytest.importorskip("torch")
    x = np.repeat(_SPECIAL, len(_SPECIAL))
    o = np.tile(_SPECIAL, len(_SPECIAL))
    tx = np.resize([1.0, -1.0, 0.0, -0.0, 2.0], x.size)
    results = []
    for lib in (numtorch, torch):
        ad = lib.autograd.forward_ad
        with ad.dual_level():
            a = ad.make_dual(lib.tensor(x), lib.tensor(tx)) if sides != "other" else lib.tensor(x)
            b = ad.make_dual(lib.tensor(o), lib.tensor(tx[::-1].copy()))
            b = b if sides != "input" else lib.tensor(o)
            out = getattr(lib, name)(a) if name == "angle" else getattr(lib, name)(a, b)
            tangent = ad.unpack_dual(out).tangent
            results.append(None if tangent is None else tangent.numpy().copy())
    ours, theirs = results
    if theirs is None:
        assert ours is None
        return
    np.testing.assert_array_equal(ours, theirs)
    # the sign of a NaN made from two NaNs (or from inf * 0) is up to the CPU
    keep = ~np.isnan(theirs)
    np.testing.assert_array_equal(np.signbit(ours[keep]), np.signbit(theirs[keep]))


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax_of_a_zero_dim_tensor_has_torchs_tangent_signs(name):
    """Over one element the tangent is t - sum(t): zero, with the sign torch's sum gives
    (a sum starts from +0, so a -0 tangent stays -0 and a -1 tangent gives +0)."""
    torch = pytest.importorskip("torch")
    results = []
    for lib in (numtorch, torch):
        x = lib.tensor(0.7, dtype=lib.float64)
        f = getattr(lib, name)
        row = [
            float(lib.func.jvp(lambda a: f(a, 0), (x,), (lib.tensor(t, dtype=lib.float64),))[1])
            for t in (1.0, -1.0, 0.0, -0.0, np.inf)
        ]
        results.append(np.array(row))
    ours, theirs = results
    np.testing.assert_array_equal(ours, theirs)
    keep = ~np.isnan(theirs)
    np.testing.assert_array_equal(np.signbit(ours[keep]), np.signbit(theirs[keep]))


@pytest.mark.parametrize("sides", ["input", "end", "both", "input_and_weight", "all"])
def test_lerp_forward_formula_is_lerp_of_the_tangents_like_torch(sides):
    """torch's tangent is lerp(input_t, end_t, weight) (+ weight_t * (end - input)): its
    two-sided form, not the gradients' (1 - w) * input_t, decides the signs of zero."""
    torch = pytest.importorskip("torch")
    x = np.repeat(_SPECIAL, len(_SPECIAL))
    o = np.tile(_SPECIAL, len(_SPECIAL))
    tx = np.resize([1.0, -1.0, 0.0, -0.0, 2.0], x.size)
    w = np.resize([0.3, 0.7, -0.2, 1.0, 0.0, 0.5], x.size)
    results = []
    for lib in (numtorch, torch):
        ad = lib.autograd.forward_ad
        with ad.dual_level():
            a, b = lib.tensor(x), lib.tensor(o)
            weight = 0.3 if sides in ("input", "end", "both") else lib.tensor(w)
            if sides != "end":
                a = ad.make_dual(a, lib.tensor(tx))
            if sides in ("end", "both", "all"):
                b = ad.make_dual(b, lib.tensor(tx[::-1].copy()))
            if sides in ("input_and_weight", "all"):
                weight = ad.make_dual(weight, lib.tensor(tx))
            results.append(ad.unpack_dual(lib.lerp(a, b, weight)).tangent.numpy().copy())
    ours, theirs = results
    np.testing.assert_array_equal(ours, theirs)
    keep = ~np.isnan(theirs)
    np.testing.assert_array_equal(np.signbit(ours[keep]), np.signbit(theirs[keep]))


def test_an_op_without_forward_derivative_refuses_before_checking_its_arguments():
    # fuzz seed 8400137: torch refuses forward AD through floor_divide before its kernel
    # finds that the shapes do not broadcast
    torch = pytest.importorskip("torch")
    errors = []
    for lib in (numtorch, torch):
        x = lib.ones(2, 3)
        with pytest.raises(NotImplementedError) as error:
            lib.func.jvp(lambda a, lib=lib: lib.floor_divide(a, a[[0, 0, 0]]), (x,), (x,))
        errors.append(str(error.value))
    assert errors[0] == errors[1]
