"""torch.autograd.functional: values, output structure and errors, against torch when installed."""

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import numtorch
import numtorch.autograd.functional as F
from numtorch.func import batching

RNG = np.random.default_rng(0)
X = RNG.standard_normal((3, 4))
Y = RNG.standard_normal(4)
W = RNG.standard_normal((4, 5))


def tensors(lib, arrays):
    return tuple(lib.tensor(np.asarray(a, dtype=np.float64)) for a in arrays)


def assert_same(ours, theirs, atol=1e-7):
    """Same nesting (tuple/list), shapes and values."""
    if isinstance(theirs, (tuple, list)):
        assert type(ours) is type(theirs) and len(ours) == len(theirs)
        for a, b in zip(ours, theirs):
            assert_same(a, b, atol)
        return
    a, b = ours.detach().numpy(), theirs.detach().numpy()
    assert a.shape == b.shape
    np.testing.assert_allclose(a, b, atol=atol, rtol=1e-6)


# Functions written once for both libraries: ``make(lib)`` returns the function.
FUNCTIONS = {
    "exp_reducer": (lambda lib: lambda x: x.exp().sum(dim=1), (X,)),
    "two_in_two_out": (lambda lib: lambda x, y: (2 * x + 3 * y, x * y), (Y, 2 * Y)),
    "matmul_tanh": (lambda lib: lambda x: (x @ lib.tensor(W)).tanh(), (X,)),
    "vector_matmul": (
        lambda lib: lambda y: (y @ lib.tensor(W)).sigmoid() @ lib.tensor(W).t(),
        (Y,),
    ),
    "softmax_t": (lambda lib: lambda x: lib.softmax(x, dim=-1).t(), (X,)),
    "transpose_slice": (lambda lib: lambda x: x.transpose(0, 1).sigmoid()[1:, 0], (X,)),
    "reductions": (
        lambda lib: lambda x, y: ((x * y).sum(0), (x.relu() @ y).mean()),
        (X, Y),
    ),
    "views": (
        lambda lib: lambda x: x.reshape(2, 2, 3).permute(2, 0, 1).cumsum(1).flip(0),
        (X,),
    ),
    "dot": (lambda lib: lambda y: lib.dot(y, y) * y, (Y,)),
    "mv_expand": (lambda lib: lambda x, y: lib.mv(x, y).unsqueeze(1).expand(3, 2), (X, Y)),
    "cat_max": (
        lambda lib: lambda x, y: lib.cat([x.log_softmax(1), y.unsqueeze(0)], 0).max(dim=1)[0],
        (X, Y),
    ),
    "select_stack": (lambda lib: lambda x: lib.stack([x[0], x[2] * x[1]], 1), (X,)),
    "duplicate_index": (lambda lib: lambda x: x[[0, 0, 2]] ** 2, (X,)),
    "unused_input": (lambda lib: lambda x, y: x.sin(), (X, Y)),
    "scalar_out": (lambda lib: lambda x: (x**3).sum(), (Y,)),
    "where_clamp": (
        lambda lib: lambda x: lib.where(x > 0, x.clamp(max=0.5), -x).sqrt(),
        (X,),
    ),
    "scaled_products": (
        lambda lib: (
            lambda x, y: (
                lib.addmv(y[:3], x, y, beta=0.5, alpha=2).sum()
                + lib.addr(x, y[:3], y, alpha=3).sin().sum()
                + lib.baddbmm(x[:, :3], x.unsqueeze(0), x.t().unsqueeze(0), beta=2).sum()
                + lib.addbmm(x[:, :3], x.reshape(2, 3, 2), x.reshape(2, 2, 3), alpha=-1).exp().sum()
            )
        ),
        (X, Y),
    ),
}

SCALAR_FUNCTIONS = {
    "tanh_cubed": (
        lambda lib: lambda x: (x.tanh() ** 3).sum() + (x @ lib.tensor(W)).exp().mean(),
        (X,),
    ),
    "two_inputs": (lambda lib: lambda x, y: (x.relu() @ y).sin() * (y**2).sum(), (X[0], Y)),
    "mixed": (lambda lib: lambda x, y: (x.sin() * y).sum() * x.cos().sum(), (X[0], Y)),
}


# -- the seed examples -------------------------------------------------------------------------
def test_seed_jacobian_and_hessian_of_a_scalar_function():
    torch = numtorch
    v = torch.randn(4)

    def scalar_func(x):
        return (x**2).sum()

    jac = torch.autograd.functional.jacobian(scalar_func, v)
    assert jac.shape == (4,)
    np.testing.assert_allclose(jac.numpy(), 2 * v.numpy(), rtol=1e-6)
    hess = torch.autograd.functional.hessian(scalar_func, v)
    assert hess.shape == (4, 4)
    np.testing.assert_array_equal(hess.numpy(), 2 * np.eye(4, dtype=np.float32))
    jac_sq = torch.autograd.functional.jacobian(lambda x: x**2, v)
    assert jac_sq.shape == (4, 4)
    np.testing.assert_allclose(jac_sq.sum(0).numpy(), 2 * v.numpy(), rtol=1e-6)
    np.testing.assert_allclose(jac_sq.numpy(), np.diag(2 * v.numpy()), rtol=1e-6)


def test_seed_tutorial_exp_adder_and_vhp():
    torch = numtorch
    inputs = (torch.rand(3), torch.rand(3))
    jac = torch.autograd.functional.jacobian(lambda x, y: 2 * x.exp() + 3 * y, inputs)
    assert isinstance(jac, tuple) and len(jac) == 2
    np.testing.assert_allclose(jac[0].numpy(), np.diag(2 * np.exp(inputs[0].numpy())), rtol=1e-6)
    np.testing.assert_allclose(jac[1].numpy(), 3 * np.eye(3))

    def do_some_doubling(x):
        y = x * 2
        while y.data.norm() < 1000:
            y = y * 2
        return y

    x = torch.randn(3)
    out, vjp = torch.autograd.functional.vjp(do_some_doubling, x, torch.tensor([0.1, 1.0, 1e-4]))
    scale = out.numpy() / x.numpy()
    np.testing.assert_allclose(vjp.numpy(), scale * np.array([0.1, 1.0, 1e-4]), rtol=1e-5)


def test_seed_nn_examples():
    # The seeds' jacobians of nn layers: a Linear's is its weight; an average pool of a 4x4
    # matrix to 2x2, squared, has a (2, 2, 4, 4) jacobian.
    torch = numtorch
    nn = torch.nn
    fc = nn.Linear(4, 2)
    jac = torch.autograd.functional.jacobian(fc, torch.randn(4))
    assert jac.shape == (2, 4)
    np.testing.assert_allclose(jac.numpy(), fc.weight.detach().numpy(), rtol=1e-6)

    pool = nn.AvgPool2d(2)
    x = torch.randn(4, 4)

    def pooled_squares(m):
        return pool(m.reshape(1, 1, 4, 4)).reshape(2, 2) ** 2

    jac = torch.autograd.functional.jacobian(pooled_squares, x)
    assert jac.shape == (2, 2, 4, 4)
    # d/dx_kl (mean of window ij)^2 = 2 * mean_ij / 4 inside window ij, 0 elsewhere
    means = x.numpy().reshape(2, 2, 2, 2).mean(axis=(1, 3))
    expected = np.zeros((2, 2, 4, 4), np.float32)
    for i in range(2):
        for j in range(2):
            expected[i, j, 2 * i : 2 * i + 2, 2 * j : 2 * j + 2] = means[i, j] / 2
    np.testing.assert_allclose(jac.numpy(), expected, rtol=1e-5, atol=1e-7)


# -- parity with torch -------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(FUNCTIONS))
@pytest.mark.parametrize("vectorize", [False, True])
def test_jacobian_matches_torch(name, vectorize):
    torch = pytest.importorskip("torch")
    make, arrays = FUNCTIONS[name]
    ours = F.jacobian(make(numtorch), tensors(numtorch, arrays), vectorize=vectorize)
    theirs = torch.autograd.functional.jacobian(
        make(torch), tensors(torch, arrays), vectorize=vectorize
    )
    assert_same(ours, theirs)
    if len(arrays) == 1:  # a bare tensor input gives a bare tensor (or tuple over outputs)
        ours = F.jacobian(make(numtorch), tensors(numtorch, arrays)[0], vectorize=vectorize)
        theirs = torch.autograd.functional.jacobian(
            make(torch), tensors(torch, arrays)[0], vectorize=vectorize
        )
        assert_same(ours, theirs)


@pytest.mark.parametrize("name", sorted(SCALAR_FUNCTIONS))
def test_hessian_and_products_match_torch(name):
    torch = pytest.importorskip("torch")
    make, arrays = SCALAR_FUNCTIONS[name]
    for vectorize in (False, True):
        ours = F.hessian(make(numtorch), tensors(numtorch, arrays), vectorize=vectorize)
        theirs = torch.autograd.functional.hessian(
            make(torch), tensors(torch, arrays), vectorize=vectorize
        )
        assert_same(ours, theirs)
    vs = [RNG.standard_normal(np.shape(a)) for a in arrays]
    for fn in ("vjp", "jvp", "vhp", "hvp"):
        v_ours = None if fn == "vjp" else tensors(numtorch, vs)
        v_theirs = None if fn == "vjp" else tensors(torch, vs)
        ours = getattr(F, fn)(make(numtorch), tensors(numtorch, arrays), v_ours)
        theirs = getattr(torch.autograd.functional, fn)(
            make(torch), tensors(torch, arrays), v_theirs
        )
        assert_same(ours, theirs)


def test_vjp_jvp_on_non_scalar_functions_match_torch():
    torch = pytest.importorskip("torch")
    make, arrays = FUNCTIONS["two_in_two_out"]
    v_out = [RNG.standard_normal(4), RNG.standard_normal(4)]
    ours = F.vjp(make(numtorch), tensors(numtorch, arrays), tensors(numtorch, v_out))
    theirs = torch.autograd.functional.vjp(
        make(torch), tensors(torch, arrays), tensors(torch, v_out)
    )
    assert_same(ours, theirs)
    ours = F.jvp(make(numtorch), tensors(numtorch, arrays), tensors(numtorch, v_out))
    theirs = torch.autograd.functional.jvp(
        make(torch), tensors(torch, arrays), tensors(torch, v_out)
    )
    assert_same(ours, theirs)


def test_forward_mode_jacobian_matches_torch_structure():
    torch = pytest.importorskip("torch")
    for name in ("reductions", "matmul_tanh", "two_in_two_out"):
        make, arrays = FUNCTIONS[name]
        ours = F.jacobian(
            make(numtorch), tensors(numtorch, arrays), vectorize=True, strategy="forward-mode"
        )
        theirs = torch.autograd.functional.jacobian(
            make(torch), tensors(torch, arrays), vectorize=True, strategy="forward-mode"
        )
        assert_same(ours, theirs)


def test_create_graph_results_are_differentiable_like_torch():
    torch = pytest.importorskip("torch")
    results = []
    for lib in (numtorch, torch):
        x = lib.tensor(X[0], requires_grad=True)
        jac = lib.autograd.functional.jacobian(lambda t: t.sin() * t.sum(), x, create_graph=True)
        assert jac.requires_grad
        jac.pow(2).sum().backward()
        hess = lib.autograd.functional.hessian(lambda t: (t**4).sum(), x, create_graph=True)
        assert hess.requires_grad
        g = lib.autograd.grad(hess.sum(), x)[0]
        results.append((jac, x.grad, g))
    assert_same(tuple(results[0]), tuple(results[1]))


def test_vectorized_create_graph_equals_loop():
    x = numtorch.tensor(X[0], requires_grad=True)
    grads = []
    for vectorize in (False, True):
        jac = F.jacobian(
            lambda t: (t.exp() * t.sum()).tanh(), x, create_graph=True, vectorize=vectorize
        )
        grads.append(numtorch.autograd.grad(jac.sum(), x)[0].numpy())
    np.testing.assert_allclose(grads[1], grads[0], rtol=1e-10)


# -- structure without torch -------------------------------------------------------------------
def test_output_structure():
    x, y = numtorch.ones(3), numtorch.ones(2)
    one_one = F.jacobian(lambda a: a * 2, x)
    assert isinstance(one_one, numtorch.Tensor) and one_one.shape == (3, 3)
    tuple_in = F.jacobian(lambda a, b: a.sum() * b, (x, y))
    assert isinstance(tuple_in, tuple) and [t.shape for t in tuple_in] == [(2, 3), (2, 2)]
    tuple_out = F.jacobian(lambda a: (a * 2, a.sum()), x)
    assert isinstance(tuple_out, tuple) and [t.shape for t in tuple_out] == [(3, 3), (3,)]
    both = F.jacobian(lambda a, b: (a * 2, b.sum() * a.sum()), (x, y))
    assert len(both) == 2 and all(len(row) == 2 for row in both)
    assert [[t.shape for t in row] for row in both] == [[(3, 3), (3, 2)], [(3,), (2,)]]
    single_tuple = F.jacobian(lambda a: (a * 2,), (x,))
    assert isinstance(single_tuple, tuple) and isinstance(single_tuple[0], tuple)
    hess = F.hessian(lambda a, b: (a * a).sum() * b.sum(), (x, y))
    assert [[t.shape for t in row] for row in hess] == [[(3, 3), (3, 2)], [(2, 3), (2, 2)]]


def test_results_do_not_keep_history_or_touch_inputs():
    x = numtorch.ones(3, requires_grad=True)
    jac = F.jacobian(lambda a: a.exp(), x)
    assert not jac.requires_grad and jac.grad_fn is None
    out, vjp = F.vjp(lambda a: a.exp().sum(), x)
    assert not out.requires_grad and not vjp.requires_grad
    assert x.grad is None


def test_closure_captured_input_is_distinct_from_the_argument():
    # torch #32576: the function sees fresh leaves, so a closed-over original is a constant.
    x = numtorch.tensor([1.0, 2.0])
    jac = F.jacobian(lambda a: a * x, x)
    np.testing.assert_array_equal(jac.numpy(), np.diag([1.0, 2.0]))


def test_hessian_is_jacobian_of_gradient_and_hvp_is_hessian_times_v():
    x = numtorch.tensor(X[0])
    v = numtorch.tensor(Y)

    def f(t):
        return (t.sin() * t.sum()).sum() + (t**4).mean()

    hess = F.hessian(f, x)
    jac_of_grad = F.jacobian(lambda t: numtorch.autograd.grad(f(t), t, create_graph=True)[0], x)
    np.testing.assert_allclose(hess.numpy(), jac_of_grad.numpy(), rtol=1e-12)
    _, hv = F.hvp(f, x, v)
    np.testing.assert_allclose(hv.numpy(), hess.numpy() @ Y, rtol=1e-10)
    _, vh = F.vhp(f, x, v)
    np.testing.assert_allclose(vh.numpy(), Y @ hess.numpy(), rtol=1e-10)
    np.testing.assert_allclose(hess.numpy(), hess.numpy().T, rtol=1e-10)


def test_independent_input_gives_zeros_unless_strict():
    x, y = numtorch.ones(2), numtorch.ones(3)
    jac = F.jacobian(lambda a, b: a * 2, (x, y))
    np.testing.assert_array_equal(jac[1].numpy(), np.zeros((2, 3)))
    _, (gx, gy) = F.vjp(lambda a, b: (a * 2).sum(), (x, y))
    np.testing.assert_array_equal(gy.numpy(), np.zeros(3))


# -- vectorize ---------------------------------------------------------------------------------
def _spy_row_by_row(monkeypatch):
    """The ops that ran once per sample (no batching rule) from here on."""
    seen = Counter()
    monkeypatch.setattr(batching, "FALLBACKS", seen)
    return seen


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_vectorize_equals_loop(name, monkeypatch):
    make, arrays = FUNCTIONS[name]
    loop = F.jacobian(make(numtorch), tensors(numtorch, arrays))
    seen = _spy_row_by_row(monkeypatch)
    vectorized = F.jacobian(make(numtorch), tensors(numtorch, arrays), vectorize=True)
    assert_same(vectorized, loop, atol=1e-12)
    # Only ops without a batching rule run row by row.
    assert set(seen) <= {"index_put"}


def test_vectorized_hessian_runs_every_node_batched(monkeypatch):
    seen = _spy_row_by_row(monkeypatch)
    make, arrays = SCALAR_FUNCTIONS["tanh_cubed"]
    F.hessian(make(numtorch), tensors(numtorch, arrays), vectorize=True)
    assert not seen


def test_vectorize_with_custom_function_and_hooks_equals_loop():
    class Cube(numtorch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x**3

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * 3 * x**2

    def f(x):
        y = Cube.apply(x.sin())
        return y * x

    x = numtorch.tensor(Y)
    np.testing.assert_allclose(
        F.jacobian(f, x, vectorize=True).numpy(), F.jacobian(f, x).numpy(), rtol=1e-12
    )
    calls = []

    def hooked(x):
        y = x.exp()
        y.register_hook(lambda g: calls.append(1) or g * 2)
        return y * x

    loop = F.jacobian(hooked, x)
    n_loop = len(calls)
    vectorized = F.jacobian(hooked, x, vectorize=True)
    np.testing.assert_allclose(vectorized.numpy(), loop.numpy(), rtol=1e-12)
    # as torch's vmap over the rows: the hook runs once, on the batch of gradients
    assert n_loop == 4 and len(calls) == 5


def test_grads_batched_matches_torch_and_loop():
    torch = pytest.importorskip("torch")
    results = []
    rows = RNG.standard_normal((6, 3, 5))
    for lib in (numtorch, torch):
        x = lib.tensor(X, requires_grad=True)
        w = lib.tensor(W, requires_grad=True)
        y = (x @ w).tanh()
        cotangents = lib.tensor(rows)
        results.append(lib.autograd.grad(y, (x, w), cotangents, is_grads_batched=True))
    assert_same(results[0], results[1])
    x = numtorch.tensor(X, requires_grad=True)
    y = x.exp() * 2
    rows = numtorch.tensor(RNG.standard_normal((5, 3, 4)))
    (batched_grad,) = numtorch.autograd.grad(y, x, rows, is_grads_batched=True, retain_graph=True)
    for b in range(5):
        (row,) = numtorch.autograd.grad(y, x, rows[b], retain_graph=True)
        np.testing.assert_allclose(batched_grad[b].numpy(), row.numpy(), rtol=1e-12)


def test_grads_batched_frees_the_graph_unless_retained():
    x = numtorch.tensor(Y, requires_grad=True)
    y = x.exp()
    numtorch.autograd.grad(y, x, numtorch.eye(4, dtype=numtorch.float64), is_grads_batched=True)
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        numtorch.autograd.grad(y, x, numtorch.eye(4, dtype=numtorch.float64), is_grads_batched=True)


def test_empty_output_raises_as_torch():
    # torch stacks one row per output element and fails on none (a different error type
    # when vectorized); an empty input with a non-empty output is fine
    x = numtorch.ones(3)
    with pytest.raises(RuntimeError, match="non-empty TensorList"):
        F.jacobian(lambda a: a[:0] * 2, x)
    with pytest.raises(IndexError):
        F.jacobian(lambda a: a[:0] * 2, x, vectorize=True)
    assert F.jacobian(lambda a: a.sum() + numtorch.ones(2), numtorch.zeros(0)).shape == (2, 0)


# -- errors (torch's types and messages) -------------------------------------------------------
ERROR_CASES = {
    "non_tensor_output": lambda lib, fn: fn.jacobian(lambda x: 3.0, lib.ones(2)),
    "non_tensor_in_output_tuple": lambda lib, fn: fn.jacobian(lambda x: (x, 3), lib.ones(2)),
    "non_tensor_input": lambda lib, fn: fn.vjp(lambda x: x, [1.0, 2.0]),
    "non_tensor_input_in_tuple": lambda lib, fn: fn.vjp(lambda x, y: x, (lib.ones(2), 1)),
    "wrong_v_shape": lambda lib, fn: fn.vjp(lambda x: x * 2, lib.ones(3), lib.ones(2)),
    "wrong_v_shape_in_tuple": lambda lib, fn: fn.jvp(
        lambda x, y: x * y, (lib.ones(3), lib.ones(3)), (lib.ones(3), lib.ones(4))
    ),
    "v_tuple_length": lambda lib, fn: fn.jvp(
        lambda x, y: x * y, (lib.ones(3), lib.ones(3)), (lib.ones(3),)
    ),
    "v_single_expected": lambda lib, fn: fn.vjp(
        lambda x: x * 2, lib.ones(3), (lib.ones(3), lib.ones(3))
    ),
    "v_none_non_scalar_output": lambda lib, fn: fn.vjp(lambda x: x * 2, lib.ones(3)),
    "v_none_non_scalar_input": lambda lib, fn: fn.hvp(lambda x: x.sum(), lib.ones(3)),
    "strict_independent_output": lambda lib, fn: fn.jacobian(
        lambda x, y: x * 2, (lib.ones(2), lib.ones(2)), strict=True
    ),
    "strict_constant_output": lambda lib, fn: fn.jacobian(
        lambda x: lib.ones(2), lib.ones(2), strict=True
    ),
    "strict_vjp": lambda lib, fn: fn.vjp(
        lambda x, y: (x * 2).sum(), (lib.ones(2), lib.ones(2)), strict=True
    ),
    "strict_linear_hessian": lambda lib, fn: fn.hessian(
        lambda x: (x * 2).sum(), lib.ones(2), strict=True
    ),
    "strict_vectorize": lambda lib, fn: fn.jacobian(
        lambda x: x * 2, lib.ones(2), strict=True, vectorize=True
    ),
    "strict_jvp": lambda lib, fn: fn.jvp(
        lambda x, y: x * 2, (lib.ones(2), lib.ones(2)), (lib.ones(2), lib.ones(2)), strict=True
    ),
    "hessian_non_scalar": lambda lib, fn: fn.hessian(lambda x: x * 2, lib.ones(2)),
    "hessian_tuple_output": lambda lib, fn: fn.hessian(lambda x: (x.sum(),), lib.ones(2)),
    "vhp_non_scalar": lambda lib, fn: fn.vhp(lambda x: x * 2, lib.ones(2), lib.ones(2)),
    "bad_strategy": lambda lib, fn: fn.jacobian(lambda x: x, lib.ones(2), strategy="sideways"),
    "forward_mode_without_vectorize": lambda lib, fn: fn.jacobian(
        lambda x: x * 2, lib.ones(2), strategy="forward-mode"
    ),
    "forward_mode_create_graph": lambda lib, fn: fn.jacobian(
        lambda x: x * 2, lib.ones(2), strategy="forward-mode", vectorize=True, create_graph=True
    ),
    "forward_mode_strict": lambda lib, fn: fn.jacobian(
        lambda x: x * 2, lib.ones(2), strategy="forward-mode", vectorize=True, strict=True
    ),
}


@pytest.mark.parametrize("case", sorted(ERROR_CASES))
def test_errors_match_torch(case):
    torch = pytest.importorskip("torch")
    with pytest.raises(Exception) as theirs:
        ERROR_CASES[case](torch, torch.autograd.functional)
    with pytest.raises(Exception) as ours:
        ERROR_CASES[case](numtorch, F)
    assert type(ours.value) is type(theirs.value)
    assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize("case", sorted(ERROR_CASES))
def test_errors_without_torch(case):
    with pytest.raises((RuntimeError, TypeError, AssertionError, NotImplementedError)):
        ERROR_CASES[case](numtorch, F)


def test_forward_over_reverse_hessian_matches_torch():
    torch = pytest.importorskip("torch")
    results = []
    for lib in (numtorch, torch):
        f = lambda x, y: (x.tanh() ** 3).sum() * y.sin().sum()
        results.append(
            lib.autograd.functional.hessian(
                f,
                tensors(lib, (X[0], Y[:3])),
                vectorize=True,
                outer_jacobian_strategy="forward-mode",
            )
        )
    assert_same(results[0], results[1])


# -- property: vectorize equals the loop on random compositions ---------------------------------
STEPS = {
    "exp": lambda t, c: (t * 0.3).exp(),
    "tanh": lambda t, c: t.tanh(),
    "mul_const": lambda t, c: t * c,
    "square": lambda t, c: t * t,
    "transpose": lambda t, c: t.transpose(0, 1),
    "t_matmul": lambda t, c: t @ t.t(),
    "sum_keep": lambda t, c: t.sum(-1, keepdim=True) + t,
    "mean0": lambda t, c: t - t.mean(0),
    "softmax": lambda t, c: t.softmax(-1),
    "slice": lambda t, c: t[1:] if t.shape[0] > 1 else t,
    "select_row": lambda t, c: t[0:1] * t[-1],
    "reshape": lambda t, c: t.reshape(-1).reshape(t.shape),
    "flip": lambda t, c: t.flip(0),
    "max": lambda t, c: t.max(dim=-1, keepdim=True)[0] * t,
    "cat": lambda t, c: numtorch.cat([t, t * c], 0),
    "where": lambda t, c: numtorch.where(t > 0, t, t * c),
}


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.sampled_from(sorted(STEPS)), min_size=1, max_size=5),
    st.floats(-2, 2, allow_nan=False),
)
def test_vectorize_equals_loop_on_random_compositions(names, c):
    def f(x):
        for name in names:
            x = STEPS[name](x, c)
        return x

    x = numtorch.tensor(X * 0.5)
    loop = F.jacobian(f, x)
    vectorized = F.jacobian(f, x, vectorize=True)
    np.testing.assert_allclose(vectorized.numpy(), loop.numpy(), rtol=1e-10, atol=1e-12)


_EMPTY = np.zeros((3, 2, 0))


@pytest.mark.parametrize(
    "call",
    [
        # fuzz seeds 8400142, 8400532: the inner gradient of an empty input is outside the
        # graph, so the vectorized outer Jacobian is zeros, not torch's IndexError
        lambda lib, x: lib.autograd.functional.hessian(lambda v: lib.median(v), x, vectorize=True),
        lambda lib, x: lib.autograd.functional.hessian(lambda v: (v * 2).sum(), x, vectorize=True),
        lambda lib, x: lib.autograd.functional.jacobian(lambda v: v * 2, x, vectorize=True),
        lambda lib, x: lib.autograd.functional.hessian(lambda v: (v * 2).sum(), x),
        # strict is refused with vectorize before the empty output is
        lambda lib, x: lib.autograd.functional.jacobian(
            lambda v: v * 2, x, vectorize=True, strict=True
        ),
    ],
)
def test_jacobian_of_empty_outputs_as_torch(call):
    torch = pytest.importorskip("torch")
    out = []
    for lib in (numtorch, torch):
        try:
            result = call(lib, lib.tensor(_EMPTY))
        except Exception as error:  # the error type is the outcome
            out.append(type(error).__name__)
        else:
            out.append(tuple(result.shape))
    assert out[0] == out[1]
