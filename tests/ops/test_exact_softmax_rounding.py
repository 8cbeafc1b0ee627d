"""float32 softmax over the last dim rounds as torch's CPU kernel does (Note [Softmax as
torch's CPU kernel]): exp taken in float64 and rounded once, the row added in the kernel's
vector order, then scaled by the reciprocal of that sum."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch


def _old_softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@pytest.mark.parametrize("n", [3, 7, 16, 27, 100])
def test_softmax_scales_by_the_reciprocal_of_the_ordered_row_sum(n):
    x = np.random.default_rng(n).standard_normal((64, n)).astype(np.float32)
    e = np.exp(x - x.max(axis=-1, keepdims=True), dtype=np.float64).astype(np.float32)
    if n < 16:
        total = np.cumsum(e, axis=-1)[:, -1:]
    else:
        lanes = e[:, :16].copy()
        for start in range(16, n - n % 16, 16):
            lanes += e[:, start : start + 16]
        lanes[:, : n % 16] += e[:, n - n % 16 :]
        for width in (8, 4, 2, 1):
            lanes = lanes[:, :width] + lanes[:, width : 2 * width]
        total = lanes
    expected = e * (np.float32(1) / total)
    got = numtorch.softmax(numtorch.from_numpy(x), -1).numpy()
    np.testing.assert_array_equal(got, expected)
    assert (got != _old_softmax(x)).any()


def test_log_softmax_subtracts_the_float64_log_of_the_ordered_sum():
    x = np.random.default_rng(5).standard_normal((32, 10)).astype(np.float32)
    shifted = x - x.max(axis=-1, keepdims=True)
    e = np.exp(shifted, dtype=np.float64).astype(np.float32)
    total = np.cumsum(e, axis=-1)[:, -1:]
    expected = shifted - np.log(total, dtype=np.float64).astype(np.float32)
    got = numtorch.log_softmax(numtorch.from_numpy(x), -1).numpy()
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("shape", [(2, 1500), (300, 300)])
def test_long_rows_and_large_tensors_keep_numpy_s_sum(shape):
    x = np.random.default_rng(6).standard_normal(shape).astype(np.float32)
    got = numtorch.softmax(numtorch.from_numpy(x), -1).numpy()
    np.testing.assert_array_equal(got, _old_softmax(x))


def test_softmax_agrees_with_torch_bits_far_more_often():
    torch = pytest.importorskip("torch")
    for n in (5, 10, 40, 300):
        x = np.random.default_rng(n).standard_normal((200, n)).astype(np.float32)
        theirs = torch.softmax(torch.from_numpy(x), -1).numpy()
        ours = numtorch.softmax(numtorch.from_numpy(x), -1).numpy()
        # NumPy's exp and pairwise sum agreed on 35-65% of the values
        assert (ours == theirs).mean() > 0.8, n
        assert (_old_softmax(x) == theirs).mean() < 0.7, n
        theirs = torch.log_softmax(torch.from_numpy(x), -1).numpy()
        ours = numtorch.log_softmax(numtorch.from_numpy(x), -1).numpy()
        assert (ours == theirs).mean() > 0.95, n


def test_other_dims_and_non_finite_rows_keep_their_values():
    x = numtorch.tensor([[0.0, float("-inf"), 1.0], [float("inf"), 0.0, 1.0]])
    got = numtorch.softmax(x, -1)
    assert got[0, 1].item() == 0.0 and got[1].isnan().all()
    y = numtorch.randn(4, 6)
    np.testing.assert_allclose(y.softmax(0).sum(0).numpy(), np.ones(6), rtol=1e-6)


@pytest.mark.parametrize("n", [4, 7, 8, 19])
def test_float64_softmax_scales_by_the_reciprocal_of_the_ordered_row_sum(n):
    # a double vector has 8 lanes: rows below that add left to right, longer ones lane-wise
    x = np.random.default_rng(n).standard_normal((32, n))
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    if n < 8:
        total = np.cumsum(e, axis=-1)[:, -1:]
    else:
        lanes = e[:, :8].copy()
        for start in range(8, n - n % 8, 8):
            lanes += e[:, start : start + 8]
        lanes[:, : n % 8] += e[:, n - n % 8 :]
        for width in (4, 2, 1):
            lanes = lanes[:, :width] + lanes[:, width : 2 * width]
        total = lanes
    got = numtorch.softmax(numtorch.from_numpy(x), -1).numpy()
    np.testing.assert_array_equal(got, e * (1 / total))


def test_float64_softmax_of_integers_given_dtype_rounds_as_torch():
    # fuzz seed 8500001: an int64 row given dtype=float64; dividing by the sum was 1 ulp off
    torch = pytest.importorskip("torch")
    row = [[3, -2, -5, 1]]
    theirs = torch.softmax(torch.tensor(row), -1, dtype=torch.float64).numpy()
    ours = numtorch.softmax(numtorch.tensor(row), -1, dtype=numtorch.float64).numpy()
    np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("dim", [0, 1])
@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_a_complex_input_names_the_kernel_of_its_dim(name, dim):
    torch = pytest.importorskip("torch")
    errors = []
    for lib in (numtorch, torch):
        with pytest.raises(NotImplementedError) as error:
            getattr(lib.ones(2, 3, dtype=lib.complex64), name)(dim)
        errors.append(str(error.value))
    assert errors[0] == errors[1]
