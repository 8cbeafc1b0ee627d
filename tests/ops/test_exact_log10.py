"""log10 in float32 rounded as torch's: powers of ten give whole numbers (NumPy's float32
loop gives log10(100) = 2.0000002), and other values agree bit for bit."""

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")


@pytest.mark.parametrize(
    "values",
    [
        [1.0, 10.0, 100.0, 1000.0, 1e-3, 1e5],
        [0.0, -1.0, float("inf"), float("nan")],
        list(range(1, 200)),
    ],
)
def test_float32_log10_matches_torch_bit_for_bit(values):
    ours = numtorch.tensor(values, dtype=numtorch.float32).log10().numpy()
    theirs = torch.tensor(values, dtype=torch.float32).log10().numpy()
    np.testing.assert_array_equal(ours, theirs)


def test_printed_log10_of_an_integer_tensor_matches_torch():
    assert repr(numtorch.tensor([10, 100]).log10()) == repr(torch.tensor([10, 100]).log10())
