"""F.multilabel_margin_loss / nn.MultiLabelMarginLoss against torch: values, gradients,
grad_fn, the refused double backward and errors."""

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

TARGET = [[3, 0, -1, 1], [1, 1, 2, -1], [-1, 2, 0, 0]]


def _run(lib, reduction, dtype="float64"):
    x = lib.tensor(np.linspace(-1.3, 2.1, 12).reshape(3, 4), dtype=getattr(lib, dtype))
    x.requires_grad_()
    loss = lib.nn.functional.multilabel_margin_loss(x, lib.tensor(TARGET), reduction=reduction)
    (grad,) = lib.autograd.grad(loss.sum(), x)
    return loss, grad


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_values_gradients_and_node(reduction, dtype):
    ours, theirs = _run(numtorch, reduction, dtype), _run(torch, reduction, dtype)
    assert ours[0].grad_fn.name() == theirs[0].grad_fn.name() == "MultilabelMarginLossBackward0"
    assert str(ours[0].dtype) == str(theirs[0].dtype)
    np.testing.assert_allclose(ours[0].detach().numpy(), theirs[0].detach().numpy(), rtol=1e-6)
    np.testing.assert_allclose(ours[1].numpy(), theirs[1].numpy(), rtol=1e-6)


def test_module_and_unbatched_input():
    for lib in (numtorch, torch):
        x = lib.tensor([0.2, -0.4, 1.5, 0.3])
        loss = lib.nn.MultiLabelMarginLoss(reduction="sum")(x, lib.tensor([2, 0, -1, 3]))
        # pairs (2, 1), (2, 3), (0, 1), (0, 3): the hinge of each, over 4 classes
        expected = (max(0, 1 - 1.5 - 0.4) + max(0, 1 - 1.5 + 0.3)) + (1 - 0.2 - 0.4 + 1 - 0.2 + 0.3)
        assert loss.shape == ()
        np.testing.assert_allclose(float(loss), expected / 4, rtol=1e-6)


def test_double_backward_is_refused_as_in_torch():
    for lib in (numtorch, torch):
        x = lib.tensor([[0.1, 0.9, -0.3]], dtype=lib.float64, requires_grad=True)
        loss = lib.nn.functional.multilabel_margin_loss(x, lib.tensor([[1, -1, 0]]))
        (g,) = lib.autograd.grad(loss, x, create_graph=True)
        with pytest.raises(RuntimeError, match="multilabel_margin_loss_backward"):
            g.sum().backward()


@pytest.mark.parametrize("case", ["float_target", "short_target", "out_of_range", "3d"])
def test_errors_match_torch(case):
    messages = []
    for lib in (numtorch, torch):
        x = lib.zeros(2, 4)
        y = lib.zeros(2, 4, dtype=lib.int64)
        args = {
            "float_target": (x, y.float()),
            "short_target": (x, y[:, :3]),
            "out_of_range": (x, y + 4),
            "3d": (x.reshape(2, 2, 2), y.reshape(2, 2, 2)),
        }[case]
        with pytest.raises(RuntimeError) as info:
            lib.nn.functional.multilabel_margin_loss(*args)
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_integer_input_is_not_implemented_as_in_torch():
    for lib in (numtorch, torch):
        with pytest.raises(NotImplementedError):
            lib.nn.functional.multilabel_margin_loss(
                lib.zeros(2, 4, dtype=lib.int32), lib.zeros(2, 4, dtype=lib.int64)
            )
