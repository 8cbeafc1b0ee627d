"""Single-precision GEMMs of the model steps in four libraries: NumPy's BLAS (``matmul``, as
numtorch calls it), Intel MKL from its PyPI wheel (``pip install mkl``: ``cblas_sgemm`` of
``libmkl_rt`` through ctypes), BLIS through cython-blis (``pip install blis``:
``blis.py.gemm``) and torch (its own MKL), each when installed, interleaved, one thread each,
best of N by CPU time, in µs. numtorch itself uses NumPy alone (docs/performance.md, "Tried
and not kept", says why).

The products and their layouts are the ones numtorch's kernels run:

- MLP 784-512-512-10 at batch 128 (``bench/nn_steps.py --only mlp``): the forward
  ``x @ W.T`` (the weight's transpose a column-major view), the input gradient ``g @ W``,
  the weight gradient ``g^T x`` (NumPy: ``x.T @ g`` into a column-major buffer, which is
  ``.grad`` transposed).
- One LSTM layer, 32 steps, batch 16, 128 -> 128 (``bench/lstm_step.py``): the input's
  projection ``W_ih (x)^T``, the recurrent ``W_hh h`` (NumPy: two row blocks, Note [Small
  products]), its backward ``W_hh^T d``, and the weight and input gradients.
- ResNet-18's 3×3 stride-1 convolutions at batch 1 and the 7×7 stem (``bench/resnet.py``):
  forward ``W cols``, input gradient ``W^T g``, weight gradient ``g cols^T``.

MKL and BLIS take the operands in place (a row- or column-major operand as it is; BLIS:
C-contiguous, transposed by flag). BLIS runs
the kernel configuration cython-blis picks on this CPU (``BLIS_ARCH_DEBUG=1`` prints it);
its wheel is built single-threaded.

Run: python bench/blas_gemms.py [--repeat R] [--only mlp|lstm|conv]
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # read when NumPy and MKL load
os.environ.setdefault("MKL_NUM_THREADS", "1")

import ctypes
import sys
import time

import numpy as np

try:
    import blis.py as blis_py
except ImportError:
    blis_py = None

try:
    import torch

    torch.set_num_threads(1)
except ImportError:
    torch = None


def _blis(a, b, out, trans1=False, trans2=False):
    if blis_py is None:
        return None
    return lambda: blis_py.gemm(a, b, out=out, trans1=trans1, trans2=trans2, beta=0.0)


def _load_mkl():
    """``cblas_sgemm`` of the mkl wheel's ``libmkl_rt`` (installed beside the interpreter's
    libraries), typed, or None."""
    for version in (3, 2):
        try:
            lib = ctypes.CDLL(os.path.join(sys.prefix, "lib", f"libmkl_rt.so.{version}"))
        except OSError:
            continue
        sgemm = lib.cblas_sgemm
        pointer, size = ctypes.c_void_p, ctypes.c_int
        sgemm.argtypes = [size] * 6 + [ctypes.c_float, pointer, size, pointer, size]
        sgemm.argtypes += [ctypes.c_float, pointer, size]
        buffer = ctypes.create_string_buffer(256)
        lib.MKL_Get_Version_String(buffer, len(buffer))
        return sgemm, buffer.value.decode(errors="replace")
    return None, "not installed"


_ROW_MAJOR, _NO_TRANS, _TRANS = 101, 111, 112
mkl_sgemm, MKL_VERSION = _load_mkl()


def _layout(a):
    """(transpose flag, leading dimension) of a row- or column-major float32 matrix."""
    if a.strides[1] == 4:
        return _NO_TRANS, a.strides[0] // 4
    assert a.strides[0] == 4, "an operand with a unit stride"
    return _TRANS, a.strides[1] // 4


def _mkl(a, b, out, trans1=False, trans2=False):
    """MKL on the same operands as ``_blis`` (in place, a flag for a transposed one)."""
    if mkl_sgemm is None:
        return None
    a, b = (a.T if trans1 else a), (b.T if trans2 else b)
    (ta, lda), (tb, ldb) = _layout(a), _layout(b)
    m, k, n = a.shape[0], a.shape[1], b.shape[1]
    args = (_ROW_MAJOR, ta, tb, m, n, k, 1.0, a.ctypes.data, lda, b.ctypes.data, ldb, 0.0)
    args += (out.ctypes.data, out.strides[0] // 4)

    def product():
        mkl_sgemm(*args)
        return out

    return product


def _torch(fn, *arrays):
    if torch is None:
        return None
    tensors = [torch.from_numpy(a) for a in arrays]
    return lambda: fn(*tensors)


def mlp_cases(rng):
    cases = {}
    for n_in, n_out in ((784, 512), (512, 512), (512, 10)):
        x = rng.standard_normal((128, n_in), dtype=np.float32)
        w = rng.standard_normal((n_out, n_in), dtype=np.float32)
        g = rng.standard_normal((128, n_out), dtype=np.float32)
        y = np.empty((128, n_out), np.float32)
        dx = np.empty((128, n_in), np.float32)
        dw_f = np.empty((n_in, n_out), np.float32, order="F")
        dw = np.empty((n_out, n_in), np.float32)
        tag = f"{n_in}->{n_out}"
        cases[f"mlp fwd x W^T {tag}"] = (
            lambda x=x, w=w: np.matmul(x, w.T),
            _mkl(x, w, y, trans2=True),
            _blis(x, w, y, trans2=True),
            _torch(lambda x, w: x @ w.t(), x, w),
        )
        if n_in != 784:
            cases[f"mlp dx g W {tag}"] = (
                lambda g=g, w=w: np.matmul(g, w),
                _mkl(g, w, dx),
                _blis(g, w, dx),
                _torch(lambda g, w: g @ w, g, w),
            )
        cases[f"mlp dW g^T x {tag}"] = (
            lambda x=x, g=g, out=dw_f: np.matmul(x.T, g, out=out),
            _mkl(g, x, dw, trans1=True),
            _blis(g, x, dw, trans1=True),
            _torch(lambda g, x: g.t() @ x, g, x),
        )
    return cases


def lstm_cases(rng, seq=32, batch=16, size=128, n_in=128):
    w_ih = rng.standard_normal((4 * size, n_in), dtype=np.float32)
    w_hh = rng.standard_normal((4 * size, size), dtype=np.float32)
    x = rng.standard_normal((seq * batch, n_in), dtype=np.float32)
    h = rng.standard_normal((size, batch), dtype=np.float32)
    d = rng.standard_normal((4 * size, batch), dtype=np.float32)
    flat = rng.standard_normal((4 * size, seq * batch), dtype=np.float32)
    prev = rng.standard_normal((seq * batch, size), dtype=np.float32)
    blocks = w_hh.reshape(2, 2 * size, size)
    gates = np.empty((2, 2 * size, batch), np.float32)
    w_hh_t = np.ascontiguousarray(w_hh.T)
    return {
        "lstm projection W_ih x^T": (
            lambda: np.matmul(w_ih, x.T),
            _mkl(w_ih, x, np.empty((4 * size, seq * batch), np.float32), trans2=True),
            _blis(w_ih, x, np.empty((4 * size, seq * batch), np.float32), trans2=True),
            _torch(lambda w, x: w @ x.t(), w_ih, x),
        ),
        "lstm step W_hh h": (
            lambda: np.matmul(blocks, h, out=gates),
            _mkl(w_hh, h, gates.reshape(4 * size, batch)),
            _blis(w_hh, h, gates.reshape(4 * size, batch)),
            _torch(lambda w, h: w @ h, w_hh, h),
        ),
        "lstm step back W_hh^T d": (
            lambda: np.matmul(w_hh_t, d),
            _mkl(w_hh, d, np.empty((size, batch), np.float32), trans1=True),
            _blis(w_hh, d, np.empty((size, batch), np.float32), trans1=True),
            _torch(lambda w, d: w.t() @ d, w_hh, d),
        ),
        "lstm dx flat^T W_ih": (
            lambda: np.matmul(flat.T, w_ih),
            _mkl(flat, w_ih, np.empty((seq * batch, n_in), np.float32), trans1=True),
            _blis(flat, w_ih, np.empty((seq * batch, n_in), np.float32), trans1=True),
            _torch(lambda f, w: f.t() @ w, flat, w_ih),
        ),
        "lstm dW flat x": (
            lambda: np.matmul(flat, x),
            _mkl(flat, x, np.empty((4 * size, n_in), np.float32)),
            _blis(flat, x, np.empty((4 * size, n_in), np.float32)),
            _torch(lambda f, x: f @ x, flat, x),
        ),
        "lstm dW_hh flat prev": (
            lambda: np.matmul(flat, prev),
            _mkl(flat, prev, np.empty((4 * size, size), np.float32)),
            _blis(flat, prev, np.empty((4 * size, size), np.float32)),
            _torch(lambda f, p: f @ p, flat, prev),
        ),
    }


CONV_LAYERS = ((3, 64, 7, 112), (64, 64, 3, 56), (128, 128, 3, 28), (256, 256, 3, 14))
CONV_LAYERS += ((512, 512, 3, 7),)


def conv_cases(rng):
    cases = {}
    for c, o, k, side in CONV_LAYERS:
        rows, length = c * k * k, side * side
        w = rng.standard_normal((o, rows), dtype=np.float32)
        cols = rng.standard_normal((rows, length), dtype=np.float32)
        g = rng.standard_normal((o, length), dtype=np.float32)
        tag = f"{o}x{rows}x{length}"
        cases[f"conv fwd W cols {tag}"] = (
            lambda w=w, cols=cols: np.matmul(w, cols),
            _mkl(w, cols, np.empty((o, length), np.float32)),
            _blis(w, cols, np.empty((o, length), np.float32)),
            _torch(lambda w, c: w @ c, w, cols),
        )
        if c != 3:
            cases[f"conv dx W^T g {tag}"] = (
                lambda w=w, g=g: np.matmul(w.T, g),
                _mkl(w, g, np.empty((rows, length), np.float32), trans1=True),
                _blis(w, g, np.empty((rows, length), np.float32), trans1=True),
                _torch(lambda w, g: w.t() @ g, w, g),
            )
        cases[f"conv dW g cols^T {tag}"] = (
            lambda g=g, cols=cols: np.matmul(g, cols.T),
            _mkl(g, cols, np.empty((o, rows), np.float32), trans2=True),
            _blis(g, cols, np.empty((o, rows), np.float32), trans2=True),
            _torch(lambda g, c: g @ c.t(), g, cols),
        )
    return cases


def check(cases):
    """Each library's product equals NumPy's within float32 rounding (a wrong layout would
    not); the libraries write into buffers of their own, NumPy returns its result."""
    for name, (ours, *others, _) in cases.items():
        expected = np.asarray(ours())
        if "g^T x" in name:  # NumPy's column-major buffer is the transposed result
            expected = expected.T
        scale = np.abs(expected).max()
        for other in others:
            if other is None:
                continue
            got = other()
            assert got is not None, name
            assert np.allclose(got, expected.reshape(got.shape), atol=1e-4 * scale), name


def blas_description() -> str:
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return "threadpoolctl not installed"
    return "; ".join(
        f"{i.get('internal_api')} {i.get('version')} kernel {i.get('architecture')}"
        for i in threadpool_info()
        if i.get("user_api") == "blas"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--only", choices=("mlp", "lstm", "conv"))
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    groups = {"mlp": mlp_cases, "lstm": lstm_cases, "conv": conv_cases}
    cases = {}
    for name, make in groups.items():
        if args.only in (None, name):
            cases.update(make(rng))
    check(cases)
    print(f"NumPy BLAS: {blas_description()}")
    print(f"MKL: {MKL_VERSION}")
    print(f"BLIS: {'cython-blis ' + _blis_version() if blis_py else 'not installed'}")
    names = ("numpy", "mkl", "blis", "torch")
    ratios = ("mkl/np", "blis/np", "np/torch", "mkl/torch")
    header = f"{f'product (µs, best of {args.repeat})':36s}"
    print(header + "".join(f"{n:>8s}" for n in names) + "".join(f"{n:>10s}" for n in ratios))
    totals = {}
    for name, fns in cases.items():
        best = [float("inf")] * 4
        for _ in range(args.repeat):
            for k, fn in enumerate(fns):
                if fn is None:
                    continue
                start = time.thread_time()
                fn()
                best[k] = min(best[k], time.thread_time() - start)
        total = totals.setdefault(name.split()[0], [0.0] * 4)
        for k in range(4):
            total[k] += best[k]
        print(_row(name, best))
    for group, total in totals.items():
        print(_row(f"{group}: all", total))


def _row(name, best):
    np_us, mkl_us, blis_us, torch_us = (t * 1e6 for t in best)
    ratios = (mkl_us / np_us, blis_us / np_us, np_us / torch_us, mkl_us / torch_us)
    return (
        f"{name:36s}"
        + "".join(
            f"{t:8.1f}" if t != float("inf") else f"{'-':>8s}"
            for t in (np_us, mkl_us, blis_us, torch_us)
        )
        + "".join(
            f"{r:10.2f}" if r == r and r not in (0.0, float("inf")) else f"{'-':>10s}"
            for r in ratios
        )
    )


def _blis_version() -> str:
    from blis import about

    return about.__version__


if __name__ == "__main__":
    main()
