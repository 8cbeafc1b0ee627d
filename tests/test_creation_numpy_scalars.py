"""tensor() and as_tensor() of a NumPy scalar keep its dtype, as torch does."""

import numpy as np
import pytest

import numtorch as torch


@pytest.mark.parametrize(
    ("value", "dtype"),
    [
        (np.int32(3), torch.int32),
        (np.int16(-2), torch.int16),
        (np.uint8(7), torch.uint8),
        (np.float64(1.5), torch.float64),
        (np.float16(0.5), torch.float16),
        (np.bool_(True), torch.bool),
    ],
)
@pytest.mark.parametrize("factory", [torch.tensor, torch.as_tensor])
def test_numpy_scalar_keeps_dtype(factory, value, dtype):
    t = factory(value)
    assert t.dtype == dtype and t.shape == () and t.item() == value.item()
