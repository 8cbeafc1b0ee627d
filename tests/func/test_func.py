"""numtorch.func (torch.func): transforms, nesting, vmap, functional_call, against torch."""

import collections
import functools
import warnings

import numpy as np
import pytest

import numtorch
from numtorch.utils import _pytree

# torch.func.linearize traces with torch.fx, which warns about its constant folding.
pytestmark = pytest.mark.filterwarnings("ignore:Attempted to insert a get_attr Node:UserWarning")

RNG = np.random.default_rng(0)
X = RNG.standard_normal(4)
M = RNG.standard_normal((3, 4))
V = RNG.standard_normal(3)


def t(lib, a, requires_grad=False):
    return lib.tensor(np.array(a, dtype=np.float64), requires_grad=requires_grad)


def assert_same(ours, theirs, path="result"):
    """Same structure (container types, dict keys), shapes, dtypes, requires_grad, values."""
    if isinstance(theirs, (tuple, list, dict)):
        assert type(ours).__name__ == type(theirs).__name__, path
        assert len(ours) == len(theirs), path
        if isinstance(theirs, dict):
            assert list(ours) == list(theirs), path
            for k in theirs:
                assert_same(ours[k], theirs[k], f"{path}[{k!r}]")
        else:
            for i, (a, b) in enumerate(zip(ours, theirs)):
                assert_same(a, b, f"{path}[{i}]")
        return
    if type(theirs).__name__ in ("Tensor", "Parameter"):
        assert type(ours).__name__ == type(theirs).__name__, path
        assert tuple(ours.shape) == tuple(theirs.shape), path
        assert str(ours.dtype) == str(theirs.dtype), path
        assert ours.requires_grad == theirs.requires_grad, path
        np.testing.assert_allclose(
            ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-7, atol=1e-9, err_msg=path
        )
        return
    assert ours == theirs, path


def both(build):
    """``build(lib)`` for numtorch and torch (skips without torch)."""
    torch = pytest.importorskip("torch")
    return build(numtorch), build(torch)


def f_scalar(lib):
    w = t(lib, M)
    return lambda x: (w @ x).tanh().pow(2).sum() + x.exp().sum()


# -- transforms against torch ------------------------------------------------------------------
CASES = {
    "grad": lambda lib: lib.func.grad(f_scalar(lib))(t(lib, X)),
    "grad_argnums_tuple": lambda lib: lib.func.grad(
        lambda a, b: (a.sin() * b).sum(), argnums=(0, 1)
    )(t(lib, X), t(lib, X[::-1])),
    "grad_argnums_negative": lambda lib: lib.func.grad(lambda a, b: (a * b**2).sum(), argnums=-1)(
        t(lib, X), t(lib, X)
    ),
    "grad_dict_argument": lambda lib: lib.func.grad(lambda d: (d["a"] * d["b"].exp()).sum())(
        {"a": t(lib, X), "b": t(lib, X[::-1])}
    ),
    "grad_list_argument": lambda lib: lib.func.grad(lambda xs: (xs[0] * xs[1]).sum())(
        [t(lib, X), t(lib, X)]
    ),
    "grad_has_aux": lambda lib: lib.func.grad(
        lambda x: ((x**2).sum(), {"m": x.mean(), "l": [x.sin()]}), has_aux=True
    )(t(lib, X)),
    "grad_unused_argument": lambda lib: lib.func.grad(lambda a, b: a.sum(), argnums=1)(
        t(lib, X), t(lib, X)
    ),
    "grad_constant_output": lambda lib: lib.func.grad(lambda x: lib.tensor(3.0))(t(lib, X)),
    "grad_kwargs": lambda lib: lib.func.grad(lambda x, s=1.0: (x * s).sum())(
        t(lib, X), s=t(lib, 3.0)
    ),
    "grad_and_value": lambda lib: lib.func.grad_and_value(f_scalar(lib))(t(lib, X)),
    "grad_and_value_aux": lambda lib: lib.func.grad_and_value(
        lambda x: ((x**2).sum(), x.cos()), has_aux=True
    )(t(lib, X)),
    "grad_grad": lambda lib: lib.func.grad(lib.func.grad(lambda x: x.sin() * x**3))(t(lib, 0.7)),
    "grad_grad_grad": lambda lib: lib.func.grad(lib.func.grad(lib.func.grad(lambda x: x.sin())))(
        t(lib, 0.3)
    ),
    "vjp": lambda lib: lib.func.vjp(lambda a, b: (a * b, a.sum()), t(lib, X), t(lib, X))[1](
        (t(lib, X[::-1]), t(lib, 2.0))
    ),
    "vjp_output_and_aux": lambda lib: _drop_fn(
        lib.func.vjp(lambda x: (x.sin(), x.cos()), t(lib, X), has_aux=True)
    ),
    "vjp_dict_primal": lambda lib: lib.func.vjp(lambda d: d["a"] * 2, {"a": t(lib, X)})[1](
        t(lib, X)
    ),
    "jvp": lambda lib: lib.func.jvp(lambda x: x.sin() * x.sum(), (t(lib, X),), (t(lib, X),)),
    "jvp_pytrees": lambda lib: lib.func.jvp(
        lambda a, d: (a * d["b"], [a.sum()]),
        (t(lib, X), {"b": t(lib, X)}),
        (t(lib, np.ones(4)), {"b": t(lib, X)}),
    ),
    "jvp_aux": lambda lib: lib.func.jvp(
        lambda x: (x.exp(), x.cos()), (t(lib, X),), (t(lib, X),), has_aux=True
    ),
    "jvp_constant_output": lambda lib: lib.func.jvp(
        lambda x: lib.ones(2, dtype=lib.float64), (t(lib, X),), (t(lib, X),)
    ),
    "jvp_integer_output": lambda lib: lib.func.jvp(
        lambda x: (x > 0).long(), (t(lib, X),), (t(lib, X),)
    ),
    "jacrev": lambda lib: lib.func.jacrev(lambda x: t(lib, M) @ x.sin())(t(lib, X)),
    "jacrev_argnums_tuple": lambda lib: lib.func.jacrev(lambda a, b: a.sum() * b, argnums=(0, 1))(
        t(lib, X), t(lib, M)
    ),
    "jacrev_pytree_output": lambda lib: lib.func.jacrev(lambda x: (x * 2, {"s": x.sum()}))(
        t(lib, X)
    ),
    "jacrev_dict_input": lambda lib: lib.func.jacrev(lambda d: d["a"] @ d["b"])(
        {"a": t(lib, M), "b": t(lib, X)}
    ),
    "jacrev_has_aux": lambda lib: lib.func.jacrev(lambda x: (x.exp(), x.sum()), has_aux=True)(
        t(lib, X)
    ),
    "jacrev_chunked": lambda lib: lib.func.jacrev(lambda x: t(lib, M) @ x.sin(), chunk_size=2)(
        t(lib, X)
    ),
    "jacrev_scalar_input": lambda lib: lib.func.jacrev(lambda x: x * t(lib, X))(t(lib, 2.0)),
    "jacrev_constant_output": lambda lib: lib.func.jacrev(lambda x: lib.ones(2, dtype=lib.float64))(
        t(lib, X)
    ),
    "jacrev_non_tensor_other_argument": lambda lib: lib.func.jacrev(lambda a, b: a * b)(
        t(lib, X), 2.0
    ),
    "jacfwd": lambda lib: lib.func.jacfwd(lambda x: t(lib, M) @ x.sin())(t(lib, X)),
    "jacfwd_argnums_aux": lambda lib: lib.func.jacfwd(
        lambda a, b: ((a * b.sum(), a.sum()), b), argnums=(0, 1), has_aux=True
    )(t(lib, X), t(lib, M)),
    "jacfwd_integer_output": lambda lib: lib.func.jacfwd(lambda x: (x > 0).long())(t(lib, X)),
    "jacfwd_output_dtype": lambda lib: lib.func.jacfwd(lambda x: x.float())(t(lib, X)),
    "hessian": lambda lib: lib.func.hessian(f_scalar(lib))(t(lib, X)),
    "hessian_argnums": lambda lib: lib.func.hessian(
        lambda a, b: (a.sin() * b).sum(), argnums=(0, 1)
    )(t(lib, X[:2]), t(lib, X[2:])),
    "hessian_non_scalar": lambda lib: lib.func.hessian(lambda x: x**3)(t(lib, X[:3])),
    "jacrev_jacrev": lambda lib: lib.func.jacrev(lib.func.jacrev(f_scalar(lib)))(t(lib, X)),
    "jacfwd_jacfwd": lambda lib: lib.func.jacfwd(lib.func.jacfwd(f_scalar(lib)))(t(lib, X)),
    "jvp_of_grad": lambda lib: lib.func.jvp(
        lib.func.grad(f_scalar(lib)), (t(lib, X),), (t(lib, X),)
    ),
    "vjp_of_grad": lambda lib: lib.func.vjp(lib.func.grad(f_scalar(lib)), t(lib, X))[1](t(lib, X)),
    "grad_of_vmap": lambda lib: lib.func.grad(
        lambda x: lib.func.vmap(lambda r: (r * x).sin().sum())(t(lib, M)).sum()
    )(t(lib, X)),
    "vmap_of_jacrev": lambda lib: lib.func.vmap(lib.func.jacrev(lambda r: (r * t(lib, X)).sin()))(
        t(lib, M)
    ),
    "vmap_of_grad_argnums": lambda lib: lib.func.vmap(
        lib.func.grad(lambda a, b: (a * b).sin().sum(), argnums=(0, 1))
    )(t(lib, M), t(lib, M[::-1])),
    "linearize": lambda lib: lib.func.linearize(lambda x: x.sin() * x.sum(), t(lib, X))[1](
        t(lib, X)
    ),
}


def _drop_fn(result):
    return tuple(r for r in result if not callable(r))


@pytest.mark.parametrize("name", sorted(CASES))
def test_transform_matches_torch(name):
    ours, theirs = both(CASES[name])
    assert_same(ours, theirs)


def test_transforms_are_right_without_torch():
    x = t(numtorch, X)
    f = f_scalar(numtorch)
    F = numtorch.func
    np.testing.assert_allclose(
        F.grad(f)(x).numpy(), numtorch.autograd.functional.jacobian(f, x).numpy()
    )
    hess = numtorch.autograd.functional.hessian(f, x).numpy()
    for h in (F.hessian(f), F.jacrev(F.jacrev(f)), F.jacfwd(F.jacrev(f)), F.jacrev(F.grad(f))):
        np.testing.assert_allclose(h(x).numpy(), hess, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(
        F.jvp(F.grad(f), (x,), (x,))[1].numpy(), hess @ X, rtol=1e-10, atol=1e-12
    )
    assert F.grad(F.grad(lambda x: x**3))(numtorch.tensor(2.0)).item() == 12.0


# -- requires_grad of results: levels on one tape ----------------------------------------------
RG_CASES = {
    "grad_outer": lambda lib, x, w: lib.func.grad(lambda x: (x**3).sum())(x),
    "grad_and_value_outer": lambda lib, x, w: lib.func.grad_and_value(lambda x: (x**3).sum())(x),
    "grad_closure": lambda lib, x, w: lib.func.grad(lambda y: (w * y**2).sum())(x.detach()),
    "grad_aux_own_only": lambda lib, x, w: lib.func.grad(
        lambda y: ((w * y).sum(), y * 2), has_aux=True
    )(x.detach()),
    "vjp_outer": lambda lib, x, w: _drop_fn(lib.func.vjp(lambda y: y.sin(), x)),
    "vjp_fn_outer": lambda lib, x, w: lib.func.vjp(lambda y: y.sin(), x)[1](x.detach()),
    "vjp_fn_cotangent": lambda lib, x, w: lib.func.vjp(lambda y: y.sin(), x.detach())[1](w),
    "jvp_tangent": lambda lib, x, w: lib.func.jvp(lambda y: y.sin(), (x.detach(),), (w,))[1],
    "jacrev_outer": lambda lib, x, w: lib.func.jacrev(lambda y: y.sin() * w.detach())(x),
    "jacfwd_closure": lambda lib, x, w: lib.func.jacfwd(lambda y: y.sin() * w)(x.detach()),
    "hessian_outer": lambda lib, x, w: lib.func.hessian(lambda y: (y**3).sum())(x),
}


@pytest.mark.parametrize("name", sorted(RG_CASES))
def test_results_require_grad_like_torch(name):
    def run(lib):
        x, w = t(lib, X, requires_grad=True), t(lib, X[::-1], requires_grad=True)
        result = RG_CASES[name](lib, x, w)
        leaves = [r for r in _pytree.tree_leaves(result) if r.requires_grad]
        if leaves:  # and gradients flow back to x and w through the transform
            sum(r.sum() for r in leaves).backward()
        return result, x.grad, w.grad

    ours, theirs = both(run)
    assert_same(ours[0], theirs[0])
    for a, b in zip(ours[1:], theirs[1:]):
        assert (a is None) == (b is None)
        if b is not None:
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-10)


def test_transforms_under_no_grad_return_plain_tensors():
    x = t(numtorch, X, requires_grad=True)
    with numtorch.no_grad():
        g = numtorch.func.grad(lambda y: (y**3).sum())(x)
        jac = numtorch.func.jacrev(lambda y: y.sin())(x)
    assert not g.requires_grad and not jac.requires_grad
    np.testing.assert_allclose(g.numpy(), 3 * X**2)


def test_inner_no_grad_is_respected():
    def f(x):
        with numtorch.no_grad():
            c = x**2
        return (x - c).sum()

    np.testing.assert_allclose(numtorch.func.grad(f)(t(numtorch, X)).numpy(), np.ones(4))


# -- errors --------------------------------------------------------------------------------------
def _x(lib):
    return t(lib, X)


ERRORS = {
    "grad_non_scalar": lambda lib: lib.func.grad(lambda x: x**2)(_x(lib)),
    "grad_one_element_1d": lambda lib: lib.func.grad(lambda x: x[:1])(_x(lib)),
    "grad_non_tensor_output": lambda lib: lib.func.grad(lambda x: 3.0)(_x(lib)),
    "grad_argnum_out_of_range": lambda lib: lib.func.grad(lambda x: x.sum(), argnums=1)(_x(lib)),
    "grad_argnums_duplicate": lambda lib: lib.func.grad(lambda a, b: a.sum(), argnums=(0, 0))(
        _x(lib), _x(lib)
    ),
    "grad_argnums_empty": lambda lib: lib.func.grad(lambda a: a.sum(), argnums=())(_x(lib)),
    "grad_argnums_list": lambda lib: lib.func.grad(lambda a: a.sum(), argnums=[0])(_x(lib)),
    "grad_argnum_float": lambda lib: lib.func.grad(lambda a: a.sum(), argnums=(0.0,))(_x(lib)),
    "grad_has_aux_not_pair": lambda lib: lib.func.grad(lambda x: (x.sum(), 1, 2), has_aux=True)(
        _x(lib)
    ),
    "grad_has_aux_not_tuple": lambda lib: lib.func.grad(lambda x: x.sum(), has_aux=True)(_x(lib)),
    "grad_aux_non_tensor": lambda lib: lib.func.grad(lambda x: (x.sum(), 3), has_aux=True)(_x(lib)),
    "grad_integer_input": lambda lib: lib.func.grad(lambda x: x.sum())(lib.tensor([1, 2])),
    "grad_non_tensor_input": lambda lib: lib.func.grad(lambda x: x)(3.0),
    "vjp_integer_output": lambda lib: lib.func.vjp(lambda x: (x > 0).long(), _x(lib)),
    "vjp_non_tensor_output": lambda lib: lib.func.vjp(lambda x: 1.0, _x(lib)),
    "vjp_none_output": lambda lib: lib.func.vjp(lambda x: None, _x(lib)),
    "vjp_fn_structure": lambda lib: lib.func.vjp(lambda x: (x, x), _x(lib))[1](_x(lib)),
    "vjp_fn_list_for_tuple": lambda lib: lib.func.vjp(lambda x: (x, x), _x(lib))[1](
        [_x(lib), _x(lib)]
    ),
    "vjp_fn_shape": lambda lib: lib.func.vjp(lambda x: x.sin(), _x(lib))[1](lib.ones(5)),
    "jvp_primals_not_tuple": lambda lib: lib.func.jvp(lib.sin, _x(lib), _x(lib)),
    "jvp_structure": lambda lib: lib.func.jvp(lib.sin, (_x(lib),), [_x(lib)]),
    "jvp_empty": lambda lib: lib.func.jvp(lambda: lib.ones(2), (), ()),
    "jvp_integer_primal": lambda lib: lib.func.jvp(
        lambda a: a * 2, (lib.tensor([1, 2]),), (lib.tensor([1, 1]),)
    ),
    "jvp_tangent_shape": lambda lib: lib.func.jvp(lib.sin, (_x(lib),), (lib.ones(5),)),
    "jvp_non_tensor_output": lambda lib: lib.func.jvp(lambda x: 2.0, (_x(lib),), (_x(lib),)),
    "jacrev_chunk_size": lambda lib: lib.func.jacrev(lib.sin, chunk_size=0),
    "jacrev_integer_output": lambda lib: lib.func.jacrev(lambda x: (x > 0).long())(_x(lib)),
    "jacrev_complex_input": lambda lib: lib.func.jacrev(lambda x: x * 2)(lib.tensor([1j])),
    "jacrev_has_aux": lambda lib: lib.func.jacrev(lambda x: x * 2, has_aux=True)(_x(lib)),
    "jacfwd_integer_input": lambda lib: lib.func.jacfwd(lambda x: x * 2)(lib.tensor([1, 2])),
    "jacfwd_random": lambda lib: lib.func.jacfwd(lambda x: x * lib.rand(4))(_x(lib)),
    "jacfwd_randomness_flag": lambda lib: lib.func.jacfwd(lib.sin, randomness="x")(_x(lib)),
    "linearize_tangent_shape": lambda lib: lib.func.linearize(lib.sin, _x(lib))[1](lib.ones(3)),
    "vmap_in_dims_list": lambda lib: lib.vmap(lambda r: r, in_dims=[0])(_m(lib)),
    "vmap_in_dims_length": lambda lib: lib.vmap(lambda a, b: a * b, in_dims=(0,))(_m(lib), _m(lib)),
    "vmap_in_dims_dict_keys": lambda lib: lib.vmap(lambda d: d["a"], in_dims=({"a": 0},))(
        {"a": _m(lib), "b": _m(lib)}
    ),
    "vmap_in_dims_tuple_for_list": lambda lib: lib.vmap(lambda xs: xs[0], in_dims=((0, 0),))(
        [_m(lib), _m(lib)]
    ),
    "vmap_nothing_mapped": lambda lib: lib.vmap(lambda a: a, in_dims=None)(_m(lib)),
    "vmap_batch_sizes": lambda lib: lib.vmap(lambda a, b: a)(_m(lib), lib.ones(4, 4)),
    "vmap_in_dim_range": lambda lib: lib.vmap(lambda a: a, in_dims=2)(_m(lib)),
    "vmap_scalar_input": lambda lib: lib.vmap(lambda a: a)(lib.tensor(1.0)),
    "vmap_non_tensor_mapped": lambda lib: lib.vmap(lambda a, b: a * b)(_m(lib), 2.0),
    "vmap_in_dim_float": lambda lib: lib.vmap(lambda a: a, in_dims=(0.0,))(_m(lib)),
    "vmap_no_inputs": lambda lib: lib.vmap(lambda: lib.ones(2))(),
    "vmap_returns_float": lambda lib: lib.vmap(lambda a: 2.0)(_m(lib)),
    "vmap_returns_none": lambda lib: lib.vmap(lambda a: None)(_m(lib)),
    "vmap_out_dims_structure": lambda lib: lib.vmap(lambda a: (a, a), out_dims=(0, 0, 0))(_m(lib)),
    "vmap_out_dims_float": lambda lib: lib.vmap(lambda a: a, out_dims=1.0)(_m(lib)),
    "vmap_out_dim_none_batched": lambda lib: lib.vmap(lambda a: a, out_dims=None)(_m(lib)),
    "vmap_out_dim_range": lambda lib: lib.vmap(lambda a: a, out_dims=2)(_m(lib)),
    "vmap_randomness_flag": lambda lib: lib.vmap(lambda a: a, randomness="foo")(_m(lib)),
    "vmap_chunk_size": lambda lib: lib.vmap(lambda a: a, chunk_size=0)(_m(lib)),
    "vmap_random_error": lambda lib: lib.vmap(lambda a: a + lib.rand(4))(_m(lib)),
    "vmap_randn_like_error": lambda lib: lib.vmap(lib.randn_like)(_m(lib)),
    "vmap_dropout_error": lambda lib: lib.vmap(lambda a: lib.nn.functional.dropout(a, 0.5))(
        _m(lib)
    ),
    "functionalize_remove": lambda lib: lib.func.functionalize(lib.sin, remove="views"),
    "vmap_partial_name": lambda lib: lib.vmap(functools.partial(lambda a, b: a, b=1), in_dims=5)(
        _m(lib)
    ),
}


def _m(lib):
    return t(lib, M)


# Messages that print a TreeSpec: torch breaks its repr over lines, numtorch keeps one line.
TREESPEC_MESSAGES = {
    "vmap_in_dims_length",
    "vmap_in_dims_dict_keys",
    "vmap_in_dims_tuple_for_list",
    "vmap_out_dims_structure",
}
# numtorch's message says more (a hint after torch's text).
LONGER_MESSAGES = {"grad_integer_input"}


def _error(fn, lib):
    with pytest.raises(Exception) as info:
        fn(lib)
    return info.value


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_error_matches_torch(name):
    torch = pytest.importorskip("torch")
    ours, theirs = _error(ERRORS[name], numtorch), _error(ERRORS[name], torch)
    assert type(ours).__name__ == type(theirs).__name__, (ours, theirs)
    if name in TREESPEC_MESSAGES:
        assert " ".join(str(ours).split()) == " ".join(str(theirs).split())
    elif name in LONGER_MESSAGES:
        assert str(ours).startswith(str(theirs))
    else:
        assert str(ours) == str(theirs)


# -- vmap ------------------------------------------------------------------------------------------
VMAP_CASES = {
    "basic": lambda lib: lib.vmap(lib.sin)(_m(lib)),
    "reduction": lambda lib: lib.vmap(lambda r: r.sum())(_m(lib)),
    "dot": lambda lib: lib.vmap(lib.dot)(_m(lib), _m(lib)),
    "in_dims_1": lambda lib: lib.vmap(lambda r: r * 2, in_dims=1)(_m(lib)),
    "in_dims_negative": lambda lib: lib.vmap(lambda r: r * 2, in_dims=-1)(_m(lib)),
    "out_dims_1": lambda lib: lib.vmap(lambda r: r.outer(r), out_dims=1)(_m(lib)),
    "out_dims_negative": lambda lib: lib.vmap(lambda r: r * 2, out_dims=-1)(_m(lib)),
    "out_dims_tuple": lambda lib: lib.vmap(lambda a: (a, a.sum()), out_dims=(1, 0))(_m(lib)),
    "out_dims_one_tuple": lambda lib: lib.vmap(lambda a: a, out_dims=(1,))(_m(lib)),
    "out_dims_none": lambda lib: lib.vmap(lambda a: (a, lib.ones(2)), out_dims=(0, None))(_m(lib)),
    "out_dims_none_non_tensor": lambda lib: lib.vmap(lambda a: (a, 3.0), out_dims=(0, None))(
        _m(lib)
    ),
    "unbatched_output": lambda lib: lib.vmap(lambda a: lib.ones(2))(_m(lib)),
    "non_tensor_argument": lambda lib: lib.vmap(lambda a, s: a * s, in_dims=(0, None))(
        _m(lib), 2.0
    ),
    "kwargs_not_mapped": lambda lib: lib.vmap(lambda a, scale=1.0: a * scale)(
        _m(lib), scale=t(lib, X)
    ),
    "pytree_output": lambda lib: lib.vmap(lambda a: {"s": a.sum(), "x": [a, (a * 2,)]})(_m(lib)),
    "nested_in_dims": lambda lib: lib.vmap(
        lambda d: d["a"] + d["b"], in_dims=({"a": 0, "b": None},)
    )({"a": _m(lib), "b": t(lib, X)}),
    "in_dims_list_entries": lambda lib: lib.vmap(lambda xs: xs[0] + xs[1], in_dims=([0, 1],))(
        [_m(lib), _m(lib).t()]
    ),
    "in_dims_prefix": lambda lib: lib.vmap(lambda xs: xs[0] * xs[1], in_dims=(0,))(
        [_m(lib), _m(lib)]
    ),
    "namedtuple": lambda lib: lib.vmap(lambda p: p.x * p.y)(PAIR(_m(lib), _m(lib))),
    "integer_dtype": lambda lib: lib.vmap(lambda a: a * 2)(lib.arange(6).reshape(2, 3)),
    "nested_vmap": lambda lib: lib.vmap(
        lib.vmap(lambda a, b: a * b, in_dims=(0, None)), in_dims=(None, 0)
    )(t(lib, X), t(lib, V)),
    "empty_batch": lambda lib: lib.vmap(lambda a: (a * 2, a.sum()))(lib.zeros(0, 3)),
    "chunk_size": lambda lib: lib.vmap(lambda r: r.sin().sum(), chunk_size=2)(_m(lib)),
    "grad_fn_free_eval_dropout": lambda lib: lib.vmap(
        lambda a: lib.nn.functional.dropout(a, 0.5, training=False)
    )(_m(lib)),
    "requires_grad": lambda lib: lib.vmap(lambda r: r.sin().sum())(t(lib, M, requires_grad=True)),
}
PAIR = collections.namedtuple("PAIR", "x y")


@pytest.mark.parametrize("name", sorted(VMAP_CASES))
def test_vmap_matches_torch(name):
    ours, theirs = both(VMAP_CASES[name])
    assert_same(ours, theirs)


def test_vmap_name_and_gradients_flow():
    f = numtorch.vmap(numtorch.sin)
    assert f.__name__ == "sin"
    x = t(numtorch, M, requires_grad=True)
    numtorch.vmap(lambda r: (r * r).sum())(x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * M)
    assert numtorch.func.vmap is numtorch.vmap


def test_vmap_randomness_same_and_different():
    m = numtorch.zeros(3, 4)
    numtorch.manual_seed(0)
    same = numtorch.vmap(lambda a: a + numtorch.rand(4), randomness="same")(m)
    assert all(numtorch.equal(same[0], row) for row in same)
    different = numtorch.vmap(lambda a: a + numtorch.rand(4), randomness="different")(m)
    assert not numtorch.equal(different[0], different[1])
    dropped = numtorch.vmap(
        lambda a: numtorch.nn.functional.dropout(a + 1, 0.5), randomness="same"
    )(m)
    assert all(numtorch.equal(dropped[0], row) for row in dropped)
    # the generator is usable again after an "error" vmap raised
    with pytest.raises(RuntimeError):
        numtorch.vmap(lambda a: a + numtorch.rand(4))(m)
    assert numtorch.rand(2).shape == (2,)


def test_functionalize_and_debug_unwrap_match_torch():
    def run(lib):
        def f(x):
            y = x.clone()
            y.add_(1)
            x.mul_(2)
            return y

        x = lib.ones(2)
        return lib.func.functionalize(f)(x), x, lib.func.debug_unwrap(x) is x

    ours, theirs = both(run)
    assert_same(ours, theirs)


def test_vmap_in_place_writes():
    m = t(numtorch, M)
    out = numtorch.vmap(lambda r: r.mul_(2))(m)
    np.testing.assert_allclose(m.numpy(), 2 * M)  # the samples are views of the input
    np.testing.assert_allclose(out.numpy(), 2 * M)
    acc = numtorch.zeros(4, dtype=numtorch.float64)
    # torch's refusal: a batched value does not fit the unbatched tensor
    with pytest.raises(RuntimeError, match=r"output with shape \[4\] doesn't match the broadcast"):
        numtorch.vmap(lambda r, a: a.add_(r), in_dims=(0, None))(m, acc)
    # writing an unbatched value into an unmapped input is allowed, as in torch
    numtorch.vmap(lambda r, a: a.add_(1), in_dims=(0, None))(m, acc)
    np.testing.assert_allclose(acc.numpy(), np.ones(4))


def test_vmap_unmapped_output_may_hold_nan():
    nan = numtorch.tensor([float("nan"), 1.0])
    out = numtorch.vmap(lambda a: (a, nan), out_dims=(0, None))(numtorch.ones(3, 2))
    assert out[1] is nan


@pytest.mark.parametrize(
    "body",
    [
        lambda lib, r: r * 2 if r.sum().item() > 0 else r,
        lambda lib, r: r * 2 if r.sum() > 0 else r,
        lambda lib, r: r.tolist(),
    ],
    ids=["item", "control_flow", "tolist"],
)
def test_vmap_refuses_data_dependent_python(body):
    def run(lib):
        return lib.vmap(lambda r: body(lib, r))(t(lib, M))

    errors = []
    for lib in (numtorch, pytest.importorskip("torch")):
        with pytest.raises(RuntimeError) as info:
            run(lib)
        errors.append(str(info.value))
    if "data pointer" not in errors[1]:  # torch's tolist fails deeper down
        assert errors[0] == errors[1]


# -- per-sample gradients, functional_call, ensembles ------------------------------------------
def _model(lib):
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(4, 5), lib.nn.Tanh(), lib.nn.Linear(5, 3)).double()
    with lib.no_grad():
        for p, a in zip(model.parameters(), MODEL_WEIGHTS):
            p.copy_(lib.tensor(a))
    return model


MODEL_WEIGHTS = [
    RNG.standard_normal((5, 4)),
    RNG.standard_normal(5),
    RNG.standard_normal((3, 5)),
    RNG.standard_normal(3),
]
BATCH_X = RNG.standard_normal((6, 4))
BATCH_Y = np.array([0, 2, 1, 1, 0, 2])


def _per_sample_grads(lib, detach=True):
    model = _model(lib)
    params = {k: (v.detach() if detach else v) for k, v in model.named_parameters()}

    def loss(p, x, y):
        out = lib.func.functional_call(model, p, (x.unsqueeze(0),))
        return lib.nn.functional.cross_entropy(out, y.unsqueeze(0))

    x, y = t(lib, BATCH_X), lib.tensor(BATCH_Y)
    return lib.vmap(lib.func.grad(loss), in_dims=(None, 0, 0))(params, x, y), model, x, y


def test_per_sample_gradients_equal_a_loop():
    grads, model, x, y = _per_sample_grads(numtorch)
    for b in range(len(BATCH_Y)):
        model.zero_grad()
        numtorch.nn.functional.cross_entropy(model(x[b : b + 1]), y[b : b + 1]).backward()
        for name, p in model.named_parameters():
            np.testing.assert_allclose(grads[name][b].numpy(), p.grad.numpy(), rtol=1e-10)


@pytest.mark.parametrize("detach", [True, False])
def test_per_sample_gradients_match_torch(detach):
    ours, theirs = both(lambda lib: _per_sample_grads(lib, detach)[0])
    assert_same(ours, theirs)


def test_hessian_over_parameters_matches_torch():
    def run(lib):
        model = _model(lib)
        params = {k: v.detach() for k, v in model.named_parameters()}
        x = t(lib, BATCH_X)
        return lib.func.hessian(lambda p: lib.func.functional_call(model, p, x).pow(2).mean())(
            params
        )

    ours, theirs = both(run)
    assert_same(ours, theirs)


FUNCTIONAL_CALL_CASES = {
    "replace_all": lambda lib: _fc(lib, lambda m: {k: v * 2 for k, v in _params(m).items()}),
    "replace_some": lambda lib: _fc(lib, lambda m: {"0.weight": t(lib, np.ones((5, 4)))}),
    "tuple_of_dicts": lambda lib: _fc(
        lib, lambda m: ({"0.weight": t(lib, np.ones((5, 4)))}, {"2.bias": t(lib, np.ones(3))})
    ),
    "strict": lambda lib: _fc(lib, lambda m: _params(m), strict=True),
    "unexpected_key": lambda lib: _fc(lib, lambda m: {"extra": t(lib, X)}),
    "kwargs": lambda lib: lib.func.functional_call(
        _model(lib), {}, args=(), kwargs={"input": t(lib, BATCH_X)}
    ),
}


def _params(model):
    return {k: v.detach() for k, v in model.named_parameters()}


def _fc(lib, make_params, **options):
    model = _model(lib)
    out = lib.func.functional_call(model, make_params(model), t(lib, BATCH_X), **options)
    return out, dict(model.named_parameters())  # the module keeps its own parameters


@pytest.mark.parametrize("name", sorted(FUNCTIONAL_CALL_CASES))
def test_functional_call_matches_torch(name):
    ours, theirs = both(FUNCTIONAL_CALL_CASES[name])
    assert_same(ours, theirs)


FC_ERRORS = {
    "strict_missing": lambda lib: lib.func.functional_call(
        _model(lib), {"0.weight": t(lib, np.ones((5, 4)))}, t(lib, BATCH_X), strict=True
    ),
    "strict_unexpected": lambda lib: lib.func.functional_call(
        _model(lib), {**_params(_model(lib)), "x": t(lib, X)}, t(lib, BATCH_X), strict=True
    ),
    "missing_submodule": lambda lib: lib.func.functional_call(
        _model(lib), {"9.weight": t(lib, X)}, t(lib, BATCH_X)
    ),
    "not_a_dict": lambda lib: lib.func.functional_call(_model(lib), 3, t(lib, BATCH_X)),
    "not_dicts": lambda lib: lib.func.functional_call(_model(lib), [1], t(lib, BATCH_X)),
    "repeated_keys": lambda lib: lib.func.functional_call(
        _model(lib), ({"0.bias": t(lib, X)}, {"0.bias": t(lib, X)}), t(lib, BATCH_X)
    ),
    "non_tensor_value": lambda lib: lib.func.functional_call(
        _model(lib), {"0.bias": 3.0}, t(lib, BATCH_X)
    ),
    "tied_values_differ": lambda lib: lib.func.functional_call(
        _tied(lib), {"a.weight": lib.eye(2), "b.weight": lib.ones(2, 2)}, lib.ones(1, 2)
    ),
    "stack_empty": lambda lib: lib.func.stack_module_state([]),
    "stack_modes": lambda lib: lib.func.stack_module_state(
        [lib.nn.Linear(2, 2), lib.nn.Linear(2, 2).eval()]
    ),
    "stack_classes": lambda lib: lib.func.stack_module_state(
        [lib.nn.Linear(2, 2), lib.nn.Conv1d(2, 2, 1)]
    ),
    "stack_requires_grad": lambda lib: lib.func.stack_module_state(
        [lib.nn.Linear(2, 2), lib.nn.Linear(2, 2).requires_grad_(False)]
    ),
}


def _tied(lib):
    """Two linear layers sharing one weight (``a.weight`` is ``b.weight``)."""

    class Tied(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.a = lib.nn.Linear(2, 2, bias=False)
            self.b = lib.nn.Linear(2, 2, bias=False)
            self.b.weight = self.a.weight
            with lib.no_grad():
                self.a.weight.copy_(lib.tensor([[1.0, -2.0], [0.5, 3.0]]))

        def forward(self, x):
            return self.b(self.a(x))

    return Tied()


@pytest.mark.parametrize("name", sorted(FC_ERRORS))
def test_functional_call_errors_match_torch(name):
    torch = pytest.importorskip("torch")
    ours, theirs = _error(FC_ERRORS[name], numtorch), _error(FC_ERRORS[name], torch)
    assert type(ours).__name__ == type(theirs).__name__
    assert str(ours) == str(theirs)


def test_tied_weights_follow_the_given_value():
    def run(lib):
        model = _tied(lib)
        x = lib.ones(1, 2, dtype=lib.float32)
        weight = lib.eye(2) * 2
        return (
            lib.func.functional_call(model, {"a.weight": weight}, x),
            lib.func.functional_call(model, {"a.weight": weight}, x, tie_weights=False).detach(),
            lib.func.functional_call(model, {"a.weight": weight}, x, strict=True),
        )

    ours, theirs = both(run)
    np.testing.assert_allclose(ours[0].numpy(), [[4.0, 4.0]])
    for a, b in zip(ours[1:], theirs[1:]):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)


def test_functional_call_buffers_and_module_state():
    bn = numtorch.nn.BatchNorm1d(3)
    buffers = {k: v.clone() for k, v in bn.named_buffers()}
    x = numtorch.tensor(RNG.standard_normal((5, 3)), dtype=numtorch.float32)
    numtorch.func.functional_call(bn, buffers, x)
    np.testing.assert_allclose(buffers["running_mean"].numpy(), 0.1 * x.numpy().mean(0), rtol=1e-5)
    assert buffers["num_batches_tracked"].item() == 1
    assert bn.running_mean.abs().sum().item() == 0 and bn.num_batches_tracked.item() == 0
    assert isinstance(bn._parameters["weight"], numtorch.nn.Parameter)
    with pytest.warns(FutureWarning, match="torch.func.functional_call"):
        numtorch.nn.utils.stateless.functional_call(bn, {}, x)


def test_stack_module_state_and_ensemble_vmap():
    def run(lib):
        models = [_model(lib) for _ in range(3)]
        for k, m in enumerate(models):
            with lib.no_grad():
                m[0].bias.add_(k)
        params, buffers = lib.func.stack_module_state(models)
        x = t(lib, BATCH_X)
        out = lib.vmap(
            lambda p, b, x: lib.func.functional_call(models[0], (p, b), (x,)),
            in_dims=(0, 0, None),
        )(params, buffers, x)
        return params, buffers, out.detach()

    ours, theirs = both(run)
    assert_same(ours, theirs)
    assert all(p.is_leaf for p in ours[0].values())


# -- pytrees ---------------------------------------------------------------------------------------
def test_pytree_round_trip_and_specs():
    tree = ({"b": 1, "a": [2, (3,)]}, PAIR(4, None), collections.OrderedDict(z=5))
    leaves, spec = _pytree.tree_flatten(tree)
    assert leaves == [1, 2, 3, 4, None, 5]
    assert _pytree.tree_unflatten(leaves, spec) == tree
    assert spec.num_leaves == 6
    assert _pytree.tree_structure({"a": 1, "b": 2}) != _pytree.tree_structure({"b": 1, "a": 2})
    assert _pytree.treespec_pprint(_pytree.tree_structure(((1,), [2, {"k": 3}]))) == (
        "((*,), [*, {'k': *}])"
    )
    assert _pytree.broadcast_prefix(
        (0, {"b": None, "a": 1}), _pytree.tree_structure((5, {"a": [1, 2], "b": 3}))
    ) == [0, 1, 1, None]
    assert _pytree.broadcast_prefix((0,), _pytree.tree_structure((1, 2))) is None


def test_pytree_specs_print_like_torch():
    torch_pytree = pytest.importorskip("torch.utils._pytree")

    tree = ((1, [2, {"k": 3}]), 4, PAIR(5, 6))
    ours = _pytree.tree_structure(tree)
    theirs = torch_pytree.tree_structure(tree)
    assert " ".join(str(ours).split()) == " ".join(str(theirs).split())
    assert _pytree.treespec_pprint(ours) == torch_pytree.treespec_pprint(theirs)


def test_no_warnings_from_transforms():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _per_sample_grads(numtorch)
        numtorch.func.hessian(f_scalar(numtorch))(t(numtorch, X))


def test_linearize_runs_the_function_once():
    """jvp_fn replays the recorded forward derivatives (Note [Forward tapes]): the function
    does not run again, and each call agrees with jvp."""
    calls = []

    def f(x, w):
        calls.append(1)
        h = numtorch.tanh(x @ w) * x.sum()
        return h.softmax(-1).log(), (h[:, 1:] ** 2).cumsum(0)

    x, w = t(numtorch, M), t(numtorch, RNG.standard_normal((4, 2)))
    _, jvp_fn = numtorch.func.linearize(f, x, w)
    assert len(calls) == 1
    for seed in range(3):
        u = t(numtorch, np.random.default_rng(seed).standard_normal(M.shape))
        v = t(numtorch, np.random.default_rng(seed + 10).standard_normal((4, 2)))
        got = jvp_fn(u, v)
        assert len(calls) == 1 + seed
        want = numtorch.func.jvp(f, (x, w), (u, v))[1]
        for a, b in zip(got, want):
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-12, atol=1e-12)


def test_linearize_with_inplace_writes_runs_the_function_again():
    """An in-place write sets tangents outside the recorded ops: jvp_fn reruns the function
    (and stays right)."""

    def g(x):
        z = x.clone()
        z[0] = z[0] * 2
        return z.exp()

    x = t(numtorch, M)
    u = t(numtorch, np.ones(M.shape))
    got = numtorch.func.linearize(g, x)[1](u)
    want = numtorch.func.jvp(g, (x,), (u,))[1]
    np.testing.assert_allclose(got.numpy(), want.numpy())


@pytest.mark.parametrize(
    "write",
    [
        lambda z: z.mul_(0),
        lambda z: z.copy_(z.detach() * 3),
        lambda z: z.add_(z.detach()).clamp_(max=0.0),
    ],
)
def test_linearize_sees_inplace_writes_into_an_existing_tangent(write):
    """An in-place op on a dual that already has a tangent writes the new tangent into its
    memory, which no recorded op shows: jvp_fn must not replay the stale tangent."""

    def g(x):
        z = x * 2
        write(z)
        return z

    x = t(numtorch, np.array([0.75, -0.5]))
    u = t(numtorch, np.array([1.0, 2.0]))
    got = numtorch.func.linearize(g, x)[1](u)
    want = numtorch.func.jvp(g, (x,), (u,))[1]
    np.testing.assert_array_equal(got.numpy(), want.numpy())


@pytest.mark.parametrize(
    "make",
    [
        lambda x: x.new_zeros(3),
        lambda x: x.new_ones((3,)),
        lambda x: x.new_empty(3),
        lambda x: x.new_full((3,), 2.0),
        lambda x: x.new_empty_strided((3,), (1,)),
    ],
)
def test_new_factories_of_a_batched_tensor_are_batched(make):
    """torch's new_* under vmap make one tensor per sample: a batched value copies into it."""

    def f(x):
        r = make(x)
        r.copy_(x * 2)
        return r

    x = numtorch.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(numtorch.vmap(f)(x).numpy(), (x * 2).numpy())
    np.testing.assert_array_equal(
        numtorch.vmap(numtorch.vmap(f))(x[None]).numpy()[0], (x * 2).numpy()
    )


def test_jacrev_through_an_inplace_write_of_a_slice():
    """CopySlices' backward lays the (batched) gradient out in a new_empty_strided tensor."""
    torch = pytest.importorskip("torch")

    def f(lib, x):
        t = (x * 1)[..., :1]
        t.clamp_(-0.5, 0.5)
        return lib.softmax(t * x[1], 0)

    x = np.array([0.3, -0.9, 0.2])
    want = torch.func.jacrev(lambda a: f(torch, a))(torch.tensor(x))
    got = numtorch.func.jacrev(lambda a: f(numtorch, a))(numtorch.tensor(x))
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12)


@pytest.mark.parametrize(
    "transform",
    [
        lambda lib, f: lib.func.grad(f),
        lambda lib, f: lib.func.jacrev(f),
        lambda lib, f: lib.func.hessian(lambda x: f(x).tanh()),
        lambda lib, f: lambda x: lib.autograd.functional.jacobian(f, x, vectorize=True),
    ],
    ids=["grad", "jacrev", "hessian", "vectorized_jacobian"],
)
def test_whole_tensor_extremes_under_transforms_take_torchs_wrapped_formula(transform):
    """Under torch.func the gradient of max()/min()/median() is the mask times the share (torch
    treats wrapped tensors as subclass-like): it fits batched cotangents, and an infinite share
    gives NaN off the mask, where a plain backward fills zeros."""

    def build(lib):
        def f(x):
            return x.min() * float("inf") + x.max() + x.median()

        x = t(lib, [0.5, -1.0, 2.0])
        out = transform(lib, f)(x)
        plain = x.clone().requires_grad_()
        f(plain).backward()
        return out, plain.grad

    (ours, ours_plain), (theirs, theirs_plain) = both(build)
    np.testing.assert_array_equal(ours.detach().numpy(), theirs.detach().numpy())
    np.testing.assert_array_equal(ours_plain.numpy(), theirs_plain.numpy())
