"""torch.nested's strided nested tensors against torch: construction, sizes, printing, the
ops torch runs on them (values, dtypes, grad_fn names), gradients back to the constituents,
and the errors of the ops torch refuses."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")


def _setup(lib):
    a = lib.arange(6.0).reshape(2, 3).requires_grad_()
    b = (lib.arange(3.0).reshape(1, 3) - 1).requires_grad_()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {
            "lib": lib,
            "F": lib.nn.functional,
            "a": a,
            "b": b,
            "nt": lib.nested.as_nested_tensor([a, b]),
            "nl": lib.nested.nested_tensor([a.detach(), b.detach()], requires_grad=True),
            "nc": lib.nested.nested_tensor([lib.ones(2), lib.ones(3)]),
            "ni": lib.nested.nested_tensor([lib.ones(2, 2, dtype=lib.int8), lib.ones(1, 2)]),
            "nb": lib.nested.nested_tensor([lib.ones(2, 2) > 0, lib.ones(1, 2) > 0]),
            "w": lib.arange(15.0).reshape(5, 3) / 10,
            "bias": lib.ones(5),
        }


def _describe(lib, value):
    if isinstance(value, lib.Tensor):
        grad_fn = None if value.grad_fn is None else type(value.grad_fn).__name__
        if value.is_nested:
            parts = [p.detach().numpy() for p in value.detach().unbind()]
            return ("nested", str(value.dtype), grad_fn, value.requires_grad, value.is_leaf, parts)
        return ("tensor", str(value.dtype), grad_fn, value.requires_grad, value.detach().numpy())
    if isinstance(value, tuple):
        return tuple(_describe(lib, v) for v in value)
    if isinstance(value, (lib.dtype, lib.device, lib.layout)):
        return str(value)
    return value


def _run(lib, expr):
    scope = _setup(lib)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return _describe(lib, eval(expr, scope))
    except Exception as e:  # the type is compared
        return ("raised", type(e).__name__)


def _assert_same(ours, theirs):
    if isinstance(theirs, np.ndarray):
        np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-6)
    elif isinstance(theirs, (tuple, list)):
        assert isinstance(ours, (tuple, list)) and len(ours) == len(theirs), (ours, theirs)
        for x, y in zip(ours, theirs):
            _assert_same(x, y)
    else:
        assert ours == theirs


EXPRESSIONS = """
nt
nl
nt.unbind()
nl.unbind()[1]
nt.unbind(1)
nt + 1
nt * nt
nt + nl
nt - 1
nt / 2
2 * nt
-nt
nt + lib.tensor(2.0)
nt + nc
nt + lib.ones(3)
lib.relu(nt)
nt.relu()
F.relu(nt)
nt.sin()
lib.sin(nt)
nt.cos()
nt.tanh()
nt.tanh().to_padded_tensor(0.0).sum().backward()
nt.abs()
(nt + 2).sqrt()
F.gelu(nt)
F.silu(nt)
nt.exp()
nt.sigmoid()
nt ** 2
1 - nt
F.softmax(nt, -1)
F.softmax(nt, 1)
F.softmax(nt, 0)
nt.softmax(-1)
F.log_softmax(nt, -1)
nt.transpose(1, 2)
nt.transpose(0, 1)
nt.transpose(1, 2).is_contiguous()
nt.transpose(1, 2).contiguous().is_contiguous()
nt.transpose(1, 2).to_padded_tensor(0.0)
lib.matmul(nt, nt.transpose(1, 2))
lib.bmm(nt, nt.transpose(1, 2))
nt @ nt.transpose(1, 2)
nt @ lib.ones(3, 5)
lib.matmul(nt, nc)
lib.bmm(nt, lib.ones(3, 2))
F.linear(nt, w, bias)
F.linear(nt, w)
F.linear(nt, lib.ones(5, 4))
nt.sum(-1)
nt.sum()
nt.sum(-1, keepdim=True)
nt.sum(1, keepdim=True)
ni.sum(-1, True)
nb.sum(-1, True)
nt.sum(-1, keepdim=True, dtype=lib.float64)
lib.nested.to_padded_tensor(nt, 0.0)
nt.to_padded_tensor(-1.0, (2, 5, 4))
lib.nested.to_padded_tensor(nt, 0.0, (1, 2, 3))
lib.nested.to_padded_tensor(nt, 0.0, (2, 2))
lib.tensor([1.0]).to_padded_tensor(0.0)
nt.reshape(2, -1, 3)
nt.view(2, -1, 1, 3)
nt.view(-1, 2, 3)
nt.unsqueeze(1)
nt.unsqueeze(0)
nt.unsqueeze(-1)
nt.contiguous() is nt
nt.is_contiguous()
nt.clone()
nt.detach()
nt.to(lib.float64)
nt.double()
nt.to(lib.float32) is nt
nt.numel()
nt.size(0)
nt.size(1)
nt.size(2)
nt.size(-1)
nt.size(3)
nt.size(-4)
nt.size()
nt.shape
nt.dim()
nt.ndim
nt.is_nested
a.is_nested
nt.layout
nt.dtype
nt.device
nt.requires_grad
nt.is_leaf
nl.is_leaf
nl.grad
nt[0]
nt[-1]
nt[2]
nt[1, 0]
nt.select(0, 1)
lib.nested.narrow(nt, 1, 0, 1)
lib.nested.narrow(nt, 0, 1, 1).unbind()
nt.masked_fill(nt > 2, 0)
F.scaled_dot_product_attention(nt.unsqueeze(1), nt.unsqueeze(1), nt.unsqueeze(1))
F.scaled_dot_product_attention(nt.unsqueeze(1), nt.unsqueeze(1), nt.unsqueeze(1), scale=0.3)
F.scaled_dot_product_attention(nt.unsqueeze(1), nt.unsqueeze(1), nt.unsqueeze(1), is_causal=True)
F.scaled_dot_product_attention(nt, nt, nt, attn_mask=lib.ones(2, 2, dtype=lib.bool))
F.scaled_dot_product_attention(nt, lib.ones(2, 3), nt)
F.scaled_dot_product_attention(nt.transpose(1, 2), nt.transpose(1, 2), nt.transpose(1, 2))
nt > 2
nt == 2
nt == nt
lib.where(nt > 2, nt, nt * 0)
lib.where(nt > 2, nt, 0)
nt.max()
nt.mean()
nt.permute(0, 2, 1)
nt.numpy()
nt.detach().numpy()
nt.item()
isinstance(nt, lib.Tensor)
lib.is_tensor(nt)
lib.nested.nested_tensor([[1, 2], [3]])
lib.nested.nested_tensor([[1.0, 2], [3]])
lib.nested.nested_tensor([lib.ones(2), lib.ones(2, 2)])
lib.nested.nested_tensor([lib.ones(2, dtype=lib.int64), lib.ones(2)])
lib.nested.nested_tensor([lib.ones(2), lib.ones(2, dtype=lib.int64)])
lib.nested.nested_tensor([]).dim()
lib.nested.nested_tensor([lib.tensor(1.0)]).dim()
lib.nested.nested_tensor([a, b], dtype=lib.float64)
lib.nested.nested_tensor([a, b])
lib.nested.nested_tensor((a, b))
lib.nested.nested_tensor(lib.ones(3, 4))
lib.nested.as_nested_tensor(lib.arange(24.0).reshape(2, 3, 4))
lib.nested.as_nested_tensor(nt)
lib.nested.as_nested_tensor((a, b))
lib.nested.as_nested_tensor([a, b], dtype=lib.float64)
""".strip().splitlines()


@pytest.mark.parity
@pytest.mark.parametrize("expr", EXPRESSIONS)
def test_nested_expression_matches_torch(expr):
    _assert_same(_run(numtorch, expr), _run(torch, expr))


PRINTED = """
nt
nl
nc
nt * 2
lib.nested.nested_tensor([])
lib.nested.nested_tensor([[1, 2], [3]])
lib.nested.nested_tensor([a.detach()], dtype=lib.float64)
nt.transpose(1, 2)
""".strip().splitlines()


@pytest.mark.parity
@pytest.mark.parametrize("expr", PRINTED)
def test_nested_tensors_print_as_torch_prints_them(expr):
    ours, theirs = (str(eval(expr, _setup(lib))) for lib in (numtorch, torch))
    assert ours == theirs


def _pipeline(lib, a, b, w, bias):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nt = lib.nested.as_nested_tensor([a, b])
    scores = lib.matmul(nt, nt.transpose(1, 2)).softmax(-1)
    hidden = lib.nn.functional.linear(lib.matmul(scores, nt), w, bias).relu() * 2 - 1
    weights = (nt.sin() * nt + nt.cos()).sum(-1, keepdim=True).to_padded_tensor(0.0)
    return hidden.to_padded_tensor(0.0) * weights


@pytest.mark.parity
def test_gradients_flow_back_to_the_constituents_as_in_torch():
    results = []
    for lib in (numtorch, torch):
        gen = np.random.default_rng(0)
        a, b, w, bias = (
            lib.tensor(gen.standard_normal(s), requires_grad=True)
            for s in ((3, 4), (2, 4), (5, 4), (5,))
        )
        out = _pipeline(lib, a, b, w, bias)
        out.pow(2).sum().backward()
        results.append([out, a.grad, b.grad, w.grad, bias.grad])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-10)
    assert type(results[0][0].grad_fn.next_functions[0][0]).__name__ == "ToPaddedTensorBackward0"


def test_leaf_nested_tensor_accumulates_a_nested_grad():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x = numtorch.nested.nested_tensor([numtorch.ones(2), numtorch.ones(3)], requires_grad=True)
    (x * x * 3).to_padded_tensor(0.0).sum().backward()
    assert x.grad.is_nested
    assert [g.tolist() for g in x.grad.unbind()] == [[6.0, 6.0], [6.0, 6.0, 6.0]]


def test_nested_ops_pass_gradcheck_and_gradgradcheck():
    gen = np.random.default_rng(1)
    inputs = tuple(
        numtorch.tensor(gen.standard_normal(s), requires_grad=True)
        for s in ((3, 4), (2, 4), (5, 4), (5,))
    )

    def fn(a, b, w, bias):
        return _pipeline(numtorch, a, b, w, bias)

    assert numtorch.autograd.gradcheck(fn, inputs)
    assert numtorch.autograd.gradgradcheck(fn, inputs)


def test_unbind_and_select_are_differentiable():
    a = numtorch.randn(2, 3, dtype=numtorch.float64, requires_grad=True)
    b = numtorch.randn(4, 3, dtype=numtorch.float64, requires_grad=True)

    def fn(a, b):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            nt = numtorch.nested.as_nested_tensor(
                [a, b]
            ).sin()  # (torch has no nested tanh backward)
        first, second = nt.unbind()
        return first.sum(0) * nt[1].sum(0) + second.mean()

    assert numtorch.autograd.gradcheck(fn, (a, b))
    assert numtorch.autograd.gradgradcheck(fn, (a, b))


def test_construction_warns_as_torch_does():
    with pytest.warns(UserWarning, match="nested tensors is in prototype stage"):
        numtorch.nested.nested_tensor([numtorch.ones(2)])


def test_the_jagged_layout_and_missing_names_say_what_numtorch_lacks():
    with pytest.raises(AttributeError, match=r"torch\.nested\.nested_tensor_from_jagged is not"):
        numtorch.nested.nested_tensor_from_jagged  # noqa: B018
    with pytest.raises(NotImplementedError, match="only the strided layout"):
        numtorch.nested.nested_tensor([numtorch.ones(2)], layout=numtorch.sparse_coo)


def test_dropout_in_training_drops_and_scales_constituent_elements():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = numtorch.ones(4, 5, requires_grad=True)
        nt = numtorch.nested.as_nested_tensor([a, a[:2]])
    dropped = numtorch.nn.functional.dropout(nt, 0.5)
    assert dropped.is_nested and dropped.size(0) == 2
    values = numtorch.cat([p.reshape(-1) for p in dropped.unbind()])
    assert set(values.unique().tolist()) <= {0.0, 2.0} and 0 < values.count_nonzero() < 30
    dropped.to_padded_tensor(0.0).sum().backward()
    assert a.grad is not None and a.grad.shape == (4, 5)
    assert numtorch.nn.functional.dropout(nt, 0.5, training=False) is nt
