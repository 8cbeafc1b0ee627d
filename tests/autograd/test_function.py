"""Custom autograd Functions: ctx features, several outputs, errors, double backward."""

from __future__ import annotations

import gc
import weakref

import pytest

import numtorch as torch
from numtorch.autograd import Function, once_differentiable


class MulAdd(Function):
    """Two outputs, a non-tensor argument, needs_input_grad."""

    @staticmethod
    def forward(ctx, a, b, scale):
        ctx.scale = scale
        ctx.save_for_backward(a, b)
        return a * b * scale, a + b

    @staticmethod
    def backward(ctx, grad_prod, grad_sum):
        a, b = ctx.saved_tensors
        ga = gb = None
        if ctx.needs_input_grad[0]:
            ga = grad_prod * b * ctx.scale + grad_sum
        if ctx.needs_input_grad[1]:
            gb = grad_prod * a * ctx.scale + grad_sum
        return ga, gb, None


def test_several_outputs_and_needs_input_grad():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0])
    prod, total = MulAdd.apply(a, b, 2.0)
    assert prod.grad_fn is total.grad_fn and type(prod.grad_fn).__name__ == "MulAddBackward"
    assert prod.grad_fn.needs_input_grad == (True, False, False)
    assert prod.grad_fn.scale == 2.0  # ctx attributes live on the node
    (prod.sum() + total.sum()).backward()
    assert a.grad.tolist() == [7.0, 9.0] and b.grad is None
    assert len(prod.grad_fn.next_functions) == 2  # one edge per tensor argument


def test_missing_output_grads_are_materialized_as_zeros():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    prod, _ = MulAdd.apply(a, torch.ones(2), 1.0)
    prod.sum().backward()  # grad for the second output is materialized as zeros
    assert a.grad.tolist() == [1.0, 1.0]


class NoMaterialize(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, g1, g2):
        assert g2 is None
        return g1 * 2


def test_set_materialize_grads_false_passes_none():
    x = torch.ones(2, requires_grad=True)
    out, _ = NoMaterialize.apply(x)
    out.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]


class AddOneInPlace(Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad


def test_mark_dirty_rebases_the_input():
    x = torch.ones(2, requires_grad=True)
    y = x * 1
    out = AddOneInPlace.apply(y)
    assert out is y and type(y.grad_fn).__name__ == "AddOneInPlaceBackward"
    assert y._version == 2  # the add_ in forward, and once more for mark_dirty (as torch)
    out.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        AddOneInPlace.apply(torch.ones(2, requires_grad=True))


class SortWithIndices(Function):
    @staticmethod
    def forward(ctx, x):
        values, indices = x.sort()
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(indices)
        return values, indices

    @staticmethod
    def backward(ctx, grad_values, grad_indices):
        (indices,) = ctx.saved_tensors
        return torch.zeros_like(grad_values).scatter(0, indices, grad_values)


def test_mark_non_differentiable():
    x = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
    values, indices = SortWithIndices.apply(x)
    assert values.requires_grad and not indices.requires_grad
    (values * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    assert x.grad.tolist() == [3.0, 1.0, 2.0]


class WrongCount(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 1

    @staticmethod
    def backward(ctx, grad):
        return grad, grad


class WrongShape(Function):
    @staticmethod
    def forward(ctx, x):
        return x.sum()

    @staticmethod
    def backward(ctx, grad):
        return torch.ones(3)


def test_backward_errors_name_the_function():
    x = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="WrongCountBackward returned an incorrect number"):
        WrongCount.apply(x).sum().backward()
    with pytest.raises(RuntimeError, match="WrongShapeBackward returned an invalid gradient"):
        WrongShape.apply(x).backward()


class Cube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x**2


def test_double_backward_through_a_function_with_differentiable_backward():
    x = torch.tensor(2.0, requires_grad=True)
    (g,) = torch.autograd.grad(Cube.apply(x), x, create_graph=True)
    (h,) = torch.autograd.grad(g, x)
    assert (g.item(), h.item()) == (12.0, 12.0)
    for _ in range(3):  # repeated second derivatives are identical
        (g,) = torch.autograd.grad(Cube.apply(x), x, create_graph=True)
        assert torch.autograd.grad(g, x)[0].item() == 12.0
    assert torch.autograd.gradgradcheck(
        Cube.apply, (torch.tensor([1.5], dtype=torch.float64, requires_grad=True),)
    )


class OnceCube(Cube):
    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x**2


def test_once_differentiable_refuses_double_backward():
    x = torch.tensor(2.0, requires_grad=True)
    (g,) = torch.autograd.grad(OnceCube.apply(x), x, create_graph=True)
    assert g.item() == 12.0 and not g.requires_grad  # torch: only grad args are looked at
    v = torch.tensor(1.0, requires_grad=True)
    (g,) = torch.autograd.grad(OnceCube.apply(x), x, grad_outputs=v, create_graph=True)
    assert "grad_fn=<Error>" in repr(g)
    with pytest.raises(RuntimeError, match="marked with @once_differentiable"):
        g.backward()


def test_saved_tensors_after_free_raise_and_versions_are_checked():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = Cube.apply(x)
    y.sum().backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        _ = y.grad_fn.saved_tensors
    z = x * 1
    w = Cube.apply(z)
    z.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        w.sum().backward()


def test_exp_function_saving_its_output_has_no_cycle():
    class Exp(Function):
        @staticmethod
        def forward(ctx, i):
            result = i.exp()
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx, grad_output):
            (result,) = ctx.saved_tensors
            return grad_output * result

    gc.disable()
    try:
        x = torch.ones(3, requires_grad=True)
        y = Exp.apply(x)
        ctx = weakref.ref(y.grad_fn)
        del y
        assert ctx() is None  # freed by reference counting: no output<->ctx cycle
    finally:
        gc.enable()


def test_returning_an_input_gives_a_new_tensor_with_history():
    class Identity(Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    x = torch.ones(2, requires_grad=True)
    y = Identity.apply(x)
    assert y is not x and x.is_leaf and not y.is_leaf
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_setup_context_style():
    class Square(Function):
        @staticmethod
        def forward(x):
            return x * x

        @staticmethod
        def setup_context(ctx, inputs, output):
            (x,) = inputs
            ctx.save_for_backward(x)

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return 2 * x * grad

    x = torch.tensor([3.0], requires_grad=True)
    Square.apply(x).backward()
    assert x.grad.tolist() == [6.0]


def test_no_grad_apply_records_nothing_and_legacy_call_raises():
    x = torch.ones(2, requires_grad=True)
    with torch.no_grad():
        y = Cube.apply(x)
    assert not y.requires_grad and y.grad_fn is None
    with pytest.raises(RuntimeError, match="Legacy autograd function"):
        Cube()(x)


def test_non_tensor_gradient_for_non_tensor_input_is_refused():
    class BadNone(Function):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        def backward(ctx, grad):
            return grad, grad

    x = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="forward input was not a Variable"):
        BadNone.apply(x, 2.0).sum().backward()


def _dirty_leaf_and_instance(lib):
    import warnings

    class Double(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    try:
        Double.apply(lib.ones(2, requires_grad=True))
        message = None
    except RuntimeError as error:
        message = str(error)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        Double()
    return message, [(w.category.__name__, str(w.message).split(">")[1]) for w in caught]


def test_a_dirty_leaf_and_an_instantiated_function_are_reported_as_torch():
    # the leaf's message was the in-place one ("is being used"); instantiating warned nothing
    import numtorch

    oracle = pytest.importorskip("torch")
    assert _dirty_leaf_and_instance(numtorch) == _dirty_leaf_and_instance(oracle)
