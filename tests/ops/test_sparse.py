"""Sparse COO tensors against torch: construction, printing, coalescing, products with dense
tensors and their gradients, sums, and the errors of unsupported ops."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import numtorch

INDICES = [[0, 1, 1, 0, 2], [2, 0, 2, 2, 1]]  # (0, 2) twice: an uncoalesced tensor
VALUES = [3.0, 4.0, 5.0, 1.0, -2.0]


def _sparse(lib, **kwargs):
    return lib.sparse_coo_tensor(lib.tensor(INDICES), lib.tensor(VALUES), (3, 3), **kwargs)


def _both(fn):
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's note that sparse invariant checks are off
        return fn(numtorch), fn(torch)


# printed forms: repr covers indices, values, size, nnz, dtype, layout and grad suffixes
REPRS = {
    "plain": lambda lib: _sparse(lib),
    "coalesced": lambda lib: _sparse(lib).coalesce(),
    "float64": lambda lib: _sparse(lib, dtype=lib.float64),
    "int_values": lambda lib: lib.sparse_coo_tensor([[0, 1], [1, 0]], [1, 2], (2, 2)),
    "inferred_size": lambda lib: lib.sparse_coo_tensor(lib.tensor(INDICES), lib.tensor(VALUES)),
    "hybrid": lambda lib: lib.sparse_coo_tensor(
        lib.tensor([[0, 2]]), lib.tensor([[1.0, 2.0], [3.0, 4.0]]), (3, 2)
    ),
    "empty": lambda lib: lib.zeros(2, 3).to_sparse(),
    "requires_grad": lambda lib: _sparse(lib, requires_grad=True),
    "to_sparse": lambda lib: lib.tensor([[1.0, 0.0, 2.0], [0.0, 0.0, 3.0]]).to_sparse(),
    "transposed": lambda lib: _sparse(lib).t(),
    "scaled": lambda lib: _sparse(lib) * 2,
    "neg": lambda lib: -_sparse(lib),
    "abs": lambda lib: _sparse(lib).abs(),
    "sum_dim": lambda lib: lib.sparse.sum(_sparse(lib), 1),
    "sum_all": lambda lib: lib.sparse.sum(_sparse(lib)),
    "sparse_add": lambda lib: _sparse(lib) + lib.eye(3).to_sparse(),
    "dense_add": lambda lib: lib.eye(3) + _sparse(lib),
    "to_dense": lambda lib: _sparse(lib).to_dense(),
    "sparse_sparse_mm": lambda lib: lib.sparse.mm(_sparse(lib), lib.eye(3).to_sparse()),
    "values_grad_fn": lambda lib: lib.sparse_coo_tensor(
        lib.tensor(INDICES), lib.tensor(VALUES, requires_grad=True), (3, 3)
    ),
}


@pytest.mark.parametrize("name", sorted(REPRS))
def test_repr_matches_torch(name):
    ours, theirs = _both(REPRS[name])
    assert repr(ours) == repr(theirs)


PROPERTIES = {
    "is_sparse": lambda lib, s: (s.is_sparse, lib.ones(2).is_sparse),
    "layout": lambda lib, s: (str(s.layout), str(lib.ones(2).layout), str(lib.sparse_coo)),
    "shape": lambda lib, s: (tuple(s.shape), s.size(1), s.dim(), s.ndim, s.numel(), len(s)),
    "dims": lambda lib, s: (s.sparse_dim(), s.dense_dim(), s._nnz()),
    "coalesced": lambda lib, s: (s.is_coalesced(), s.coalesce().is_coalesced()),
    "dtype": lambda lib, s: (str(s.dtype), str(s.double().dtype), str(s.to(lib.float64).dtype)),
    "indices": lambda lib, s: s.coalesce().indices().tolist(),
    "raw_indices": lambda lib, s: s._indices().tolist(),
    "values": lambda lib, s: s.coalesce().values().tolist(),
    "raw_values": lambda lib, s: s._values().tolist(),
    "grad_flags": lambda lib, s: (s.requires_grad, s.is_leaf, s.grad_fn is None),
    "isinstance": lambda lib, s: isinstance(s, lib.Tensor),
}


@pytest.mark.parametrize("name", sorted(PROPERTIES))
def test_properties_match_torch(name):
    ours, theirs = _both(lambda lib: PROPERTIES[name](lib, _sparse(lib)))
    assert ours == theirs


# (sparse @ dense) programs: the gradients of the dense operand and of the values
PRODUCTS = {
    "matmul": lambda lib, s, d: s @ d,
    "mm": lambda lib, s, d: lib.mm(s, d),
    "spmm": lambda lib, s, d: lib.spmm(s, d),
    "sparse.mm": lambda lib, s, d: lib.sparse.mm(s, d),
    "mv": lambda lib, s, d: lib.mv(s, d[:, 0]),
    "matmul_vector": lambda lib, s, d: s @ d[:, 1],
    "dense_matmul_sparse": lambda lib, s, d: d.t() @ s,
    "coalesced_then_mm": lambda lib, s, d: s.coalesce() @ d,
    "transposed": lambda lib, s, d: s.t() @ d,
    "to_dense": lambda lib, s, d: s.to_dense() * d[:, :1],
    "sum": lambda lib, s, d: lib.sparse.sum(s) * d,
    "sum_dim": lambda lib, s, d: lib.sparse.sum(s, 0).to_dense() * d[:, 0],
    "scaled": lambda lib, s, d: (s * 3.0 / 2.0) @ d,
    "added": lambda lib, s, d: (s + s.t()) @ d,
    "values": lambda lib, s, d: s.coalesce().values() * 2,
}


@pytest.mark.parametrize("dtype_name", ["float64", "float32"])
@pytest.mark.parametrize("name", sorted(PRODUCTS))
def test_products_and_gradients_match_torch(name, dtype_name):
    dense = np.random.default_rng(3).standard_normal((3, 2))

    def run(lib):
        dtype = getattr(lib, dtype_name)
        values = lib.tensor(VALUES, dtype=dtype, requires_grad=True)
        d = lib.tensor(dense, dtype=dtype, requires_grad=True)
        s = lib.sparse_coo_tensor(lib.tensor(INDICES), values, (3, 3))
        out = PRODUCTS[name](lib, s, d)
        out.sum().backward() if out.is_sparse else (out * out).sum().backward()
        result = out.to_dense() if out.is_sparse else out
        return result, type(out.grad_fn).__name__, values.grad, d.grad

    ours, theirs = _both(run)
    tol = dict(rtol=1e-12) if dtype_name == "float64" else dict(rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours[0].detach().numpy(), theirs[0].detach().numpy(), **tol)
    assert ours[1] == theirs[1]
    for a, b in zip(ours[2:], theirs[2:]):
        assert (a is None) == (b is None)
        if b is not None:
            np.testing.assert_allclose(a.numpy(), b.numpy(), **tol)


def test_sparse_leaf_gets_a_sparse_gradient_from_sparse_mm():
    def run(lib):
        s = _sparse(lib).requires_grad_()
        w = lib.tensor(np.arange(6.0).reshape(3, 2) / 4, dtype=lib.float32, requires_grad=True)
        lib.sparse.mm(s, w).pow(2).sum().backward()
        return s.grad, w.grad

    (our_s, our_w), (their_s, their_w) = _both(run)
    assert repr(our_s) == repr(their_s)
    np.testing.assert_allclose(our_w.numpy(), their_w.numpy())


def test_graph_convolution_layer_matches_torch():
    # a normalized adjacency D^-1/2 (A + I) D^-1/2 built as the graph examples do
    edges = np.array([[0, 1], [1, 2], [2, 3], [3, 0], [0, 2]], dtype=np.int32)

    def run(lib):
        lib.manual_seed(0)
        adj = lib.sparse_coo_tensor(edges.T, lib.ones(5), (4, 4), dtype=lib.int64)
        adj = lib.eye(4) + adj
        degree = lib.diag(lib.sqrt(1 / lib.sum(adj, dim=1))).to_sparse()
        norm = (degree @ adj @ degree).to_sparse()
        features = lib.tensor(np.eye(4)[:, :3], dtype=lib.float32).to_sparse()
        weight = lib.tensor(np.linspace(-1, 1, 6).reshape(3, 2), dtype=lib.float32)
        weight.requires_grad_()
        out = lib.spmm(norm, lib.mm(features, weight))
        out.log_softmax(1)[:, 0].sum().backward()
        return out, weight.grad

    ours, theirs = _both(run)
    np.testing.assert_allclose(ours[0].detach().numpy(), theirs[0].detach().numpy(), rtol=1e-6)
    np.testing.assert_allclose(ours[1].numpy(), theirs[1].numpy(), rtol=1e-5)


ERRORS = {
    "indices_uncoalesced": lambda lib: _sparse(lib).indices(),
    "values_uncoalesced": lambda lib: _sparse(lib).values(),
    "nnz_mismatch": lambda lib: lib.sparse_coo_tensor(lib.tensor(INDICES), lib.ones(3), (3, 3)),
    "one_dim_indices": lambda lib: lib.sparse_coo_tensor(lib.tensor([0, 1]), lib.ones(2), (2, 2)),
    "sparse_plus_dense": lambda lib: _sparse(lib) + lib.ones(3, 3),
    "sizes_differ": lambda lib: _sparse(lib) + lib.ones(2, 3).to_sparse(),
    "product_shape": lambda lib: _sparse(lib) @ lib.ones(4, 2),
    "numpy": lambda lib: _sparse(lib).numpy(),
    "exp": lambda lib: _sparse(lib).exp(),
    "view": lambda lib: _sparse(lib).view(9),
    "mean": lambda lib: _sparse(lib).mean(),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_match_torch(name):
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(Exception) as theirs:
            ERRORS[name](torch)
    with pytest.raises(type(theirs.value)) as ours:
        ERRORS[name](numtorch)
    if isinstance(ours.value, NotImplementedError):
        assert "'SparseCPU' backend" in str(ours.value)


def test_unsupported_op_names_the_op():
    with pytest.raises(NotImplementedError, match=r"Could not run 'aten::exp'.*'SparseCPU'"):
        _sparse(numtorch).exp()
    with pytest.raises(NotImplementedError, match=r"'aten::mean'"):
        _sparse(numtorch).mean()


def test_no_scipy_needed():
    import sys

    assert "scipy" not in sys.modules or "numtorch.ops.sparse" in sys.modules
    s = _sparse(numtorch)
    np.testing.assert_array_equal(
        s.to_dense().numpy(), [[0.0, 0.0, 4.0], [4.0, 0.0, 5.0], [0.0, -2.0, 0.0]]
    )


def test_cat_and_index_select_gradients_reach_the_values():
    # torch has no backward through sparse cat/index_select; numtorch's values carry one,
    # checked against finite differences
    rows, cols = [0, 1, 1, 0], [2, 0, 2, 2]

    def f(v):
        s = numtorch.sparse_coo_tensor(numtorch.tensor([rows, cols]), v, (2, 3))
        stacked = numtorch.cat([s, s.coalesce() * 2], 1)
        picked = numtorch.index_select(stacked, 1, numtorch.tensor([5, 0, 5, 2]))
        return picked.to_dense() ** 2

    v = numtorch.tensor([3.0, 4.0, 5.0, 1.0], dtype=numtorch.float64, requires_grad=True)
    assert numtorch.autograd.gradcheck(f, (v,))
    # as torch, the values' gradient is read off the sparse gradient without a graph
    (grad,) = numtorch.autograd.grad(f(v).sum(), v, create_graph=True)
    assert not grad.requires_grad


def _values_gradient(lib, product):
    # a gradient that depends on a dense operand requiring grad: still none for the values
    rows, cols = [0, 1, 2, 0], [1, 3, 0, 1]
    values = lib.tensor([1.0, 2.0, 3.0, 4.0], dtype=lib.float64, requires_grad=True)
    sparse = lib.sparse_coo_tensor(lib.tensor([rows, cols]), values, (3, 4))
    dense = lib.ones(4, 2, dtype=lib.float64, requires_grad=True)
    out = {"mm": lambda: lib.sparse.mm(sparse, dense), "mv": lambda: lib.mv(sparse, dense[:, 0])}
    result = out[product]()
    grads = lib.autograd.grad((result * result).sum(), (values, dense), create_graph=True)
    return [(g.requires_grad, g.detach().numpy().tolist()) for g in grads]


@pytest.mark.parametrize("product", ["mm", "mv"])
def test_values_gradient_is_not_differentiable_again(product):
    ours = _values_gradient(numtorch, product)
    assert ours[0][0] is False and ours[1][0] is True
    torch = pytest.importorskip("torch")
    assert ours == _values_gradient(torch, product)


def test_cat_and_index_select_along_a_dense_dim_have_gradients():
    def f(v):
        s = numtorch.sparse_coo_tensor(numtorch.tensor([[0, 2]]), v, (3, 3))
        joined = numtorch.cat([s, s * 2], 1)
        picked = joined.index_select(1, numtorch.tensor([4, 0, 4]))
        return numtorch.sparse.sum(picked, dim=1).to_dense() ** 2

    v = numtorch.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], dtype=numtorch.float64)
    v.requires_grad_()
    assert numtorch.autograd.gradcheck(f, (v,))  # not twice: the values' gradient has no graph
    ours = f(v)
    torch = pytest.importorskip("torch")
    t = torch.tensor(v.detach().numpy(), requires_grad=True)
    s = torch.sparse_coo_tensor(torch.tensor([[0, 2]]), t, (3, 3))
    picked = torch.cat([s, s * 2], 1).index_select(1, torch.tensor([4, 0, 4]))
    theirs = torch.sparse.sum(picked, dim=1).to_dense() ** 2
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy())


def _dense_sparse_strides(lib):
    sparse = lib.sparse_coo_tensor(lib.tensor([[0, 1, 2], [1, 3, 0]]), lib.ones(3), (3, 4))
    return lib.mm(lib.ones(2, 3), sparse).stride()


def test_dense_times_sparse_is_column_major_as_torch_computes_it_transposed():
    strides = _dense_sparse_strides(numtorch)
    assert strides == (1, 2)
    torch = pytest.importorskip("torch")
    assert strides == _dense_sparse_strides(torch)


@pytest.mark.parametrize("layout", ["to_sparse", "to_sparse_csr"])
def test_sparse_tensors_answer_device_questions(layout):
    # a sparse tensor lives where its values do (it has no dense array to ask)
    torch = pytest.importorskip("torch")
    answers = []
    for lib in (numtorch, torch):
        s = getattr(lib.eye(3), layout)()
        answers.append((str(s.device), s.is_cpu, s.is_meta, s.is_cuda, s.get_device()))
    assert answers[0] == answers[1]


CONVERSIONS = [
    "x.to_sparse()",
    "x.to_sparse(1)",
    "x.to_sparse(sparse_dim=2)",
    "x.to_sparse(layout=lib.sparse_csr)",
    "x.to_sparse_csr()",
    "x.to_sparse_csc()",
    "x.to_sparse_bsr((1, 1))",
    "x.to_sparse_bsc((2, 1))",
    "x.to_sparse().to_sparse_csr()",
    "x.to_sparse_csr().to_sparse_csc()",
    "x.to_sparse_csr().to_sparse()",
    "x.to_sparse_csc().to_sparse()",
    "x.to_sparse_csr().to_dense()",
    "lib.sparse_csr_tensor(lib.tensor([0, 1, 2]), lib.tensor([0, 1]), x[0, :2], (2, 2))",
    "lib.sparse_csc_tensor(lib.tensor([0, 1, 2]), lib.tensor([1, 0]), x[0, :2], (2, 2))",
]


def _chain(lib, expr):
    """The node names from the result down to the leaf, and the leaf's gradient."""
    x = lib.tensor([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = eval(expr, {"lib": lib, "x": x})
    names, node = [], out.grad_fn
    while node is not None and node.next_functions:
        names.append(type(node).__name__)
        node = node.next_functions[0][0]
    dense = out.to_dense() if out.layout != lib.strided else out
    dense.sum().backward()
    return names, x.grad.tolist()


@pytest.mark.parametrize("expr", CONVERSIONS)
def test_conversions_record_torchs_nodes(expr):
    torch = pytest.importorskip("torch")
    ours, theirs = _chain(numtorch, expr), _chain(torch, expr)
    # numtorch keeps a compressed tensor's elements row-major: a CSC tensor's values are
    # gathered in that order under torch's node, one node more on the way down
    if "csc_tensor" in expr:
        ours = (ours[0][:1] + ours[0][2:], ours[1])
    assert ours == theirs
