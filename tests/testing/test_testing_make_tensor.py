"""torch.testing.make_tensor: torch's values after the same seed, dtypes, errors."""

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")


def _both(shape, **kwargs):
    torch.manual_seed(3)
    numtorch.manual_seed(3)
    theirs = torch.testing.make_tensor(shape, **{k: _to(torch, v) for k, v in kwargs.items()})
    ours = numtorch.testing.make_tensor(shape, **{k: _to(numtorch, v) for k, v in kwargs.items()})
    return ours, theirs


def _to(lib, value):
    return getattr(lib, value.split(".")[1]) if isinstance(value, str) and "." in value else value


@pytest.mark.parametrize(
    "dtype", ["t.float32", "t.float64", "t.int64", "t.int32", "t.int8", "t.bool", "t.complex64"]
)
def test_values_match_torch_after_same_seed(dtype):
    ours, theirs = _both(shape=(3, 4), dtype=dtype, device="cpu")
    assert str(ours.dtype) == str(theirs.dtype)
    assert tuple(ours.shape) == tuple(theirs.shape)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


def test_bounds_noncontiguous_exclude_zero_requires_grad():
    ours, theirs = _both(
        shape=(2, 5),
        dtype="t.float64",
        device="cpu",
        low=-1,
        high=1,
        noncontiguous=True,
        exclude_zero=True,
        requires_grad=True,
    )
    assert not ours.is_contiguous() and not theirs.is_contiguous()
    assert ours.requires_grad and theirs.requires_grad
    np.testing.assert_array_equal(ours.detach().numpy(), theirs.detach().numpy())


def test_shape_as_varargs_and_exclude_zero_integral():
    torch.manual_seed(0)
    numtorch.manual_seed(0)
    theirs = torch.testing.make_tensor(4, 6, dtype=torch.int64, device="cpu", exclude_zero=True)
    ours = numtorch.testing.make_tensor(4, 6, dtype=numtorch.int64, device="cpu", exclude_zero=True)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    assert (ours != 0).all()


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(dtype="t.int64", requires_grad=True),
        dict(dtype="t.float32", low=2, high=1),
        dict(dtype="t.float32", low=float("nan")),
        dict(dtype="t.int8", low=200, high=300),
        dict(dtype="t.float32", noncontiguous=True, memory_format="t.contiguous_format"),
    ],
)
def test_errors_match_torch(kwargs):
    with pytest.raises(ValueError) as expected:
        torch.testing.make_tensor(
            (2,), device="cpu", **{k: _to(torch, v) for k, v in kwargs.items()}
        )
    with pytest.raises(ValueError) as got:
        numtorch.testing.make_tensor(
            (2,), device="cpu", **{k: _to(numtorch, v) for k, v in kwargs.items()}
        )
    assert str(got.value) == str(expected.value)
