"""DistributedDataParallel on every rank, checked against single-process training on the
whole batch (which every rank can compute: all data comes from fixed seeds)."""

import numpy as np

import numtorch as torch
import numtorch.distributed as dist
from numtorch import nn
from numtorch.nn.parallel import DistributedDataParallel as DDP


def expect_error(kind, fn, *args):
    try:
        fn(*args)
    except kind as e:
        return str(e)
    raise AssertionError(f"{fn} did not raise {kind.__name__}")


def mlp(seed):
    torch.manual_seed(seed)
    return nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 8), nn.ReLU(), nn.Linear(8, 3))


def cnn(seed):
    torch.manual_seed(seed)
    return nn.Sequential(
        nn.Conv2d(2, 4, 3, padding=1),
        nn.BatchNorm2d(4),
        nn.ReLU(),
        nn.Flatten(),
        nn.Linear(4 * 5 * 5, 3),
    )


def flat_params(model):
    return np.concatenate([p.detach().numpy().ravel() for p in model.parameters()])


def assert_same_on_every_rank(array):
    array = np.array(array).reshape(-1)
    mine = torch.from_numpy(array.copy())
    everyone = [torch.zeros_like(mine) for _ in range(dist.get_world_size())]
    dist.all_gather(everyone, mine)
    for other in everyone:
        assert np.array_equal(other.numpy(), array), "replicas differ"


def train(model, batches, steps, lr=0.05, set_to_none=True):
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    for x, y in batches[:steps]:
        opt.zero_grad(set_to_none=set_to_none)
        nn.functional.mse_loss(model(x), y).backward()
        opt.step()


def data(shape_x, classes, per_rank, world, steps, seed=1):
    torch.manual_seed(seed)
    return [
        (torch.randn(per_rank * world, *shape_x), torch.randn(per_rank * world, classes))
        for _ in range(steps)
    ]


def check_matches_single_process(r, w, make, shape_x, bucket_cap_mb, convert_bn=False, view=False):
    per_rank, steps = 4, 10
    batches = data(shape_x, 3, per_rank, w, steps)
    shard = [(x[r * per_rank : (r + 1) * per_rank], y[r * per_rank : (r + 1) * per_rank])
             for x, y in batches]  # fmt: skip
    model = make(seed=100 + r)  # different on each rank: DDP broadcasts rank 0's
    if convert_bn:
        model = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    ddp = DDP(model, bucket_cap_mb=bucket_cap_mb, gradient_as_bucket_view=view)
    reference = make(seed=100)
    train(ddp, shard, steps, set_to_none=not view)
    if view and w > 1:  # the gradients live in the buckets
        assert all(ddp._params[i].grad is b.views[i] for b in ddp._buckets for i in b.indices)
    train(reference, batches, steps)
    ours, theirs = flat_params(model), flat_params(reference)
    assert np.allclose(ours, theirs, rtol=1e-5, atol=1e-6), np.abs(ours - theirs).max()
    assert_same_on_every_rank(ours)
    for b_ours, b_ref in zip(model.buffers(), reference.buffers()):
        assert np.allclose(b_ours.numpy(), b_ref.numpy(), rtol=1e-4, atol=1e-5)
        assert_same_on_every_rank(b_ours.numpy())
    return len(ddp._buckets)


def check_no_sync(r, w):
    model = DDP(mlp(0))
    torch.manual_seed(5)
    xs = [torch.randn(2 * w, 6) for _ in range(2)]
    with model.no_sync():
        model(xs[0][2 * r : 2 * r + 2]).sum().backward()
    local = model.module[0].weight.grad.numpy().copy()
    model(xs[1][2 * r : 2 * r + 2]).sum().backward()
    reference = mlp(0)
    for x in xs:
        reference(x).sum().backward()
    for p, q in zip(model.parameters(), reference.parameters()):
        assert np.allclose(p.grad.numpy() * w, q.grad.numpy(), rtol=1e-5, atol=1e-6)
    gathered = [torch.zeros(local.shape) for _ in range(w)]
    dist.all_gather(gathered, torch.from_numpy(local))
    assert w == 1 or not np.allclose(gathered[0].numpy(), gathered[1].numpy())  # not averaged


class TwoHeads(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(3)
        self.trunk = nn.Linear(4, 4)
        self.head = nn.Linear(4, 2)
        self.never = nn.Linear(4, 2)

    def forward(self, x, use_head=True):
        h = self.trunk(x)
        return self.head(h) if use_head else h


def check_unused_parameters(r, w):
    model = DDP(TwoHeads(), find_unused_parameters=True)
    x = torch.ones(3, 4) * (r + 1)
    model(x, use_head=(r == 0)).sum().backward()  # head used on rank 0 only
    reference = TwoHeads()
    reference(torch.ones(3, 4)).sum().backward()
    assert np.allclose(
        model.module.head.weight.grad.numpy() * w, reference.head.weight.grad.numpy()
    )
    assert_same_on_every_rank(model.module.head.weight.grad.numpy())
    assert_same_on_every_rank(model.module.trunk.weight.grad.numpy())
    assert model.module.never.weight.grad is None  # no rank used it
    model(x).sum().backward()  # a second iteration works

    strict = DDP(TwoHeads())
    strict(x).sum().backward()  # `never` gets no gradient: the next forward says so
    message = expect_error(RuntimeError, strict, x)
    assert "Expected to have finished reduction in the prior iteration" in message
    assert f"Parameter indices which did not receive grad for rank {r}: 4 5" in message
    assert f"did not receive grad for rank {r}: never.weight, never.bias" in message, message


class Counter(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
        self.register_buffer("seen", torch.zeros(2))

    def forward(self, x):
        return self.fc(x) + self.seen


class Pair(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(2, 1)
        self.b = nn.Linear(2, 1)

    def forward(self, x):
        return [self.a(x), self.b(x)]


def check_buffers_state_dict_and_errors(r, w):
    model = DDP(Counter())
    model.module.seen.fill_(float(r))  # diverged buffers: forward re-broadcasts rank 0's
    model(torch.ones(1, 2))
    assert model.module.seen.tolist() == [0.0, 0.0]
    assert list(model.state_dict()) == ["module.seen", "module.fc.weight", "module.fc.bias"]
    assert isinstance(model.module, Counter)
    if w > 1:
        message = expect_error(RuntimeError, DDP, nn.Linear(2, 2 + r))
        assert "DDP expects same model across all ranks" in message
        layers = nn.Sequential(*[nn.Linear(2, 2) for _ in range(1 + r)])
        message = expect_error(RuntimeError, DDP, layers)
        assert "has inconsistent" in message, message
    message = expect_error(RuntimeError, DDP, nn.ReLU())
    assert "doesn't have any parameter that requires a gradient" in message
    pair = DDP(Pair())
    first, _ = pair(torch.ones(1, 2))
    first.sum().backward(retain_graph=True)  # the second layer's bucket is still waiting
    message = expect_error(RuntimeError, first.sum().backward)
    assert "with name a.bias has been marked as ready twice" in message, message


def main():
    dist.init_process_group("mpi")
    r, w = dist.get_rank(), dist.get_world_size()
    buckets = check_matches_single_process(r, w, mlp, (6,), bucket_cap_mb=None)
    assert buckets == 1
    buckets = check_matches_single_process(r, w, mlp, (6,), bucket_cap_mb=0.0001)
    assert buckets == 6  # one parameter per bucket
    check_matches_single_process(r, w, mlp, (6,), bucket_cap_mb=0.0001, view=True)
    check_matches_single_process(r, w, cnn, (2, 5, 5), bucket_cap_mb=0.001, convert_bn=True)
    check_no_sync(r, w)
    check_unused_parameters(r, w)
    check_buffers_state_dict_and_errors(r, w)
    dist.destroy_process_group()
    print(f"rank {r} of {w}: DDP OK")


if __name__ == "__main__":
    main()
