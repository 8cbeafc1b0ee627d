"""Views share storage and version counter; in-place ops through views give correct gradients
(torch's CopySlices), checked by finite differences and against torch."""

import math

import numpy as np
import pytest

import numtorch
from numtorch.autograd import gradcheck, gradgradcheck

A = np.arange(12, dtype=np.float64).reshape(3, 4) / 10 + 0.1


def leaf(lib=numtorch, data=A):
    return lib.tensor(data, requires_grad=True)


def as_plain(value):
    if isinstance(value, (tuple, list)):
        return [as_plain(v) for v in value]
    if hasattr(value, "detach"):
        return np.round(value.detach().numpy(), 10).tolist()
    return value


# -- functions of x that write through views: checked by finite differences -------------------
def setitem_column(x):
    y = x * 1
    y[:, 0] = 0
    return y


def clone_slice_mul(x):
    y = x.clone()
    y[1:].mul_(2)
    return y * y


def chain_of_views(x):
    y = x * 2
    y[1:].t()[1:3].mul_(3)
    return y.exp()


def write_value_depending_on_x(x):
    y = x * 1
    y[0].mul_(x[1])
    y[:, 2].add_(x[:, 1] * x[2, 3])
    return y**2


def reshape_transpose_views(x):
    y = x.sin()
    y.view(2, 6)[1].add_(y[0, 0] * 5)
    y.transpose(0, 1)[2].sub_(1.5)
    return y * y


def strided_pow(x):
    y = x * 1
    y[::2, ::3].pow_(2)
    return y


def copy_into_zeros(x, lib=numtorch):
    z = lib.zeros(5, 4, dtype=lib.float64)
    z[1:4].copy_(x.exp())
    z.t()[3].add_(x[0, 0])
    return z


def flat_view_setitem(x):
    y = x * 1
    y.view(12)[3] = 7.0
    return y**2


def base_then_view(x):
    y = x * 1
    v = y[:, 1]
    y.mul_(3)
    return v * v


def advanced_index_setitem(x):
    y = x * 1
    y[[0, 2]] = x[1] * 0.5
    y[y > 0.65] = 0.0
    return y


VIEW_FUNCTIONS = [
    setitem_column,
    clone_slice_mul,
    chain_of_views,
    write_value_depending_on_x,
    reshape_transpose_views,
    strided_pow,
    copy_into_zeros,
    flat_view_setitem,
    base_then_view,
    advanced_index_setitem,
]


@pytest.mark.parametrize("fn", VIEW_FUNCTIONS, ids=lambda f: f.__name__)
def test_gradients_match_finite_differences(fn):
    assert gradcheck(fn, (leaf(),), eps=1e-6, atol=1e-6)


@pytest.mark.parametrize(
    "fn",
    [write_value_depending_on_x, reshape_transpose_views, base_then_view],
    ids=lambda f: f.__name__,
)
def test_double_backward_through_in_place_views(fn):
    assert gradgradcheck(fn, (leaf(),), eps=1e-6, atol=1e-5)


@pytest.mark.parametrize("fn", VIEW_FUNCTIONS, ids=lambda f: f.__name__)
def test_values_and_gradients_match_torch(fn):
    torch = pytest.importorskip("torch")
    results = []
    for lib in (numtorch, torch):
        x = leaf(lib)
        out = fn(x, lib=lib) if fn is copy_into_zeros else fn(x)
        g = lib.tensor(np.linspace(-1, 1, out.numel()).reshape(tuple(out.shape)))
        out.backward(g)
        results.append((as_plain(out), as_plain(x.grad)))
    assert results[0] == results[1]


def test_seed_examples():
    x = leaf()
    y = x * 1
    y[:, 0] = 0
    y.sum().backward()
    expected = np.ones((3, 4))
    expected[:, 0] = 0
    np.testing.assert_array_equal(x.grad.numpy(), expected)
    assert y.grad_fn.name() == "torch::autograd::CopySlices"
    x = leaf()
    y = x.clone()
    y[1:].mul_(2)
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[1] * 4, [2] * 4, [2] * 4])


# -- storage and version counter -----------------------------------------------------------------
def test_views_share_storage_and_version_counter():
    x = numtorch.tensor(A)
    views = [x[1:], x.view(12), x.t(), x.reshape(4, 3), x.transpose(0, 1)[1], x.expand(2, 3, 4)]
    views.append(x.detach())
    views.append(x[0][2])  # a 0-d view
    before = x._version
    x[0, 2] = 100.0
    for v in views:
        assert v._version == x._version == before + 1
    assert views[1][2].item() == 100.0 and views[-1].item() == 100.0
    x[1:].mul_(2)  # through a view: the base sees it
    assert x._version == before + 2 and views[0]._version == before + 2
    np.testing.assert_array_equal(x.numpy()[1], A[1] * 2)


def test_data_in_place_changes_are_untracked():
    x = leaf()
    y = x * x
    version = x._version
    x.data.mul_(2)
    assert x._version == version  # not tracked: no version error at backward...
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * (2 * A))  # ...and the new values are used
    x = leaf()
    x.data = numtorch.zeros(3, 4, dtype=numtorch.float64)
    assert x.requires_grad and x.is_leaf and x.sum().item() == 0


def test_detach_shares_the_version_counter_so_in_place_is_caught():
    x = leaf()
    y = x.exp()
    y.detach().zero_()
    with pytest.raises(RuntimeError, match="output 0 of Exp, is at version 1"):
        y.sum().backward()


def test_in_place_on_a_saved_tensor_through_a_view_is_caught():
    x = leaf()
    y = x.sin()
    z = y * y
    y[0].mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        z.sum().backward()


# -- errors ----------------------------------------------------------------------------------------
def leaf_view_inplace(lib, how):
    x = leaf(lib)
    {
        "select_mul": lambda: x[0].mul_(2),
        "view_add": lambda: x.view(-1).add_(1),
        "setitem": lambda: x.__setitem__(0, 1.0),
        "transpose_zero": lambda: x.t().zero_(),
        "leaf_add": lambda: x.add_(1),
    }[how]()


def other_errors(lib, how):
    x = leaf(lib)
    y = x * 1
    if how == "unbind":
        y.unbind(0)[0].mul_(2)
    elif how == "split":
        y.split(2, 0)[0].mul_(2)
    elif how == "no_grad_view":
        with lib.no_grad():
            v = y[0]
        v.mul_(2)
    elif how == "detach_view":
        y[1:].detach_()


@pytest.mark.parametrize("how", ["select_mul", "view_add", "setitem", "transpose_zero", "leaf_add"])
def test_in_place_on_a_leaf_or_its_view_raises_like_torch(how):
    with pytest.raises(RuntimeError) as ours:
        leaf_view_inplace(numtorch, how)
    torch = pytest.importorskip("torch")
    with pytest.raises(RuntimeError) as theirs:
        leaf_view_inplace(torch, how)
    # numtorch adds which op and what to do after torch's sentence
    assert str(ours.value).startswith(str(theirs.value).split(".")[0])


def test_leaf_unchanged_after_refused_in_place():
    x = leaf()
    version = x._version
    for how in ("select_mul", "view_add", "setitem", "transpose_zero", "leaf_add"):
        with pytest.raises(RuntimeError):
            {
                "select_mul": lambda: x[0].mul_(2),
                "view_add": lambda: x.view(-1).add_(1),
                "setitem": lambda: x.__setitem__(0, 1.0),
                "transpose_zero": lambda: x.t().zero_(),
                "leaf_add": lambda: x.add_(1),
            }[how]()
    assert x._version == version
    np.testing.assert_array_equal(x.detach().numpy(), A)
    with numtorch.no_grad():  # the documented way to update a parameter
        x[0].mul_(2)
    np.testing.assert_array_equal(x.detach().numpy()[0], 2 * A[0])


@pytest.mark.parametrize("how", ["unbind", "split", "no_grad_view", "detach_view"])
def test_other_view_errors_match_torch(how):
    torch = pytest.importorskip("torch")
    with pytest.raises(RuntimeError) as theirs:
        other_errors(torch, how)
    with pytest.raises(RuntimeError) as ours:
        other_errors(numtorch, how)
    first_sentence = str(theirs.value).split(". ")[0]
    assert str(ours.value).startswith(first_sentence)


def views_made_without_grad_mode(lib):
    """What torch reports for views of a tensor that requires grad, taken under no_grad or
    inference mode: they require grad but have no grad_fn, and gradient through them
    reaches nothing (autograd.grad finds them unused)."""
    x = lib.tensor(A, requires_grad=True)
    z = x * 1
    with lib.no_grad():
        v, t, d, of_nonleaf = x[1], x.t().reshape(-1), x.detach()[0], z[0]
        of_view = v[0]
    with lib.inference_mode():
        iv = x[2]
    seen = [(u.requires_grad, u.is_leaf) for u in (v, t, d, of_nonleaf, of_view, iv)]
    y = v * 2
    seen.append((y.requires_grad, type(y.grad_fn).__name__, y.grad_fn.next_functions))
    y.sum().backward()
    seen.append((x.grad, v.grad))
    seen.append(lib.autograd.grad((v * 3).sum(), v, allow_unused=True))
    try:
        lib.autograd.grad((v * 3).sum(), v)
    except RuntimeError as e:
        seen.append(str(e).split(".")[0])
    return seen


def test_views_made_without_grad_mode_require_grad_but_lead_nowhere_like_torch():
    torch = pytest.importorskip("torch")
    assert views_made_without_grad_mode(numtorch) == views_made_without_grad_mode(torch)


# -- retain_grad and hooks around in-place -------------------------------------------------------
def retain_and_hooks(lib):
    log = []
    x = leaf(lib, A[:2, :2])
    y = x * 2
    y.retain_grad()
    y.register_hook(lambda g: log.append(("before", as_plain(g))))
    y.mul_(3)
    y.register_hook(lambda g: log.append(("after", as_plain(g))))
    (y * y).sum().backward()
    out = [as_plain(y.grad), log[:]]
    log.clear()
    x = leaf(lib, A[:2, :2])
    y = x * 2
    v = y[0]
    v.retain_grad()
    v.register_hook(lambda g: log.append(("view", as_plain(g))))
    y.mul_(3)
    (v * v).sum().backward()
    out += [as_plain(v.grad), log[:]]
    x = leaf(lib, A[:2, :2])
    y = x * 2
    y.retain_grad()
    y[0].mul_(3)
    (y * y).sum().backward()
    out.append(as_plain(y.grad))
    return out


def test_retain_grad_follows_in_place_and_hooks_stay_like_torch():
    ours = retain_and_hooks(numtorch)
    assert ours[0] is not None and ours[2] is not None and ours[4] is not None
    assert [event[0] for event in ours[1]] == ["after", "before"]
    torch = pytest.importorskip("torch")
    assert ours == retain_and_hooks(torch)


# -- torch.autograd.Variable (deprecated) --------------------------------------------------------
def variable_facts(lib):
    V = lib.autograd.Variable
    t = lib.ones(2)
    v = V(t)
    v.add_(1)  # shares storage and version counter, like detach()
    w = V(t, requires_grad=True)
    y = lib.ones(2, requires_grad=True) * 2
    z = V(y)
    return [
        type(v).__name__,
        v is t,
        as_plain(t),
        t._version,
        (w.requires_grad, w.is_leaf, t.requires_grad),
        (z.requires_grad, z.grad_fn is None, z.is_leaf),
        isinstance(t, V),
        as_plain(V()),
    ]


def test_variable_returns_a_tensor():
    facts = variable_facts(numtorch)
    assert facts[0] == "Tensor" and facts[4] == (True, True, False)
    with pytest.warns(UserWarning, match="volatile was removed"):
        numtorch.autograd.Variable(numtorch.ones(1), volatile=True)
    with pytest.raises(TypeError, match="Variable data has to be a tensor, but got list"):
        numtorch.autograd.Variable([1.0])
    torch = pytest.importorskip("torch")
    assert facts == variable_facts(torch)


def _saved_output_of_in_place_view(lib):
    # exp2_ saves its output; on a view, that output unpacks as the view (its grad_fn leads
    # to the root's CopySlices), so the second derivative reaches the root, and the two paths
    # into the view are summed before exp2's backward multiplies by an infinite factor
    x = lib.tensor([1.0, 2.0, math.inf, 3.0], requires_grad=True)
    v = lib.tensor([2.0, 0.5, 0.0], requires_grad=True)
    root = x * 1
    view = root[1:]
    view.exp2_()
    gx, gv = lib.autograd.grad((view * v).sum(), (x, v), create_graph=True)
    reached = lib.autograd.grad(gx.sum(), root, allow_unused=True, retain_graph=True)[0]
    second = lib.autograd.grad(gx.sum() + gv.sum(), (x, v))
    return reached is not None and reached.tolist(), [g.tolist() for g in second]


def test_saved_output_of_an_in_place_op_on_a_view_unpacks_as_the_view():
    found = _saved_output_of_in_place_view(numtorch)
    assert found[0] is not False
    torch = pytest.importorskip("torch")
    assert found == _saved_output_of_in_place_view(torch)


def test_inplace_abs_refuses_a_complex_tensor():
    # torch's result would be real: it refuses rather than writing |z| + 0j back
    z = numtorch.tensor([1 + 1j])
    for name in ("abs_", "absolute_"):
        with pytest.raises(RuntimeError, match="In-place abs is not supported for complex"):
            getattr(z, name)()
    assert z.tolist() == [1 + 1j]
    assert numtorch.tensor([-2.0]).abs_().tolist() == [2.0]
