"""Corners the differential fuzzer found in random op graphs: in-place writes through views
of complex tensors and through expanded tensors, and derivatives torch declines to take
twice. Each is checked against torch where it is installed, and by finite differences."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

import numtorch
from numtorch.autograd import gradcheck

X = np.arange(1.0, 9.0).reshape(2, 2, 2) / 4


def _inplace_through_real_view(lib, method):
    # view_as_real of a complex intermediate, written in place through one row of it
    x = lib.tensor(X, requires_grad=True)
    y = lib.view_as_real(lib.view_as_complex(x) * (1 + 2j))
    row = y[0]
    getattr(row, method)()
    weights = lib.tensor(np.arange(8.0).reshape(2, 2, 2) - 3)
    ((y * weights).sum() + row.sum()).backward()
    return type(row.grad_fn).__name__, x.grad.numpy()


@pytest.mark.parametrize("method", ["exp_", "atan_", "deg2rad_"])
def test_inplace_through_a_real_view_of_a_complex_tensor(method):
    name, grad = _inplace_through_real_view(numtorch, method)
    assert name == "AsStridedBackward0"
    torch = pytest.importorskip("torch")
    torch_name, torch_grad = _inplace_through_real_view(torch, method)
    assert name == torch_name
    np.testing.assert_allclose(grad, torch_grad, rtol=1e-12)


def test_inplace_through_a_real_view_of_a_complex_tensor_by_finite_differences():
    def f(x):
        y = numtorch.view_as_real(numtorch.view_as_complex(x) * (1 + 2j))
        y[1].sin_()
        return y * 1

    assert gradcheck(f, (numtorch.tensor(X, requires_grad=True),))


def _triangle_of_expanded(lib, method):
    x = lib.tensor(np.arange(6.0).reshape(2, 3), requires_grad=True)
    y = x * 1
    view = y.unsqueeze(0).expand(2, 2, 3)
    getattr(view, method)(*((2.5,) if method == "fill_" else ()))
    return view.detach().numpy().copy(), type(view.grad_fn).__name__


@pytest.mark.parametrize("method", ["tril_", "triu_", "zero_", "fill_"])
def test_writes_torch_allows_through_an_expanded_tensor(method):
    values, name = _triangle_of_expanded(numtorch, method)
    torch = pytest.importorskip("torch")
    torch_values, torch_name = _triangle_of_expanded(torch, method)
    np.testing.assert_array_equal(values, torch_values)
    assert name == torch_name


@pytest.mark.parametrize("method", ["exp_", "clamp_", "copy_"])
def test_writes_torch_refuses_through_an_expanded_tensor(method):
    view = numtorch.zeros(3).unsqueeze(0).expand(2, 3)
    args = {"clamp_": (0.0, 1.0), "copy_": (numtorch.ones(2, 3),)}.get(method, ())
    with pytest.raises(RuntimeError, match="more than one element"):
        getattr(view, method)(*args)


@pytest.mark.parametrize("p", [1.0, 2.0, 3.0, 0.5, math.inf])
def test_cdist_backward_is_not_differentiable_again(p):
    # torch runs cdist's backward as _cdist_backward, which has no derivative
    a = numtorch.tensor(np.arange(12.0).reshape(4, 3) / 7, requires_grad=True)
    b = numtorch.tensor(np.arange(6.0).reshape(2, 3) / 5, requires_grad=True)
    ga, gb = numtorch.autograd.grad(numtorch.cdist(a, b, p).sum(), (a, b), create_graph=True)
    assert type(ga.grad_fn).__name__ == type(gb.grad_fn).__name__ == "CdistBackwardBackward0"
    with pytest.raises(NotImplementedError, match="'_cdist_backward' is not implemented"):
        numtorch.autograd.grad(ga.sum(), a)
    assert gradcheck(lambda a, b: numtorch.cdist(a, b, p), (a, b))


def test_cdist_backward_broadcasts_over_batches():
    a = numtorch.tensor(np.arange(24.0).reshape(2, 4, 3) / 7, requires_grad=True)
    b = numtorch.tensor(np.arange(6.0).reshape(2, 3) / 5, requires_grad=True)
    assert gradcheck(lambda a, b: numtorch.cdist(a, b, 3.0), (a, b))


def test_standard_gamma_grad_has_no_derivative():
    alpha = numtorch.tensor([1.5, 2.0], dtype=numtorch.float64, requires_grad=True)
    draws = numtorch._standard_gamma(alpha)
    (g,) = numtorch.autograd.grad(draws.sum(), alpha, create_graph=True)
    with pytest.raises(NotImplementedError, match="'_standard_gamma_grad' is not implemented"):
        numtorch.autograd.grad(g.sum(), alpha)


def test_standard_gamma_grad_is_zero_where_small_draws_leave_it_undefined():
    # torch's small-draw series gives 0 for x <= 0 and for a NaN or infinite alpha
    alpha = numtorch.tensor([2.0, 2.0, 2.0, math.inf, math.nan, 2.0, 2.0], dtype=numtorch.float64)
    x = numtorch.tensor([0.0, -0.0, -1.0, 0.7, 0.7, math.nan, math.inf], dtype=numtorch.float64)
    got = numtorch._standard_gamma_grad(alpha, x).tolist()
    assert got[:5] == [0.0] * 5
    assert all(math.isnan(v) for v in got[5:])


def test_ctc_loss_gradient_is_not_differentiable_again():
    log_probs = numtorch.randn(5, 2, 4, dtype=numtorch.float64).log_softmax(2)
    log_probs.requires_grad_()
    targets, lengths = numtorch.tensor([[1, 2], [1, 1]]), numtorch.tensor([5, 5])
    loss = numtorch.nn.functional.ctc_loss(log_probs, targets, lengths, numtorch.tensor([2, 2]))
    (g,) = numtorch.autograd.grad(loss, log_probs, create_graph=True)
    assert type(g.grad_fn).__name__ == "NotImplemented"
    with pytest.raises(RuntimeError, match="aten::_ctc_loss_backward is not implemented"):
        numtorch.autograd.grad(g.sum(), log_probs)


def _names_after_inplace(lib):
    x = lib.tensor(X, requires_grad=True)
    names = []
    for pick in (lambda y: y, lambda y: y[0], lambda y: y.view(-1)):
        y = lib.view_as_real(lib.view_as_complex(x * 1) * 2)
        view = pick(y)
        view.mul_(2)
        names.append((type(view.grad_fn).__name__, type(y.grad_fn).__name__))
    z = lib.view_as_complex(x * 2)
    z.mul_(2)
    names.append(type(z.grad_fn).__name__)
    return names


def test_a_dtype_changing_view_replays_its_view_op_after_an_inplace_write():
    # as_strided cannot change the dtype: the view itself gets ViewAsRealBackward0 or
    # ViewAsComplexBackward0 again, views of it AsStridedBackward0
    names = _names_after_inplace(numtorch)
    assert names[0] == ("ViewAsRealBackward0", "ViewAsRealBackward0")
    assert names[1] == ("AsStridedBackward0", "ViewAsRealBackward0")
    assert names[3] == "ViewAsComplexBackward0"
    torch = pytest.importorskip("torch")
    assert names == _names_after_inplace(torch)


@pytest.mark.parametrize("value", [0.0, 2.0])
def test_zero_dim_to_sparse_and_transpose_(value):
    x = numtorch.tensor(value, dtype=numtorch.float64, requires_grad=True)
    s = x.to_sparse()
    assert tuple(s._indices().shape) == (0, int(value != 0))
    assert s._values().tolist() == ([value] if value else [])
    s.to_dense().backward()
    stored = float(value != 0)  # a zero is not an entry: no gradient flows to it (as torch)
    assert x.grad.item() == stored
    y = (x * 1).transpose_(0, -1)
    assert y.shape == () and type(y.grad_fn).__name__ == "TransposeBackward1"
    y.backward()
    assert x.grad.item() == stored + 1


def _ones(lib, shape, dtype):
    return lib.ones(shape, dtype=getattr(lib, dtype))


MIXED = {
    "linalg.cross": lambda lib, a, b: lib.linalg.cross(
        _ones(lib, (2, 3), a), _ones(lib, (2, 3), b)
    ),
    "cross empty": lambda lib, a, b: lib.cross(_ones(lib, (0, 3), a), _ones(lib, (0, 3), b), 1),
    "bilinear": lambda lib, a, b: lib.bilinear(
        _ones(lib, (2, 3), a), _ones(lib, (2, 4), a), _ones(lib, (5, 3, 4), a), _ones(lib, 5, b)
    ),
    "cdist": lambda lib, a, b: lib.cdist(_ones(lib, (2, 3), a), _ones(lib, (4, 3), b), 1.0),
    "cdist mm": lambda lib, a, b: lib.cdist(_ones(lib, (30, 3), a), _ones(lib, (4, 3), b)),
    "cdist empty": lambda lib, a, b: lib.cdist(_ones(lib, (0, 3), a), _ones(lib, (4, 3), b)),
    "weight_norm": lambda lib, a, b: lib._weight_norm(_ones(lib, (2, 3), a), _ones(lib, (2, 1), b)),
    "weight_norm whole": lambda lib, a, b: lib._weight_norm(
        _ones(lib, (2, 3), a), _ones(lib, (), b), -1
    ),
    "lerp": lambda lib, a, b: lib.lerp(
        _ones(lib, (2, 3), a), _ones(lib, (2, 3), a), _ones(lib, (2, 3), b)
    ),
    "lerp 0-d weight": lambda lib, a, b: lib.lerp(
        _ones(lib, (2, 3), a), _ones(lib, (2, 3), a), _ones(lib, (), b)
    ),
    "_standard_gamma_grad": lambda lib, a, b: lib._standard_gamma_grad(
        _ones(lib, (2, 3), a), _ones(lib, (), b)
    ),
}


def _outcome(lib, fn, a, b):
    try:
        return str(fn(lib, a, b).dtype)
    except RuntimeError as exc:
        return f"RuntimeError: {exc}"


@pytest.mark.parametrize("dtypes", [("float64", "float32"), ("float32", "float64")])
@pytest.mark.parametrize("case", sorted(MIXED))
def test_mixed_float_operands_where_torch_refuses_or_keeps_the_first_dtype(case, dtypes):
    ours = _outcome(numtorch, MIXED[case], *dtypes)
    if case in ("cdist empty", "weight_norm whole", "lerp 0-d weight"):  # composed or empty
        assert not ours.startswith("RuntimeError")
    else:
        assert ours.startswith("RuntimeError")
    torch = pytest.importorskip("torch")
    assert ours == _outcome(torch, MIXED[case], *dtypes)


def test_mse_and_l1_loss_broadcast_before_promoting():
    # torch broadcasts a 0-d operand first, so it counts as dimensioned: float64 wins
    a = numtorch.tensor(0.5, dtype=numtorch.float64)
    b = numtorch.ones(2, 3)
    F = numtorch.nn.functional
    with pytest.warns(UserWarning, match="target size"):
        assert F.mse_loss(a, b).dtype is numtorch.float64
        assert F.l1_loss(b, a, reduction="none").dtype is numtorch.float64


def test_tril_through_aliased_rows_zeroes_what_any_copy_zeroes():
    # torch writes element by element: row 0 zeroes columns 1, 2 of the one shared row, and
    # row 1 keeps column 1 as it then is
    base = numtorch.tensor([1.0, 2.0, 3.0])
    base.expand(2, 3).tril_()
    assert base.tolist() == [1.0, 0.0, 0.0]
    base = numtorch.tensor([1.0, 2.0, 3.0])
    base.expand(2, 3).triu_()
    assert base.tolist() == [0.0, 2.0, 3.0]


def _inplace_through_a_selected_expand(lib):
    x = lib.tensor([[0.5, 1.0, 2.0]], dtype=lib.float64, requires_grad=True)
    y = x * 1
    expanded = y.expand(2, 3)
    row = expanded[0]  # no element of the row overlaps another
    row.tanh_()
    (expanded * lib.arange(6.0, dtype=lib.float64).reshape(2, 3)).sum().backward()
    w = lib.tensor([[3.0]])
    w.expand(1, 1).exp_()  # a size-1 expand overlaps nothing either
    return y.detach().numpy(), type(row.grad_fn).__name__, x.grad.numpy(), w.item()


def test_inplace_where_an_expanded_tensor_no_longer_overlaps():
    values, name, grad, w = _inplace_through_a_selected_expand(numtorch)
    np.testing.assert_allclose(values, np.tanh([[0.5, 1.0, 2.0]]))
    assert name == "AsStridedBackward0"
    assert w == pytest.approx(math.exp(3.0))
    torch = pytest.importorskip("torch")
    t_values, t_name, t_grad, t_w = _inplace_through_a_selected_expand(torch)
    np.testing.assert_allclose(values, t_values, rtol=1e-12)
    np.testing.assert_allclose(grad, t_grad, rtol=1e-12)
    assert (name, w) == (t_name, t_w)


def test_take_saves_its_input_as_torch_does():
    # torch's TakeBackward0 keeps self: changing it in place before backward raises
    x = numtorch.arange(6.0, dtype=numtorch.float64).reshape(2, 3).requires_grad_()
    y = x * 1
    taken = numtorch.take(y, numtorch.tensor([0, 4]))
    y.sub_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        taken.sum().backward()


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda x, i, s: x.scatter_add(0, i[0, 0], s), "as self tensor"),
        (lambda x, i, s: x.scatter_add(0, i, s[0, 0]), "as src tensor"),
        (lambda x, i, s: x[0, 0].scatter_add(0, i, s), "as self tensor"),
        (lambda x, i, s: x.scatter(0, i[0, 0], s), "as self tensor"),
    ],
)
def test_scatter_with_a_0d_operand_raises_torchs_dims_error(call, message):
    x = numtorch.zeros(2, 3, dtype=numtorch.float64)
    index = numtorch.zeros(2, 3, dtype=numtorch.int64)
    src = numtorch.ones(2, 3, dtype=numtorch.float64)
    with pytest.raises(RuntimeError, match=f"same number of dimensions {message}"):
        call(x, index, src)


def test_native_group_norm_checks_the_element_count():
    x = numtorch.ones(2, 3, dtype=numtorch.float64)
    with pytest.raises(RuntimeError, match=r"X.numel\(\) == N \* C \* HxW"):
        numtorch.native_group_norm(x, None, None, 2, 2, 2, 1, 1e-5)


def _solve_in_mixed_dtypes(lib, a, b):
    A = lib.tensor([[2.0, 0.0], [1.0, 3.0]], dtype=getattr(lib, a), requires_grad=True)
    B = lib.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=getattr(lib, b), requires_grad=True)
    X = lib.linalg.solve_triangular(A, B, upper=False)
    X.sum().backward()
    return str(X.dtype), X.detach().double().numpy(), str(A.grad.dtype), str(B.grad.dtype)


@pytest.mark.parametrize("dtypes", [("float32", "float64"), ("float64", "float32")])
def test_solve_triangular_solves_in_the_dtype_of_A(dtypes):
    dtype, values, grad_a, grad_b = _solve_in_mixed_dtypes(numtorch, *dtypes)
    assert (dtype, grad_a, grad_b) == tuple(f"torch.{d}" for d in (dtypes[0], *dtypes))
    torch = pytest.importorskip("torch")
    t_dtype, t_values, t_grad_a, t_grad_b = _solve_in_mixed_dtypes(torch, *dtypes)
    assert (dtype, grad_a, grad_b) == (t_dtype, t_grad_a, t_grad_b)
    np.testing.assert_allclose(values, t_values, rtol=1e-6)


@pytest.mark.parametrize("b_shape, left", [((0, 4), True), ((2, 4), True), ((4, 2), False)])
def test_solve_triangular_refuses_incompatible_shapes(b_shape, left):
    A, B = numtorch.ones(3, 3), numtorch.ones(*b_shape)
    equation = "AX = B" if left else "XA = B"
    with pytest.raises(
        RuntimeError, match=f"Incompatible shapes of A and B for the equation {equation}"
    ):
        numtorch.linalg.solve_triangular(A, B, upper=True, left=left)


@pytest.mark.parametrize("shift", ["fftshift", "ifftshift"])
def test_fftshift_of_a_0d_tensor_raises_torchs_roll_error(shift):
    with pytest.raises(RuntimeError, match="`shifts` required"):
        getattr(numtorch.fft, shift)(numtorch.tensor(1.0))


@pytest.mark.parametrize(
    "shape, pad", [((1, 0, 3), (1, 1)), ((2, 0), (1, 1)), ((1, 2, 0, 3), (1,) * 4)]
)
def test_replicate_pad_refuses_an_empty_non_batch_dim(shape, pad):
    with pytest.raises(RuntimeError, match="possibly 0 batch size and other non-zero dimensions"):
        numtorch.nn.functional.pad(numtorch.ones(*shape), pad, mode="replicate")
    # an empty batch dim pads as usual
    out = numtorch.nn.functional.pad(numtorch.ones(0, 2, 3), (1, 1), mode="replicate")
    assert tuple(out.shape) == (0, 2, 5)


ZERO_DIM_WRITES = {
    "scatter_add": lambda lib, x, i, s: lib.scatter_add(x, 0, i, s),
    "scatter": lambda lib, x, i, s: lib.scatter(x, -1, i, s),
    "scatter_value": lambda lib, x, i, s: lib.scatter(x, 0, i, 5.0),
    "scatter_reduce_amax": lambda lib, x, i, s: lib.scatter_reduce(x, 0, i, s, "amax"),
    "scatter_reduce_mean": lambda lib, x, i, s: lib.scatter_reduce(x, 0, i, s, "mean"),
    "index_add": lambda lib, x, i, s: lib.index_add(x, 0, i, s, alpha=2),
    "index_copy": lambda lib, x, i, s: lib.index_copy(x, 0, i, s),
    "index_fill": lambda lib, x, i, s: lib.index_fill(x, -1, i, s.sum()),
}


def _zero_dim_write(lib, name, index_shape, src_shape):
    x = lib.ones((), dtype=lib.float64).mul(1.5).requires_grad_()
    src = lib.ones(src_shape, dtype=lib.float64).mul(2.0).requires_grad_()
    index = lib.zeros(index_shape, dtype=lib.int64)
    out = ZERO_DIM_WRITES[name](lib, x, index, src)
    out.sum().backward()
    src_grad = None if src.grad is None else src.grad.numpy()
    return out.shape, out.item(), x.grad.item(), src_grad, type(out.grad_fn).__name__


@pytest.mark.parametrize("shapes", [((), ()), ((1,), ()), ((1,), (1,))])
@pytest.mark.parametrize("name", sorted(ZERO_DIM_WRITES))
def test_scatter_and_index_writes_into_a_0d_tensor(name, shapes):
    # torch reads a 0-d tensor as one element along dim 0; NumPy cannot index it
    torch = pytest.importorskip("torch")
    try:
        expected = _zero_dim_write(torch, name, *shapes)
    except RuntimeError as error:
        with pytest.raises(RuntimeError, match=re.escape(str(error).split(".")[0])):
            _zero_dim_write(numtorch, name, *shapes)
        return
    shape, value, x_grad, src_grad, node = _zero_dim_write(numtorch, name, *shapes)
    assert (tuple(shape), value, x_grad, node) == (tuple(expected[0]),) + expected[1:3] + (
        expected[4],
    )
    np.testing.assert_array_equal(src_grad, expected[3])


ZERO_DIM_DIMS = {
    "flatten": lambda lib, x: lib.flatten(x, 0, 1),
    "flatten_negative": lambda lib, x: x.flatten(0, -2),
    "tensor_split": lambda lib, x: lib.tensor_split(x, 1, 0),
    "tensor_split_indices": lambda lib, x: lib.tensor_split(x, [1]),
    "cross": lambda lib, x: lib.cross(x, x, 0),
    "cross_default_dim": lambda lib, x: lib.cross(x, x),
    "linalg.cross": lambda lib, x: lib.linalg.cross(x, x, dim=1),
    "quantile": lambda lib, x: lib.quantile(x, 0.5, dim=1),
    "nanquantile": lambda lib, x: lib.nanquantile(x, 0.5, dim=-2),
    "index_reduce": lambda lib, x: x.index_reduce(0, lib.tensor([0]), lib.tensor([1.0]), "prod"),
    "index_add_0d_source": lambda lib, x: lib.ones(2).index_add(0, lib.tensor(0), x),
    "avg_pool2d": lambda lib, x: lib.nn.functional.avg_pool2d(x, 1),
    "avg_pool2d_2d": lambda lib, x: lib.nn.functional.avg_pool2d(x.expand(2, 2), 1),
    "lp_pool2d": lambda lib, x: lib.nn.functional.lp_pool2d(x, 2, 1),
    "addbmm_batch1": lambda lib, x: lib.addbmm(lib.ones(2, 2), x, lib.ones(2, 2, 2)),
    "addbmm_batch2": lambda lib, x: lib.addbmm(lib.ones(2, 2), lib.ones(2, 2, 2), x),
    "baddbmm_batch1": lambda lib, x: lib.baddbmm(x, x, lib.ones(2, 2, 2)),
    "baddbmm_batch2": lambda lib, x: lib.baddbmm(x, lib.ones(2, 2, 2), x),
    "grid_sample": lambda lib, x: lib.nn.functional.grid_sample(x, lib.ones(1, 1, 1, 2)),
    "grid_sample_grid": lambda lib, x: lib.nn.functional.grid_sample(lib.ones(1, 1, 2, 2), x),
    "cross_entropy_long": lambda lib, x: lib.nn.functional.cross_entropy(x, lib.tensor(0)),
    "cross_entropy_float": lambda lib, x: lib.nn.functional.cross_entropy(x, x),
    "cross_entropy_same_shape_long": lambda lib, x: lib.nn.functional.cross_entropy(
        x.expand(2, 3), lib.zeros(2, 3, dtype=lib.long)
    ),
    "embedding": lambda lib, x: lib.nn.functional.embedding(lib.tensor(0), x, padding_idx=0),
    "embedding_3d": lambda lib, x: lib.embedding(x.expand(2, 2, 2), lib.tensor(0)),
    "group_norm": lambda lib, x: lib.group_norm(x, 1),
    "group_norm_1d": lambda lib, x: lib.group_norm(x.expand(2), 1),
    "functional_group_norm": lambda lib, x: lib.nn.functional.group_norm(x, 1),
    "mv": lambda lib, x: lib.mv(x, lib.ones(3)),
    "adaptive_avg_pool2d": lambda lib, x: lib.nn.functional.adaptive_avg_pool2d(x, 1),
    "adaptive_avg_pool2d_1d": lambda lib, x: lib.nn.functional.adaptive_avg_pool2d(x.expand(3), 1),
    "adaptive_avg_pool3d": lambda lib, x: lib.nn.functional.adaptive_avg_pool3d(x, 1),
    "adaptive_avg_pool3d_2d": lambda lib, x: lib.nn.functional.adaptive_avg_pool3d(
        x.expand(2, 3), 1
    ),
    "functional_unfold": lambda lib, x: lib.nn.functional.unfold(x, 1),
    "functional_unfold_1d": lambda lib, x: lib.nn.functional.unfold(x.expand(3), 1),
    "functional_unfold_2d": lambda lib, x: lib.nn.functional.unfold(x.expand(3, 3), 1),
    "index_copy_0d_source": lambda lib, x: lib.ones(3, 2).index_copy(0, lib.tensor([0]), x),
    "dropout2d": lambda lib, x: lib.nn.functional.dropout2d(x, 0.5),
    "feature_alpha_dropout": lambda lib, x: lib.nn.functional.feature_alpha_dropout(x, 0.5, True),
    "weight_norm_dim0": lambda lib, x: lib._weight_norm(x, x, 0),
    "weight_norm_dim_last": lambda lib, x: lib._weight_norm(x, x, -1),
    "weight_norm_dim1": lambda lib, x: lib._weight_norm(x, x, 1),
    "weight_norm_dim2_of_2d": lambda lib, x: lib._weight_norm(x.expand(2, 3), x, 2),
    "norm_except_dim": lambda lib, x: lib.norm_except_dim(x, 2, 0),
    "embedding_padding_idx": lambda lib, x: lib.nn.functional.embedding(
        lib.tensor([0]), x, padding_idx=1
    ),
    "embedding_negative_padding_idx": lambda lib, x: lib.nn.functional.embedding(
        lib.tensor([0]), x, padding_idx=-1
    ),
}


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", sorted(ZERO_DIM_DIMS))
def test_dims_of_a_0d_input_raise_torchs_error(name):
    torch = pytest.importorskip("torch")
    with pytest.raises(Exception) as expected:
        ZERO_DIM_DIMS[name](torch, torch.tensor(1.5))
    with pytest.raises(expected.type, match=re.escape(str(expected.value))):
        ZERO_DIM_DIMS[name](numtorch, numtorch.tensor(1.5))


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("reduce", ["prod", "amax", "mean"])
def test_index_reduce_into_a_0d_tensor(reduce):
    torch = pytest.importorskip("torch")
    results = [
        lib.tensor(1.5).index_reduce(0, lib.tensor(0), lib.tensor(2.0), reduce).item()
        for lib in (torch, numtorch)
    ]
    assert results[0] == results[1]


@pytest.mark.parametrize("n", [2, 3])
def test_polygamma_far_below_zero_matches_torch(n):
    # torch sums the zeta series one unit step at a time up from x (seconds here, hours
    # further down); the reflected values agree with those sums
    torch = pytest.importorskip("torch")
    x = [-1000.3, -1000.5, -10000.3, -100000.25]
    expected = torch.polygamma(n, torch.tensor(x, dtype=torch.float64)).numpy()
    got = numtorch.polygamma(n, numtorch.tensor(x, dtype=numtorch.float64)).numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-14)


def test_polygamma_far_below_zero_terminates():
    x = numtorch.tensor([-1e12 - 0.5, -3e9 - 0.25, -1e20], dtype=numtorch.float64)
    second = numtorch.polygamma(2, x).numpy()
    # psi''(x) = psi''(1 - x) - pi d^2/dx^2 cot(pi x): 4 pi^3 at x = 3/4 (mod 1); a pole
    # at the integer
    np.testing.assert_allclose(second[:2], [0.0, 4 * math.pi**3], atol=1e-13 * 4 * math.pi**3)
    assert second[2] == -math.inf
    # psi'(x) = pi^2 / sin^2(pi x) - psi'(1 - x), with psi'(y) ~ 1/y far up
    first = numtorch.polygamma(1, x[1:2]).item()
    assert first == pytest.approx(2 * math.pi**2 - 1 / (3e9 + 1.25), rel=1e-13)


@pytest.mark.parametrize("shape", [(0, 0), (3, 0), (2, 0, 3), (0, 3, 3)])
@pytest.mark.parametrize("p", [None, -2, "fro", 1])
def test_cond_of_empty_matrices_is_zero_outside_the_graph(shape, p):
    torch = pytest.importorskip("torch")
    results = []
    for lib in (torch, numtorch):
        A = lib.empty(shape, dtype=lib.float32, requires_grad=True)
        try:
            out = lib.linalg.cond(A, p)
        except RuntimeError as error:
            results.append(str(error))
            continue
        results.append((tuple(out.shape), out.tolist(), out.requires_grad, str(out.dtype)))
    assert results[0] == results[1]


# equation, shapes, dtypes, whether torch refuses: a pair sharing a summed subscript of size >
# 1 is contracted by a batched matrix product (one dtype); any other pair is multiplied and
# promotes. Operands are contracted left to right.
EINSUM_DTYPES = [
    ("i,i->", [(3,), (3,)], ("float32", "float64"), True),
    ("ij,jk", [(2, 3), (3, 4)], ("float64", "float32"), True),
    ("...ij,...jk", [(2, 2, 3), (3, 4)], ("float32", "float64"), True),
    ("ii,i->", [(3, 3), (3,)], ("float64", "float32"), True),
    ("i,j,i->", [(3,), (2,), (3,)], ("float64", "float32", "float32"), True),
    ("i,j,i->", [(3,), (2,), (3,)], ("float32", "float64", "float64"), False),
    ("i,j->ij", [(2,), (3,)], ("float32", "float64"), False),
    ("i,i->i", [(3,), (3,)], ("float64", "float32"), False),
    ("ij,j->i", [(2, 1), (3,)], ("float32", "float64"), False),
    ("i,i->", [(1,), (1,)], ("float32", "float64"), False),
    ("i,i->", [(0,), (0,)], ("float64", "float32"), False),  # empty: the second's dtype
    ("ij,jk->ik", [(0, 3), (3, 2)], ("float32", "float64"), False),
]


def _einsum_outcome(lib, equation, shapes, dtypes):
    operands = [
        lib.ones(shape, dtype=getattr(lib, dtype), requires_grad=True)
        for shape, dtype in zip(shapes, dtypes)
    ]
    try:
        result = lib.einsum(equation, *operands)
    except RuntimeError as exc:
        return f"RuntimeError: {exc}"
    result.sum().backward()
    return str(result.dtype), [str(t.grad.dtype) for t in operands]


@pytest.mark.parametrize("equation, shapes, dtypes, refused", EINSUM_DTYPES)
def test_einsum_of_mixed_dtypes_refuses_contractions_and_promotes_products(
    equation, shapes, dtypes, refused
):
    ours = _einsum_outcome(numtorch, equation, shapes, dtypes)
    assert isinstance(ours, str) == refused
    torch = pytest.importorskip("torch")
    assert ours == _einsum_outcome(torch, equation, shapes, dtypes)


def _clamp_gradients(lib, x, lo, hi):
    tensors = [lib.tensor(v, dtype=lib.float64, requires_grad=True) for v in (x, lo, hi)]
    lib.clamp(*tensors).sum().backward()
    return [t.grad.tolist() for t in tensors]


def test_clamp_bounds_share_the_gradient_by_torchs_tie_rule():
    # below min == max, or with min > max: max is the limit, and min gets no gradient
    x = [0.0, 0.0, 1.0, math.nan, 2.0, 3.0]
    lo = [1.0, 2.0, 2.0, 1.0, 1.0, 1.0]
    hi = [1.0, 0.0, 1.0, 0.0, 1.0, 4.0]
    grads = _clamp_gradients(numtorch, x, lo, hi)
    assert grads == [[0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 0], [0, 1, 1, 1, 1, 0]]
    torch = pytest.importorskip("torch")
    assert grads == _clamp_gradients(torch, x, lo, hi)


# call, the exception torch raises
EMPTY_AND_NONFINITE = {
    "kthvalue of an empty dim": (lambda t: t.kthvalue(t.ones(2, 0), 1, 1), IndexError),
    "histogram of an infinite value": (
        lambda t: t.histogram(t.tensor([-1.5, math.inf]), 3),
        RuntimeError,
    ),
    "histogram of NaN": (lambda t: t.histogram(t.tensor([1.0, math.nan]), 3), RuntimeError),
    "histogram over an infinite range": (
        lambda t: t.histogram(t.tensor([1.0, 2.0]), 3, range=(0.0, math.inf)),
        RuntimeError,
    ),
}


@pytest.mark.parametrize("case", sorted(EMPTY_AND_NONFINITE))
def test_empty_and_nonfinite_reductions_raise_torchs_error(case):
    call, expected = EMPTY_AND_NONFINITE[case]
    with pytest.raises(expected) as ours:
        call(numtorch)
    torch = pytest.importorskip("torch")
    with pytest.raises(expected) as theirs:
        call(torch)
    assert str(ours.value) == str(theirs.value)


def test_unflatten_of_a_0d_tensor_raises_torchs_wrapped_error():
    # torch's message goes on with a C++ backtrace: its first two lines are compared
    with pytest.raises(RuntimeError) as ours:
        numtorch.tensor(1.5).unflatten(-1, (1, 1))
    assert str(ours.value).startswith("unflatten got an unexpected error:\nDimension specified")
    torch = pytest.importorskip("torch")
    with pytest.raises(RuntimeError) as theirs:
        torch.tensor(1.5).unflatten(-1, (1, 1))
    assert str(theirs.value).split("\n")[:2] == str(ours.value).split("\n")


@pytest.mark.parametrize(
    "shapes", [((3, 2, 4), (1, 2, 5), 0), ((3, 2, 4), (1, 3, 5), 0), ((3, 2), (), 0)]
)
def test_index_copy_names_both_slice_shapes(shapes):
    input_shape, source_shape, dim = shapes
    torch = pytest.importorskip("torch")
    messages = []
    for lib in (numtorch, torch):
        with pytest.raises(RuntimeError) as error:
            lib.ones(input_shape).index_copy(dim, lib.tensor([0]), lib.ones(source_shape))
        messages.append(str(error.value))
    assert messages[0] == messages[1]


@pytest.mark.parametrize("method", ["atan2_", "hypot_", "nextafter_", "igamma_", "ldexp_"])
@pytest.mark.parametrize("target", ["leaf", "view of a leaf"])
def test_inplace_methods_parse_their_arguments_before_checking_the_target(method, target):
    # a number where only a tensor is taken: torch's TypeError, before the leaf's refusal
    x = numtorch.ones(2, 3, dtype=numtorch.float64, requires_grad=True)
    with pytest.raises(TypeError, match="must be Tensor"):
        getattr(x if target == "leaf" else x[0], method)(2.0)
    with pytest.raises(RuntimeError, match="leaf Variable"):
        getattr(x if target == "leaf" else x[0], method)(numtorch.ones(3, dtype=x.dtype))


# input shape, src shape, index: torch's checks in its order (self's sizes, src's sizes read
# per index dim, src's number of dims) where NumPy would fail inside the write
SCATTER_SHAPES = [
    ((3, 4), (), [[0, 1, 0, 2], [0, 1, 2, 2]]),
    ((3, 4), (4,), [[0, 1, 0, 2], [0, 1, 2, 2]]),
    ((3, 4), (4,), [[0, 1, 0, 2, 1]]),
    ((3, 4), (3, 4, 1), [[0, 1, 0, 2], [0, 1, 2, 2]]),
    ((3, 4), (1, 4), [[0, 1, 0, 2], [0, 1, 2, 2]]),
    ((3, 4), (2, 5), [[0, 1, 0, 2, 1]]),
]


@pytest.mark.parametrize("method", ["scatter", "scatter_add", "scatter_reduce"])
@pytest.mark.parametrize("shapes", SCATTER_SHAPES)
def test_scatter_checks_index_against_self_and_src_as_torch(method, shapes):
    input_shape, src_shape, index = shapes

    def outcome(lib):
        x, src, i = lib.zeros(input_shape), lib.ones(src_shape), lib.tensor(index)
        extra = ("sum",) if method == "scatter_reduce" else ()
        with pytest.raises((RuntimeError, IndexError)) as error:
            getattr(x, method)(0, i, src, *extra)
        return type(error.value).__name__, str(error.value)

    ours = outcome(numtorch)
    torch = pytest.importorskip("torch")
    assert ours == outcome(torch)


@pytest.mark.parametrize("shape", [(3, 0), (0, 3), (0, 0), (2, 0, 3), (2, 3, 0)])
def test_lu_of_matrices_with_an_empty_side(shape):
    def factors(lib):
        A = lib.ones(shape, dtype=lib.float64, requires_grad=True)
        P, L, U = lib.linalg.lu(A)
        (P @ L @ U).sum().backward()
        return [tuple(t.shape) for t in (P, L, U, A.grad)]

    ours = factors(numtorch)
    assert ours[3] == shape
    torch = pytest.importorskip("torch")
    assert ours == factors(torch)


def _embedding_bag_second_order(lib, mode, weighted):
    weight = lib.ones(5, 3, dtype=lib.float64, requires_grad=True)
    indices, offsets = lib.tensor([1, 2, 4, 4, 3, 0, 1]), lib.tensor([0, 2, 2, 5])
    scales = lib.ones(7, dtype=lib.float64, requires_grad=True) if weighted else None
    out = lib.nn.functional.embedding_bag(
        indices, weight, offsets, mode=mode, per_sample_weights=scales
    )
    leaves = [weight] + ([scales] if weighted else [])
    grads = lib.autograd.grad((out * out).sum(), leaves, create_graph=True)
    names = [type(g.grad_fn).__name__ for g in grads]
    with pytest.raises((RuntimeError, NotImplementedError)) as error:
        lib.autograd.grad(sum(g.sum() for g in grads), leaves)
    return names, type(error.value).__name__, str(error.value)


@pytest.mark.parametrize("mode, weighted", [("sum", False), ("sum", True), ("max", False)])
def test_embedding_bag_gradients_are_not_differentiable_again(mode, weighted):
    ours = _embedding_bag_second_order(numtorch, mode, weighted)
    assert ours[0][0] == "EmbeddingBagBackwardBackward0"
    torch = pytest.importorskip("torch")
    assert ours == _embedding_bag_second_order(torch, mode, weighted)


@pytest.mark.parametrize("mixed", ["weight", "bias", "running_var", "input"])
@pytest.mark.parametrize("training", [True, False])
def test_native_batch_norm_refuses_mixed_dtypes(mixed, training):
    def call(lib):
        tensors = {
            name: lib.ones(shape, dtype=lib.float64 if name == mixed else lib.float32)
            for name, shape in (("input", (2, 3)), ("weight", (3,)), ("bias", (3,)))
        }
        tensors["running_mean"] = lib.zeros(3)
        tensors["running_var"] = lib.ones(3, dtype=lib.float64 if mixed == "running_var" else None)
        with pytest.raises(RuntimeError) as error:
            lib.native_batch_norm(*tensors.values(), training, 0.1, 1e-5)
        return str(error.value)

    ours = call(numtorch)
    assert "dtype" in ours
    torch = pytest.importorskip("torch")
    call(torch)


@pytest.mark.parametrize("shape", [(), (3,)])
@pytest.mark.parametrize("params", ["none", "weight", "running"])
def test_aten_batch_norm_below_two_dims_counts_no_features(shape, params):
    def call(lib):
        weight = lib.ones(2) if params == "weight" else None
        stats = (lib.zeros(2), lib.ones(2)) if params == "running" else (None, None)
        with pytest.raises((RuntimeError, IndexError)) as error:
            lib.batch_norm(lib.ones(shape), weight, None, *stats, True, 0.1, 1e-5, False)
        return type(error.value).__name__, str(error.value)

    ours = call(numtorch)
    torch = pytest.importorskip("torch")
    assert ours == call(torch)


@pytest.mark.parametrize(
    "shape, size, mode",
    [
        ((1, 0, 6, 5), (3, 4), "bilinear"),
        ((1, 0, 6, 5), (3, 4), "nearest"),
        ((1, 0, 6), (3,), "linear"),
        ((1, 0, 2, 3, 3), (2, 2, 2), "trilinear"),
        ((0, 2, 6, 5), (3, 4), "bicubic"),
    ],
)
def test_interpolate_refuses_empty_non_batch_dims(shape, size, mode):
    def call(lib):
        try:
            return tuple(lib.nn.functional.interpolate(lib.ones(shape), size=size, mode=mode).shape)
        except RuntimeError as error:
            return str(error)

    ours = call(numtorch)
    assert isinstance(ours, tuple) == (shape[0] == 0)
    torch = pytest.importorskip("torch")
    assert ours == call(torch)


def _adaptive_average_of_nonfinite(lib):
    inf, nan = float("inf"), float("nan")
    x = lib.arange(30.0, dtype=lib.float64).reshape(1, 1, 5, 6)
    x[0, 0, 1, 2], x[0, 0, 4, 5], x[0, 0, 0, 0] = inf, -inf, nan
    x.requires_grad_()
    y = lib.nn.functional.adaptive_avg_pool2d(x, (3, 4))
    weights = lib.ones(1, 1, 3, 4, dtype=lib.float64)
    weights[0, 0, 2, 1] = inf
    (grad,) = lib.autograd.grad(y, x, weights)
    z = lib.arange(24.0).reshape(1, 2, 3, 4)
    z[0, 0, 0, 0] = inf
    pooled = [lib.nn.functional.adaptive_avg_pool3d(z, (2, 2, 3))]
    pooled.append(lib.nn.functional.adaptive_avg_pool1d(z[0], 3))
    return [t.detach().numpy() for t in (y, grad, *pooled)]


def test_adaptive_average_pooling_keeps_a_nonfinite_value_in_its_own_windows():
    # torch sums each window: an inf or NaN reaches only the windows holding it
    y, grad, pooled3d, pooled1d = _adaptive_average_of_nonfinite(numtorch)
    assert np.isfinite(y).sum() == 8 and np.isfinite(grad).sum() == 26
    assert np.isfinite(pooled3d).sum() == 11 and np.isfinite(pooled1d).sum() == 17
    torch = pytest.importorskip("torch")
    for ours, theirs in zip((y, grad, pooled3d, pooled1d), _adaptive_average_of_nonfinite(torch)):
        np.testing.assert_allclose(ours, theirs, rtol=1e-6)


def _embedding_bag_max_with_nan(lib, padding_idx):
    nan, inf = float("nan"), float("inf")
    rows = [[1.0, nan, -inf], [2.0, 0.5, 3.0], [nan, 1.0, 2.0], [-1.0, -2.0, -3.0]]
    weight = lib.tensor(rows, requires_grad=True)
    indices, offsets = lib.tensor([0, 1, 2, 3, 1, 2]), lib.tensor([0, 2, 4, 4])
    out = lib.nn.functional.embedding_bag(
        indices, weight, offsets, mode="max", padding_idx=padding_idx
    )
    (grad,) = lib.autograd.grad(out.nan_to_num().sum(), weight)
    return out.detach().numpy(), grad.numpy()


@pytest.mark.parametrize("padding_idx", [None, 0])
def test_embedding_bag_max_keeps_a_leading_nan_and_skips_a_later_one(padding_idx):
    # torch seeds a bag with its first row and replaces by strictly greater values only
    out, grad = _embedding_bag_max_with_nan(numtorch, padding_idx)
    np.testing.assert_array_equal(out[3], [2.0, 1.0, 3.0])
    assert np.isnan(out[1, 0])
    torch = pytest.importorskip("torch")
    torch_out, torch_grad = _embedding_bag_max_with_nan(torch, padding_idx)
    np.testing.assert_array_equal(out, torch_out)
    np.testing.assert_array_equal(grad, torch_grad)


def _error_type(call):
    try:
        call()
    except Exception as exc:  # compared by type with torch's
        return type(exc).__name__
    return None


def _contiguous_results(lib):
    a = lib.tensor(np.arange(6.0).reshape(3, 2), requires_grad=True)
    b = lib.tensor(np.arange(6.0).reshape(3, 2)[::-1].copy(), requires_grad=True)
    x = lib.tensor(np.arange(6.0).reshape(2, 3))
    return [lib.linalg.cross(a, b, dim=0), x[:, lib.tensor([[0, 1], [1, 0]])]]


def test_cross_and_advanced_index_results_are_contiguous_as_torch():
    results = _contiguous_results(numtorch)
    assert all(r.is_contiguous() for r in results)
    torch = pytest.importorskip("torch")
    assert [r.stride() for r in results] == [r.stride() for r in _contiguous_results(torch)]


def _reshape_of_cross_then_inplace(lib):
    # a saved input reached through reshape aliases cross's result only when it is contiguous
    a = lib.tensor(np.arange(6.0).reshape(3, 2), requires_grad=True)
    b = lib.tensor(np.arange(6.0).reshape(3, 2)[::-1].copy(), requires_grad=True)
    c = lib.linalg.cross(a, b, dim=0)
    g = c.reshape(-1).reshape(2, 3).sin()
    c[..., 1:].round_()
    return _error_type(lambda: (g.sum() + c.sum()).backward())


def test_inplace_on_cross_result_invalidates_what_its_reshape_saved():
    assert _reshape_of_cross_then_inplace(numtorch) == "RuntimeError"
    torch = pytest.importorskip("torch")
    assert _reshape_of_cross_then_inplace(torch) == "RuntimeError"


def _ldexp_result_modified(lib, other_requires_grad):
    x = lib.tensor(np.arange(6.0).reshape(2, 3), requires_grad=True)
    other = lib.tensor([1.0, 0.0, 3.0], requires_grad=other_requires_grad)
    y = lib.ldexp(x * 1, other)
    y[..., 1:].log_()
    return _error_type(lambda: y.sum().backward())


@pytest.mark.parametrize("other_requires_grad", [False, True])
def test_outputs_are_saved_for_every_formula_naming_them(other_requires_grad):
    # ldexp saves its result for other's formula; torch saves (and checks) it even when
    # only input requires grad
    assert _ldexp_result_modified(numtorch, other_requires_grad) == "RuntimeError"
    torch = pytest.importorskip("torch")
    assert _ldexp_result_modified(torch, other_requires_grad) == "RuntimeError"


def _view_written_then_transposed(lib):
    # CopySlices replays y.view(-1) on the incoming gradient, which arrives transposed
    x = lib.tensor(np.arange(1.0, 7.0).reshape(2, 3), requires_grad=True)
    y = x * 1
    y.view(-1)[1:].mul_(2)
    loss = (y.t() * lib.tensor(np.arange(6.0).reshape(3, 2))).sum()
    (g,) = lib.autograd.grad(loss, x)
    return g.detach().numpy()


def test_inplace_through_a_view_step_with_a_transposed_gradient():
    grad = _view_written_then_transposed(numtorch)
    written = np.array([[1.0, 2.0, 2.0], [2.0, 2.0, 2.0]])  # mul_(2) on the flat [1:]
    np.testing.assert_array_equal(grad, np.arange(6.0).reshape(3, 2).T * written)
    torch = pytest.importorskip("torch")
    np.testing.assert_array_equal(grad, _view_written_then_transposed(torch))


def _recurrence_with_one_float64(lib, mode, which):
    lib.manual_seed(0)
    module = getattr(lib.nn, mode)(4, 2)
    params = [p.detach() for p in module._flat_weights]
    x, h = lib.randn(2, 3, 4), lib.zeros(1, 3, 2)
    if which == "h0":
        h = h.double()
    else:
        params[3] = params[3].double()  # the recurrent bias
    hx = (h, lib.zeros(1, 3, 2)) if mode == "LSTM" else h
    run = {"LSTM": lib.lstm, "GRU": lib.gru, "RNN": lib.rnn_tanh}[mode]
    return _error_type(lambda: run(x, hx, params, True, 1, 0.0, False, False, False))


@pytest.mark.parametrize("which", ["h0", "bias"])
@pytest.mark.parametrize("mode", ["LSTM", "GRU", "RNN"])
def test_recurrences_refuse_mixed_dtypes(mode, which):
    assert _recurrence_with_one_float64(numtorch, mode, which) == "RuntimeError"
    torch = pytest.importorskip("torch")
    assert _recurrence_with_one_float64(torch, mode, which) == "RuntimeError"


def _instance_norm_empty(lib, shape, use_input_stats):
    x = lib.ones(shape, requires_grad=True)
    stats = lib.zeros(2), lib.ones(2)
    call = lambda: lib.nn.functional.instance_norm(x, *stats, use_input_stats=use_input_stats)
    return _error_type(call), [s.tolist() for s in stats]


@pytest.mark.parametrize("use_input_stats", [False, True])
@pytest.mark.parametrize("shape", [(2, 0, 3), (0, 2, 3)])
def test_instance_norm_of_an_empty_input_with_running_stats(shape, use_input_stats):
    error, stats = _instance_norm_empty(numtorch, shape, use_input_stats)
    if not use_input_stats:  # evaluation reads the statistics and leaves them as they were
        assert (error, stats) == (None, [[0.0, 0.0], [1.0, 1.0]])
    torch = pytest.importorskip("torch")
    torch_error, torch_stats = _instance_norm_empty(torch, shape, use_input_stats)
    assert error == torch_error
    np.testing.assert_array_equal(stats, torch_stats)


def _huber_mixed_backward(lib, input_dtype, target_dtype, wrt):
    x = lib.ones(2, 3, dtype=getattr(lib, input_dtype), requires_grad=wrt == "input")
    t = lib.zeros(2, 3, dtype=getattr(lib, target_dtype), requires_grad=wrt == "target")
    loss = lib.nn.functional.huber_loss(x, t)
    return str(loss.dtype).split(".")[1], _error_type(loss.backward)


@pytest.mark.parametrize("wrt", ["input", "target"])
@pytest.mark.parametrize("dtypes", [("float32", "float64"), ("float64", "float32")])
def test_huber_loss_backward_refuses_mixed_dtypes(dtypes, wrt):
    # the forward returns the input's dtype; torch's backward kernel then refuses the mix
    dtype, error = _huber_mixed_backward(numtorch, *dtypes, wrt)
    assert (dtype, error) == (dtypes[0], "RuntimeError")
    torch = pytest.importorskip("torch")
    assert (dtype, error) == _huber_mixed_backward(torch, *dtypes, wrt)


def _grid_sample_empty(lib, input_shape, grid_shape):
    x = lib.ones(input_shape, dtype=lib.float64, requires_grad=True)
    grid = lib.zeros(grid_shape, requires_grad=True)  # float32: met only by a non-empty output
    out = lib.nn.functional.grid_sample(x, grid, padding_mode="reflection", align_corners=False)
    out.sum().backward()
    return [(tuple(t.shape), str(t.dtype).split(".")[1]) for t in (out, x.grad, grid.grad)]


@pytest.mark.parametrize(
    "input_shape, grid_shape",
    [((1, 1, 3, 3), (1, 0, 2, 2)), ((1, 0, 3, 3), (1, 2, 2, 2)), ((0, 1, 3, 3), (0, 2, 2, 2))],
)
def test_grid_sample_with_an_empty_output(input_shape, grid_shape):
    found = _grid_sample_empty(numtorch, input_shape, grid_shape)
    assert found[0][1] == "float64" and found[2] == (grid_shape, "float32")
    torch = pytest.importorskip("torch")
    assert found == _grid_sample_empty(torch, input_shape, grid_shape)


def _lstsq_batches_mismatch(lib):
    a, b = lib.ones(2, 4, 2, dtype=lib.float64), lib.ones(0, 4, 3, dtype=lib.float64)
    return _error_type(lambda: lib.linalg.lstsq(a, b))


def test_lstsq_refuses_batches_that_do_not_broadcast():
    assert _lstsq_batches_mismatch(numtorch) == "RuntimeError"
    torch = pytest.importorskip("torch")
    assert _lstsq_batches_mismatch(torch) == "RuntimeError"


def _dense_times_sparse_errors(lib):
    sparse = lib.sparse_coo_tensor(
        lib.tensor([[0, 1], [1, 2]]), lib.tensor([1.0, 2.0], dtype=lib.float64), (3, 4)
    )
    denses = [lib.tensor(1.0), lib.tensor(1.0, dtype=lib.float64), lib.ones(3), lib.ones(2, 3)]
    return [_error_type(lambda d=d: lib.mm(d, sparse)) for d in denses]


def test_dense_times_sparse_checks_the_dense_dims_first():
    errors = _dense_times_sparse_errors(numtorch)
    assert errors == ["IndexError"] * 3 + ["RuntimeError"]
    torch = pytest.importorskip("torch")
    assert errors == _dense_times_sparse_errors(torch)
