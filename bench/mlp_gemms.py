"""The eight matrix products of an MLP 784-512-512-10 training step at batch 128 (no input
gradient for the first layer, whose input needs none), NumPy's BLAS against torch's, one
thread each, interleaved, best of N by CPU time.

Each product is run in the layouts numtorch hands to NumPy: the forward ``x @ W.T`` (the
weight's transpose as a column-major view), the input gradient ``g @ W``, and the weight
gradient written column-major as ``x.T @ g`` (so that, transposed back, it is the weight's
C-contiguous ``.grad``); torch runs ``x @ W.t()``, ``g @ W`` and ``g.t() @ x``. The BLAS
library and kernel come from threadpoolctl when it is installed.

Run: python bench/mlp_gemms.py [--repeat R]
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # read when NumPy loads

import time

import numpy as np

BATCH = 128
LAYERS = ((784, 512), (512, 512), (512, 10))


def products(rng):
    """name -> (numpy callable, torch callable or None)."""
    try:
        import torch

        torch.set_num_threads(1)
    except ImportError:
        torch = None
    cases = {}
    for n_in, n_out in LAYERS:
        x = rng.standard_normal((BATCH, n_in)).astype(np.float32)
        w = rng.standard_normal((n_out, n_in)).astype(np.float32)
        g = rng.standard_normal((BATCH, n_out)).astype(np.float32)
        weight_grad = np.empty((n_in, n_out), np.float32, order="F")

        def forward(x=x, w=w):
            return np.matmul(x, w.T)

        def input_grad(g=g, w=w):
            return np.matmul(g, w)

        def weight_gradient(x=x, g=g, out=weight_grad):
            return np.matmul(x.T, g, out=out)

        ours = {"forward x W^T": forward, "weight grad g^T x": weight_gradient}
        if n_in != LAYERS[0][0]:
            ours["input grad g W"] = input_grad
        theirs = {}
        if torch is not None:
            tx, tw, tg = (torch.from_numpy(a) for a in (x, w, g))
            theirs = {
                "forward x W^T": lambda tx=tx, tw=tw: tx @ tw.t(),
                "input grad g W": lambda tg=tg, tw=tw: tg @ tw,
                "weight grad g^T x": lambda tg=tg, tx=tx: tg.t() @ tx,
            }
        for name, fn in ours.items():
            cases[f"{name} ({n_in}->{n_out})"] = (fn, theirs.get(name))
    return cases


def blas_description() -> str:
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return "threadpoolctl not installed"
    found = [
        f"{i.get('internal_api')} {i.get('version')} kernel {i.get('architecture')}, "
        f"{i.get('num_threads')} thread(s)"
        for i in threadpool_info()
        if i.get("user_api") == "blas"
    ]
    return "; ".join(found) or "no BLAS found"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    cases = products(np.random.default_rng(0))
    print(f"NumPy BLAS: {blas_description()}")
    print(f"OPENBLAS_CORETYPE: {os.environ.get('OPENBLAS_CORETYPE', 'not set')}")
    total_ours = total_theirs = 0.0
    for name, (ours, theirs) in cases.items():
        best = [float("inf"), float("inf")]
        for _ in range(args.repeat):
            for k, fn in enumerate((ours, theirs)):
                if fn is None:
                    continue
                start = time.thread_time()
                fn()
                best[k] = min(best[k], time.thread_time() - start)
        total_ours += best[0]
        line = f"{name:34s} numpy {best[0] * 1e6:7.1f} us"
        if theirs is not None:
            total_theirs += best[1]
            line += f"   torch {best[1] * 1e6:7.1f} us   ratio {best[0] / best[1]:5.2f}"
        print(line)
    line = f"{'all eight':34s} numpy {total_ours * 1e3:7.3f} ms"
    if total_theirs:
        line += f"   torch {total_theirs * 1e3:7.3f} ms   ratio {total_ours / total_theirs:5.2f}"
    print(line)


if __name__ == "__main__":
    main()
