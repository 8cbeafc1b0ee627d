"""The 3-D transposed convolution's offset-by-offset forward against torch's."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch
from numtorch.ops.nn import conv_transpose3d_kernel

torch = pytest.importorskip("torch")

# kernel, stride, padding, dilation, output_padding, batch
CASES = [
    ((3, 5, 2), (2, 1, 1), (0, 4, 2), (1, 1, 1), (0, 0, 0), 2),  # torch's documentation's
    ((3, 3, 3), (2, 2, 2), (0, 0, 0), (1, 1, 1), (1, 1, 0), 1),
    ((2, 3, 1), (1, 3, 2), (1, 2, 0), (2, 1, 3), (0, 2, 1), 2),
    ((1, 1, 1), (1, 1, 1), (0, 0, 0), (1, 1, 1), (0, 0, 0), 1),
    ((4, 2, 3), (3, 1, 2), (3, 1, 2), (1, 2, 1), (2, 0, 1), 1),
    ((5, 5, 5), (1, 1, 1), (3, 3, 3), (1, 1, 1), (0, 0, 0), 1),  # mostly cropped
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("case", range(len(CASES)))
def test_conv_transpose3d_matches_torch(case, dtype):
    kernel, stride, padding, dilation, output_padding, batch = CASES[case]
    rng = np.random.default_rng(case)
    x = rng.standard_normal((batch, 3, 4, 5, 6)).astype(dtype)
    w = rng.standard_normal((3, 2, *kernel)).astype(dtype)
    b = rng.standard_normal(2).astype(dtype)
    args = (stride, padding, output_padding, 1, dilation)
    theirs = torch.nn.functional.conv_transpose3d(
        torch.from_numpy(x), torch.from_numpy(w), torch.from_numpy(b), *args
    )
    ours = numtorch.nn.functional.conv_transpose3d(
        numtorch.from_numpy(x), numtorch.from_numpy(w), numtorch.from_numpy(b), *args
    )
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert str(ours.dtype) == str(theirs.dtype)
    tolerance = 1e-5 if dtype == "float32" else 1e-12
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=tolerance, atol=tolerance)


def test_the_product_blocks_do_not_change_the_result(monkeypatch):
    rng = np.random.default_rng(7)
    x = numtorch.tensor(rng.standard_normal((2, 3, 6, 4, 5)))
    w = numtorch.tensor(rng.standard_normal((3, 4, 2, 3, 2)))

    def run():
        return numtorch.nn.functional.conv_transpose3d(
            x, w, stride=(2, 1, 2), padding=(1, 1, 0), output_padding=(1, 0, 1)
        ).numpy()

    whole = run()
    monkeypatch.setattr(conv_transpose3d_kernel, "PRODUCT_ELEMENTS", 1)  # one plane a block
    np.testing.assert_allclose(run(), whole, rtol=1e-13)


def test_gradients_of_the_3d_transposed_convolution():
    rng = np.random.default_rng(3)
    x = numtorch.tensor(rng.standard_normal((1, 2, 3, 3, 2)), requires_grad=True)
    w = numtorch.tensor(rng.standard_normal((2, 2, 2, 3, 2)), requires_grad=True)
    assert numtorch.autograd.gradcheck(
        lambda x, w: numtorch.nn.functional.conv_transpose3d(x, w, stride=(2, 1, 1), padding=1),
        (x, w),
    )
