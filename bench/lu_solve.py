"""LU factorization and solve time at n x n (default 800), numtorch against torch, one thread
each; numtorch uses SciPy's LAPACK when installed, ``--numpy`` forces its NumPy path.

Run: python bench/lu_solve.py [--n N] [--repeat R] [--numpy]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from _timing import best_of_interleaved, libraries

from numtorch.backend import lapack


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=800)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--numpy", action="store_true", help="numtorch without SciPy")
    args = parser.parse_args()
    lapack.enabled = not args.numpy
    # load SciPy's own BLAS before limiting threads, so that the limit reaches it too
    lapack.trsm(np.eye(2), np.ones((2, 1)), upper=True, left=True, unitriangular=False)
    try:
        from threadpoolctl import threadpool_info, threadpool_limits

        threadpool_limits(1)
        for info in threadpool_info():  # NumPy's and SciPy's BLAS are separate libraries
            name = info["filepath"].rsplit("/", 1)[-1]
            print(f"BLAS {name}: {info.get('architecture')} kernel, {info['num_threads']} thread")
    except ImportError:
        print("threadpoolctl not installed: NumPy's BLAS runs on its default threads")
    rng = np.random.default_rng(0)
    a = rng.standard_normal((args.n, args.n))
    b = rng.standard_normal((args.n, 8))
    cases = {}
    for name, lib in libraries().items():
        A, B = lib.tensor(a), lib.tensor(b)

        def factor_solve(lib=lib, A=A, B=B):
            return lib.linalg.lu_solve(*lib.linalg.lu_factor(A), B)

        def triangular(lib=lib, A=A, B=B):
            return lib.linalg.solve_triangular(A, B, upper=True)

        cases[(name, "lu_factor + lu_solve")] = factor_solve
        cases[(name, "solve_triangular")] = triangular
    best = best_of_interleaved(cases, args.repeat, clock=time.thread_time)
    for op in ("lu_factor + lu_solve", "solve_triangular"):
        ours = best[("numtorch", op)]
        theirs = best.get(("torch", op))
        ratio = f"{ours / theirs:.2f}" if theirs else "-"
        line = f"{op:<22} numtorch {ours * 1e3:8.2f} ms"
        if theirs:
            line += f"  torch {theirs * 1e3:8.2f} ms  ratio {ratio}"
        print(line)


if __name__ == "__main__":
    main()
