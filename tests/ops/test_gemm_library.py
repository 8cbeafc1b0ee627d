"""The products' optional GEMM library (Note [GEMM library] in ``numtorch/backend/gemm.py``):
MKL, when its wheel is installed, and NumPy give the same products within float rounding, in
every layout the kernels hand over; whatever MKL cannot take as it is goes to NumPy."""

import os
import subprocess
import sys

import numpy as np
import pytest

import numtorch
from numtorch.backend import gemm


@pytest.fixture
def both_libraries():
    """Runs ``fn`` under NumPy and MKL; returns the two results (skips without MKL)."""
    active = gemm.library()

    def run(fn):
        results = []
        for name in ("numpy", "mkl"):
            if not gemm.use_library(name).startswith(name):
                pytest.skip("MKL (the mkl wheel) is not installed")
            results.append(fn())
        return results

    yield run
    gemm.use_library("numpy" if active == "numpy" else "mkl")


@pytest.fixture
def mkl_calls(monkeypatch):
    """The (m, n, k) of each product MKL ran while the test runs (skips without MKL)."""
    active = gemm.library()
    if not gemm.use_library("mkl").startswith("mkl"):
        pytest.skip("MKL (the mkl wheel) is not installed")
    calls = []
    product = gemm._product

    def counted(fn, a, b, out):
        ran = product(fn, a, b, out)
        if ran:
            calls.append((a.shape[0], b.shape[1], a.shape[1]))
        return ran

    monkeypatch.setattr(gemm, "_product", counted)
    yield calls
    gemm.use_library("numpy" if active == "numpy" else "mkl")


def _close(a, b, dtype):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape and a.dtype == b.dtype
    rtol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol * max(1.0, np.abs(b).max()))


rng = np.random.default_rng(0)


def _matrix(shape, dtype, order="C"):
    return np.asarray(rng.standard_normal(shape), dtype=dtype, order=order)


# (m, k, n) of the model steps' classes: MLP forward and gradients, LSTM projection and
# weight gradient, a convolution's forward and weight gradient
SHAPES = [(128, 784, 512), (512, 128, 784), (512, 512, 128), (64, 576, 3136), (576, 3136, 64)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("m,k,n", SHAPES)
@pytest.mark.parametrize("layout", ["rows", "a transposed", "b transposed", "strided rows"])
def test_products_agree(both_libraries, mkl_calls, dtype, m, k, n, layout):
    a = _matrix((k, m), dtype).T if layout == "a transposed" else _matrix((m, k), dtype)
    b = _matrix((n, k), dtype).T if layout == "b transposed" else _matrix((k, n), dtype)
    if layout == "strided rows":  # a leading dimension longer than the row
        a = _matrix((m, k + 8), dtype)[:, :k]
    ours, theirs = both_libraries(lambda: gemm.matmul(a, b))
    _close(theirs, ours, dtype)
    assert theirs.flags.c_contiguous
    assert mkl_calls == [(m, n, k)]


@pytest.mark.parametrize("order", ["C", "F", "slice"])
def test_into_given_output(both_libraries, mkl_calls, order):
    a, b = _matrix((512, 128), np.float32), _matrix((128, 784), np.float32)
    outs = []

    def into():
        if order == "slice":
            out = np.full((520, 800), np.nan, np.float32)[:512, :784]
        else:
            out = np.full((512, 784), np.nan, np.float32, order=order)
        outs.append(out)
        assert gemm.matmul(a, b, out=out) is out
        return out

    ours, theirs = both_libraries(into)
    _close(theirs, ours, np.float32)  # the NaNs it held are not read (beta = 0)
    assert len(mkl_calls) == 1


def test_stacks_and_broadcasting(both_libraries, mkl_calls):
    a, b = _matrix((2, 1, 64, 576), np.float32), _matrix((3, 576, 784), np.float32)
    ours, theirs = both_libraries(lambda: gemm.matmul(a, b))
    _close(theirs, ours, np.float32)
    assert theirs.shape == (2, 3, 64, 784) and len(mkl_calls) == 6


@pytest.mark.parametrize(
    "case",
    [
        "small",
        "thin inner",
        "int64",
        "complex64",
        "mixed dtypes",
        "no unit stride",
        "reversed rows",
        "overlapping out",
        "long stack",
        "vector",
    ],
)
def test_numpy_runs_the_rest(mkl_calls, case):
    f32 = np.float32
    a, b = _matrix((256, 256), f32), _matrix((256, 256), f32)
    out = None
    if case == "small":
        a, b = _matrix((128, 512), f32), _matrix((512, 10), f32)
    elif case == "thin inner":
        a, b = _matrix((576, 64), f32), _matrix((64, 3136), f32)
    elif case == "int64":
        a, b = a.astype(np.int64), b.astype(np.int64)
    elif case == "complex64":
        a = a.astype(np.complex64)
        b = b.astype(np.complex64)
    elif case == "mixed dtypes":
        b = b.astype(np.float64)
    elif case == "no unit stride":
        a = _matrix((512, 512), f32)[::2, ::2]
    elif case == "reversed rows":
        a = a[::-1]
    elif case == "overlapping out":
        buffer = _matrix((256, 512), f32)
        a, out = buffer[:, :256], buffer[:, 256:]
    elif case == "long stack":
        a, b = _matrix((65, 128, 128), f32), _matrix((128, 128), f32)
    elif case == "vector":
        b = _matrix((256,), f32)
    expected = np.matmul(a.copy(), b)
    got = gemm.matmul(a, b, out=out)
    np.testing.assert_array_equal(got, expected)  # NumPy's own result, bit for bit
    assert mkl_calls == []


def test_errors_are_numpys():
    a, b = _matrix((300, 256), np.float32), _matrix((255, 300), np.float32)
    with pytest.raises(ValueError, match="mismatch"):
        gemm.matmul(a, b)
    with pytest.raises(ValueError, match="expected 'mkl' or 'numpy'"):
        gemm.use_library("openblas")


def test_read_only_output_is_refused():
    a, b = _matrix((256, 256), np.float32), _matrix((256, 256), np.float32)
    out = np.zeros((256, 256), np.float32)
    out.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        gemm.matmul(a, b, out=out)
    assert not out.any()


def test_environment_keeps_numpy():
    code = "from numtorch.backend import gemm; import sys; print(gemm.library())"
    env = dict(os.environ, NUMTORCH_GEMM="numpy")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.stdout.strip() == "numpy", done.stderr


def _linear_step():
    numtorch.manual_seed(0)
    layer = numtorch.nn.Linear(784, 512)
    x = numtorch.randn(128, 784, requires_grad=True)
    y = layer(x)
    y.square().sum().backward()
    return y.detach().numpy(), layer.weight.grad.numpy(), x.grad.numpy()


def _conv_step():
    numtorch.manual_seed(0)
    conv = numtorch.nn.Conv2d(64, 64, 3, padding=1)
    x = numtorch.randn(1, 64, 28, 28, requires_grad=True)
    y = conv(x)
    y.square().sum().backward()
    return y.detach().numpy(), conv.weight.grad.numpy(), x.grad.numpy()


def _lstm_step():
    numtorch.manual_seed(0)
    lstm = numtorch.nn.LSTM(128, 128)
    x = numtorch.randn(32, 16, 128, requires_grad=True)
    out, _ = lstm(x)
    out.square().sum().backward()
    return out.detach().numpy(), lstm.weight_ih_l0.grad.numpy(), lstm.weight_hh_l0.grad.numpy()


@pytest.mark.parametrize("step", [_linear_step, _conv_step, _lstm_step])
def test_layers_agree(both_libraries, step):
    ours, theirs = both_libraries(step)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(b, a, rtol=1e-4, atol=1e-4 * np.abs(a).max())
