"""float32 and float64 sums and means over contiguous trailing dims add in torch's CPU order
(Note [Sum in torch's vector order]): vectors dealt to 4 accumulators in a cascade, the
tail and the lanes added last."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch


def _multi_row_sum(rows):
    """torch's cascade over rows (arrays of 4 accumulators' values), one row at a time."""
    size = len(rows)
    power = max(4, (size - 1).bit_length() // 4 if size > 1 else 0)
    step, mask = 1 << power, (1 << power) - 1
    acc = [np.zeros_like(rows[0]) for _ in range(4)]
    i = 0
    while i + step <= size:
        for _ in range(step):
            acc[0] = acc[0] + rows[i]
            i += 1
        for j in range(1, 4):
            acc[j] = acc[j] + acc[j - 1]
            acc[j - 1] = np.zeros_like(acc[j])
            if i & (mask << (j * power)):
                break
    for k in range(i, size):
        acc[0] = acc[0] + rows[k]
    for j in range(1, 4):
        acc[0] = acc[0] + acc[j]
    return acc[0]


def _row_sum(items):
    """items (count, lanes): dealt to 4 accumulators, the leftovers into the first."""
    dealt = len(items) // 4
    if dealt:
        partial = _multi_row_sum([items[4 * j : 4 * j + 4] for j in range(dealt)])
    else:
        partial = np.zeros((4, items.shape[1]), items.dtype)
    first = partial[0]
    for vector in items[4 * dealt :]:
        first = first + vector
    for k in range(1, 4):
        first = first + partial[k]
    return first


def _reference_row(row):
    lanes = 8 if row.dtype == np.float32 else 4
    if len(row) < lanes:
        return _row_sum(row[:, None])[0]
    count = len(row) // lanes
    total = row.dtype.type(0)
    for v in row[count * lanes :]:
        total = total + v
    for v in _row_sum(row[: count * lanes].reshape(count, lanes)):
        total = total + v
    return total


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [1, 3, 5, 6, 7, 9, 12, 17, 33, 100, 530, 1100])
def test_row_sums_add_in_the_kernel_order(dtype, n):
    x = np.random.default_rng(n).standard_normal((6, n)).astype(dtype)
    expected = np.array([_reference_row(row) for row in x], dtype=dtype)
    got = numtorch.from_numpy(x).sum(-1).numpy()
    np.testing.assert_array_equal(got, expected)
    mean = numtorch.from_numpy(x).mean(dim=1, keepdim=True).numpy()
    np.testing.assert_array_equal(mean, (expected / dtype(n))[:, None])


def test_trailing_dims_and_whole_tensors_sum_as_one_row():
    x = np.random.default_rng(1).standard_normal((3, 4, 5)).astype(np.float32)
    t = numtorch.from_numpy(x)
    rows = x.reshape(3, 20)
    np.testing.assert_array_equal(
        t.sum((1, 2)).numpy(), np.array([_reference_row(r) for r in rows])
    )
    assert t.sum().item() == _reference_row(x.reshape(-1))
    # a row of probabilities that NumPy's pairwise sum rounds to exactly one
    p = np.array([0.02003, 0.0196, 0.04837, 0.04017, 0.1449, 0.1240], np.float32)
    p = p / p.sum(dtype=np.float64).astype(np.float32)
    assert numtorch.from_numpy(p).sum().item() == _reference_row(p)


def test_other_layouts_and_large_sums_keep_numpy_s_sum():
    x = np.random.default_rng(2).standard_normal((40, 30)).astype(np.float32)
    t = numtorch.from_numpy(x)
    np.testing.assert_array_equal(t.t().sum(-1).numpy(), x.T.sum(-1))  # strided rows
    np.testing.assert_array_equal(t.sum(0).numpy(), x.sum(0))
    big = np.random.default_rng(3).standard_normal(40000).astype(np.float32)
    assert numtorch.from_numpy(big).sum().item() == big.sum()


def test_a_sum_of_negative_zeros_is_positive_zero():
    x = numtorch.full((2, 9), -0.0)
    assert not np.signbit(x.sum(-1).numpy()).any()
    assert not np.signbit(x.sum().numpy())


def test_sums_agree_with_torch_bit_for_bit():
    torch = pytest.importorskip("torch")
    for shape, dim in [((300, 6), -1), ((50, 129), 1), ((7, 3, 11), (1, 2)), ((5000,), None)]:
        x = np.random.default_rng(len(shape)).standard_normal(shape).astype(np.float32)
        args = () if dim is None else (dim,)
        theirs = torch.from_numpy(x).sum(*args).numpy()
        np.testing.assert_array_equal(numtorch.from_numpy(x).sum(*args).numpy(), theirs)
        theirs = torch.from_numpy(x).mean(*args).numpy()
        np.testing.assert_array_equal(numtorch.from_numpy(x).mean(*args).numpy(), theirs)


def test_a_broadcast_gradient_sums_in_the_order_of_a_written_sum():
    # the gradient of a (rows, 1) operand broadcast over (rows, n) is a trailing-dim sum:
    # the engine adds it in the same order as g.sum(1, keepdim=True) written by hand
    g = np.random.default_rng(4).standard_normal((5, 13)).astype(np.float32)
    col = numtorch.zeros(5, 1, requires_grad=True)
    (col + numtorch.zeros(5, 13)).backward(numtorch.from_numpy(g))
    expected = numtorch.from_numpy(g).sum(1, keepdim=True)
    np.testing.assert_array_equal(col.grad.numpy(), expected.numpy())
    np.testing.assert_array_equal(col.grad.numpy()[:, 0], [_reference_row(r) for r in g])
