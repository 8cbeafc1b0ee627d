"""SyncBatchNorm with uneven (and empty) per-rank batches against BatchNorm on the
concatenated batch, which every rank computes itself (all data comes from fixed seeds)."""

import numpy as np

import numtorch as torch
import numtorch.distributed as dist
from numtorch import nn


def close(a, b, tol):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape and np.allclose(a, b, rtol=tol, atol=tol), np.abs(a - b).max()


def same_on_every_rank(array):
    mine = torch.from_numpy(np.array(array, dtype=np.float64).reshape(-1))
    everyone = [torch.zeros_like(mine) for _ in range(dist.get_world_size())]
    dist.all_gather(everyone, mine)
    assert all(np.array_equal(o.numpy(), mine.numpy()) for o in everyone)


def compare(sizes, feature_shape, dtype, offset=0.0, momentum=0.1, steps=2, tol=1e-10):
    """Run SyncBatchNorm (rank r gets sizes[r] samples) and BatchNorm on all samples."""
    r = dist.get_rank()
    channels = feature_shape[0]
    bn_class = {1: nn.BatchNorm1d, 2: nn.BatchNorm1d, 3: nn.BatchNorm2d, 4: nn.BatchNorm3d}
    reference = bn_class[len(feature_shape)](channels, momentum=momentum, dtype=dtype)
    synced = nn.SyncBatchNorm(channels, momentum=momentum, dtype=dtype)
    torch.manual_seed(0)
    with torch.no_grad():
        for bn in (reference, synced):
            bn.weight.copy_(torch.linspace(0.5, 1.5, channels, dtype=dtype))
            bn.bias.copy_(torch.linspace(-1.0, 1.0, channels, dtype=dtype))
    start, stop = sum(sizes[:r]), sum(sizes[: r + 1])
    for step in range(steps):
        x_all = (torch.randn(sum(sizes), *feature_shape, dtype=torch.float64) * 2 + offset).to(
            dtype
        )
        g_all = torch.randn(sum(sizes), *feature_shape, dtype=dtype)
        x_all.requires_grad_(True)
        y_all = reference(x_all)
        (y_all * g_all).sum().backward()
        x = x_all.detach()[start:stop].clone().requires_grad_(True)
        y = synced(x)
        (y * g_all[start:stop]).sum().backward()
        close(y.detach().numpy(), y_all.detach().numpy()[start:stop], tol)
        close(x.grad.numpy(), x_all.grad.numpy()[start:stop], tol)
        for name in ("running_mean", "running_var"):
            ours = getattr(synced, name).numpy()
            close(ours, getattr(reference, name).numpy(), tol)
            same_on_every_rank(ours)
        assert int(synced.num_batches_tracked) == step + 1
    # weight and bias gradients are local sums: over the ranks they add up to the reference
    for name in ("weight", "bias"):
        total = getattr(synced, name).grad.clone()
        dist.all_reduce(total)
        close(total.numpy(), getattr(reference, name).grad.numpy(), tol * 10)
    expected = "SyncBatchNormBackward" if dist.get_world_size() > 1 else "NativeBatchNormBackward0"
    assert y.grad_fn.name() == expected, y.grad_fn.name()
    # eval: the running statistics, no communication (ranks may differ in how often they call)
    synced.eval()
    reference.eval()
    probe = torch.randn(3, *feature_shape, dtype=dtype)
    for _ in range(r + 1):
        close(synced(probe).detach().numpy(), reference(probe).detach().numpy(), tol)


def check_large_offset_float32():
    """Values near 1e4 with spread 2: float32 sums of squares would lose the variance."""
    r = dist.get_rank()
    sizes = ([5, 3] + [2] * dist.get_world_size())[: dist.get_world_size()]
    torch.manual_seed(1)
    x64 = torch.randn(sum(sizes), 3, dtype=torch.float64) * 2 + 1e4
    bn = nn.SyncBatchNorm(3, momentum=1.0)
    start = sum(sizes[:r])
    bn(x64[start : start + sizes[r]].float())
    true_var = x64.var(0).numpy()
    close(bn.running_var.numpy(), true_var, 1e-3)


def check_errors_and_conversion():
    w = dist.get_world_size()
    bn = nn.SyncBatchNorm(2)
    cases = [
        (torch.ones(3), "expected at least 2D input (got 1D input)"),
        (torch.ones(3, 0), "number of input channels should be non-zero"),
    ]
    for bad, message in cases:
        try:
            bn(bad)
        except ValueError as e:
            assert message in str(e), e
        else:
            raise AssertionError("no error")
    try:
        bn(torch.ones(1 if dist.get_rank() == 0 else 0, 2))  # one value per channel in all
    except ValueError as e:
        assert "Expected more than 1 value per channel" in str(e)
    else:
        raise AssertionError("no error")
    net = nn.Sequential(nn.Conv2d(1, 2, 1), nn.BatchNorm2d(2), nn.Sequential(nn.BatchNorm1d(2)))
    net[1].running_mean.fill_(3.0)
    net.eval()
    synced = nn.SyncBatchNorm.convert_sync_batchnorm(net)
    assert isinstance(synced[1], nn.SyncBatchNorm) and isinstance(synced[2][0], nn.SyncBatchNorm)
    assert synced[1].weight is net[1].weight and synced[1].running_mean.tolist() == [3.0, 3.0]
    assert not synced[1].training and isinstance(synced[0], nn.Conv2d)
    assert w >= 1


def main():
    dist.init_process_group("mpi")
    r, w = dist.get_rank(), dist.get_world_size()
    uneven = [3, 5, 2, 4][:w]
    compare(uneven, (4,), torch.float64)
    compare(uneven, (3, 4), torch.float64, momentum=None)
    compare(uneven, (2, 3, 3), torch.float64, offset=5.0)
    compare(uneven, (2, 2, 2, 2), torch.float64)
    compare(uneven, (3, 4, 4), torch.float32, tol=1e-4)
    if w > 1:
        compare([4] + [0] * (w - 1), (2, 3), torch.float64)  # empty batches elsewhere
        compare([0] + [3] * (w - 1), (3,), torch.float64)
    check_large_offset_float32()
    check_errors_and_conversion()
    dist.destroy_process_group()
    print(f"rank {r} of {w}: SyncBatchNorm OK")


if __name__ == "__main__":
    main()
