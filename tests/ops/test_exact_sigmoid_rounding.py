"""float32 sigmoid and silu with torch's bits: SLEEF's vector exp in the vector part of the
loop, the C library's expf in the scalar part (Note [Exp in torch's vector kernels]).
NumPy's float32 exp gave another last bit for ~15% of values."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch
from numtorch.backend.sleef import expf_u10

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.parity


LAYOUTS = {
    "contiguous": lambda t: t,
    "transposed": lambda t: t.T,
    "sliced": lambda t: t[:, :40],
    "strided": lambda t: t[:, ::2],
}


CASES = [((5,), "contiguous"), ((33,), "contiguous"), ((4096,), "contiguous")]
CASES += [((64, 48), layout) for layout in LAYOUTS]


@pytest.mark.parametrize(("shape", "layout"), CASES)
@pytest.mark.parametrize("op", ["sigmoid", "silu"])
def test_sigmoid_and_silu_take_torchs_exp_in_each_loop(shape, layout, op):
    x = (np.random.default_rng(0).standard_normal(shape) * 5).astype(np.float32)

    def run(lib):
        view = LAYOUTS[layout](lib.from_numpy(x.copy()))
        return getattr(lib.nn.functional, op)(view).numpy()

    np.testing.assert_array_equal(run(numtorch), run(torch))


def test_sleef_exp_follows_the_vector_kernel_over_the_whole_range():
    # torch's sigmoid over a vector-sized row is 1 / (1 + SLEEF's exp(-x)) exactly
    x = np.linspace(-110.0, 110.0, 4096, dtype=np.float32)
    values = [0.0, -0.0, 88.7, -88.7, 103.9, -103.99, 1e-30, np.inf, -np.inf, np.nan]
    x[: len(values)] = values
    one = np.float32(1)
    with np.errstate(all="ignore"):
        ours = one / (one + expf_u10(-x))
    np.testing.assert_array_equal(ours, torch.sigmoid(torch.from_numpy(x)).numpy())
