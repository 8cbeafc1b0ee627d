"""Op behaviour the sample table cannot express: views that write through, nodes that are
recorded but cannot differentiate, warnings, named results, integer and bool inputs, and
second derivatives, checked against torch where it is installed."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch


def _torch():
    return pytest.importorskip("torch")


# -- views -----------------------------------------------------------------------------------
def test_diagonal_writes_through_to_its_base():
    x = numtorch.zeros(3, 4)
    d = x.diagonal(1)
    d.fill_(2.0)
    assert x._version == d._version == 1
    expected = np.zeros((3, 4))
    expected[[0, 1, 2], [1, 2, 3]] = 2.0
    np.testing.assert_array_equal(x.numpy(), expected)


def test_non_overlapping_unfold_writes_through_and_overlapping_refuses():
    x = numtorch.zeros(5)
    x.unfold(0, 2, 2).add_(1.0)
    assert x.tolist() == [1.0, 1.0, 1.0, 1.0, 0.0]
    # torch adds once per window here (an element in two windows gets 2); numpy cannot
    # replay that, so writing through overlapping windows is refused instead
    with pytest.raises(RuntimeError, match="unsupported operation"):
        numtorch.zeros(5).unfold(0, 2, 1).add_(1.0)


# -- recorded but not differentiable ---------------------------------------------------------
NOT_DIFFERENTIABLE = {
    "heaviside": lambda t, x: t.heaviside(x, t.ones(3, dtype=x.dtype)),
    "bincount": lambda t, x: t.bincount(t.tensor([0, 2, 2]), x),
    "unique": lambda t, x: t.unique(x),
    "unique_inverse": lambda t, x: t.unique(x, return_inverse=True)[0],
    "unique_dim": lambda t, x: t.unique(x.view(3, 1), dim=0),
    "unique_consecutive": lambda t, x: t.unique_consecutive(x),
}


@pytest.mark.parametrize("name", sorted(NOT_DIFFERENTIABLE))
def test_recorded_nodes_without_derivative_match_torch(name):
    torch = _torch()
    results = []
    for lib in (numtorch, torch):
        x = lib.tensor([1.0, 0.0, 1.0], requires_grad=True)
        out = NOT_DIFFERENTIABLE[name](lib, x)
        with pytest.raises(RuntimeError) as info:
            out.sum().backward()
        results.append((out.requires_grad, out.grad_fn.name().split("::")[-1], type(info.value)))
    ours, theirs = results
    assert ours[:2] == theirs[:2]
    assert issubclass(ours[2], NotImplementedError) == issubclass(theirs[2], NotImplementedError)


@pytest.mark.parametrize("recorded_first", ["heaviside", "atanh_"])
def test_a_not_implemented_node_raises_before_any_other_node(recorded_first):
    # torch's NotImplemented node carries the largest sequence number: the backward runs it,
    # and raises its RuntimeError, before atanh_'s NotImplementedError, whichever came first
    torch = _torch()
    raised = []
    for lib in (numtorch, torch):
        x = lib.tensor([0.2, 0.4, 0.6], requires_grad=True)
        a, b = x * 1, x * 0.5
        if recorded_first == "heaviside":
            a.heaviside_(lib.tensor(0.5))
            b.atanh_()
        else:
            b.atanh_()
            a.heaviside_(lib.tensor(0.5))
        with pytest.raises((RuntimeError, NotImplementedError)) as info:
            (a.sum() + b.sum()).backward()
        raised.append(type(info.value))
    assert raised[0] is raised[1] is RuntimeError


# -- warnings --------------------------------------------------------------------------------
def test_meshgrid_without_indexing_warns_and_uses_ij():
    with pytest.warns(UserWarning, match="indexing"):
        grid = numtorch.meshgrid(numtorch.arange(2), numtorch.arange(3))[0]
    assert grid.shape == (2, 3)


def test_cross_without_dim_warns_and_takes_the_first_dim_of_size_3():
    a, b = numtorch.eye(3)[:, :2], numtorch.ones(3, 2)
    with pytest.warns(UserWarning, match="dim"):
        out = numtorch.cross(a, b)
    np.testing.assert_array_equal(out.numpy(), numtorch.cross(a, b, dim=0).numpy())


# -- named results ---------------------------------------------------------------------------
NAMED = {
    "median": lambda t: t.tensor([[3.0, 1.0, 2.0]]).median(1),
    "kthvalue": lambda t: t.tensor([3.0, 1.0, 2.0]).kthvalue(1),
    "mode": lambda t: t.tensor([2, 1, 2]).mode(),
    "cummax": lambda t: t.tensor([1.0, 3.0, 2.0]).cummax(0),
    "nanmedian": lambda t: t.tensor([[1.0, float("nan")]]).nanmedian(1),
    "slogdet": lambda t: t.linalg.slogdet(t.tensor([[2.0, 0.0], [0.0, -1.0]])),
    "torch_slogdet": lambda t: t.slogdet(t.tensor([[2.0, 0.0], [0.0, 1.0]])),
    "qr": lambda t: t.linalg.qr(t.eye(2)),
}


@pytest.mark.parametrize("name", sorted(NAMED))
def test_named_results_print_like_torch(name):
    torch = _torch()
    assert repr(NAMED[name](numtorch)) == repr(NAMED[name](torch))


@pytest.mark.parametrize(
    "call",
    [
        lambda t: t.linalg.eigh(t.eye(2)),
        lambda t: t.linalg.svd(t.eye(2)),
        lambda t: t.svd(t.eye(2)),
        lambda t: t.qr(t.eye(2)),
    ],
)
def test_decomposition_field_names_match_torch(call):
    torch = _torch()
    ours, theirs = call(numtorch), call(torch)
    assert type(ours).__name__ == type(theirs).__name__
    assert len(ours) == len(theirs)
    for field in ours._fields:
        assert getattr(ours, field).shape == getattr(theirs, field).shape


def test_linalg_errors_are_runtime_errors_named_like_torchs():
    with pytest.raises(numtorch.linalg.LinAlgError) as info:
        numtorch.linalg.solve(numtorch.zeros(2, 2), numtorch.ones(2))
    assert isinstance(info.value, RuntimeError)


# -- integer and bool inputs: dtypes, values and errors as torch -----------------------------
_I = [[3, -1, 2], [0, 5, 4], [1, 1, 2]]
INTEGER_CALLS = {
    "tril": lambda t, i: i.tril(),
    "triu_bool": lambda t, i: (i > 1).triu(1),
    "diag": lambda t, i: i.diag(),
    "diagonal": lambda t, i: i.diagonal(-1),
    "diag_embed": lambda t, i: i.diag_embed(),
    "diagflat_bool": lambda t, i: (i > 1)[0].diagflat(),
    "trace": lambda t, i: i.trace(),
    "trace_int32": lambda t, i: i.int().trace(),
    "cumprod": lambda t, i: i.cumprod(0),
    "cumprod_bool": lambda t, i: (i > 1).cumprod(1),
    "cumprod_dtype": lambda t, i: i.cumprod(0, dtype=t.float64),
    "cummax": lambda t, i: i.cummax(1)[1],
    "cummin_bool": lambda t, i: (i > 1).cummin(0)[0],
    "logcumsumexp": lambda t, i: i.logcumsumexp(0),
    "diff": lambda t, i: i.diff(),
    "diff_bool": lambda t, i: (i > 1).diff(dim=0),
    "atan2": lambda t, i: t.atan2(i, i + 1),
    "hypot": lambda t, i: t.hypot(i, i),
    "hypot_mixed": lambda t, i: t.hypot(i, i.double()),
    "logaddexp": lambda t, i: t.logaddexp(i, i),
    "xlogy": lambda t, i: t.xlogy(i, i.abs()),
    "xlogy_number": lambda t, i: t.xlogy(i, 2),
    "logit": lambda t, i: t.logit(i),
    "sinc": lambda t, i: t.sinc(i),
    "deg2rad": lambda t, i: t.deg2rad(i),
    "rad2deg": lambda t, i: t.rad2deg(i),
    "copysign": lambda t, i: t.copysign(i, -1),
    "sgn": lambda t, i: t.sgn(i),
    "sgn_bool": lambda t, i: t.sgn(i > 1),
    "float_power": lambda t, i: t.float_power(i, 2),
    "float_power_base": lambda t, i: t.float_power(2, i),
    "heaviside": lambda t, i: t.heaviside(i, i),
    "median": lambda t, i: i.median(),
    "median_dim": lambda t, i: i.median(1)[0],
    "kthvalue": lambda t, i: i.kthvalue(2, 0)[0],
    "mode_bool": lambda t, i: (i > 1).mode(0)[0],
    "quantile": lambda t, i: i.quantile(0.5),
    "unique": lambda t, i: t.unique(i, return_counts=True)[1],
    "bincount": lambda t, i: t.bincount(i.abs().view(-1), minlength=7),
    "bincount_int_weights": lambda t, i: t.bincount(i.abs().view(-1), i.view(-1)),
    "histc": lambda t, i: t.histc(i),
    "searchsorted": lambda t, i: t.searchsorted(t.tensor([0, 2, 4]), i),
    "searchsorted_int32": lambda t, i: t.searchsorted(t.tensor([0, 2, 4]), i, out_int32=True),
    "isin": lambda t, i: t.isin(i, t.tensor([1, 2])),
    "meshgrid": lambda t, i: t.meshgrid(i[0], i[1], indexing="xy")[1],
    "cartesian_prod": lambda t, i: t.cartesian_prod(i[0], i[1]),
    "block_diag": lambda t, i: t.block_diag(i, i[0].float()),
    "rot90": lambda t, i: i.rot90(3),
    "unfold": lambda t, i: i.unfold(1, 2, 1),
    "kron": lambda t, i: t.kron(i, i[:2, :2]),
    "tensordot": lambda t, i: t.tensordot(i, i, 1),
    "cross": lambda t, i: t.linalg.cross(i, i.flip(0)),
    "cdist": lambda t, i: t.cdist(i, i),
    "take_along_dim": lambda t, i: t.take_along_dim(i, i.abs().argsort(1), 1),
    "index_fill_float_value": lambda t, i: i.index_fill(1, t.tensor([0]), 2.5),
    "index_copy": lambda t, i: i.index_copy(0, t.tensor([2]), i[:1] * 10),
    "masked_scatter": lambda t, i: i.masked_scatter(i > 2, i.view(-1) * 10),
    "where_condition": lambda t, i: t.where(i > 1)[1],
    "matrix_power": lambda t, i: t.linalg.matrix_power(i, 3),
    "matrix_power_zero": lambda t, i: i.matrix_power(0),
    "det": lambda t, i: t.linalg.det(i),
    "matrix_norm": lambda t, i: t.linalg.matrix_norm(i),
    "vecdot": lambda t, i: t.linalg.vecdot(i, i),
    "vander": lambda t, i: t.linalg.vander(i[0]),
    "matrix_exp": lambda t, i: t.linalg.matrix_exp(i),
    "multi_dot": lambda t, i: t.linalg.multi_dot([i, i, i[0]]),
}


@pytest.mark.parametrize("name", sorted(INTEGER_CALLS))
def test_integer_and_bool_inputs_match_torch(name):
    torch = _torch()
    results = []
    for lib in (numtorch, torch):
        try:
            out = INTEGER_CALLS[name](lib, lib.tensor(_I))
            results.append((str(out.dtype), tuple(out.shape), out.tolist()))
        except Exception as error:  # then the error kind must match
            results.append(next(k for k in _ERROR_KINDS if isinstance(error, k)))
    ours, theirs = results
    if isinstance(theirs, tuple):
        assert isinstance(ours, tuple), f"numtorch raised {ours.__name__}"
        assert ours[:2] == theirs[:2]
        np.testing.assert_allclose(np.array(ours[2], float), np.array(theirs[2], float), 1e-6)
    else:
        assert ours is theirs, f"torch raised {theirs.__name__}, numtorch gave {ours}"


_ERROR_KINDS = (NotImplementedError, IndexError, TypeError, ValueError, RuntimeError, Exception)


# -- second derivatives ----------------------------------------------------------------------
def _hessian_of(lib, fn, values):
    x = lib.tensor(values, dtype=lib.float64, requires_grad=True)
    (g,) = lib.autograd.grad(fn(lib, x), x, create_graph=True)
    rows = [lib.autograd.grad(g[i], x, retain_graph=True)[0] for i in range(len(values))]
    return np.stack([r.detach().numpy() for r in rows])


@pytest.mark.parametrize(
    "fn",
    [
        lambda t, x: (x.cumprod(0) * t.arange(1.0, 6.0, dtype=t.float64)).sum(),
        lambda t, x: x.logcumsumexp(0).pow(2).sum(),
        lambda t, x: t.linalg.det(x.view(2, 2) + t.eye(2, dtype=t.float64)),
    ],
)
def test_second_derivatives_match_torch(fn):
    torch = _torch()
    values = [1.5, 0.0, -2.0, 0.0] + ([0.5] if "cumprod" in fn.__code__.co_names else [])
    if "det" in fn.__code__.co_names:
        values = [0.5, 1.0, 2.0, -1.0]
    ours = _hessian_of(numtorch, fn, values)
    theirs = _hessian_of(torch, fn, values)
    np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)


def test_cond_in_other_norms_matches_torch():
    torch = _torch()
    a = np.array([[2.0, 1.0, 0.0], [0.5, 3.0, 1.0], [0.0, 1.0, 4.0]])
    for p in ("fro", "nuc", 1, -1, float("inf"), -float("inf"), 2, -2):
        ours = numtorch.linalg.cond(numtorch.tensor(a), p).item()
        theirs = torch.linalg.cond(torch.tensor(a), p).item()
        assert ours == pytest.approx(theirs, rel=1e-12), p
