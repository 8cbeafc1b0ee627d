"""Data-parallel training of a small CNN on 8x8 images, written as torch code.

    python -m numtorch.distributed.run -n 2 examples/ddp_train.py   # 2 processes
    python examples/ddp_train.py                                     # 1 process

Every rank builds the same synthetic dataset (10 classes of noisy 8x8 patterns), trains on
its own shard (DistributedSampler), and averages gradients with DistributedDataParallel;
rank 0 reports. At the end the ranks check that their models are identical.

Swap ``import numtorch as torch`` (and the two imports below it) for ``torch`` and the script
runs on PyTorch's CPU backend under ``torchrun --nproc-per-node=2 examples/ddp_train.py``,
with one difference: torch's SyncBatchNorm accepts only GPU tensors, so on torch each rank
normalises with its own batch statistics (plain BatchNorm, whose running statistics DDP
copies from rank 0 at every forward), while numtorch keeps them global across the ranks
(SyncBatchNorm on CPU). The losses therefore differ slightly between the two. On torch the
script needs torchrun's variables even for one process, as torch's ``init_process_group``
does.
"""

import argparse
import time

import numtorch as torch
import numtorch.distributed as dist
from numtorch import nn
from numtorch.utils.data import DataLoader, DistributedSampler, TensorDataset


def synthetic_digits(n: int, seed: int):
    """n noisy 8x8 images of 10 fixed random patterns (the same data on every rank)."""
    patterns = (torch.rand(10, 1, 8, 8, generator=torch.Generator().manual_seed(0)) > 0.5).float()
    g = torch.Generator().manual_seed(seed)
    labels = torch.randint(0, 10, (n,), generator=g)
    images = patterns[labels] + torch.randn(n, 1, 8, 8, generator=g)
    return TensorDataset(images, labels)


# torch's SyncBatchNorm refuses CPU tensors (ValueError: "SyncBatchNorm expected input tensor
# to be on GPU or XPU ..."); numtorch's runs on CPU over MPI.
SYNC_BATCH_NORM = torch.__name__ == "numtorch"


def make_model():
    return nn.Sequential(
        nn.Conv2d(1, 8, 3, padding=1),
        nn.BatchNorm2d(8),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(8 * 4 * 4, 10),
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=32, help="per rank")
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--samples", type=int, default=2048)
    args = parser.parse_args()

    dist.init_process_group("gloo")  # numtorch runs "gloo" on MPI
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(rank)  # replicas start different: DDP broadcasts rank 0's weights
    model = make_model()
    if SYNC_BATCH_NORM:
        model = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    model = nn.parallel.DistributedDataParallel(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    train = synthetic_digits(args.samples, seed=1)
    test = synthetic_digits(512, seed=2)
    sampler = DistributedSampler(train, shuffle=True, seed=0)
    loader = DataLoader(train, batch_size=args.batch_size, sampler=sampler)
    loss_fn = nn.CrossEntropyLoss()

    start = time.perf_counter()
    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        model.train()
        total = torch.zeros(2)  # (sum of losses, batches) on this rank
        for images, labels in loader:
            optimizer.zero_grad()
            loss = loss_fn(model(images), labels)
            loss.backward()
            optimizer.step()
            total += torch.tensor([loss.item(), 1.0])
        dist.all_reduce(total)
        model.eval()
        with torch.no_grad():
            images, labels = test.tensors
            accuracy = (model(images).argmax(1) == labels).float().mean().item()
        if rank == 0:
            print(
                f"epoch {epoch}: loss {total[0].item() / total[1].item():.4f}, "
                f"test accuracy {accuracy:.3f} ({world} rank(s), "
                f"{time.perf_counter() - start:.1f} s)"
            )

    flat = torch.cat([p.detach().reshape(-1) for p in model.parameters()])
    replicas = [torch.zeros_like(flat) for _ in range(world)]
    dist.all_gather(replicas, flat)
    assert all(torch.equal(flat, other) for other in replicas), "replicas diverged"
    if rank == 0:
        print(f"final test accuracy {accuracy:.3f}; all {world} replicas identical")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
