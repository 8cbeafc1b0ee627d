"""The training demo: a small CNN learns the shipped 8x8 digits, then a checkpoint round trip.

Everything here is ordinary torch code run with ``import numtorch as torch``: a seeded
``random_split``, ``DataLoader``, ``nn.Module`` with batch norm and dropout, ``optim.Adam``,
evaluation under ``model.eval()`` and ``torch.no_grad()``, ``torch.save``/``torch.load``.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from dataclasses import dataclass

import numtorch as torch
from numtorch import nn
from numtorch.utils.data import DataLoader, random_split

from .digits import digits_dataset


class DigitsCNN(nn.Module):
    """Two 3x3 conv + batch norm + ReLU layers, a 2x2 max pool, dropout, a linear classifier.

    Example::

        >>> import numtorch as torch
        >>> from numtorch.demo.train import DigitsCNN
        >>> DigitsCNN()(torch.zeros(5, 1, 8, 8)).shape
        torch.Size([5, 10])
    """

    def __init__(self, num_classes: int = 10) -> None:
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1, bias=False),
            nn.BatchNorm2d(16),
            nn.ReLU(),
            nn.Conv2d(16, 32, 3, padding=1, bias=False),
            nn.BatchNorm2d(32),
            nn.ReLU(),
            nn.MaxPool2d(2),  # 8x8 -> 4x4
        )
        self.classifier = nn.Sequential(
            nn.Flatten(), nn.Dropout(0.25), nn.Linear(32 * 4 * 4, num_classes)
        )

    def forward(self, x):
        return self.classifier(self.features(x))


@dataclass
class DemoConfig:
    epochs: int = 8
    batch_size: int = 32
    lr: float = 3e-3
    seed: int = 0
    out: str | None = None  # folder for the checkpoint; None: a new temporary folder
    progress: bool = True  # a tqdm bar per epoch when tqdm is installed
    threads: int | None = 1  # BLAS threads (None: leave NumPy's setting)


@dataclass
class DemoResult:
    accuracy: float
    correct: int
    test_size: int
    train_size: int
    parameters: int
    train_seconds: float
    total_seconds: float
    checkpoint: str
    checkpoint_bytes: int
    reload_identical: bool


@contextlib.contextmanager
def blas_threads(threads: int | None):
    """Limit NumPy's BLAS threads with threadpoolctl (optional) inside the block; yields a
    line saying what was done.

    The demo's matrices are small: a second BLAS thread gains little, and on a busy
    machine threads that wait for a taken core make each product 10-50x slower.
    """
    if threads is None:
        yield "BLAS threads: NumPy's default"
        return
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        yield (
            "BLAS threads: NumPy's default (install threadpoolctl, e.g. the 'demo' extra, "
            "or set OPENBLAS_NUM_THREADS before starting Python, to limit them)"
        )
        return
    with threadpool_limits(limits=threads, user_api="blas"):
        yield f"BLAS threads: {threads}"


def _progress_bar(steps: int, description: str, enabled: bool):
    """A tqdm bar for ``steps`` updates (None when disabled or tqdm is missing)."""
    if not enabled:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=steps, desc=description, dynamic_ncols=True)


def predict(model: nn.Module, loader: DataLoader) -> tuple[torch.Tensor, torch.Tensor]:
    """Logits and labels over ``loader``, in eval mode (batch norm uses its running
    statistics, dropout is off) and without recording a graph."""
    was_training = model.training
    model.eval()
    logits, labels = [], []
    with torch.no_grad():
        for x, y in loader:
            logits.append(model(x))
            labels.append(y)
    model.train(was_training)
    return torch.cat(logits), torch.cat(labels)


def accuracy(logits: torch.Tensor, labels: torch.Tensor) -> tuple[float, int]:
    correct = int((logits.argmax(dim=1) == labels).sum().item())
    return correct / len(labels), correct


def run(config: DemoConfig) -> DemoResult:
    """Train, evaluate, save, reload and compare; print as it goes and return the numbers."""
    with blas_threads(config.threads) as threads:
        print(threads)
        return _run(config)


def train_one_epoch(model, loader, optimizer, loss_fn, bar=None) -> float:
    """One pass over ``loader`` in train mode; returns the mean loss per image."""
    model.train()
    total_loss, seen = 0.0, 0
    for x, y in loader:
        loss = loss_fn(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total_loss += loss.item() * len(y)
        seen += len(y)
        if bar is not None:
            bar.set_postfix(loss=f"{total_loss / seen:.3f}", refresh=False)
            bar.update()
    return total_loss / seen


def checkpoint_round_trip(model, loader, out: str | None) -> tuple[str, bool]:
    """Save ``model``'s state dict, load it into a fresh ``DigitsCNN``; returns the path and
    whether the reloaded model gives exactly the same logits over ``loader``."""
    out = out or tempfile.mkdtemp(prefix="numtorch-demo-")
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "digits_cnn.pt")  # torch.save's format: torch.load reads it too
    torch.save(model.state_dict(), path)
    reloaded = DigitsCNN()
    reloaded.load_state_dict(torch.load(path))
    return path, torch.equal(predict(reloaded, loader)[0], predict(model, loader)[0])


def _run(config: DemoConfig) -> DemoResult:
    start = time.perf_counter()
    torch.manual_seed(config.seed)
    dataset = digits_dataset()
    train_set, test_set = random_split(
        dataset, [0.8, 0.2], generator=torch.Generator().manual_seed(config.seed)
    )
    train_loader = DataLoader(
        train_set,
        batch_size=config.batch_size,
        shuffle=True,
        generator=torch.Generator().manual_seed(config.seed + 1),
    )
    test_loader = DataLoader(test_set, batch_size=256)

    model = DigitsCNN()
    parameters = sum(p.numel() for p in model.parameters())
    optimizer = torch.optim.Adam(model.parameters(), lr=config.lr)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=config.epochs)
    loss_fn = nn.CrossEntropyLoss()
    print(
        f"data: {len(dataset):,} digits, {len(train_set):,} for training, "
        f"{len(test_set):,} for testing (seed {config.seed})"
    )
    print(f"model: DigitsCNN, {parameters:,} parameters; Adam lr {config.lr}, cosine schedule")

    train_start = time.perf_counter()
    for epoch in range(1, config.epochs + 1):
        description = f"epoch {epoch}/{config.epochs}"
        bar = _progress_bar(len(train_loader), description, config.progress)
        loss = train_one_epoch(model, train_loader, optimizer, loss_fn, bar)
        scheduler.step()
        test_accuracy, _ = accuracy(*predict(model, test_loader))
        summary = f"loss {loss:.3f}, test accuracy {test_accuracy:.1%}"
        if bar is not None:
            bar.set_postfix_str(summary, refresh=False)
            bar.close()
        else:
            print(f"{description}: {summary}")
    train_seconds = time.perf_counter() - train_start

    test_accuracy, correct = accuracy(*predict(model, test_loader))
    path, identical = checkpoint_round_trip(model, test_loader, config.out)
    return DemoResult(
        accuracy=test_accuracy,
        correct=correct,
        test_size=len(test_set),
        train_size=len(train_set),
        parameters=parameters,
        train_seconds=train_seconds,
        total_seconds=time.perf_counter() - start,
        checkpoint=path,
        checkpoint_bytes=os.path.getsize(path),
        reload_identical=identical,
    )


def print_summary(result: DemoResult) -> None:
    same = "identical logits" if result.reload_identical else "DIFFERENT predictions"
    print()
    print(f"test accuracy   {result.accuracy:.2%} ({result.correct}/{result.test_size} digits)")
    seconds = f"{result.train_seconds:.1f} s training, {result.total_seconds:.1f} s in all"
    print(f"time            {seconds}")
    print(f"parameters      {result.parameters:,}")
    print(f"checkpoint      {result.checkpoint} ({result.checkpoint_bytes / 1024:.1f} KiB)")
    print(f"reloaded model  {same} on the {result.test_size} test digits")
