"""numtorch.autograd.graph.dump / to_dot: a readable view of a backward graph (beyond torch)."""

import re

import pytest

import numtorch as torch
from numtorch.autograd.graph import dump, to_dot


def _names(text):
    return re.findall(r"^#\d+\s+(\w+)", text, flags=re.M)


def test_each_node_once_with_its_saved_values_and_shared_nodes_referenced():
    x = torch.ones(2, 3, requires_grad=True)
    text = dump((x.exp() * x).sum())
    assert _names(text) == ["SumBackward0", "MulBackward0", "ExpBackward0", "AccumulateGrad"]
    assert "saved result: float32[2, 3]" in text
    assert "variable: float32[2, 3]; no .grad yet" in text
    assert text.splitlines()[-1].strip() == "-> #3 AccumulateGrad"


def test_reports_in_place_modification_without_raising_and_backward_still_checks():
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    z = y.sin()
    y.mul_(3)
    assert "MODIFIED IN PLACE (version 1, saved at 0)" in dump(z)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        z.sum().backward()


def test_reports_freed_values_hooks_and_accumulated_grads():
    x = torch.ones(2, requires_grad=True)
    loss = torch.nn.Linear(2, 3)(x).relu().sum()
    loss.register_hook(lambda g: g)
    loss.grad_fn.register_prehook(lambda g: g)
    before = dump(loss)
    assert "tensor hooks: 1" in before and "pre-hooks: 1" in before
    assert "freed" not in before
    loss.backward()
    after = dump(loss)
    assert after.count("saved values freed") == 2  # ReluBackward0 and AddmmBackward0
    assert "has .grad" in after and "no .grad yet" not in after


def test_custom_function_and_packed_saved_tensors():
    class Double(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * 2

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    x = torch.ones(4, requires_grad=True)
    assert "DoubleBackward  [saved saved_tensors[0]: float32[4]]" in dump(Double.apply(x))
    with torch.autograd.graph.save_on_cpu():
        y = x.exp()
    assert "packed by a hook" in dump(y)
    y.sum().backward()  # dumping unpacked nothing: backward runs as usual
    assert torch.allclose(x.grad, x.exp())


def test_several_outputs_leaves_and_tensors_without_graph():
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    assert _names(dump([y, x])) == ["MulBackward0", "AccumulateGrad"]
    assert _names(dump(y.grad_fn)) == ["MulBackward0", "AccumulateGrad"]
    with pytest.raises(ValueError, match="does not require grad"):
        dump(torch.ones(2))


def test_deep_graphs_do_not_recurse():
    x = torch.ones(1, requires_grad=True)
    y = x
    for _ in range(5000):
        y = y + 1
    lines = dump(y).splitlines()
    assert len(lines) == 5001 and "(depth 5000) AccumulateGrad" in lines[-1]


def test_to_dot_has_one_box_per_node_and_one_edge_per_input():
    x = torch.ones(2, requires_grad=True)
    w = torch.ones(2, requires_grad=True)
    dot = to_dot((x * w + x).sum())
    assert dot.startswith("digraph backward {") and dot.endswith("}")
    # Sum, Add, Mul, and the two AccumulateGrads; Add and Mul both use x's AccumulateGrad
    assert len(re.findall(r"^  n\d+ \[label=", dot, flags=re.M)) == 5
    assert len(re.findall(r"^  n\d+ -> n\d+;", dot, flags=re.M)) == 5
    assert dot.count('fillcolor="lightblue"') == 2
