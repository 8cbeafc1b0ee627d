# error types galore
x = torch.ones(2, 3)
i = torch.tensor([0, 1])
err(lambda: x.view(-1, -1))
err(lambda: x.reshape(-1, 4))
err(lambda: x.t().view(6))
err(lambda: x.permute(0))
err(lambda: x.permute(0, 0))
err(lambda: x.flatten(2))
err(lambda: x.unflatten(1, (2, 2)))
err(lambda: x.expand(2))
err(lambda: x.expand(-1, 4))
err(lambda: x.repeat(2))
err(lambda: x.squeeze(3))
err(lambda: x.transpose(0, 2))
err(lambda: x.narrow(1, 2, 2))
err(lambda: x.select(2, 0))
err(lambda: x.select(0, 5))
err(lambda: x.split(0))
err(lambda: x.chunk(0))
err(lambda: torch.cat([]))
err(lambda: torch.cat([x, torch.ones(2, 3, dtype=torch.int64)], 2))
err(lambda: torch.stack([]))
err(lambda: torch.cat(x))
err(lambda: x[:, :, 0])
err(lambda: x[torch.tensor([0.0])])
err(lambda: x[torch.tensor([5])])
err(lambda: x[torch.tensor([True, False, True])])
err(lambda: x[None, ..., ...])
err(lambda: x[1.5])
err(lambda: x["a"])
err(lambda: x.gather(1, torch.tensor([[0.0]])))
err(lambda: x.gather(1, torch.tensor([0])))
err(lambda: x.index_select(0, torch.tensor([[0]])))
err(lambda: x.index_select(0, torch.tensor([0.5])))
err(lambda: x.masked_fill(torch.ones(3, 2, dtype=torch.bool), 1.0))
err(lambda: x.masked_fill(torch.ones(2, 3), 1.0))
err(lambda: x.masked_fill(torch.ones(2, 3, dtype=torch.bool), torch.ones(2)))
err(lambda: torch.where(torch.ones(2, 3), x, x))
err(lambda: x.sum(dim=(0, 0)))
err(lambda: x.max(dim=3))
err(lambda: x.softmax(5))
err(lambda: x.mean(dtype=torch.int64))
err(lambda: torch.tensor([1, 2]).mean())
err(lambda: torch.tensor([1, 2]).var())
err(lambda: x.norm(p="fro", dim=(0, 1, 1)))
err(lambda: x.matmul(torch.ones(2)))
err(lambda: torch.ones(0) @ torch.ones(0))
err(lambda: torch.dot(torch.ones(2), torch.ones(3)))
err(lambda: torch.dot(torch.ones(2), torch.ones(2, dtype=torch.float64)))
err(lambda: torch.mm(torch.ones(2, 3), torch.ones(3, 2, dtype=torch.float64)))
err(lambda: torch.bmm(torch.ones(2, 3), torch.ones(3, 2)))
err(lambda: torch.outer(torch.ones(2, 2), torch.ones(2)))
err(lambda: torch.addmm(torch.ones(5), torch.ones(2, 3), torch.ones(3, 4)))
err(lambda: x.clamp())
err(lambda: x.pow(torch.ones(3, 2)))
err(lambda: torch.ones(2) + "a")
err(lambda: torch.ones(2) + None)
err(lambda: torch.tensor([1, 2]) / torch.tensor([0, 1]))
err(lambda: torch.tensor([1, 2]) // torch.tensor([0, 1]))
err(lambda: torch.tensor([True]) - torch.tensor([True]))
err(lambda: -torch.tensor([True]))
err(lambda: ~torch.tensor([1.0]))
err(lambda: torch.tensor([1.0]) & torch.tensor([1.0]))
err(lambda: torch.tensor([1, 2]).float().long().requires_grad_())
err(lambda: torch.zeros(2, 3).item())
err(lambda: bool(torch.ones(2)))
err(lambda: int(torch.ones(2)))
err(lambda: float(torch.ones(2)))
err(lambda: torch.ones(2, requires_grad=True).numpy())
err(lambda: torch.ones(2, requires_grad=True).tolist())
err(lambda: torch.tensor([1.0], requires_grad=True).item())
err(lambda: torch.tensor("abc"))
err(lambda: torch.tensor([1, "a"]))
err(lambda: torch.tensor([[1, 2], [3, 4, 5]]))
err(lambda: torch.ones(2, 3, dtype="float32"))
err(lambda: torch.ones(2, 3, dtype=float).dtype)
err(lambda: torch.ones(2, 3, dtype=int).dtype)
err(lambda: torch.ones(2, 3, dtype=bool).dtype)
err(lambda: torch.ones((2, 3.0)))
err(lambda: torch.randint(5, 2, (3,)))

err(lambda: torch.arange(5, 0))
err(lambda: torch.linspace(0, 1, -1))
err(lambda: torch.eye(-1))
err(lambda: torch.full((2,), "a"))
err(lambda: torch.ones(2).to("cuda"))
err(lambda: torch.ones(2).cuda())
err(lambda: torch.ones(2, device="cuda"))
err(lambda: torch.ones(2).to("cpu").device)
err(lambda: torch.ones(2).to(torch.device("cpu")).device)
err(lambda: torch.ones(2, 2).backward(torch.ones(2)))
err(lambda: torch.autograd.grad(torch.ones(2, requires_grad=True).sum(), torch.ones(2)))
err(lambda: torch.autograd.grad([torch.ones(1, requires_grad=True) * 2], []))
err(
    lambda: torch.autograd.grad(
        torch.ones(1, requires_grad=True) * 2,
        torch.ones(1, requires_grad=True),
        grad_outputs=torch.ones(2),
    )
)
# ---
# broadcast errors
x = torch.ones(2, 3)
err(lambda: torch.broadcast_tensors(x, torch.ones(3, 2)))
err(lambda: torch.broadcast_shapes((2, 3), (3, 2)))
err(lambda: torch.zeros(2, 3).copy_(torch.ones(3, 2)))
err(lambda: x.masked_select(torch.ones(3, 2, dtype=torch.bool)))
err(lambda: x.masked_fill(torch.ones(3, 2, dtype=torch.bool), 1.0))
err(lambda: x.masked_scatter(torch.ones(3, 2, dtype=torch.bool), torch.ones(6)))
err(lambda: torch.matmul(torch.ones(2, 2, 3), torch.ones(3, 3, 4)))
err(lambda: torch.ones(2, 2, 3) @ torch.ones(3, 3, 4))
err(lambda: torch.normal(torch.ones(2), torch.ones(3)))
err(lambda: torch.where(torch.ones(3, 2, dtype=torch.bool), x, 0.0))
err(lambda: x.expand_as(torch.ones(3, 2)))
err(lambda: torch.linalg.solve(torch.eye(2).expand(2, 2, 2), torch.ones(3, 2, 1)))
err(lambda: torch.cdist(torch.ones(2, 3, 4), torch.ones(3, 3, 4)))
err(lambda: torch.zeros(2, 3).add_(torch.ones(2, 2, 3)))
err(lambda: x.lerp(torch.ones(3, 2), 0.5))
err(lambda: torch.addcmul(x, torch.ones(3, 2), x))
err(lambda: torch.clamp(x, torch.ones(3, 2)))
# ---
# multinomial, randint and eye argument errors
p = torch.tensor([0.2, 0.3, 0.5])
err(lambda: p.multinomial(0))
err(lambda: p.multinomial(4))
err(lambda: torch.tensor([0.2, -0.1]).multinomial(1))
err(lambda: torch.tensor([0.0, 0.0]).multinomial(1))
err(lambda: torch.tensor([1.0, 0.0]).multinomial(2))
err(lambda: torch.tensor([1, 2]).multinomial(1))
err(lambda: torch.ones(2, 2, 2).multinomial(1))
out(p.multinomial(3).sort().values, torch.ones(2, 3).multinomial(5, replacement=True).shape)
err(lambda: torch.randint(3, 3, (2,)))
err(lambda: torch.eye(2, -1))
out(torch.eye(0).shape, torch.eye(2, 0).shape)
# ---
# integer division by zero and bitwise dtypes
i = torch.tensor([4, -7])
err(lambda: i // torch.tensor([0, 1]))
err(lambda: i % 0)
err(lambda: i.fmod(torch.tensor([1, 0])))
err(lambda: i.div(0, rounding_mode="trunc"))
out(i / 0, i.float() // 0, i.float() % 0, i // 2, i % 3, i.fmod(3), i.div(2, rounding_mode="floor"))
err(lambda: torch.tensor([1.0]) | torch.tensor([1]))
err(lambda: torch.tensor([1.0], dtype=torch.float64) ^ 1)
err(lambda: torch.bitwise_not(torch.tensor([1.0])))
out(
    i & 3,
    i | 8,
    i ^ 1,
    ~i,
    ~torch.tensor([True, False]),
    torch.tensor([True]) & torch.tensor([False]),
)
# ---
# devices
out(
    str(torch.device("cpu")),
    repr(torch.device("cuda", 1)),
    str(torch.device("cuda:1")),
    torch.device("cpu") == "cpu",
    torch.device("cpu") == torch.device("cpu"),
)
err(lambda: torch.device("gpu"))
err(lambda: torch.device("cuda", -1))
err(lambda: torch.ones(2, device=torch.device("cuda", 0)))
err(lambda: torch.ones(2).to("mps"))
out(
    torch.ones(2).to("cpu").device,
    torch.ones(2, device="cpu").device,
    torch.cuda.is_available(),
    torch.cuda.device_count(),
)
# ---
# list keys that index several dims
x = torch.arange(6).reshape(2, 3)
out(x[[[0, 1], [1, 0]]], x[[0, [1]]], x[[slice(None), 1]], x[[None, 1]], x[[0, 1]])
err(lambda: x[(1, "a")])
# ---
# copy_, matmul and bmm shape errors; index_add/scatter/index_put dtype errors
for f in [
    lambda: torch.zeros(2, 3).copy_(torch.ones(4)),
    lambda: torch.zeros(2, 3).copy_(torch.ones(2, 1, 3)),
    lambda: torch.bmm(torch.ones(2, 3, 4), torch.ones(2, 5, 6)),
    lambda: torch.bmm(torch.ones(2, 3, 4), torch.ones(3, 4, 6)),
    lambda: torch.matmul(torch.ones(2, 3, 4), torch.ones(2, 5, 6)),
    lambda: torch.ones(2, 3, 4) @ torch.ones(5, 6),
    lambda: torch.ones(3, 4) @ torch.ones(5),
    lambda: torch.baddbmm(torch.ones(2, 3, 5), torch.ones(2, 3, 4), torch.ones(3, 4, 5)),
    lambda: torch.baddbmm(torch.ones(2, 3, 6), torch.ones(2, 3, 4), torch.ones(2, 4, 5)),
    lambda: torch.addbmm(torch.ones(3, 5), torch.ones(2, 3, 4), torch.ones(3, 4, 5)),
    lambda: torch.addbmm(torch.ones(3, 5), torch.ones(2, 3, 4), torch.ones(2, 6, 5)),
    lambda: torch.addmv(torch.ones(3), torch.ones(3, 4), torch.ones(5)),
    lambda: torch.addmv(torch.ones(4), torch.ones(3, 4), torch.ones(4)),
    lambda: torch.addr(torch.ones(3, 4), torch.ones(3), torch.ones(5)),
    lambda: torch.addr(torch.ones(3, 4), torch.ones(3, 1), torch.ones(4)),
    lambda: torch.addr(
        torch.ones(3, 4, dtype=torch.int64),
        torch.ones(3, dtype=torch.int64),
        torch.ones(4, dtype=torch.int64),
        alpha=0.5,
    ),
    lambda: torch.ones(3).index_add(0, torch.tensor([0]), torch.ones(1, dtype=torch.float64)),
    lambda: torch.ones(3).scatter_add(0, torch.tensor([0]), torch.ones(1).double()),
    lambda: torch.ones(3).scatter(0, torch.tensor([0]), torch.ones(1, dtype=torch.float64)),
    lambda: torch.ones(3).index_put_((torch.tensor([0]),), torch.ones(1).double()),
]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
out(torch.clamp(torch.tensor([1, 2, 3]), 0.5, 1.5), torch.clamp_min(torch.tensor([1, 2]), 1.5))
