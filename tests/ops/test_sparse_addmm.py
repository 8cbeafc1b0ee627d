"""torch.sparse.addmm: values, gradients, grad_fn and errors against torch."""

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")


def _operands(lib):
    s = lib.sparse_coo_tensor(
        lib.tensor([[0, 1, 1, 0], [2, 0, 2, 2]]),
        lib.tensor([3.0, 4, 5, 1], dtype=lib.float64),
        (2, 3),
    ).requires_grad_()
    d = lib.tensor(np.arange(6.0).reshape(3, 2) / 7 - 0.3, requires_grad=True)
    m = lib.tensor([[0.5, -1.0], [2.0, 0.25]], dtype=lib.float64, requires_grad=True)
    return s, d, m


@pytest.mark.parametrize("beta, alpha", [(1.0, 1.0), (0.5, 2.0), (0.0, -1.5)])
def test_values_grads_and_node_match_torch(beta, alpha):
    out = {}
    for lib in (numtorch, torch):
        s, d, m = _operands(lib)
        r = lib.sparse.addmm(m, s, d, beta=beta, alpha=alpha)
        r.pow(2).sum().backward()
        out[lib] = (r.detach().numpy(), r.grad_fn.name(), s.grad.to_dense().numpy(), d.grad, m.grad)
    ours, theirs = out[numtorch], out[torch]
    np.testing.assert_allclose(ours[0], theirs[0])
    assert ours[1] == theirs[1] == "SparseAddmmBackward0"
    np.testing.assert_allclose(ours[2], theirs[2])
    np.testing.assert_allclose(ours[3].numpy(), theirs[3].numpy())
    np.testing.assert_allclose(ours[4].numpy(), theirs[4].numpy())


def test_broadcast_input_and_beta_zero_ignores_nan():
    for lib in (numtorch, torch):
        s, d, _ = _operands(lib)
        b = lib.tensor([1.0, -2.0], dtype=lib.float64, requires_grad=True)
        lib.sparse.addmm(b, s, d).sum().backward()
        np.testing.assert_allclose(b.grad.numpy(), [2.0, 2.0])
        nan = lib.full((2, 2), float("nan"), dtype=lib.float64)
        assert not lib.sparse.addmm(nan, s, d, beta=0).isnan().any()


def test_dense_mat1_gives_addmm_values():
    # torch records SparseAddmmBackward0 here too; numtorch records AddmmBackward0
    results = []
    for lib in (numtorch, torch):
        _, d, m = _operands(lib)
        r = lib.sparse.addmm(m, d.t(), d, beta=0.5, alpha=3.0)
        r.sum().backward()
        results.append((r.detach().numpy(), d.grad.numpy()))
    np.testing.assert_allclose(results[0][0], results[1][0])
    np.testing.assert_allclose(results[0][1], results[1][1])


@pytest.mark.parametrize("case", ["dense_mismatch", "wrong_inner", "both_sparse", "dtype"])
def test_errors_are_runtime_errors_as_in_torch(case):
    for lib in (numtorch, torch):
        s, d, m = _operands(lib)
        args = {
            "dense_mismatch": (m, d, d),
            "wrong_inner": (m, s, lib.zeros(4, 2, dtype=lib.float64)),
            "both_sparse": (m, s, d.detach().to_sparse()),
            "dtype": (m, s, d.float()),
        }[case]
        with pytest.raises(RuntimeError):
            lib.sparse.addmm(*args)
