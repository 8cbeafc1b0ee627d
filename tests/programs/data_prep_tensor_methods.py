# bucketize, searchsorted, histc, bincount with weights
torch.manual_seed(0)
x = torch.rand(12) * 10
b = torch.tensor([2.0, 4.0, 6.0, 8.0])
out(torch.bucketize(x, b), torch.bucketize(x, b, right=True), torch.bucketize(x, b, out_int32=True))
out(
    torch.searchsorted(b, x),
    torch.searchsorted(b, x, side="right"),
    torch.searchsorted(b, torch.tensor([[1.0, 5.0], [7.0, 9.0]])),
)
s = torch.tensor([[1, 3, 5, 7], [2, 4, 6, 8]])
out(torch.searchsorted(s, torch.tensor([[3, 6], [1, 9]])), torch.searchsorted(b, 5.0))
out(
    torch.searchsorted(
        torch.tensor([3.0, 1.0, 2.0]), torch.tensor([2.5]), sorter=torch.tensor([1, 2, 0])
    )
)
out(torch.histc(x, bins=5, min=0, max=10), torch.histc(x, bins=4), torch.histogram(x, bins=3))
h = torch.histogram(x, bins=torch.tensor([0.0, 5.0, 10.0]))
out(h.hist, h.bin_edges)
i = torch.randint(0, 5, (20,))
w = torch.rand(20)
out(torch.bincount(i), torch.bincount(i, weights=w), torch.bincount(i, minlength=8), i.bincount())
out(torch.bincount(i, weights=w.double()))
err(lambda: torch.bincount(torch.tensor([-1, 2])))
err(lambda: torch.bincount(torch.tensor([[1, 2]])))
out(torch.bincount(torch.tensor([], dtype=torch.long)))
# ---
# unique with inverse, counts and dim, unique_consecutive
torch.manual_seed(0)
x = torch.randint(0, 4, (10,))
u, inv, cnt = torch.unique(x, return_inverse=True, return_counts=True)
out(u, inv, cnt)
out(torch.unique(x, sorted=False), x.unique(return_counts=True))
m = torch.tensor([[1, 2], [3, 4], [1, 2], [0, 9], [3, 4]])
out(torch.unique(m, dim=0), torch.unique(m, dim=0, return_inverse=True, return_counts=True))
out(torch.unique(m, dim=1, return_inverse=True))
out(
    torch.unique_consecutive(
        torch.tensor([1, 1, 2, 2, 3, 1, 1]), return_inverse=True, return_counts=True
    )
)
out(torch.unique_consecutive(m, dim=0))
f = torch.tensor([2.0, float("nan"), 1.0, 2.0])
out(torch.unique(f, return_counts=True))
out(torch.unique(torch.tensor([True, False, True])))
# ---
# nonzero, masked_select, argsort stable, topk, sort corners
torch.manual_seed(0)
x = torch.randn(4, 5)
out(torch.nonzero(x > 0.5), torch.nonzero(x > 0.5, as_tuple=True), (x > 0).nonzero(as_tuple=False))
out(x.masked_select(x > 0), torch.masked_select(x, torch.tensor([True, False, True, False, True])))
t = torch.tensor([3, 1, 2, 1, 3, 2, 1])
out(
    torch.argsort(t, stable=True),
    t.argsort(descending=True, stable=True),
    torch.sort(t, stable=True, descending=True),
)
v, ix = x.topk(3, dim=1)
out(v, ix, torch.topk(x.flatten(), 4, largest=False), torch.topk(x, 2, dim=0, sorted=True))
out(torch.kthvalue(x, 2, dim=1), x.max(dim=1), x.min(0), x.argmax(), x.argmax(dim=1, keepdim=True))
out(
    torch.msort(x),
    x.sort(dim=0).indices,
    torch.nonzero(torch.tensor(3)),
    torch.tensor([0, 0]).nonzero(),
)
out(torch.argwhere(x > 1), torch.where(x > 1))
y = torch.tensor([1.0, float("nan"), 0.5, -1.0])
out(y.sort(), y.argsort(descending=True), y.topk(2), y.max(), torch.nanmean(y), y.nansum())
# ---
# scatter_add_, index_add_, scatter_reduce, index_copy, index_fill, put_
torch.manual_seed(0)
src = torch.randn(6, 3, requires_grad=True)
idx = torch.tensor([0, 2, 0, 1, 2, 2])
z = torch.zeros(3, 3).index_add(0, idx, src)
z2 = torch.zeros(3, 3).index_add_(0, idx, src.detach(), alpha=2.0)
sa = torch.zeros(3, 3).scatter_add(0, idx.unsqueeze(1).expand(-1, 3), src)
sr = torch.zeros(3, 3).scatter_reduce(
    0, idx.unsqueeze(1).expand(-1, 3), src, reduce="amax", include_self=False
)
sm = torch.zeros(3, 3).scatter_reduce(0, idx.unsqueeze(1).expand(-1, 3), src, reduce="mean")
(z.sum() + sa.pow(2).sum() + sr.sum() + sm.sum()).backward()
out(z, z2, sa, sr, sm, src.grad)
out(
    torch.zeros(5).index_copy(0, torch.tensor([4, 0]), torch.tensor([1.0, 2.0])),
    torch.zeros(2, 3).index_fill(1, torch.tensor([0, 2]), -1.0),
)
p = torch.zeros(2, 3)
p.put_(torch.tensor([0, 5, 0]), torch.tensor([1.0, 2.0, 3.0]), accumulate=True)
out(
    p,
    torch.zeros(4).scatter_(0, torch.tensor([1, 3]), 5.0),
    torch.zeros(4).scatter(0, torch.tensor([1, 1]), torch.tensor([2.0, 3.0]), reduce="add"),
)
out(torch.ones(3).index_reduce(0, torch.tensor([0, 0, 2]), torch.tensor([2.0, 3.0, 4.0]), "prod"))
out(
    torch.zeros(4, dtype=torch.long).scatter_add_(
        0, torch.tensor([0, 0, 3]), torch.tensor([1, 1, 1])
    )
)
# ---
# repeat_interleave, tril_indices, cartesian_prod, combinations, meshgrid
out(
    torch.repeat_interleave(torch.tensor([1, 2, 3]), 2),
    torch.tensor([[1, 2], [3, 4]]).repeat_interleave(torch.tensor([1, 2]), dim=0),
)
out(
    torch.repeat_interleave(torch.tensor([2, 0, 3])),
    torch.tensor([1, 2]).repeat_interleave(3, output_size=6),
)
x = torch.randn(2, 2, requires_grad=True)
y = x.repeat_interleave(2, dim=1)
y.sum().backward()
out(y, x.grad)
out(torch.tril_indices(3, 3), torch.triu_indices(3, 4, offset=1), torch.tril_indices(4, 3, -1))
out(
    torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4, 5])),
    torch.cartesian_prod(torch.tensor([1, 2])),
)
out(
    torch.combinations(torch.tensor([1, 2, 3, 4])),
    torch.combinations(torch.tensor([1, 2, 3]), r=3),
    torch.combinations(torch.tensor([1, 2, 3]), with_replacement=True),
)
a, b = torch.meshgrid(torch.arange(3), torch.arange(2), indexing="xy")
c, d = torch.meshgrid(torch.arange(3), torch.arange(2), indexing="ij")
out(a, b, c, d, torch.meshgrid([torch.arange(2), torch.arange(2)], indexing="ij"))
out(
    torch.stack(
        torch.meshgrid(torch.linspace(-1, 1, 3), torch.linspace(-1, 1, 2), indexing="ij"), dim=-1
    )
)
# ---
# split with lists, chunk uneven, unfold windows, as_strided, einsum with ellipsis
torch.manual_seed(0)
x = torch.arange(10.0, requires_grad=True)
parts = x.split([3, 3, 4])
out(
    parts,
    torch.split(x, 4),
    x.chunk(3),
    torch.chunk(torch.arange(5), 4),
    torch.tensor_split(torch.arange(7), 3),
    torch.tensor_split(torch.arange(7), [1, 5]),
)
w = x.unfold(0, 4, 2)
w.sum().backward()
out(w, x.grad)
img = torch.arange(16.0).view(1, 1, 4, 4)
out(
    img.unfold(2, 2, 2).unfold(3, 2, 2).contiguous().view(1, 1, 4, 4),
    torch.arange(9.0).as_strided((2, 2), (3, 1), 1),
)
y = torch.randn(5, requires_grad=True)
z = y.as_strided((3, 3), (1, 1))
z.sum().backward()
out(z, y.grad)
A = torch.randn(2, 3, 4)
B = torch.randn(2, 4, 5)
out(
    torch.einsum("...ij,...jk->...ik", A, B),
    torch.einsum("b i j -> b j i", A),
    torch.einsum("...i,...i->...", A, A),
    torch.einsum("ii", torch.randn(3, 3)),
    torch.einsum("i,j", torch.ones(2), torch.ones(3)),
)
out(
    torch.einsum("bij,bjk", A, B).shape,
    torch.einsum(A, [0, 1, 2], B, [0, 2, 3], [0, 1, 3]).shape,
    torch.einsum("...j,j", A, torch.ones(4)),
)
