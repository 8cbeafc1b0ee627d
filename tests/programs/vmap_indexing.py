# vmap over indexing writes and reads: index_put, take, put, masked ops, in-place view ops
vmap = torch.vmap
x = torch.sin(torch.arange(30.0)).reshape(3, 5, 2)
i = torch.tensor([0, 2])
out(vmap(lambda t: t.index_put((i,), t[:2] * 2))(x))
out(
    vmap(lambda t, v: t.index_put((torch.tensor([0, 0]),), v, accumulate=True))(x, torch.ones(3, 2))
)
out(vmap(lambda t: t.index_put((i, torch.tensor([1, 0])), torch.tensor(5.0)))(x))
out(vmap(lambda v: torch.zeros(5, 2).index_put((i,), v), in_dims=1)(torch.ones(2, 3, 2)))
out(vmap(lambda t: t.take(torch.tensor([0, 2, -1])))(x))
out(vmap(lambda t, j: t.take(j))(x, torch.tensor([[0, 1], [2, 3], [4, 9]])))
out(vmap(lambda t: t.put(i, torch.ones(2)))(x))
out(vmap(lambda t, v: t.put(torch.tensor([0, 0]), v, accumulate=True))(x, torch.ones(3, 2)))
out(vmap(lambda t: t.masked_fill(t > 0, -1.0))(x))
out(vmap(lambda t: t.masked_scatter(t > 0, torch.arange(10.0).reshape(5, 2)))(x))
out(vmap(lambda t: torch.where(t > 0, t, t * 0.1))(x))
y = x.clone()
vmap(lambda t: t.index_put_((i,), torch.tensor(7.0)))(y)
out(y)
out(vmap(lambda t: t.clone().t_())(x), vmap(lambda t: t.clone().transpose_(0, 1))(x))
out(
    vmap(lambda t: t.clone().unsqueeze_(0).squeeze_(0))(x),
    vmap(lambda t: t.unsqueeze(1).squeeze_())(x),
)
# per-sample gradients through indexing
w = torch.linspace(-1.0, 1.0, 10).reshape(5, 2)
g = torch.func.grad(lambda w, t: (w.index_put((i,), t[:2]) * t).sum())
out(vmap(g, in_dims=(None, 0))(w, x))
out(
    vmap(
        torch.func.grad(lambda w, t: (w.take(torch.tensor([1, 3, 3])) ** 2).sum() * t.sum()),
        in_dims=(None, 0),
    )(w, x)
)
# ---
# vmap over max pooling with indices and max unpooling
F = torch.nn.functional
imgs = torch.cos(torch.arange(3 * 2 * 4 * 4.0) * 0.7).reshape(3, 2, 4, 4)
pooled, idx = torch.vmap(lambda t: F.max_pool2d(t, 2, return_indices=True))(imgs)
out(pooled, idx)
out(torch.vmap(lambda t: F.max_unpool2d(*F.max_pool2d(t, 2, return_indices=True), 2))(imgs))
out(torch.vmap(lambda t: F.max_pool1d(t, 2, return_indices=True)[1])(imgs[:, 0]))
g = torch.vmap(
    torch.func.grad(
        lambda t: F.max_unpool2d(*F.max_pool2d(t, 2, return_indices=True), 2).pow(2).sum()
    )
)
out(g(imgs))
