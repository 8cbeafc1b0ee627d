"""nn ops on NaN and infinite inputs give torch's values and gradients (torch's kernels skip
a NaN comparison, mask before they multiply, ...), checked against torch itself."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

nan, inf = float("nan"), float("inf")
ROWS = np.array([[nan, 0.3, -0.2, 0.1], [0.5, inf, 0.2, -1.0], [0.1, 0.2, -inf, nan]])


def _run(lib, fn, arrays):
    inputs = [lib.tensor(a, requires_grad=True) for a in arrays]
    out = fn(lib, *inputs)
    out.sum().backward()
    return [out.detach().numpy()] + [x.grad.numpy() for x in inputs]


def _check(fn, *arrays):
    for a, b in zip(_run(numtorch, fn, arrays), _run(torch, fn, arrays)):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=0)


def _margin(**kwargs):
    def fn(t, x):
        options = dict(kwargs)
        if "weight" in options:
            options["weight"] = t.tensor(options["weight"], dtype=x.dtype)
        return t.nn.functional.multi_margin_loss(x, t.tensor([0, 3, 1]), **options)

    return fn


@pytest.mark.parametrize(
    "options",
    [{}, {"p": 2, "reduction": "none"}, {"reduction": "sum", "weight": [1.0, inf, 0.0, 2.0]}],
)
def test_multi_margin_loss_skips_nan_margins(options):
    _check(_margin(**options), ROWS)


SOFTMAX_ROWS = np.array(
    [[inf, 1.0, 2.0], [-inf, -inf, -inf], [nan, 1.0, 2.0], [inf, inf, 1.0], [-inf, 1.0, 2.0]]
)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dim", [0, 1])
def test_softmax_rows_with_an_infinite_maximum_are_nan(name, dim):
    # torch shifts by the plain row maximum: inf - inf makes the whole row NaN
    rows = SOFTMAX_ROWS if dim == 1 else SOFTMAX_ROWS.T.copy()
    for dtype in ("float32", "float64"):
        found = [
            getattr(lib, name)(lib.tensor(rows.astype(dtype)), dim) for lib in (numtorch, torch)
        ]
        np.testing.assert_allclose(found[0].numpy(), found[1].numpy(), rtol=1e-6)


@pytest.mark.parametrize("p, dim", [(2, 0), (1, 1), (3, 0)])
def test_renorm_passes_the_gradient_of_a_nan_slice_through(p, dim):
    # torch: where(norm > maxnorm, ..., grad), and a NaN norm is not above maxnorm
    x = np.array([[nan, 0.3, -2.0, 0.1], [0.5, 1.5, 0.2, -1.0], [0.1, 0.2, -0.4, 0.3]])
    _check(lambda t, x: x.renorm(p, dim, 1.0) * t.tensor(np.arange(12.0).reshape(3, 4)), x)


@pytest.mark.parametrize(
    "name", ["hardtanh", "relu6", "elu", "selu", "celu", "hardshrink", "softshrink"]
)
def test_piecewise_gradients_at_nan_follow_torchs_scalar_kernels(name):
    # torch's scalar loops compare x with each bound, so a NaN takes the branch whose test
    # fails (hardtanh: grad; elu: the positive slope). (Its vectorized loops, used on longer
    # tensors, test the opposite comparison; short tensors run the scalar loop.)
    x = np.array([nan, 0.3, -2.0, 2.0])
    _check(lambda t, x: getattr(t.nn.functional, name)(x), x)


def test_group_norm_folds_the_affine_map_as_torchs_kernel():
    # y = x * (invstd * weight) + (-(invstd * weight) * mean + bias): inf - inf gives NaN
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 4, 3))
    x[0, 0, 0], x[1, 2, 1], x[0, 3, 2] = inf, -inf, nan
    weight, bias = rng.standard_normal(4), rng.standard_normal(4)
    weight[1], bias[2] = inf, -inf
    for args in ((x,), (x, weight, bias), (rng.standard_normal((2, 4, 3)), weight, bias)):
        found = [
            lib.nn.functional.group_norm(lib.tensor(args[0]), 2, *map(lib.tensor, args[1:]))
            for lib in (numtorch, torch)
        ]
        np.testing.assert_allclose(found[0].numpy(), found[1].numpy(), rtol=1e-12)


def test_native_group_norm_refuses_a_strided_input():
    for lib in (numtorch, torch):
        x = lib.ones(3, 4, 2).transpose(0, 2)
        with pytest.raises(RuntimeError, match="is_contiguous"):
            lib.native_group_norm(x, None, None, 2, 4, 3, 2, 1e-5)
