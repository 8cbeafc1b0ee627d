"""Corners the differential fuzzer found in random op graphs: in-place writes through views of
complex tensors, through expanded tensors and through results torch lays out contiguously, and
what each write invalidates. Each is checked against torch where it is installed, and by finite
differences."""

from __future__ import annotations

import math
import warnings

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
    mask = lib.tensor([[[1, 0, 0], [0, 0, 1]], [[0, 1, 0], [0, 0, 1]]], dtype=lib.bool)
    args = {"fill_": (2.5,), "masked_fill_": (mask, -1.5)}.get(method, ())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        getattr(view, method)(*args)
    deprecated = sum(
        "masked_fill_ on expanded tensors is deprecated" in str(w.message) for w in caught
    )
    # torch's backward copies the view's gradient back through its geometry: it refuses
    try:
        view.sum().backward()
        backward = "ran"
    except RuntimeError as error:
        backward = "refused" if "more than one element" in str(error) else str(error)
    return view.detach().numpy().copy(), type(view.grad_fn).__name__, deprecated, backward


@pytest.mark.parametrize("method", ["tril_", "triu_", "zero_", "fill_", "masked_fill_"])
def test_writes_torch_allows_through_an_expanded_tensor(method):
    # (masked_fill_ with torch's deprecation warning: every copy of a masked element filled)
    ours = _triangle_of_expanded(numtorch, method)
    assert ours[3] == "refused"
    torch = pytest.importorskip("torch")
    theirs = _triangle_of_expanded(torch, method)
    np.testing.assert_array_equal(ours[0], theirs[0])
    assert ours[1:] == theirs[1:]


@pytest.mark.parametrize("method", ["exp_", "clamp_", "copy_"])
def test_writes_torch_refuses_through_an_expanded_tensor(method):
    view = numtorch.zeros(3).unsqueeze(0).expand(2, 3)
    args = {"clamp_": (0.0, 1.0), "copy_": (numtorch.ones(2, 3),)}.get(method, ())
    with pytest.raises(RuntimeError, match="more than one element"):
        getattr(view, method)(*args)


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


def test_tril_through_aliased_rows_zeroes_what_any_copy_zeroes():
    # torch writes element by element: row 0 zeroes columns 1, 2 of the one shared row, and
    # row 1 keeps column 1 as it then is
    base = numtorch.tensor([1.0, 2.0, 3.0])
    base.expand(2, 3).tril_()
    assert base.tolist() == [1.0, 0.0, 0.0]
    base = numtorch.tensor([1.0, 2.0, 3.0])
    base.expand(2, 3).triu_()
    assert base.tolist() == [0.0, 2.0, 3.0]


def test_tril_through_aliased_rows_keeps_no_nan_over_a_zero():
    # a NaN that one row keeps is no write: the zero another row wrote stays
    base = numtorch.tensor([1.0, math.nan, 2.0])
    base.expand(2, 3)[:, :2].tril_()
    assert base.tolist() == [1.0, 0.0, 2.0]


def test_tril_through_aliased_rows_writes_a_zero_over_a_negative_zero():
    # the +0.0 a row writes is a write though it equals the -0.0 another row keeps
    base = numtorch.full((3,), -0.0)
    base.expand(2, 3).tril_()
    assert np.signbit(base.numpy()).tolist() == [True, False, False]
    base = numtorch.full((3,), complex(-0.0, -0.0))
    base.expand(2, 3).triu_()
    assert np.signbit(base.numpy().imag).tolist() == [False, True, True]


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


@pytest.mark.parametrize("method", ["atan2_", "hypot_", "nextafter_", "igamma_", "ldexp_"])
@pytest.mark.parametrize("target", ["leaf", "view of a leaf"])
def test_inplace_methods_parse_their_arguments_before_checking_the_target(method, target):
    # a number where only a tensor is taken: torch's TypeError, before the leaf's refusal
    x = numtorch.ones(2, 3, dtype=numtorch.float64, requires_grad=True)
    with pytest.raises(TypeError, match="must be Tensor"):
        getattr(x if target == "leaf" else x[0], method)(2.0)
    with pytest.raises(RuntimeError, match="leaf Variable"):
        getattr(x if target == "leaf" else x[0], method)(numtorch.ones(3, dtype=x.dtype))


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


def _after_view_as_real_and_squeeze_(lib):
    a = lib.ones(2, 3, 2, requires_grad=True)
    view = lib.view_as_real(lib.view_as_complex(a * 1))
    view.squeeze_()  # no dim of size 1: the geometry stays as view_as_real gave it
    view.mul_(2)
    name = type(view.grad_fn).__name__
    (view * lib.arange(12.0).reshape(2, 3, 2)).sum().backward()
    return name, a.grad.numpy()


def test_inplace_view_op_leaves_the_view_function_of_view_as_real_alone():
    # torch's squeeze_ does not extend the view function: the view replays view_as_real
    name, grad = _after_view_as_real_and_squeeze_(numtorch)
    assert name == "ViewAsRealBackward0"
    np.testing.assert_array_equal(grad, 2 * np.arange(12.0).reshape(2, 3, 2))
    torch = pytest.importorskip("torch")
    torch_name, torch_grad = _after_view_as_real_and_squeeze_(torch)
    assert name == torch_name
    np.testing.assert_array_equal(grad, torch_grad)


@pytest.mark.parametrize("method", ["tril_", "triu_"])
def test_triangle_write_through_an_expanded_nan_as_torch(method):
    # a NaN the op keeps is no change: the zero written to the shared element wins
    torch = pytest.importorskip("torch")
    found = []
    for lib in (numtorch, torch):
        x = lib.tensor(float("nan")).expand(2, 2).unsqueeze(0)
        getattr(x, method)()
        found.append(str(x.tolist()))
    assert found[0] == found[1]


def _write_through_a_row_of_an_expanded_root(lib):
    # unsafe_split's outputs are no views: the expanded split is a root whose elements overlap
    root = lib.unsafe_split_with_sizes(lib.arange(5.0).expand(2, 5), [3, 2], 1)[1]
    w = lib.tensor([1.0, 2.0], requires_grad=True)
    root[0].mul_(w)  # the row itself does not overlap: the write goes through
    try:
        root.sum().backward()
    except RuntimeError as error:
        return str(error)
    return None


def test_backward_refuses_a_root_whose_elements_overlap():
    # the root's gradient is laid out with the root's strides, and torch's copy into that
    # layout refuses the overlapping write
    message = _write_through_a_row_of_an_expanded_root(numtorch)
    assert message is not None and "more than one element of the written-to" in message
    torch = pytest.importorskip("torch")
    assert _write_through_a_row_of_an_expanded_root(torch) == message


def test_empty_strided_with_overlapping_elements_refuses_writes():
    for lib in (numtorch, pytest.importorskip("torch")):
        target = lib.empty_strided((2, 3), (0, 1))
        with pytest.raises(RuntimeError, match="more than one element of the written-to"):
            target.copy_(lib.ones(2, 3))
        lib.empty_strided((1, 3), (0, 1)).copy_(lib.ones(1, 3))  # a size-1 dim: no overlap


def _view_of_real_view_restrided(lib, case):
    a = lib.tensor(np.arange(1.0, 19.0).reshape(3, 3, 2) / 7, requires_grad=True)
    real = lib.view_as_real(lib.view_as_complex(a * 1))
    if case == "squeeze_":  # (1, 2, 3) squeezed: the view function's shape does not broadcast
        view = real.diagonal().unsqueeze(0)
        view.squeeze_()
    elif case == "unsqueeze_":  # (2, 3) unsqueezed: summed back to the view function's shape
        view = real.diagonal()[:]
        view.unsqueeze_(0)
    else:  # a square transpose: the view function's geometry reads the gradient untransposed
        view = real[0][:2]
        view.t_()
    real.mul_(2)  # the view is stale: its grad_fn is made from the view function
    weights = lib.tensor(np.arange(view.numel(), dtype=float).reshape(tuple(view.shape)) + 1)
    try:
        ((view * weights).sum() + real.sum()).backward()
    except RuntimeError:
        return "raised"
    return a.grad.numpy().tolist()


@pytest.mark.parametrize("case", ["squeeze_", "unsqueeze_", "t_"])
def test_inplace_view_op_after_view_as_real_is_not_in_the_view_function(case):
    # torch's view function replays the view as it was before squeeze_/unsqueeze_/t_
    found = _view_of_real_view_restrided(numtorch, case)
    assert (found == "raised") == (case == "squeeze_")
    torch = pytest.importorskip("torch")
    assert found == _view_of_real_view_restrided(torch, case)


def _write_through_an_empty_root(lib):
    w = lib.empty_strided((4, 0, 3), (0, 3, 1)).requires_grad_()
    root = lib.unsafe_split_with_sizes(w, [4], 0)[0]  # no view: a root with stride 0, empty
    assert root._base is None and root.stride()[0] == 0
    root.unsqueeze(0).exp_()
    root.sum().backward()
    return list(w.grad.shape)


def test_an_empty_root_is_no_overlapping_write():
    assert _write_through_an_empty_root(numtorch) == [4, 0, 3]
    torch = pytest.importorskip("torch")
    assert _write_through_an_empty_root(torch) == [4, 0, 3]


def _restrided_root_then_squeezed_view(lib):
    x = lib.tensor(np.arange(12.0).reshape(3, 4) / 5, requires_grad=True)
    root = (x * 1).as_strided_((2, 3), (1, 2), 1)  # no view function: as_strided replays
    view = root.unsqueeze(0)
    view.squeeze_()
    root.t().log1p_()
    weights = lib.tensor(np.arange(6.0).reshape(2, 3) + 1)
    ((view * weights).sum() + root.sum()).backward()
    return x.grad.numpy().tolist()


def test_inplace_view_op_on_a_view_without_view_function_keeps_its_geometry():
    found = _restrided_root_then_squeezed_view(numtorch)
    torch = pytest.importorskip("torch")
    np.testing.assert_allclose(found, _restrided_root_then_squeezed_view(torch), rtol=1e-12)
