"""Result dtypes where torch's kernel decides them otherwise than promotion over the
arguments would: a number that is a parameter of the kernel, a count, a sign. Each is
checked against torch."""

from __future__ import annotations

import warnings

import pytest

import numtorch

torch = pytest.importorskip("torch")


def _both(fn):
    """fn(lib)'s dtype and values under numtorch and torch."""
    outcomes = []
    for lib in (numtorch, torch):
        out = fn(lib)
        outcomes.append((str(out.dtype), out.double().tolist()))
    return outcomes


@pytest.mark.parametrize("value", [0.5, 2.5, 2])
@pytest.mark.parametrize("dtype", ["uint8", "int32", "float16", "float32"])
def test_addcmul_value_takes_no_part_in_the_dtype_and_truncates_for_integers(value, dtype):
    def fn(lib):
        a = lib.tensor([[1, 2, 3], [4, 5, 6]], dtype=getattr(lib, dtype))
        return a.addcmul(a, a[0], value=value)

    ours, theirs = _both(fn)
    assert ours == theirs


FILLS = {
    "full": lambda lib, v: lib.full((2,), v, dtype=lib.uint8),
    "fill_": lambda lib, v: lib.zeros(2, dtype=lib.int8).fill_(v),
    "index_fill": lambda lib, v: lib.zeros(2, dtype=lib.uint8).index_fill(0, lib.tensor([0]), v),
    "full_like": lambda lib, v: lib.full_like(lib.zeros(2, dtype=lib.uint8), v),
    "masked_fill": lambda lib, v: lib.zeros(3, dtype=lib.uint8).masked_fill(
        lib.tensor([True, False, True]), v
    ),
    "threshold": lambda lib, v: lib.nn.functional.threshold(
        lib.tensor([0, 1, 2], dtype=lib.int8), 0.5, v
    ),
    "addcmul": lambda lib, v: lib.ones(2, dtype=lib.uint8).addcmul(
        lib.ones(2, dtype=lib.uint8), lib.ones(2, dtype=lib.uint8), value=v
    ),
}


@pytest.mark.parametrize("value", [2.5, -0.5, -1.5, 255.5, 300.0, float("nan"), float("inf")])
@pytest.mark.parametrize("name", FILLS)
def test_a_float_converted_into_an_integer_dtype_is_truncated_or_refused(name, value):
    # within the range, truncated; outside it (for unsigned types: below 0), torch's overflow
    # error, where a NumPy cast would wrap it in
    outcomes = []
    for lib in (numtorch, torch):
        try:
            outcomes.append(FILLS[name](lib, value).tolist())
        except RuntimeError as error:
            outcomes.append(str(error))
    assert outcomes[0] == outcomes[1]


def _sparse(lib, dtype):
    values = lib.tensor([1, 2, 3], dtype=dtype)
    return lib.sparse_coo_tensor(lib.tensor([[0, 1, 2], [0, 1, 2]]), values, (4, 3))


SCALED = {
    "addmm": lambda lib, d, b, a: lib.addmm(
        lib.ones(2, 2, dtype=d), lib.ones(2, 3, dtype=d), lib.ones(3, 2, dtype=d), beta=b, alpha=a
    ),
    "addmv": lambda lib, d, b, a: lib.addmv(
        lib.ones(2, dtype=d), lib.ones(2, 3, dtype=d), lib.ones(3, dtype=d), beta=b, alpha=a
    ),
    "baddbmm": lambda lib, d, b, a: lib.baddbmm(
        lib.ones(2, dtype=d),
        lib.ones(1, 2, 3, dtype=d),
        lib.ones(1, 3, 2, dtype=d),
        beta=b,
        alpha=a,
    ),
    "addbmm": lambda lib, d, b, a: lib.addbmm(
        lib.ones(2, dtype=d),
        lib.ones(1, 2, 3, dtype=d),
        lib.ones(1, 3, 2, dtype=d),
        beta=b,
        alpha=a,
    ),
    "addmm_": lambda lib, d, b, a: lib.ones(2, 2, dtype=d).addmm_(
        lib.ones(2, 3, dtype=d), lib.ones(3, 2, dtype=d), beta=b, alpha=a
    ),
    "sparse.addmm": lambda lib, d, b, a: lib.sparse.addmm(
        lib.ones(4, 2, dtype=d), _sparse(lib, d), lib.ones(3, 2, dtype=d), beta=b, alpha=a
    ),
}


@pytest.mark.parametrize("scales", [(0.5, 2.0), (1.5, 2.5), (2, 3)])
@pytest.mark.parametrize("dtype", ["uint8", "int32"])
@pytest.mark.parametrize("name", SCALED)
def test_an_integer_product_truncates_beta_and_alpha(name, dtype, scales):
    # Note [Kernel numbers]: a parameter of the kernel, converted to its integer type
    ours, theirs = _both(lambda lib: SCALED[name](lib, getattr(lib, dtype), *scales))
    assert ours == theirs


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64", "int32"])
def test_bincount_sums_weights_as_float32_or_float64(dtype):
    ours, theirs = _both(
        lambda lib: lib.bincount(lib.tensor([1, 1, 3]), lib.ones(3, dtype=getattr(lib, dtype)))
    )
    assert ours == theirs


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_slogdet_of_a_complex_matrix_has_a_real_logabsdet(dtype):
    def run(lib):
        a = lib.eye(3, dtype=getattr(lib, dtype)) * (1 + 1j)
        a[0, 1] = 3
        sign, logabsdet = lib.linalg.slogdet(a)
        return [str(sign.dtype), str(logabsdet.dtype), str(lib.logdet(a).dtype)], [
            complex(x) for x in (sign, logabsdet, lib.logdet(a))
        ]

    (ours_dtypes, ours), (their_dtypes, theirs) = run(numtorch), run(torch)
    assert ours_dtypes == their_dtypes
    assert ours == pytest.approx(theirs, rel=1e-6)


INTEGRALS = {
    "trapezoid": lambda lib, y: lib.trapezoid(y),
    "trapezoid_dx": lambda lib, y: lib.trapezoid(y, dx=0.5, dim=0),
    "cumulative_trapezoid": lambda lib, y: lib.cumulative_trapezoid(y),
    "gradient": lambda lib, y: lib.gradient(y)[1],
}


@pytest.mark.parametrize("name", INTEGRALS)
def test_integrals_and_differences_of_complex_samples_stay_complex(name):
    def run(lib):
        y = lib.arange(12.0).reshape(3, 4).to(lib.complex64) * (1 - 2j)
        out = INTEGRALS[name](lib, y)
        return str(out.dtype), out.tolist()

    assert run(numtorch) == run(torch)


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int8", "int32"])
def test_bilinear_computes_in_the_integer_dtype_and_refuses_bool(dtype):
    outcomes = []
    for lib in (numtorch, torch):
        d = getattr(lib, dtype)
        try:
            out = lib.bilinear(
                lib.ones(2, 3, dtype=d), lib.ones(2, 4, dtype=d), lib.ones(5, 3, 4, dtype=d)
            )
            outcomes.append((str(out.dtype), out.tolist()))
        except NotImplementedError as error:
            outcomes.append(str(error))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("margin", [2.0, 2.5, 1])
@pytest.mark.parametrize("dtype", ["uint8", "int32", "float16"])
def test_hinge_embedding_loss_subtracts_from_the_margin_in_the_inputs_dtype(dtype, margin):
    def fn(lib):
        x = lib.tensor([3, 1, 5], dtype=getattr(lib, dtype))
        target = lib.tensor(
            [1, -1, -1], dtype=getattr(lib, dtype) if dtype != "uint8" else lib.int8
        )
        return lib.nn.functional.hinge_embedding_loss(x, target, margin, reduction="sum")

    ours, theirs = _both(fn)
    assert ours == theirs


RUNS = {
    "renorm": lambda lib, d: lib.renorm(
        lib.tensor([[3.0, 4.0], [0.5, 0.0]]).to(d) * (1 - 1j if d.is_complex else 1), 2, 0, 1.0
    ),
    "cov_aweights": lambda lib, d: lib.cov(
        lib.tensor([[1.0, 2.0, 4.0], [0.0, 1.0, 3.0]]).to(d), aweights=lib.tensor([1.0, 2, 1]).to(d)
    ),
    "bincount": lambda lib, d: lib.bincount(
        lib.tensor([1, 1, 3]), lib.tensor([1.5, 2.0, 3.0]).to(d)
    ),
    "to_sparse": lambda lib, d: lib.tensor([[0.0, 2.0], [3.0, 0.0]]).to(d).to_sparse().to_dense(),
    "scatter_reduce_mean": lambda lib, d: lib.zeros(3, dtype=d).scatter_reduce(
        0, lib.tensor([0, 0, 2]), lib.tensor([1.0, 2.0, 4.0]).to(d), "mean"
    ),
}


@pytest.mark.parametrize("dtype", ["bfloat16", "complex64"])
@pytest.mark.parametrize("name", RUNS)
def test_ops_run_the_dtypes_torch_runs(name, dtype):
    outcomes = []
    for lib in (numtorch, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                out = RUNS[name](lib, getattr(lib, dtype))
                values = out.to(lib.complex128).reshape(-1).tolist()
                outcomes.append((str(out.dtype), values))
            except RuntimeError as error:
                outcomes.append((type(error).__name__, str(error)))
    (ours, our_values), (theirs, their_values) = outcomes
    assert ours == theirs
    if isinstance(their_values, str):  # both refuse: with torch's message
        assert our_values == their_values
    else:
        assert our_values == pytest.approx(their_values, rel=1e-2)


def _sparse_float(lib, dtype):
    values = lib.tensor([1.0, 2.0, 3.0]).to(dtype)
    return lib.sparse_coo_tensor(lib.tensor([[0, 1, 2], [0, 1, 2]]), values, (4, 3))


REFUSALS = {
    "sparse.softmax": lambda lib, d: lib.sparse.softmax(_sparse_float(lib, d), 1),
    "sparse.log_softmax": lambda lib, d: lib.sparse.log_softmax(_sparse_float(lib, d), 0),
    "sparse.mm": lambda lib, d: lib.sparse.mm(_sparse_float(lib, d), lib.ones(3, 2).to(d)),
    "dense_sparse_mm": lambda lib, d: lib.mm(lib.ones(2, 4).to(d), _sparse_float(lib, d)),
    "conv_transpose1d": lambda lib, d: lib.nn.functional.conv_transpose1d(
        lib.ones(1, 1, 3).to(d), lib.ones(1, 1, 2).to(d)
    ),
    "conv2d": lambda lib, d: lib.nn.functional.conv2d(
        lib.ones(1, 1, 3, 3).to(d), lib.ones(1, 1, 2, 2).to(d)
    ),
    "multi_margin_loss": lambda lib, d: lib.nn.functional.multi_margin_loss(
        lib.ones(2, 3).to(d), lib.tensor([0, 2])
    ),
    "unfold": lambda lib, d: lib.nn.functional.unfold(lib.ones(1, 1, 3, 3).to(d), 2),
    "fold": lambda lib, d: lib.nn.functional.fold(lib.ones(1, 4, 4).to(d), (3, 3), 2),
    "cdist": lambda lib, d: lib.cdist(lib.ones(2, 3).to(d), lib.ones(4, 3).to(d)),
    "pdist": lambda lib, d: lib.pdist(lib.ones(3, 2).to(d)),
    "histogram": lambda lib, d: lib.histogram(lib.ones(4).to(d), 3)[0],
    "binomial": lambda lib, d: lib.binomial(lib.ones(3).to(d), lib.ones(3).to(d) / 2),
    "searchsorted": lambda lib, d: lib.searchsorted(lib.tensor([0, 1, 2]).to(d), lib.ones(1).to(d)),
    "ndtr": lambda lib, d: lib.special.ndtr(lib.ones(2).to(d)),
    "xlog1py": lambda lib, d: lib.special.xlog1py(lib.ones(2).to(d), 2.0),
    "zeta": lambda lib, d: lib.special.zeta(2.0, lib.ones(2).to(d) * 2),
}


@pytest.mark.parametrize("dtype", ["bool", "int32", "float16", "bfloat16", "complex64"])
@pytest.mark.parametrize("name", REFUSALS)
def test_ops_refuse_the_dtypes_their_torch_kernels_lack(name, dtype):
    # Note [Kernel dtypes]: torch's NotImplementedError naming the kernel, or the result
    if name.startswith("conv") and dtype == "complex64":
        pytest.skip("complex convolution, which numtorch lacks (dtype_support_known.py)")
    outcomes = []
    for lib in (numtorch, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                out = REFUSALS[name](lib, getattr(lib, dtype))
                out = out.to_dense() if out.layout != lib.strided else out
                outcomes.append(str(out.dtype))
            except (NotImplementedError, RuntimeError, ValueError) as error:
                outcomes.append((type(error).__name__, str(error)))
    assert outcomes[0] == outcomes[1]
