"""Training-step time of an LSTM, numtorch against torch when installed.

One step: a one-layer ``nn.LSTM`` over (seq, batch, input) float32 inputs, a ``Linear`` head
on the last time step, cross-entropy, ``zero_grad``, backward, and a plain SGD update under
``no_grad``. Both libraries run the same code with the same weights and data; runs are
interleaved and the best of each kept. On float32 both run each LSTM layer as one op (torch:
oneDNN's fused kernel; numtorch: ``mkldnn_rnn_layer``, its time loop on NumPy arrays).

Run: python bench/lstm_step.py [--repeat R] [--seq 32] [--batch 16] [--hidden 128]
     [--input 128] [--threads N] [--cpu-time]
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


class Model:
    """LSTM then a linear classifier on the last step's output."""

    def __init__(self, lib, input_size, hidden, classes=10):
        self.lstm = lib.nn.LSTM(input_size, hidden)
        self.head = lib.nn.Linear(hidden, classes)
        self.modules = lib.nn.ModuleList([self.lstm, self.head])

    def __call__(self, x):
        out, _ = self.lstm(x)
        return self.head(out[-1])


def make_step(lib, model, x, y, lr=0.01):
    loss_fn = lib.nn.CrossEntropyLoss()
    params = list(model.modules.parameters())

    def step():
        loss = loss_fn(model(x), y)
        model.modules.zero_grad(set_to_none=True)
        loss.backward()
        with lib.no_grad():
            for p in params:
                p.add_(p.grad, alpha=-lr)

    return step


def cases(seq, batch, hidden, input_size) -> dict:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((seq, batch, input_size)).astype(np.float32)
    y = rng.integers(0, 10, batch)
    libs = {"numtorch": numtorch}
    try:
        import torch

        libs["torch"] = torch
    except ImportError:
        pass
    numtorch.manual_seed(0)
    reference = Model(numtorch, input_size, hidden)
    steps = {}
    for name, lib in libs.items():
        model = Model(lib, input_size, hidden)
        state = {k: lib.tensor(v.numpy()) for k, v in reference.modules.state_dict().items()}
        model.modules.load_state_dict(state)
        steps[name] = make_step(lib, model, lib.tensor(x), lib.tensor(y))
    return steps


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seq", type=int, default=32)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--input", type=int, default=128)
    parser.add_argument("--threads", type=int, help="threads for both libraries")
    parser.add_argument("--cpu-time", action="store_true", help=CPU_TIME_HELP)
    args = parser.parse_args()
    steps = cases(args.seq, args.batch, args.hidden, args.input)
    if "torch" in steps and args.threads:
        import torch

        torch.set_num_threads(args.threads)
    for fn in steps.values():  # warm up caches and allocators
        fn()
    best = best_of_interleaved(steps, args.repeat, clock=clock_for(args.cpu_time))
    threads = os.environ.get("OPENBLAS_NUM_THREADS", "default")
    print(f"NumPy BLAS threads: {threads}; cores: {os.cpu_count()}")
    shape = f"seq {args.seq}, batch {args.batch}, input {args.input}, hidden {args.hidden}"
    line = f"LSTM train step ({shape}): numtorch {best['numtorch'] * 1e3:7.2f} ms"
    if "torch" in best:
        import torch

        ratio = best["numtorch"] / best["torch"]
        line += f"   torch {best['torch'] * 1e3:7.2f} ms ({torch.get_num_threads()} threads)"
        line += f"   ratio {ratio:5.2f}"
    print(line)


if __name__ == "__main__":
    main()
