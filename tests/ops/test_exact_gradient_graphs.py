"""The nodes of gradients taken with ``create_graph=True``, as a random-program fuzzer compared
them with torch's: a derivative formula's last op names the gradient's ``grad_fn``. Checked
against torch where it is installed, and against the expected names where it is not."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

X = np.array([0.3, 0.6, -0.2, 0.6, float("nan")])


def _gradient(lib, program):
    x = lib.tensor(X, requires_grad=True)
    (grad,) = lib.autograd.grad(program(lib, x), x, create_graph=True)
    (second,) = lib.autograd.grad(grad.sum(), x, allow_unused=True)
    edges = tuple(None if f is None else type(f).__name__ for f, _ in grad.grad_fn.next_functions)
    values = (grad.detach().numpy().copy(), None if second is None else second.numpy().copy())
    return type(grad.grad_fn).__name__, edges, values


PROGRAMS = {
    # a formula ending in a product with a number: torch's mul.Scalar (MulBackward1)
    "exp2": (lambda lib, x: lib.exp2(x).pow(2).sum(), "MulBackward1"),
    "deg2rad": (lambda lib, x: (lib.deg2rad(x) * x).sum(), "AddBackward0"),
    # erfc's formula is a product, as erf's
    "erfc": (lambda lib, x: lib.erfc(x).pow(2).sum(), "MulBackward0"),
    "erf": (lambda lib, x: (lib.erf(x) * x).sum(), "AddBackward0"),
    # max()/min()/median() fill zeros where the input equals the result (masked_fill_)
    "median": (lambda lib, x: lib.median(x).exp(), "MaskedFillBackward1"),
    "max_nan": (lambda lib, x: lib.max(x).exp(), "MaskedFillBackward1"),
    "min": (lambda lib, x: lib.min(x).pow(3), "MaskedFillBackward1"),
    # cat's gradient narrows the gradient for each input
    "cat": (lambda lib, x: lib.cat([x, x[1:] * 2]).pow(2).sum(), "AddBackward0"),
    # stack's gradient selects each input's slice
    "stack": (lambda lib, x: lib.stack([x[1], x[0] * 2, x[1]]).pow(2).sum(), "AddBackward0"),
    # the mean of var_mean and std_mean divides by the count as a Scalar, as mean's does
    "var_mean": (lambda lib, x: lib.var_mean(x)[1].pow(2), "DivBackward1"),
    "std_mean": (lambda lib, x: lib.std_mean(x, dim=0)[1].pow(2), "DivBackward1"),
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_create_graph_gradient_nodes(name):
    program, node = PROGRAMS[name]
    ours = _gradient(numtorch, program)
    assert ours[0] == node
    torch = pytest.importorskip("torch")
    theirs = _gradient(torch, program)
    assert ours[:2] == theirs[:2]
    for a, b in zip(ours[2], theirs[2]):
        np.testing.assert_allclose(a, b, rtol=1e-12, equal_nan=True)


def test_deg2rad_gradient_is_a_number_product():
    x = numtorch.tensor(X, requires_grad=True)
    (grad,) = numtorch.autograd.grad(numtorch.deg2rad(x).pow(2).sum(), x, create_graph=True)
    assert type(grad.grad_fn).__name__ == "MulBackward1"


def test_stack_gradient_selects():
    x = numtorch.tensor([[1.5, 2.0]], requires_grad=True)
    y = numtorch.stack([x, x * 2], 1)
    (grad,) = numtorch.autograd.grad((y * y).sum(), x, create_graph=True)
    names = [type(f).__name__ for f, _ in grad.grad_fn.next_functions]
    assert names[0] == "SelectBackward0"


def test_cat_gradient_narrows():
    x = numtorch.tensor([1.5, 2.0], requires_grad=True)
    y = numtorch.cat([x, x * 2])
    (grad,) = numtorch.autograd.grad((y * y).sum(), x, create_graph=True)
    names = [type(f).__name__ for f, _ in grad.grad_fn.next_functions]
    assert names[0] == "SliceBackward0"


def _empty_gather_gradient(lib, name, shape):
    x = lib.zeros(shape, dtype=lib.float64, requires_grad=True)
    index = lib.zeros(shape, dtype=lib.int64)
    y = lib.take_along_dim(x, index, dim=1) if name == "take_along_dim" else x.gather(1, index)
    (grad,) = lib.autograd.grad((y * y).sum(), x, create_graph=True)
    return grad.requires_grad, tuple(grad.shape)


@pytest.mark.parametrize("shape", [(2, 0), (0, 3)])
@pytest.mark.parametrize("name", ["gather", "take_along_dim"])
def test_a_gather_with_an_empty_index_scatters_its_gradient(name, shape):
    # torch scatters the gradient into zeros even where the index is empty: under
    # create_graph those zeros require grad through the incoming gradient
    ours = _empty_gather_gradient(numtorch, name, shape)
    assert ours == (True, shape)
    torch = pytest.importorskip("torch")
    assert ours == _empty_gather_gradient(torch, name, shape)


@pytest.mark.parametrize("shape", [(1, 3), (), (3, 1), (2, 0), (3,)], ids=str)
def test_cumsum_gradient_passes_a_trivial_scan_through(shape):
    # torch's cumsum_backward returns the gradient itself for at most one element or a dim
    # of size 1 (no flips around a cumsum in the create_graph gradient's history)
    names = []
    for lib in (numtorch, pytest.importorskip("torch")):
        x = lib.ones(shape, dtype=lib.float64, requires_grad=True)
        w = lib.ones(shape, dtype=lib.float64, requires_grad=True)
        (grad,) = lib.autograd.grad(lib.cumsum(x * 2, 0), x, w, create_graph=True)
        names.append([type(f).__name__ for f, _ in grad.grad_fn.next_functions if f])
    assert names[0] == names[1]


@pytest.mark.parametrize(
    ("shape", "dims"), [((1, 4), None), ((2, 1, 3, 1), None), ((2, 1, 3), (0, 1)), ((4,), None)]
)
def test_squeeze_backward_unsqueezes_each_size_one_dim_as_torch(shape, dims):
    # fuzz seed 8600341: torch's unsqueeze_to records an UnsqueezeBackward0 per squeezed dim
    torch = pytest.importorskip("torch")
    chains = []
    for lib in (numtorch, torch):
        x = lib.ones(shape, dtype=lib.float64, requires_grad=True)
        y = x.squeeze() if dims is None else x.squeeze(dims)
        v = lib.ones(y.shape, dtype=lib.float64, requires_grad=True)
        (g,) = lib.autograd.grad(y, x, v, create_graph=True)
        node, names = g.grad_fn, []
        while node is not None:
            names.append(type(node).__name__)
            node = node.next_functions[0][0] if node.next_functions else None
        chains.append(names)
    assert chains[0] == chains[1]
