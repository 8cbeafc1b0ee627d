# vmap docs: batched dot products, in_dims and out_dims pytrees, nested vmap
# As torch.vmap's documentation: the function runs on batched tensors; in_dims picks the
# mapped dim of each argument (None: shared), out_dims where the batch goes in each output.
x = torch.arange(12.0).reshape(3, 4)
y = torch.linspace(-1.0, 1.0, 12).reshape(4, 3)
out(torch.vmap(torch.dot)(x, y.t()))
out(torch.vmap(torch.dot, in_dims=(0, 1))(x, y))
# a shared (unmapped) argument and a scalar function of one sample
w = torch.linspace(0.5, 2.0, 4)
out(torch.vmap(lambda r, v: (r * v).sum(), in_dims=(0, None))(x, w))
# batched outer product by nesting: the inner vmap maps over the other argument
outer = torch.vmap(torch.vmap(torch.mul, in_dims=(None, 0)), in_dims=(0, None))
out(outer(torch.arange(3.0), torch.arange(4.0)))


def stats(d):
    r = d["values"]
    return {"mean": r.mean(), "scaled": r * d["scale"]}, r.max()


batch = {"values": x, "scale": torch.tensor([1.0, 2.0, 3.0])}
result, peak = torch.vmap(
    stats, in_dims=({"values": 0, "scale": 0},), out_dims=({"mean": 0, "scaled": 1}, 0)
)(batch)
out(result["mean"], result["scaled"], peak)
out(torch.vmap(lambda r: r.sum(0), out_dims=0)(x.reshape(3, 2, 2)))
# a function returning an unmapped tensor: broadcast along the batch
out(torch.vmap(lambda r: torch.ones(2), in_dims=0)(x))
# the batch dim at the end of the output, and a negative in_dim
out(torch.vmap(lambda r: r * 2, in_dims=-1, out_dims=-1)(x))
# ---
# vmap over shape ops, reductions, matmul and softmax
a = torch.linspace(-2.0, 2.0, 2 * 3 * 4).reshape(2, 3, 4)
m = torch.linspace(0.0, 1.0, 4 * 5).reshape(4, 5)


def f(s):
    h = s @ m
    h = h.transpose(0, 1).reshape(-1)
    return torch.softmax(h.view(5, 3), dim=-1).cumsum(0), h.max(), s.flip(0)[:, 1:3].unsqueeze(0)


p, q, r = torch.vmap(f)(a)
out(p, q, r)
out(torch.vmap(lambda s: torch.cat([s, s * 2], dim=1))(a))
out(torch.vmap(lambda s: torch.stack([s.sum(1), s.mean(1)], dim=-1))(a))
out(torch.vmap(lambda s: torch.einsum("ij,jk->ik", s, m))(a))
out(
    torch.vmap(lambda s, i: s.gather(1, i), in_dims=(0, None))(
        a, torch.tensor([[0, 3], [1, 1], [2, 0]])
    )
)
# ---
# vmap errors: mismatched batch sizes, in-place into an unmapped tensor, .item(), control flow
x = torch.ones(3, 2)
err(lambda: torch.vmap(torch.add)(x, torch.ones(4, 2)))
acc = torch.zeros(2)
err(lambda: torch.vmap(lambda r: acc.add_(r))(x))
err(lambda: torch.vmap(lambda r: r.sum().item())(x))
err(lambda: torch.vmap(lambda r: r * 2 if r.sum() > 0 else r)(x))
err(lambda: torch.vmap(lambda r: r, in_dims=2)(x))
err(lambda: torch.vmap(lambda r: r, out_dims=(0, 1))(x))
err(lambda: torch.vmap(lambda r: r + torch.rand(2))(x))
# in-place on a mapped input writes through to it
y = torch.arange(6.0).reshape(3, 2)
torch.vmap(lambda r: r.mul_(10))(y)
out(y)
# ---
# chunk_size and randomness="same"
x = torch.linspace(-1.0, 1.0, 10).reshape(5, 2)
full = torch.vmap(lambda r: (r.exp() * r).sum())(x)
chunked = torch.vmap(lambda r: (r.exp() * r).sum(), chunk_size=2)(x)
out(full, chunked, torch.equal(full, chunked))
torch.manual_seed(0)
same = torch.vmap(lambda r: r + torch.rand(2), randomness="same")(torch.zeros(4, 2))
out(torch.equal(same[0], same[3]), (same - same[0]).abs().sum())
different = torch.vmap(lambda r: r + torch.rand(2), randomness="different")(torch.zeros(4, 2))
out(torch.equal(different[0], different[1]), different.shape)
