"""``python -m numtorch.demo``: train a CNN on the shipped digits (``--walkthrough``: the
autograd tour instead)."""

from __future__ import annotations

import argparse
import sys

from .train import DemoConfig, print_summary, run


def main(argv: list[str] | None = None) -> int:
    defaults = DemoConfig()
    parser = argparse.ArgumentParser(
        prog="python -m numtorch.demo",
        description="Train a small CNN on the 8x8 handwritten digits shipped with numtorch "
        "(UCI, CC BY 4.0), evaluate it, save and reload a checkpoint.",
    )
    parser.add_argument("--epochs", type=int, default=defaults.epochs)
    parser.add_argument("--batch-size", type=int, default=defaults.batch_size)
    parser.add_argument("--lr", type=float, default=defaults.lr, help="Adam's learning rate")
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--out", help="folder for the checkpoint (default: a new temporary folder)")
    parser.add_argument(
        "--threads",
        type=int,
        default=defaults.threads,
        help="BLAS threads, set with threadpoolctl when installed (default 1; 0: NumPy's own)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no tqdm progress bars")
    parser.add_argument(
        "--walkthrough", action="store_true", help="run the autograd walkthrough instead"
    )
    args = parser.parse_args(argv)
    if args.walkthrough:
        from .walkthrough import main as walkthrough

        walkthrough()
        return 0
    for name in ("epochs", "batch_size"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    config = DemoConfig(
        epochs=args.epochs,
        batch_size=args.batch_size,
        lr=args.lr,
        seed=args.seed,
        out=args.out,
        progress=not args.no_progress,
        threads=args.threads or None,
    )
    print("numtorch demo: a small CNN learns the 8x8 handwritten digits")
    result = run(config)
    print_summary(result)
    return 0 if result.reload_identical else 1


if __name__ == "__main__":
    sys.exit(main())
