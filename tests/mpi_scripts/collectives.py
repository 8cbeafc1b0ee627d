"""Every collective on every rank, checked against values computed locally."""

import os

import numpy as np

import numtorch as torch
import numtorch.distributed as dist
from numtorch.distributed import collectives


def expect_error(kind, fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except kind as e:
        return str(e)
    raise AssertionError(f"{fn.__name__} did not raise {kind.__name__}")


def check_all_reduce(r, w):
    t = torch.tensor([r + 1.0, 2.0 * r])
    v = t._version
    assert dist.all_reduce(t) is None
    assert t.tolist() == [w * (w + 1) / 2, w * (w - 1)] and t._version == v + 1
    for op, fn in [
        (dist.ReduceOp.MAX, max),
        (dist.ReduceOp.MIN, min),
        (dist.ReduceOp.PRODUCT, np.prod),
    ]:
        t = torch.tensor([float(r + 2)], dtype=torch.float64)
        dist.all_reduce(t, op=op)
        assert t.item() == fn([q + 2.0 for q in range(w)]), (op, t)
    t = torch.full((3,), float(r))
    dist.all_reduce(t, op=dist.ReduceOp.AVG)
    assert np.allclose(t.numpy(), (w - 1) / 2)
    i = torch.tensor([r + 1, 7], dtype=torch.int64)
    dist.all_reduce(i, op=dist.ReduceOp.AVG)
    assert i.tolist() == [(w * (w + 1) // 2) // w, 7] and i.dtype == torch.int64
    b = torch.tensor([r == 0, True])
    dist.all_reduce(b)
    assert b.tolist() == [True, True]
    b = torch.tensor([r == 0, True])
    dist.all_reduce(b, op=dist.ReduceOp.MIN)
    assert b.tolist() == [w == 1, True]
    bits = torch.tensor([1 << r], dtype=torch.int32)
    dist.all_reduce(bits, op=dist.ReduceOp.BOR)
    assert bits.item() == (1 << w) - 1
    expect_error(ValueError, dist.all_reduce, torch.ones(1), op=dist.ReduceOp.BAND)
    h = torch.ones(4, dtype=torch.float16)
    dist.all_reduce(h)
    assert h.tolist() == [float(w)] * 4
    # A transposed (non-contiguous) tensor, a slice of a larger one, and a 0-d tensor.
    base = torch.arange(6.0).reshape(2, 3)
    tt = base.t()
    dist.all_reduce(tt)
    assert np.array_equal(base.numpy(), w * np.arange(6.0).reshape(2, 3))
    big = torch.zeros(6)
    part = big[2:4]
    part.fill_(1.0)
    v = big._version
    dist.all_reduce(part)
    assert big.tolist() == [0, 0, w, w, 0, 0] and big._version == v + 1
    s = torch.tensor(float(r))
    dist.all_reduce(s)
    assert s.item() == w * (w - 1) / 2 and s.shape == ()
    # Large buffers go in pieces (Note [Chunked all-reduce]); make pieces tiny, with a remainder.
    saved = collectives._CHUNK_BYTES, collectives._CHUNK_ABOVE
    collectives._CHUNK_BYTES, collectives._CHUNK_ABOVE = 40, 64
    try:
        long = torch.arange(1001, dtype=torch.float64) * (r + 1)
        dist.all_reduce(long, op=dist.ReduceOp.AVG)
        assert np.allclose(long.numpy(), np.arange(1001) * (w + 1) / 2)
    finally:
        collectives._CHUNK_BYTES, collectives._CHUNK_ABOVE = saved
    work = dist.all_reduce(torch.ones(2), async_op=True)
    assert work.wait() and work.is_completed()
    readonly = np.ones(3, dtype=np.float32)
    readonly.flags.writeable = False
    assert "read-only" in expect_error(RuntimeError, dist.all_reduce, torch.from_numpy(readonly))
    expect_error(TypeError, dist.all_reduce, [torch.ones(1)])


def check_broadcast(r, w):
    src = w - 1
    t = torch.full((2, 3), float(r)).t()
    v = t._version
    dist.broadcast(t, src=src)
    assert t.tolist() == [[float(src)] * 2] * 3
    assert t._version == (v if r == src else v + 1)
    i = torch.tensor([r, r], dtype=torch.int64)
    dist.broadcast(i, group_src=0)
    assert i.tolist() == [0, 0]
    assert "Invalid src" in expect_error(ValueError, dist.broadcast, i, group_src=w)
    assert "not part of" in expect_error(ValueError, dist.broadcast, i, src=w)


def check_gathers(r, w):
    out = [torch.zeros(2) for _ in range(w)]
    dist.all_gather(out, torch.tensor([r, -r], dtype=torch.float32))
    assert [o.tolist() for o in out] == [[q, -q] for q in range(w)]
    expect_error(RuntimeError, dist.all_gather, [torch.zeros(2)] * (w + 1), torch.zeros(2))
    expect_error(RuntimeError, dist.all_gather, [torch.zeros(3)] * w, torch.zeros(2))
    flat = torch.zeros(2 * w, dtype=torch.int64)
    dist.all_gather_into_tensor(flat, torch.tensor([r, r], dtype=torch.int64))
    assert flat.tolist() == [q for q in range(w) for _ in range(2)]
    stacked = torch.zeros(w, 2)
    dist.all_gather_into_tensor(stacked, torch.full((2,), float(r)))
    assert stacked[:, 0].tolist() == list(map(float, range(w)))

    out = torch.zeros(3)
    dist.reduce_scatter(out, [torch.full((3,), float(r * 10 + q)) for q in range(w)])
    assert out.tolist() == [float(sum(q * 10 + r for q in range(w)))] * 3
    whole = torch.arange(2.0 * w) + r
    part = torch.zeros(2)
    dist.reduce_scatter_tensor(part, whole, op=dist.ReduceOp.AVG)
    assert np.allclose(part.numpy(), np.arange(2.0 * r, 2.0 * r + 2) + (w - 1) / 2)

    dst = 1 % w
    t = torch.tensor([float(r + 1)])
    dist.reduce(t, dst=dst, op=dist.ReduceOp.MAX)
    assert t.item() == (float(w) if r == dst else r + 1.0)
    gathered = [torch.zeros(1) for _ in range(w)] if r == dst else None
    dist.gather(torch.tensor([float(r)]), gathered, dst=dst)
    if r == dst:
        assert [g.item() for g in gathered] == list(map(float, range(w)))
    got = torch.zeros(2)
    parts = [torch.full((2,), q * 3.0) for q in range(w)] if r == 0 else None
    dist.scatter(got, parts, src=0)
    assert got.tolist() == [r * 3.0] * 2


def check_groups(r, w):
    assert dist.get_process_group_ranks(dist.group.WORLD) == list(range(w))
    first = dist.new_group([0])
    if r == 0:
        assert dist.get_world_size(first) == 1 and dist.get_rank(first) == 0
        t = torch.ones(1)
        dist.all_reduce(t, group=first)
        assert t.item() == 1.0
    else:
        assert first is dist.GroupMember.NON_GROUP_MEMBER
        assert dist.get_rank(first) == -1
        assert dist.all_reduce(torch.ones(1), group=first) is None
    everyone = dist.new_group(list(reversed(range(w))))
    t = torch.ones(1)
    dist.all_reduce(t, group=everyone)
    assert t.item() == w and dist.get_rank(everyone) == r
    dist.destroy_process_group(everyone)


def main():
    dist.init_process_group("mpi")
    r, w = dist.get_rank(), dist.get_world_size()
    assert (os.environ["RANK"], os.environ["WORLD_SIZE"]) == (str(r), str(w))
    assert os.environ["OMP_NUM_THREADS"] == "1"
    assert dist.is_initialized() and dist.get_backend() == "mpi"
    expect_error(ValueError, dist.init_process_group, "mpi")
    check_all_reduce(r, w)
    check_broadcast(r, w)
    check_gathers(r, w)
    check_groups(r, w)
    dist.barrier()
    dist.destroy_process_group()
    assert not dist.is_initialized()
    print(f"rank {r} of {w}: collectives OK")


if __name__ == "__main__":
    main()
