# Notebook one-liners: norms, special functions, new_* factories, where/argwhere, quantiles
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
out(
    torch.nn.functional.normalize(x, p=1, dim=0),
    torch.linalg.vector_norm(x, ord=3, dim=1),
    torch.linalg.matrix_norm(x, ord="nuc"),
)
out(
    torch.special.logit(torch.tensor([0.2, 0.7]), eps=1e-6),
    torch.special.xlogy(x, x),
    torch.special.entr(x / 5),
)
out(torch.Tensor.new_tensor(x, [1, 2]), x.new_full((2,), 3.0), x.new_ones(2, dtype=torch.int64))
out(torch.where(x > 2), torch.argwhere(x > 1), torch.count_nonzero(x > 1, dim=0))
out(
    torch.isin(torch.tensor([1, 2, 5]), torch.tensor([2, 5, 7])),
    torch.tensor([3, 1, 2]).argsort(descending=True, stable=True),
)
out(torch.clamp(x, min=torch.tensor([1.5, 2.5])), x.clip(max=2.5), x.lerp(torch.zeros(2, 2), 0.3))
out(
    torch.std_mean(x, dim=0, correction=0),
    torch.var_mean(x, unbiased=True),
    torch.nanmean(torch.tensor([1.0, float("nan"), 3.0])),
)
out(
    torch.quantile(
        torch.tensor([1.0, 5.0, 2.0, 8.0]), torch.tensor([0.25, 0.5]), interpolation="midpoint"
    ),
    torch.nanquantile(torch.tensor([1.0, float("nan"), 3.0]), 0.5),
)
out(
    torch.rot90(x, 1, (0, 1)),
    torch.roll(x, 1, 0),
    torch.flipud(x),
    torch.tile(x, (1, 2)),
    torch.movedim(x, 0, 1),
)
# ---
# Reshaping and indexing idioms: unflatten, einsum with ellipsis, splits, scatter_reduce
t = torch.arange(24.0).reshape(2, 3, 4)
out(
    t.unflatten(2, (2, 2)),
    t.flatten(0, 1),
    t.view(-1, 4).T.contiguous().is_contiguous(),
    t.permute(2, 0, 1).stride(),
)
out(
    torch.einsum("bij,bkj->bik", t, t),
    torch.einsum("...j,j->...", t, torch.ones(4)),
    torch.tensordot(t, t, dims=([1, 2], [1, 2])),
)
out(t.chunk(2, dim=2), t.split([1, 2], dim=1), t.tensor_split(3, dim=2), torch.dstack([t, t]).shape)
out(
    t.masked_select(t > 20),
    t.take(torch.tensor([0, 23])),
    t.narrow(2, 1, 2),
    t.select(1, 2),
    t.diagonal(dim1=1, dim2=2),
)
out(
    t.new_zeros(2).index_add_(0, torch.tensor([0, 0, 1]), torch.tensor([1.0, 2.0, 3.0])),
    t.sum((0, 2)),
    t.amax((0, 1)),
    t.mean(-1, keepdim=True),
)
out(
    torch.scatter_reduce(
        torch.zeros(3),
        0,
        torch.tensor([0, 0, 2]),
        torch.tensor([4.0, 5.0, 6.0]),
        reduce="amax",
        include_self=False,
    )
)
print(
    t.shape,
    t.size(-1),
    t.dtype,
    t.device,
    t.is_floating_point(),
    t.element_size(),
    t.nbytes,
    t.itemsize,
)
