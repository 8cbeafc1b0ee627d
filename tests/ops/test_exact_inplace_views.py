"""In-place ops through views, as torch records them: the views of a tensor that starts
requiring grad follow it, and what each in-place op saves decides which later writes its
backward refuses. Each case runs under numtorch and, where installed, under torch."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

VIEWS = {
    "view": lambda b: b.view(-1),
    "select": lambda b: b[1],
    "slice": lambda b: b[:, 1:],
    "transpose": lambda b: b.t(),
    "expand": lambda b: b.expand(2, 2, 3),
    "diagonal": lambda b: b.diagonal(),
}


def _sibling_view_after_inplace(lib, make_view, through_view):
    base = lib.zeros(2, 3, dtype=lib.float64)
    view = make_view(base)
    w = lib.tensor([1.0, 2.0, 3.0], dtype=lib.float64, requires_grad=True)
    if through_view:
        base[1].add_(w)  # the base starts requiring grad through another view
    else:
        base.add_(w)
    seen = (view.requires_grad, view.is_leaf)
    (view * 2).sum().backward()
    return seen, w.grad.numpy().copy()


@pytest.mark.parametrize("through_view", [True, False])
@pytest.mark.parametrize("name", sorted(VIEWS))
def test_a_view_made_earlier_requires_grad_once_its_base_does(name, through_view):
    seen, grad = _sibling_view_after_inplace(numtorch, VIEWS[name], through_view)
    assert seen == (True, False)
    assert grad.any()
    torch = pytest.importorskip("torch")
    torch_seen, torch_grad = _sibling_view_after_inplace(torch, VIEWS[name], through_view)
    assert seen == torch_seen
    np.testing.assert_allclose(grad, torch_grad)


def test_a_view_made_earlier_feeds_ops_that_record():
    base = numtorch.zeros(4, dtype=numtorch.float64)
    flat = base.view(2, 2)
    w = numtorch.ones(1, dtype=numtorch.float64, requires_grad=True)
    base[0:1].mul_(w).add_(w * 3)
    out = flat.exp()
    assert out.requires_grad and type(out.grad_fn).__name__ == "ExpBackward0"
    out.sum().backward()
    assert w.grad.item() == pytest.approx(3 * np.exp(3.0))


def _write_without_overlap(lib, case):
    # each target is read-only in NumPy's eyes (made from a broadcast or strided view) yet
    # no two of its elements share memory: torch writes it
    if case == "diagonal_of_expand":
        x = lib.tensor([0.5, 1.5, 2.5], dtype=lib.float64, requires_grad=True)
        target = (x * 1).expand(2, 3).diagonal()
        target.lgamma_()
    elif case == "meshgrid_diagonal":
        target = lib.meshgrid(lib.arange(3.0), lib.arange(2.0), indexing="ij")[0].diagonal()
        target.sign_()
    else:
        w = lib.tensor(np.linspace(-1, 1, 8).reshape(2, 1, 2, 2), requires_grad=True)
        image = lib.tensor(np.linspace(0, 1, 6).reshape(1, 1, 2, 3))
        target = lib.nn.functional.conv2d(image, w).view(-1)
        target.sub_(lib.ones(4, dtype=lib.float64))
    return target.detach().numpy().copy()


@pytest.mark.parametrize("case", ["diagonal_of_expand", "meshgrid_diagonal", "conv_result"])
def test_in_place_writes_where_no_elements_overlap(case):
    values = _write_without_overlap(numtorch, case)
    torch = pytest.importorskip("torch")
    np.testing.assert_allclose(values, _write_without_overlap(torch, case), rtol=1e-12)


def _triangle_of_expanded_batch(lib, layout):
    if layout == "unit batch":  # a size-1 dim keeps its stride through expand, as in torch
        target = lib.tensor(np.arange(18.0).reshape(1, 2, 3, 3)).unsqueeze(0).expand(2, 1, 2, 3, 3)
        try:
            target.triu_()
        except RuntimeError as error:
            return str(error).split(".")[0]
        return target.numpy().copy()
    base = lib.tensor(np.arange(18.0).reshape(3, 3, 2))
    matrices = base.transpose(0, 1) if layout == "columns" else base
    target = matrices.unsqueeze(0).expand(2, 3, 3, 2)
    try:
        target.triu_()
    except RuntimeError as error:
        return str(error).split(".")[0]
    return target.numpy().copy()


@pytest.mark.parametrize("layout", ["rows", "columns", "unit batch"])
def test_triu_of_an_expanded_batch_follows_torchs_layout_check(layout):
    result = _triangle_of_expanded_batch(numtorch, layout)
    assert isinstance(result, str) == (layout == "columns")
    torch = pytest.importorskip("torch")
    expected = _triangle_of_expanded_batch(torch, layout)
    if isinstance(expected, str):
        assert result.startswith("unsupported operation: more than one element")
    else:
        np.testing.assert_array_equal(result, expected)


@pytest.mark.parametrize(
    "shape, sizes",
    [((1, 2, 4, 4), (2, 1, 2, 4, 4)), ((3, 1), (1, 2, 3, 1)), ((3, 1), (3, 4)), ((2,), (1, 3, 2))],
)
def test_expand_keeps_the_strides_of_dims_it_does_not_grow(shape, sizes):
    torch = pytest.importorskip("torch")
    strides = [lib.zeros(*shape).expand(*sizes).stride() for lib in (numtorch, torch)]
    assert strides[0] == strides[1]


def _view_of_a_transposed_root_after_inplace(lib):
    leaf = lib.tensor(np.arange(6.0).reshape(2, 3), requires_grad=True)
    root = (leaf * 1).t() * 1  # strides (1, 3), its own memory: its transpose is contiguous
    view = root.t()
    view.add_(1)
    flat = view.view(-1)  # the view regenerated through the root replays on its layout
    flat.mul_(2)
    (root * lib.arange(6.0).reshape(3, 2)).sum().backward()
    return type(flat.grad_fn).__name__, leaf.grad.numpy().copy()


def test_a_view_regenerated_after_inplace_replays_on_the_roots_layout():
    torch = pytest.importorskip("torch")
    ours, theirs = (_view_of_a_transposed_root_after_inplace(lib) for lib in (numtorch, torch))
    assert ours[0] == theirs[0]
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-12)


def _changed_after_the_op(lib, case):
    """Run an op, change one of its inputs or outputs in place, then backward: torch
    refuses exactly where its node saved that tensor."""
    f64 = lib.float64
    leaf = lib.tensor(np.linspace(0.5, 2.0, 12).reshape(4, 3), dtype=f64, requires_grad=True)
    x = leaf * 1
    if case == "complex":
        out = lib.view_as_real(lib.complex(x, x * 2))
    elif case == "cummax":
        out = lib.cummax(x, 0).values
    elif case == "cummin":
        out = lib.cummin(x, 1).values
    elif case == "eig":
        out = lib.linalg.eig(x[:3] + lib.eye(3, dtype=f64))[0].real
    elif case == "cholesky_solve":
        out = lib.cholesky_solve(x, lib.eye(4, dtype=f64) * 2)
    elif case == "householder_product":
        out = lib.linalg.householder_product(x, lib.tensor([0.5, 1.2], dtype=f64))
        x = out
    elif case == "ormqr":
        tau = lib.tensor([0.5, 1.2, 0.3], dtype=f64)
        out = lib.ormqr(x, tau, lib.ones(4, 2, dtype=f64))
        x = out
    else:
        src = x[0] * 1
        out = {
            "diagonal_scatter": lambda: lib.diagonal_scatter(x, src[:3]),
            "select_scatter": lambda: lib.select_scatter(x, src, 0, 1),
            "slice_scatter": lambda: lib.slice_scatter(x, src.unsqueeze(0), 0, 1, 2),
        }[case]()
        x = src
    x.mul_(2)
    try:
        out.sum().backward()
    except RuntimeError as error:
        return str(error).split(":")[0]
    return None


SAVED_CASES = ["complex", "cummax", "cummin", "eig", "cholesky_solve", "householder_product"]
SAVED_CASES += ["ormqr", "diagonal_scatter", "select_scatter", "slice_scatter"]


@pytest.mark.parametrize("case", SAVED_CASES)
def test_backward_refuses_an_in_place_change_of_what_torch_saves(case):
    refused = _changed_after_the_op(numtorch, case)
    torch = pytest.importorskip("torch")
    assert refused == _changed_after_the_op(torch, case)


def _nextafter(lib, change_other):
    x = lib.tensor([[1.0, 2.0, 3.0], [4.0, 2.0, 0.0]], dtype=lib.float64, requires_grad=True)
    other = lib.tensor([1.0, 5.0, 3.0], dtype=lib.float64, requires_grad=True)
    moved = other * 1
    out = lib.nextafter(x * 1, moved)
    if change_other:
        moved.mul_(2)  # torch's node keeps other: backward refuses
    try:
        out.sum().backward()
    except RuntimeError as error:
        return str(error).split(":")[0]
    return x.grad.numpy().copy(), other.grad.numpy().copy()


@pytest.mark.parametrize("change_other", [False, True])
def test_nextafter_gradient_is_zero_where_input_equals_other(change_other):
    result = _nextafter(numtorch, change_other)
    if not change_other:
        np.testing.assert_array_equal(result[0], [[0, 1, 0], [1, 1, 1]])
    torch = pytest.importorskip("torch")
    expected = _nextafter(torch, change_other)
    if change_other:
        assert result == expected
    else:
        for ours, theirs in zip(result, expected):
            np.testing.assert_array_equal(ours, theirs)


def _repeat_interleave_then_write(lib, shape, repeats):
    x = lib.zeros(*shape, requires_grad=True)
    y = x.repeat_interleave(repeats)
    base = type(y._base.grad_fn).__name__
    try:
        y[1:].mul_(2)  # a view of torch's contiguous copy, never of the leaf
    except RuntimeError as error:
        return str(error).split("(")[0]
    return base


@pytest.mark.parametrize(("shape", "repeats"), [((2, 3), 1), ((2, 0), 2), ((2, 3), 2)])
def test_repeat_interleave_returns_a_view_of_a_copy(shape, repeats):
    result = _repeat_interleave_then_write(numtorch, shape, repeats)
    assert result == "CloneBackward0"
    torch = pytest.importorskip("torch")
    assert result == _repeat_interleave_then_write(torch, shape, repeats)


def _group_norm_of_expanded(lib, contiguous):
    v = lib.tensor(np.linspace(-1, 1, 4).reshape(4, 1), dtype=lib.float64, requires_grad=True)
    base = v * 2
    x = base.expand(4, 2).contiguous().view(2, 4, 1) if contiguous else base.expand(2, 4, 2)
    y = lib.nn.functional.group_norm(x, 2, lib.ones(4, dtype=lib.float64), None)
    base.transpose(0, -1).sign_()  # changes what an expanded input would share
    try:
        y.sum().backward()
    except RuntimeError as error:
        return str(error).split(":")[0]
    return "ok"


@pytest.mark.parametrize("contiguous", [False, True])
def test_group_norm_keeps_a_contiguous_copy_of_a_strided_input(contiguous):
    result = _group_norm_of_expanded(numtorch, contiguous)
    assert result == "ok"
    torch = pytest.importorskip("torch")
    assert result == _group_norm_of_expanded(torch, contiguous)


def _complex_base_second_order(lib):
    # an in-place op through view_as_real, then a gradient reaching the complex base with
    # other strides: CopySlices copies it into the base's layout (a complex copy) while
    # create_graph records
    x = lib.tensor(np.arange(1.0, 7.0).reshape(2, 3), requires_grad=True)
    z = lib.fft.fft(x)
    lib.view_as_real(z).mul_(lib.tensor([2.0, -1.0], dtype=lib.float64))
    r = lib.view_as_real(z.t().contiguous())
    (g,) = lib.autograd.grad((r * r).sum(), x, create_graph=True)
    (g2,) = lib.autograd.grad((g * g).sum(), x)
    return g.detach().numpy(), g2.numpy()


def test_second_order_through_an_inplace_op_on_a_complex_base():
    torch = pytest.importorskip("torch")
    for ours, theirs in zip(
        _complex_base_second_order(numtorch), _complex_base_second_order(torch)
    ):
        np.testing.assert_allclose(ours, theirs, rtol=1e-12)


THROUGH_COMPLEX = {
    "real_of_complex": lambda lib, x: lib.view_as_real(lib.view_as_complex(x)),
    "row_of_real_of_complex": lambda lib, x: lib.view_as_real(lib.view_as_complex(x))[0],
    "real_part": lambda lib, x: lib.view_as_complex(x).real,
    "transposed_real_of_complex": lambda lib, x: lib.view_as_real(lib.view_as_complex(x)).t(),
    "real_of_transposed_complex": lambda lib, x: lib.view_as_real(lib.view_as_complex(x).t()),
    "complex_of_views": lambda lib, x: lib.view_as_complex(x[:, :2].t().t()),
    "row_of_complex_root": lambda lib, x: lib.view_as_real(lib.complex(x[:, 0], x[:, 1]))[1],
}


def _inplace_through_complex_views(lib, name):
    leaf = lib.arange(6.0, dtype=lib.float64).reshape(3, 2).requires_grad_()
    x = leaf * 1
    if name == "row_of_complex_root":
        root = lib.complex(x[:, 0], x[:, 1])
        view = lib.view_as_real(root)[1]
    else:
        root = x
        view = THROUGH_COMPLEX[name](lib, x)
    view.mul_(2)
    weights = lib.arange(float(view.numel()), dtype=lib.float64).reshape(view.shape)
    ((view.real if view.is_complex() else view) * weights).sum().backward()
    return view.grad_fn.name(), leaf.grad.tolist(), root._version


@pytest.mark.parametrize("name", THROUGH_COMPLEX)
def test_a_view_through_view_as_real_or_complex_after_inplace_as_torch(name):
    # torch replays views up to the last view_as_real/view_as_complex and covers the later
    # ones with one as_strided: the node name and the gradient follow
    torch = pytest.importorskip("torch")
    ours = _inplace_through_complex_views(numtorch, name)
    assert ours == _inplace_through_complex_views(torch, name)


def _setitem_zero_dim_bool(lib, flag, shape):
    leaf = lib.full(shape, 1.5, requires_grad=True)
    x = leaf * 1
    value = lib.tensor(2.0, requires_grad=True)
    x[lib.tensor(flag)] = value
    x.sum().backward()
    names = [node.name() for node, _ in x.grad_fn.next_functions if node is not None]
    return x.grad_fn.name(), names, x.tolist(), leaf.grad.tolist(), value.grad.item()


@pytest.mark.parametrize("flag", [True, False])
@pytest.mark.parametrize("shape", [(), (3,)])
def test_setitem_with_a_zero_dim_bool_key_writes_through_a_view(flag, shape):
    torch = pytest.importorskip("torch")
    ours = _setitem_zero_dim_bool(numtorch, flag, shape)
    assert ours == _setitem_zero_dim_bool(torch, flag, shape)


@pytest.mark.parametrize("method", ["tril_", "triu_", "zero_"])
def test_write_through_an_expanded_view_of_a_fortran_ordered_tensor(method):
    # torch writes through the expanded view whatever the base's memory order
    torch = pytest.importorskip("torch")
    found = []
    for lib in (numtorch, torch):
        x = lib.from_numpy(np.asfortranarray(np.arange(1.0, 7.0).reshape(2, 3)))
        getattr(x.unsqueeze(0).expand(2, 2, 3), method)()
        found.append(x.tolist())
    assert found[0] == found[1]


def _multi_view_outcome(lib, requires_grad, change, use):
    """A multi-output view's refusals, as torch raises them: at the in-place op (before it
    writes) or at every later use of a view whose base changed, worded by whether the view
    had a grad_fn when made ("created in no_grad mode" where its base required no grad)."""
    x = lib.arange(12.0).reshape(4, 3)
    if requires_grad:
        x = x.requires_grad_() * 1
    parts = x.chunk(2)
    w = lib.tensor(2.0, requires_grad=True)
    try:
        if change == "base":
            x.mul_(w)
        elif change == "view":
            parts[0].mul_(w)
        else:
            parts[0].t().mul_(w)
    except RuntimeError as exc:
        return "in-place: " + str(exc), x.tolist()
    seen = []
    for _ in range(2):  # refused at every use, not only the first
        try:
            seen.append(str(use(parts[1]).grad_fn is not None))
        except RuntimeError as exc:
            seen.append(str(exc))
    return seen, x.tolist()


@pytest.mark.parametrize("requires_grad", [False, True])
@pytest.mark.parametrize("change", ["base", "view", "view_of_view"])
@pytest.mark.parametrize("use", ["mul", "expand", "grad_fn"])
def test_multi_output_views_refuse_as_torch(requires_grad, change, use):
    torch = pytest.importorskip("torch")
    uses = {"mul": lambda p: p * 2, "expand": lambda p: p.expand(2, 2, 3), "grad_fn": lambda p: p}
    ours = _multi_view_outcome(numtorch, requires_grad, change, uses[use])
    assert ours == _multi_view_outcome(torch, requires_grad, change, uses[use])


def _moved_root(lib, n, case):
    x = lib.arange(float(n * 3)).reshape(n, 3).requires_grad_()
    a = x * 1
    if case == "flat":
        v = a.view(-1)[1:4]
    else:
        v = a[0]
    if case == "written before":
        v.mul_(2)
    a.t_()
    if case != "written before":
        v.mul_(2)
    (v * lib.tensor([1.0, 10.0, 100.0])).sum().backward()
    return x.grad.tolist()


@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("case", ["written before", "written after", "flat"])
def test_view_of_a_root_transposed_in_place_keeps_its_memory_as_torch(n, case):
    # t_ changes the root's shape and strides, not the view's memory: the view's gradient
    # goes where the view lies (a square root gave a silently transposed gradient)
    torch = pytest.importorskip("torch")
    assert _moved_root(numtorch, n, case) == _moved_root(torch, n, case)


IN_PLACE_VIEW_OPS = {
    "unsqueeze_": lambda v: v.unsqueeze_(0),
    "squeeze_": lambda v: v.squeeze_(),
    "t_": lambda v: v.t_(),
    "transpose_": lambda v: v.transpose_(0, 0),
}


def _in_place_view_op_under_no_grad(lib, change):
    x = lib.arange(12.0, dtype=lib.float64).reshape(3, 4).requires_grad_()
    view = x.clone()[1]
    with lib.no_grad():
        change(view)
    name = type(view.grad_fn).__name__
    (view * lib.arange(4.0, dtype=lib.float64).reshape(view.shape)).sum().backward()
    return name, tuple(view.shape), x.grad.numpy()


@pytest.mark.parametrize("name", sorted(IN_PLACE_VIEW_OPS))
def test_an_in_place_view_op_under_no_grad_leaves_the_view_stale(name):
    # torch records no node under no_grad, and the version it bumped makes the view's next
    # grad_fn an AsStridedBackward0 of its base's history
    ours = _in_place_view_op_under_no_grad(numtorch, IN_PLACE_VIEW_OPS[name])
    assert ours[0] == "AsStridedBackward0"
    torch = pytest.importorskip("torch")
    theirs = _in_place_view_op_under_no_grad(torch, IN_PLACE_VIEW_OPS[name])
    assert ours[:2] == theirs[:2]
    np.testing.assert_array_equal(ours[2], theirs[2])


@pytest.mark.parametrize("mode", ["no_grad", "inference_mode"])
def test_resize_of_a_tensor_requiring_grad_refused_outside_inference_mode(mode):
    for lib in (numtorch, pytest.importorskip("torch")):
        x = lib.zeros(3, requires_grad=True)
        with getattr(lib, mode)():
            if mode == "no_grad":
                with pytest.raises(RuntimeError, match="cannot resize variables that require"):
                    x.resize_(4)
            else:
                assert tuple(x.resize_(4).shape) == (4,)
