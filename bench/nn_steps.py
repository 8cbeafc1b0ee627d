"""Training-step times of an MLP and a small CNN, numtorch against torch when installed.

One step is forward, cross-entropy loss, ``zero_grad``, backward, and a plain SGD update
under ``no_grad`` (``p.add_(p.grad, alpha=-lr)``), or with ``--optimizer`` each library's
``optim.SGD``. Both libraries
run the same code with the same weights and data, each with its default threads (torch's
intra-op pool; NumPy's BLAS pool). Runs are interleaved and the best of each is kept, so a
machine whose speed drifts still gives fair ratios.

Run: python bench/nn_steps.py [--repeat R] [--only mlp|cnn] [--optimizer] [--threads N] [--cpu-time]

``--threads N`` runs both libraries on N threads (torch.set_num_threads, and
OPENBLAS_NUM_THREADS for NumPy, which must be set before NumPy loads).
"""

from __future__ import annotations

import argparse
import os
import sys

if "--threads" in sys.argv:  # NumPy's BLAS reads its thread count when it loads
    os.environ["OPENBLAS_NUM_THREADS"] = sys.argv[sys.argv.index("--threads") + 1]

import numpy as np
from _timing import CPU_TIME_HELP, best_of_interleaved, clock_for

import numtorch

MLP_BATCH = 128
CNN_BATCH = 64


def mlp(lib):
    nn = lib.nn
    return nn.Sequential(
        nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10)
    )


def cnn(lib):
    nn = lib.nn
    return nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(32 * 7 * 7, 10),
    )


def make_step(lib, model, x, y, lr=0.01, optimizer=False):
    loss_fn = lib.nn.CrossEntropyLoss()
    params = list(model.parameters())
    if optimizer:
        opt = lib.optim.SGD(params, lr=lr)

        def optimizer_step():
            loss = loss_fn(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()

        return optimizer_step

    def step():
        loss = loss_fn(model(x), y)
        model.zero_grad(set_to_none=True)
        loss.backward()
        with lib.no_grad():
            for p in params:
                p.add_(p.grad, alpha=-lr)

    return step


def cases(only=None, optimizer=False) -> dict:
    rng = np.random.default_rng(0)
    data = {
        "mlp": (mlp, rng.standard_normal((MLP_BATCH, 784)), rng.integers(0, 10, MLP_BATCH)),
        "cnn": (cnn, rng.standard_normal((CNN_BATCH, 1, 28, 28)), rng.integers(0, 10, CNN_BATCH)),
    }
    libs = {"numtorch": numtorch}
    try:
        import torch

        libs["torch"] = torch
    except ImportError:
        pass
    steps = {}
    for name, (build, x, y) in data.items():
        if only and name != only:
            continue
        numtorch.manual_seed(0)
        reference = build(numtorch)
        for lib_name, lib in libs.items():
            model = build(lib)
            state = {k: lib.tensor(v.numpy()) for k, v in reference.state_dict().items()}
            model.load_state_dict(state)
            inputs = lib.tensor(x.astype(np.float32))
            targets = lib.tensor(y)
            steps[(name, lib_name)] = make_step(lib, model, inputs, targets, optimizer=optimizer)
    return steps


def measure(repeat=30, only=None, optimizer=False, cpu_time=False) -> dict:
    steps = cases(only, optimizer)
    for fn in steps.values():  # warm up caches and allocators
        fn()
    return best_of_interleaved(steps, repeat, clock=clock_for(cpu_time))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--only", choices=("mlp", "cnn"))
    parser.add_argument("--optimizer", action="store_true", help="update with optim.SGD")
    parser.add_argument("--threads", type=int, help="threads for both libraries")
    parser.add_argument("--cpu-time", action="store_true", help=CPU_TIME_HELP)
    args = parser.parse_args()
    if args.threads:
        try:
            import torch

            torch.set_num_threads(args.threads)
        except ImportError:
            pass
    best = measure(args.repeat, args.only, args.optimizer, args.cpu_time)
    threads = os.environ.get("OPENBLAS_NUM_THREADS", "default")
    print(f"NumPy BLAS threads: {threads}; cores: {os.cpu_count()}")
    try:
        import torch

        print(f"torch {torch.__version__} intra-op threads: {torch.get_num_threads()}")
    except ImportError:
        print("torch not installed: numtorch times only")
    for model, batch, target in (("mlp", MLP_BATCH, 1.0), ("cnn", CNN_BATCH, 1.2)):
        if (model, "numtorch") not in best:
            continue
        ours = best[(model, "numtorch")]
        update = "optim.SGD" if args.optimizer else "plain SGD"
        line = f"{model} train step (batch {batch}, {update}): numtorch {ours * 1e3:7.2f} ms"
        if (model, "torch") in best:
            theirs = best[(model, "torch")]
            line += f"   torch {theirs * 1e3:7.2f} ms   ratio {ours / theirs:5.2f}"
            line += f"  (target <= {target})"
        print(line)


if __name__ == "__main__":
    main()
