"""Linear algebra at the edges of its domain, against torch: matrices that are not
positive-definite, singular or rank-deficient, where torch still returns (and
differentiates) what LAPACK leaves behind."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.parity


def _both(values, dtype="float64"):
    """The same leaf in both libraries."""
    array = np.asarray(values, dtype=dtype)
    ours = numtorch.tensor(array).requires_grad_()
    theirs = torch.tensor(array).requires_grad_()
    return ours, theirs


def _close(ours, theirs, **tolerance):
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), **tolerance)


# A failure at the second pivot leaves the third column as the input's (LAPACK's unblocked
# left-looking factorization stops there); the batch's first matrix factors fully.
_NOT_POSITIVE_DEFINITE = [[4.0, 2.0, 2.0], [2.0, -1.0, 1.0], [2.0, 1.0, 5.0]]


@pytest.mark.parametrize("upper", [False, True])
@pytest.mark.parametrize("batched", [False, True])
def test_cholesky_ex_of_a_matrix_that_is_not_positive_definite(upper, batched):
    a = np.array(_NOT_POSITIVE_DEFINITE)
    if batched:
        a = np.stack([4.0 * np.eye(3), a])
    ours, theirs = _both(a)
    (L, info), (L_t, info_t) = (
        lib.linalg.cholesky_ex(x, upper=upper) for lib, x in ((numtorch, ours), (torch, theirs))
    )
    assert L.requires_grad and type(L.grad_fn).__name__ == type(L_t.grad_fn).__name__
    np.testing.assert_array_equal(info.numpy(), info_t.numpy())
    _close(L, L_t)
    weights = np.arange(L.numel(), dtype=np.float64).reshape(L.shape)
    (L * numtorch.tensor(weights)).sum().backward()
    (L_t * torch.tensor(weights)).sum().backward()
    _close(ours.grad, theirs.grad, rtol=1e-10)


def test_cholesky_of_a_matrix_that_is_not_positive_definite_raises_as_torch():
    a = np.stack([np.eye(3), np.array(_NOT_POSITIVE_DEFINITE)])
    calls = {
        "linalg.cholesky": lambda lib, x: lib.linalg.cholesky(x),
        "linalg.cholesky_ex": lambda lib, x: lib.linalg.cholesky_ex(x, check_errors=True),
    }
    for name, call in calls.items():
        with pytest.raises(RuntimeError) as expected:
            call(torch, torch.tensor(a))
        with pytest.raises(numtorch.linalg.LinAlgError) as got:
            call(numtorch, numtorch.tensor(a))
        assert str(got.value) == str(expected.value), name


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
@pytest.mark.parametrize("nan_at", [(0, 0), (1, 0), (2, 2)])
def test_cholesky_of_a_matrix_with_nan_fails_at_its_pivot_as_torch(dtype, nan_at):
    # LAPACK's pivot test (not ajj > 0) fails on NaN: info names the pivot, cholesky raises
    a = np.array([[4.0, 2.0, 0.0], [2.0, 5.0, 1.0], [0.0, 1.0, 3.0]], dtype=dtype)
    a[nan_at] = a[nan_at[::-1]] = np.nan
    (L, info), (L_t, info_t) = (lib.linalg.cholesky_ex(lib.tensor(a)) for lib in (numtorch, torch))
    assert info.item() == info_t.item()
    np.testing.assert_array_equal(L.numpy(), L_t.numpy())
    with pytest.raises(RuntimeError) as expected:
        torch.linalg.cholesky(torch.tensor(a))
    with pytest.raises(numtorch.linalg.LinAlgError) as got:
        numtorch.linalg.cholesky(numtorch.tensor(a))
    assert str(got.value) == str(expected.value)


# Exactly singular matrices whose LU factors have exact zero pivots on every LAPACK build.
_SINGULAR = [
    [[1.0, 2.0], [1.0, 2.0]],
    [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0]],
    [[0.0, 0.0], [0.0, 0.0]],
    [[[1.0, 2.0], [1.0, 2.0]], [[1.0, 2.0], [3.0, 2.0]]],
]


@pytest.mark.parametrize("values", _SINGULAR, ids=range(len(_SINGULAR)))
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_slogdet_backward_of_a_singular_matrix_is_lapacks_inf_and_nan(values, dtype):
    # first order: torch solves with the forward's LU and keeps the infinities; a gradient
    # that is differentiated again goes through linalg.solve, which raises
    ours, theirs = _both(values, dtype)
    grads = []
    for lib, x in ((numtorch, ours), (torch, theirs)):
        weights = lib.arange(float(x[..., 0, 0].numel()), dtype=x.dtype).reshape(x.shape[:-2])
        (lib.linalg.slogdet(x).logabsdet * (weights - 0.5)).sum().backward()
        grads.append(x.grad.numpy())
        loss = (lib.linalg.slogdet(x).logabsdet * (weights - 0.5)).sum()
        with pytest.raises(RuntimeError) as raised:
            lib.autograd.grad(loss, x, create_graph=True)
        grads.append(str(raised.value))
    np.testing.assert_array_equal(grads[0], grads[2])
    assert grads[1] == grads[3]


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("transposed", [False, True])
def test_slogdet_gradient_of_an_infinite_grad_is_zero_off_the_solve(create_graph, transposed):
    # torch solves with diag(grad) on the right, zeros off its diagonal: an infinite grad
    # gives infinities and NaN where the substitutions meet them, not NaN everywhere
    ours, theirs = _both([[[2.0, 1.0, 0.5], [0.3, 3.0, 1.0], [1.0, -1.0, 2.0]]] * 2)
    grads = []
    for lib, x in ((numtorch, ours), (torch, theirs)):
        m = x.mT if transposed else x
        g = lib.tensor([math.inf, 1.0], dtype=lib.float64)
        (got,) = lib.autograd.grad(lib.linalg.slogdet(m).logabsdet, x, g, create_graph=create_graph)
        grads.append(got.detach().numpy())
    np.testing.assert_array_equal(*grads)


@pytest.mark.parametrize("dtypes", [("float64", "float32"), ("float32", "float64")])
@pytest.mark.parametrize(
    "shapes", [((2, 2, 0), (2, 0, 3)), ((2, 2, 3), (2, 3, 0)), ((1, 2, 2, 0), (2, 0, 2))]
)
def test_batched_products_with_an_empty_operand_take_mixed_dtypes(shapes, dtypes):
    # torch's bmm checks dtypes only where it multiplies; the zeros take mat2's dtype
    seen = []
    for lib in (numtorch, torch):
        a = lib.zeros(shapes[0], dtype=getattr(lib, dtypes[0]), requires_grad=True)
        b = lib.zeros(shapes[1], dtype=getattr(lib, dtypes[1]), requires_grad=True)
        result = lib.matmul(a, b)
        result.sum().backward()
        names = (str(result.dtype), str(a.grad.dtype), str(b.grad.dtype), tuple(result.shape))
        seen.append(names + (type(result.grad_fn).__name__,))
        with pytest.raises(RuntimeError) as raised:
            lib.bmm(lib.zeros(2, 2, 3, dtype=a.dtype), lib.zeros(2, 3, 2, dtype=b.dtype))
        seen.append(str(raised.value))
    assert seen[:2] == seen[2:]


@pytest.mark.parametrize("tau_shape", [(), (2, 3), (3, 3)])
@pytest.mark.parametrize("op", ["householder_product", "ormqr"])
def test_householder_checks_of_tau_raise_as_torch(op, tau_shape):
    input_shape = (2, 5, 3) if tau_shape == (3, 3) else (5, 3)
    raised = []
    for lib in (numtorch, torch):
        a = lib.ones(input_shape, dtype=lib.float64)
        tau = lib.ones(tau_shape, dtype=lib.float64)
        call = {
            "householder_product": lambda: lib.linalg.householder_product(a, tau),
            "ormqr": lambda: lib.ormqr(a, tau, lib.ones(input_shape[:-1] + (2,), dtype=a.dtype)),
        }[op]
        with pytest.raises(Exception) as error:
            call()
        raised.append((type(error.value).__name__, str(error.value)))
    assert raised[0] == raised[1]


@pytest.mark.parametrize(
    "shapes",
    [
        ((5, 3), (), ()),  # other's rank is checked before tau.shape[-1] is read
        ((), (), (5, 2)),
        ((5, 3), (3,), (5,)),
        ((5, 3), (3,), (2, 5, 2)),
    ],
)
def test_ormqr_checks_of_ranks_raise_as_torch(shapes):
    raised = []
    for lib in (numtorch, torch):
        a, tau, other = (lib.ones(shape, dtype=lib.float64) for shape in shapes)
        with pytest.raises(Exception) as error:
            lib.ormqr(a, tau, other)
        raised.append((type(error.value).__name__, str(error.value)))
    assert raised[0] == raised[1]


def test_qr_of_a_column_led_by_negative_zero_takes_torchs_signs():
    # LAPACK's reflector sign follows the column's leading entry: torch's build reads -0.0
    # there as positive
    a = np.array([[-0.0, 1.0, 2.0], [-0.0, 3.0, 1.0], [1.0, 2.0, 5.0], [0.0, 1.0, 1.0]])
    ours, theirs = numtorch.tensor(a), torch.tensor(a)
    for x, y in zip(numtorch.linalg.qr(ours), torch.linalg.qr(theirs)):
        _close(x, y, rtol=1e-12, atol=1e-15)
    for x, y in zip(numtorch.geqrf(ours), torch.geqrf(theirs)):
        _close(x, y, rtol=1e-12, atol=1e-15)


def test_block_diag_gradient_after_an_empty_vector_is_torchs():
    # an empty vector is a (1, 0) block in the forward; torch's backward skips it without
    # moving down a row, so the blocks after it read the gradient one row up
    grads = []
    for lib in (numtorch, torch):
        a = lib.tensor(2.0, requires_grad=True)
        empty = lib.zeros(0, requires_grad=True)
        b = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        c = lib.tensor([5.0, 6.0], requires_grad=True)
        result = lib.block_diag(a, empty, b, empty, c)
        weights = lib.arange(float(result.numel())).reshape(result.shape)
        found = lib.autograd.grad((result * weights).sum(), (a, empty, b, c))
        grads.append([tuple(result.shape)] + [g.tolist() for g in found])
    assert grads[0] == grads[1]


@pytest.mark.parametrize(
    "shapes",
    [((1, 3, 3), (2, 3, 3)), ((2, 5, 3), (1, 5, 2)), ((1, 2, 5, 3), (3, 1, 5, 2))],
    ids=str,
)
@pytest.mark.parametrize("driver", ["gelsy", "gelsd", "gels"])
def test_lstsq_rank_and_singular_values_keep_the_batch_of_a(shapes, driver):
    # A broadcast against B: rank and singular values depend on A alone (torch's shapes)
    oracle = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal(s) for s in shapes)
    seen = []
    for lib in (numtorch, oracle):
        r = lib.linalg.lstsq(lib.tensor(a), lib.tensor(b), driver=driver)
        seen.append([tuple(t.shape) for t in r] + [r.rank.tolist()])
    assert seen[0] == seen[1]


@pytest.mark.parametrize("shape, ind", [((), 1), ((1,), 1), ((4, 2, 2), 4), ((4, 2, 2), 1)])
def test_tensorinv_refuses_ind_past_the_dims_as_torch(shape, ind):
    outcomes = []
    for lib in (numtorch, torch):
        A = lib.eye(4).reshape(shape) if shape == (4, 2, 2) else lib.full(shape, 2.0)
        try:
            outcomes.append(tuple(lib.linalg.tensorinv(A, ind=ind).shape))
        except RuntimeError:
            outcomes.append("RuntimeError")
    assert outcomes[0] == outcomes[1]


def _outcome(call, lib):
    try:
        return "ok", tuple(call(lib).shape)
    except Exception as error:  # compared by type and text with torch's
        return type(error).__name__, str(error)


# B's shapes around the vector case: a 0-d B is no vector and no matrix, a vector B of a
# 1 x 1 A passes the shape check of X A = B and is then refused
@pytest.mark.parametrize("n, b_shape", [(3, ()), (1, ()), (3, (3,)), (1, (3,)), (1, (1,))])
@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("name", ["solve", "solve_ex"])
def test_solve_checks_B_as_torch(n, b_shape, left, name):
    def call(lib):
        A, B = lib.eye(n, dtype=lib.float64), lib.ones(b_shape, dtype=lib.float64)
        result = getattr(lib.linalg, name)(A, B, left=left)
        return result[0] if name == "solve_ex" else result

    assert _outcome(call, numtorch) == _outcome(call, torch)


@pytest.mark.parametrize(
    "a_shape, b_shape", [((3, 3), ()), ((3, 3), (1,)), ((3, 3), (2, 2)), ((2, 3, 3), (3,))]
)
def test_lstsq_checks_B_as_torch(a_shape, b_shape):
    def call(lib):
        A = lib.eye(3, dtype=lib.float64).expand(a_shape)
        return lib.linalg.lstsq(A, lib.ones(b_shape, dtype=lib.float64)).solution

    assert _outcome(call, numtorch) == _outcome(call, torch)


@pytest.mark.parametrize("shape", [(0,), (2, 0), (0, 3)])
@pytest.mark.parametrize("ord", [math.inf, -math.inf, -1, -0.5, 2])
@pytest.mark.parametrize("dim", [None, 0, -1, (0, -1)])
def test_norm_without_identity_of_an_empty_tensor_raises_as_torch(shape, ord, dim):
    if dim == (0, -1) and len(shape) == 1:
        return

    def call(lib):
        return lib.linalg.vector_norm(lib.zeros(shape), ord, dim)

    assert _outcome(call, numtorch) == _outcome(call, torch)
    assert _outcome(lambda lib: lib.norm(lib.zeros(shape), ord, dim), numtorch) == _outcome(
        lambda lib: lib.norm(lib.zeros(shape), ord, dim), torch
    )


def test_nuclear_norm_with_one_dim_raises_as_torch():
    def call(lib):
        return lib.norm(lib.zeros(2, 3), "nuc", 0)

    assert _outcome(call, numtorch) == _outcome(call, torch)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_cross_of_nearly_parallel_vectors_rounds_as_torchs_fused_kernel(dtype):
    # torch's kernel computes fma(a1, b2, -(a2 * b1)): parallel vectors leave the rounding
    # residual of a2 * b1, not an exact 0 (Note [Fused cross product])
    rng = np.random.default_rng(0)
    a = rng.standard_normal((50, 3))
    b = np.concatenate([a[:25], a[25:] * (1 + 1e-6 * rng.standard_normal((25, 3)))])
    ours = numtorch.linalg.cross(
        numtorch.tensor(a, dtype=getattr(numtorch, dtype)),
        numtorch.tensor(b, dtype=getattr(numtorch, dtype)),
    )
    theirs = torch.linalg.cross(
        torch.tensor(a, dtype=getattr(torch, dtype)), torch.tensor(b, dtype=getattr(torch, dtype))
    )
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


@pytest.mark.parametrize("shape", [(3, 3), (2, 4), (4, 2)])
def test_lu_factor_gradient_reads_the_untrimmed_blocks_as_torch(shape):
    # torch's backward takes the packed gradient's L and U blocks whole: an infinite entry
    # of one factor's part meets the other factor's zeros in a product (0 * inf = NaN)
    rng = np.random.default_rng(0)
    ours, theirs = _both(rng.standard_normal(shape))
    grad = rng.standard_normal(shape)
    grad[0, -1], grad[-1, 0] = math.inf, -math.inf
    (g_ours,) = numtorch.autograd.grad(
        numtorch.linalg.lu_factor(ours)[0], ours, numtorch.tensor(grad)
    )
    (g_theirs,) = torch.autograd.grad(torch.linalg.lu_factor(theirs)[0], theirs, torch.tensor(grad))
    np.testing.assert_array_equal(g_ours.numpy(), g_theirs.numpy())


@pytest.mark.parametrize("requires_grad", [False, True])
@pytest.mark.parametrize("shapes", [((4,), (2, 3, 5)), ((2, 4), (2, 3, 5))])
def test_matmul_into_a_batch_folds_or_not_as_torch(shapes, requires_grad):
    # torch folds a batch multiplied from the left into one mv/mm when the left operand
    # requires grad, so a size mismatch is reported by mv/mm, otherwise by bmm
    messages = []
    for lib in (numtorch, torch):
        left = lib.ones(shapes[0], requires_grad=requires_grad)
        with pytest.raises(RuntimeError) as info:
            left @ lib.ones(shapes[1])
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def _first_nodes(node, depth=4):
    names = []
    while node is not None and len(names) < depth:
        names.append(type(node).__name__)
        node = next((f for f, _ in node.next_functions if f is not None), None)
    return names


@pytest.mark.parametrize("requires_grad", [(True, False), (False, True), (True, True)], ids=str)
@pytest.mark.parametrize(
    "shapes",
    [
        ((1, 2, 1), (4, 1, 1)),  # a single matrix against a batch: squeezed and folded
        ((1, 3, 4), (2, 4, 5)),
        ((2, 3, 4), (1, 4, 5)),
        ((1, 3, 4), (0, 4, 5)),
        ((1, 3, 4), (1, 4, 5)),  # equal batches: bmm
        ((4, 3, 5), (5, 6)),  # a batch that does not fold without a copy: bmm...
        ((4, 3, 5), (5,)),  # ...with a vector squeezed off its column
    ],
    ids=str,
)
def test_matmul_graph_and_layout_follow_torchs_fold_choice(shapes, requires_grad):
    # torch picks mm (folded), a transposed mm or bmm from the shapes, the strides and which
    # operand requires grad; the choice shows in grad_fn, the graph and the result's strides
    seen = []
    for lib in (numtorch, torch):
        a = lib.ones(shapes[0], requires_grad=requires_grad[0])
        b = lib.ones(shapes[1], requires_grad=requires_grad[1])
        if shapes[0] == (4, 3, 5):
            a = a.transpose(0, 1)
        out = lib.matmul(a, b)
        strides = out.stride() if out.numel() else None  # (an empty array's are numpy's)
        seen.append((_first_nodes(out.grad_fn), tuple(out.shape), strides))
    assert seen[0] == seen[1]


@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (5, 3)], ids=str)
@pytest.mark.parametrize("where", [(2, 1), (0, 2), (1, 0)], ids=str)
def test_lu_factor_gradient_spreads_a_nan_as_torch(shape, where):
    # torch hands the packed gradient on whole as the L and the U gradient: a NaN in the
    # triangle a factor does not use still reaches its products before they are masked
    a = np.random.default_rng(0).standard_normal(shape)
    g = np.random.default_rng(1).standard_normal(shape)
    g[where] = np.nan
    results = []
    for lib in (numtorch, torch):
        x = lib.tensor(a, requires_grad=True)
        lu, _ = lib.linalg.lu_factor(x)
        results.append(lib.autograd.grad(lu, x, lib.tensor(g))[0].numpy())
    np.testing.assert_allclose(*results, rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("upper", [False, True])
@pytest.mark.parametrize("transpose", [False, True])
@pytest.mark.parametrize("row", [0, 2])
def test_triangular_solve_gradient_spreads_a_nan_only_to_the_rows_solved_after_it(
    upper, transpose, row
):
    # torch's trsm substitutes row by row: a NaN in the incoming gradient reaches the rows
    # solved after its own, not every row as a general solve would
    rng = np.random.default_rng(0)
    b = rng.standard_normal((3, 2))
    A = rng.standard_normal((3, 3)) + 3 * np.eye(3)
    g = rng.standard_normal((3, 2))
    g[row, 0] = np.nan
    results = []
    for lib in (numtorch, torch):
        bs, As = lib.tensor(b, requires_grad=True), lib.tensor(A, requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # torch.triangular_solve is deprecated
            solution = lib.triangular_solve(bs, As, upper=upper, transpose=transpose)[0]
        results.append([t.numpy() for t in lib.autograd.grad(solution, [bs, As], lib.tensor(g))])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("upper", [False, True])
@pytest.mark.parametrize("zero", [0.0, -0.0])
def test_cholesky_solve_with_a_zero_on_the_factors_diagonal_divides_by_it(upper, zero):
    # LAPACK's potrs solves with the triangular factor and divides by the zero (infinities,
    # NaN where they meet); a solve of the product L L^H, singular only up to rounding,
    # would give large finite numbers
    factor = np.array([[2.2, 0.0, 0.0], [-0.12, 1.85, 0.0], [0.14, 0.015, zero]])
    if upper:
        factor = factor.T.copy()
    rhs = np.array([[-0.54, 0.77], [-0.42, 1.91], [-0.43, 1.57]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = numtorch.cholesky_solve(numtorch.tensor(rhs), numtorch.tensor(factor), upper)
        theirs = torch.cholesky_solve(torch.tensor(rhs), torch.tensor(factor), upper)
    assert not np.isfinite(ours.numpy()).any()
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


@pytest.mark.parametrize("name", ["linalg.eig", "linalg.eigvals"])
def test_the_eig_samples_compare_in_eigenvalue_order(name):
    # geev's order is unspecified: MKL (torch) and OpenBLAS (NumPy) order a triangular
    # matrix's eigenvalues differently, so the op samples sort them (and the columns)
    from numtorch.testing.opinfo import OP_DB

    (info,) = [op for op in OP_DB if op.name == name]
    a = np.array([[1.352, 0, 0], [0, -0.6273, 0], [0, -1.5969, -0.8433]])
    ours = info.op(numtorch, numtorch.tensor(a)).numpy()
    theirs = info.op(torch, torch.tensor(a)).numpy()
    np.testing.assert_allclose(ours, theirs, atol=1e-12)


@pytest.mark.parametrize(
    "a_shape, b_shape",
    [((3, 3), (3, 0)), ((2, 0, 0), (0, 2)), ((0, 3, 3), (3, 2)), ((3, 3), (0, 3, 2))],
)
def test_ldl_solve_with_nothing_to_solve_returns_torchs_empty_result(a_shape, b_shape):
    results = []
    for lib in (numtorch, torch):
        a = lib.eye(a_shape[-1]).expand(a_shape)
        results.append(lib.linalg.ldl_solve(*lib.linalg.ldl_factor(a), lib.ones(b_shape)))
    assert tuple(results[0].shape) == tuple(results[1].shape)
    assert results[0].dtype.is_floating_point and results[0].numel() == 0


def _householder_products(lib):
    a = np.array(
        [[-0.47, 0.0, 0.79], [-0.38, 1.57, 0.72], [-1.52, 0.13, 1.26], [0.15, 1.64, -2.45]]
    )
    results = []
    # a scale of 3.4e38 overflows float32 in the last reflector; a zero scale skips one
    for tau in ([-0.27, 0.0, 3.4e38], [0.5, 1.2, 0.0], [1.1, 0.3]):
        for dtype in (lib.float32, lib.float64, lib.complex128):
            out = lib.linalg.householder_product(
                lib.tensor(a, dtype=dtype), lib.tensor(tau, dtype=dtype)
            )
            results.append(out.numpy())
    batched = lib.tensor(np.stack([a, -a]), dtype=lib.float64)
    tau = lib.tensor([[0.3, 1.0], [1.5, 0.0]], dtype=lib.float64)
    results.append(lib.linalg.householder_product(batched, tau).numpy())
    return results


def test_householder_product_applies_reflectors_as_lapack():
    # orgqr applies each reflector to the columns right of its own, skips a zero scale and
    # writes its own column as -tau v: an overflowing product leaves the other columns finite
    ours = _householder_products(numtorch)
    assert np.isfinite(ours[0][:, :2]).all() and np.isinf(ours[0][:, 2]).all()
    for a, b in zip(ours, _householder_products(torch)):
        np.testing.assert_allclose(a, b, rtol=1e-6)


KERNEL_REFUSALS = {
    "cholesky": lambda lib, a: lib.cholesky(a),
    "linalg.eigh": lambda lib, a: lib.linalg.eigh(a),
    "linalg.eigvalsh": lambda lib, a: lib.linalg.eigvalsh(a),
    "geqrf": lambda lib, a: lib.geqrf(a),
    "cholesky_inverse": lambda lib, a: lib.cholesky_inverse(a),
    "cholesky_solve": lambda lib, a: lib.cholesky_solve(a, a),
    "linalg.solve_triangular": lambda lib, a: lib.linalg.solve_triangular(a, a, upper=True),
    "triangular_solve": lambda lib, a: lib.triangular_solve(a, a),
    "ormqr": lambda lib, a: lib.ormqr(a, a[0], a),
    "linalg.cholesky": lambda lib, a: lib.linalg.cholesky(a),  # checks the dtype first
}


@pytest.mark.parametrize("dtype", ["bool", "int32", "float16", "bfloat16"])
@pytest.mark.parametrize("name", KERNEL_REFUSALS)
def test_ops_without_a_dtype_check_refuse_in_their_kernel(name, dtype):
    # torch checks these dtypes only in the kernel: NotImplementedError naming it
    outcomes = []
    for lib in (numtorch, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                KERNEL_REFUSALS[name](lib, lib.eye(3, dtype=getattr(lib, dtype)))
                outcomes.append("returns")
            except (RuntimeError, NotImplementedError) as error:
                outcomes.append((type(error).__name__, str(error)))
    assert outcomes[0] == outcomes[1]


DTYPE_MESSAGES = {
    "linalg.pinv": lambda lib, a: lib.linalg.pinv(a),
    "pinverse": lambda lib, a: lib.pinverse(a),
    "matrix_norm_nuc": lambda lib, a: lib.linalg.matrix_norm(a, "nuc"),
    "matrix_norm_2": lambda lib, a: lib.linalg.matrix_norm(a, 2),
    "lstsq": lambda lib, a: lib.linalg.lstsq(a, a),
    "lstsq_mixed": lambda lib, a: lib.linalg.lstsq(a, a.double()),
}


@pytest.mark.parametrize("dtype", ["bool", "int32", "float16", "bfloat16"])
@pytest.mark.parametrize("name", DTYPE_MESSAGES)
def test_linalg_refuses_dtypes_with_torchs_error(name, dtype):
    outcomes = []
    for lib in (numtorch, torch):
        try:
            DTYPE_MESSAGES[name](lib, lib.ones(4, 3, dtype=getattr(lib, dtype)))
            outcomes.append("returns")
        except (RuntimeError, NotImplementedError) as error:
            outcomes.append((type(error).__name__, str(error)))
    assert outcomes[0] == outcomes[1]


NORMS_OF_ORDER_0 = {
    "vector_norm": lambda lib, x, o: lib.linalg.vector_norm(x - o, 0),
    "vector_norm dim": lambda lib, x, o: lib.linalg.vector_norm(x - o, 0, dim=0),
    "norm": lambda lib, x, o: lib.norm(x - o, p=0),
    "pairwise_distance": lambda lib, x, o: lib.nn.functional.pairwise_distance(x, o, p=0),
    "beside a sum": lambda lib, x, o: lib.linalg.vector_norm(x, 0) + o.sum(),
}


@pytest.mark.parametrize("case", NORMS_OF_ORDER_0.values(), ids=NORMS_OF_ORDER_0.keys())
def test_a_norm_of_order_0_sends_back_no_gradient(case):
    # torch's norm_backward returns an undefined gradient for p = 0: inputs reached only
    # through it get None, not zeros
    found = []
    for lib in (numtorch, torch):
        x = lib.tensor([0.5, 0.0, -2.0], requires_grad=True)
        o = lib.tensor([0.5, 1.0, 0.0], requires_grad=True)
        grads = lib.autograd.grad(case(lib, x, o).sum(), (x, o), allow_unused=True)
        found.append([None if g is None else g.tolist() for g in grads])
    assert found[0] == found[1]


@pytest.mark.parametrize("transposed", [False, True])
@pytest.mark.parametrize(
    "values, grad",
    [
        ([[1.0, 2.0], [2.0, 4.0]], 1.0),  # singular, odd permutation: det -0.0, gradient 0s
        ([[[2.0, 1.0], [0.5, 3.0]], [[1.0, 2.0], [3.0, -1.0]]], [1.0, math.inf]),
        ([[0.0, 0.0], [0.0, 0.0]], 1.0),
    ],
)
def test_det_and_its_gradient_take_torchs_lu_and_solve(values, grad, transposed):
    # det is the LU's pivot product (its zero's sign too), its gradient an LU solve with
    # diag(grad * det) whose zero pivots are moved to eps: 0s for a singular matrix, NaN
    # where an infinite grad meets the substitutions' cancellations
    ours, theirs = _both(values)
    results = []
    for lib, a in ((numtorch, ours), (torch, theirs)):
        m = a.mT if transposed else a
        det = lib.linalg.det(m)
        det.backward(lib.tensor(grad, dtype=lib.float64).expand(det.shape))
        results.append((det.detach().numpy(), a.grad.numpy()))
    for got, expected in zip(*results):
        np.testing.assert_array_equal(got, expected)
        assert (np.signbit(got) == np.signbit(expected)).all()


def test_det_gradient_under_create_graph_takes_the_svd_where_det_is_nearly_0():
    ours, theirs = _both([[[1.0, 2.0], [2.0, 4.0]], [[2.0, 1.0], [0.5, 3.0]]])
    (g,) = numtorch.autograd.grad(numtorch.linalg.det(ours).sum(), ours, create_graph=True)
    (h,) = torch.autograd.grad(torch.linalg.det(theirs).sum(), theirs, create_graph=True)
    _close(g, h, rtol=1e-12)
    _close(numtorch.autograd.grad(g.sum(), ours)[0], torch.autograd.grad(h.sum(), theirs)[0])


RANK_TOLERANCES = {
    "tol": lambda lib, A: lib.linalg.matrix_rank(A, 1e-2),
    "tol_tensor_hermitian": lambda lib, A: lib.linalg.matrix_rank(
        A, lib.tensor([1e-2, 1e-5]), True
    ),
    "atol_tensor": lambda lib, A: lib.linalg.matrix_rank(A, atol=lib.tensor([[1e-2], [1e-5]])),
    "rtol_tensor": lambda lib, A: lib.linalg.matrix_rank(A, atol=0.5, rtol=lib.tensor(1e-4)),
    "pinv_rcond": lambda lib, A: lib.linalg.pinv(A, 1e-2),
    "pinv_rcond_tensor": lambda lib, A: lib.linalg.pinv(
        A, rcond=lib.tensor([1e-2, 1e-5]), hermitian=True
    ),
    "pinv_atol_tensor": lambda lib, A: lib.linalg.pinv(A, atol=lib.tensor([1e-2, 1e-5])),
    "tol_none": lambda lib, A: lib.linalg.matrix_rank(A, tol=None),
    "tol_and_atol": lambda lib, A: lib.linalg.matrix_rank(A, 0.1, atol=0.1),
    "rcond_and_rtol": lambda lib, A: lib.linalg.pinv(A, 0.1, rtol=0.1),
}


@pytest.mark.parametrize("call", RANK_TOLERANCES)
def test_rank_tolerances_take_torchs_older_form_and_tensors_per_matrix(call):
    # matrix_rank(A, tol, hermitian) is atol=tol, rtol=0; pinv(A, rcond, hermitian) is
    # rtol=rcond; a tensor tolerance holds one value per matrix of the batch
    def run(lib):
        A = lib.diag(lib.tensor([1.0, 1e-3, 1e-9], dtype=lib.float64)).expand(2, 3, 3)
        try:
            return RANK_TOLERANCES[call](lib, A).numpy()
        except TypeError:
            return "TypeError"

    ours, theirs = run(numtorch), run(torch)
    if isinstance(theirs, str):
        assert ours == theirs
    else:
        np.testing.assert_allclose(ours, theirs)
