# sizes and dims by torch's keyword names
x = torch.arange(12.0).reshape(3, 4)
out(
    x.view(size=(4, 3)),
    x.view(dtype=torch.int32),
    x.reshape(shape=(2, 6)),
    torch.reshape(x, shape=(12,)),
)
out(x.permute(dims=(1, 0)), torch.permute(x, dims=(1, 0)), x.expand(size=(2, 3, 4)).shape)
out(x.flip(dims=(0,)), torch.flip(x, dims=[0, 1]), x.repeat(repeats=(2, 1)), x.tile(dims=(2,)))
out(
    torch.zeros(size=(2,), dtype=torch.int64), torch.ones(size=[2, 1]), torch.empty(size=(2,)).shape
)
torch.manual_seed(0)
out(
    torch.rand(size=(2,)),
    torch.randn(size=(1, 2)),
    torch.rand(2, 3, requires_grad=True).requires_grad,
)
out(x.new_zeros(size=(2,)), x.new_ones(size=(2, 2)), x.new_empty(size=(3,)).shape)
out(torch.max(x, other=x.flip(0)), torch.min(x, other=x.flip(0)), x.max(other=x * 2))
y = torch.zeros(6)
out(y.resize_(size=(2, 3)).shape)
err(lambda: torch.zeros(2, size=(2,)))
err(lambda: x.permute(1, 0, dims=(1, 0)))
# ---
# NumPy's axis/keepdims names work where torch's argument parser reads them
x = torch.arange(12.0).reshape(3, 4).requires_grad_()
out(torch.sum(x, axis=0), x.sum(axis=1, keepdims=True), x.mean(axis=0), torch.mean(x, axis=(0, 1)))
out(torch.max(x, axis=1), x.argmax(axis=1), torch.std(x, axis=0), x.var(axis=0, keepdims=True))
out(
    torch.stack([x, x], axis=0).shape,
    torch.cat([x, x], axis=1),
    torch.concatenate([x, x], axis=0).shape,
)
out(
    x.prod(axis=0),
    x.cumsum(axis=0),
    torch.any(x > 1, axis=0),
    x.logsumexp(axis=0),
    torch.softmax(x, axis=0),
)
out(x.squeeze(axis=0).shape, x.unsqueeze(axis=0).shape, torch.sort(x, axis=0, descending=True))
out(torch.gather(x, axis=0, index=torch.zeros(1, 4, dtype=torch.long)), torch.median(x, axis=0))
out(torch.sum(x, dim=0, keepdims=True), torch.add(x=x, other=x), torch.sub(x1=x, x2=x))
out(torch.var_mean(x, axis=0), torch.nanmean(x, axis=0), torch.kthvalue(x, 1, axis=0))
# Python-level torch functions take torch's names only
err(lambda: torch.split(x, 2, axis=1))
err(lambda: torch.unique(x, axis=0))
err(lambda: torch.roll(x, 1, axis=0))
err(lambda: torch.sum(x, axis=0, dim=1))
