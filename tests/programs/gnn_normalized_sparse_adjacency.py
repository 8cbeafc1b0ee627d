# GCN normalisation: degrees by scatter_add_, index_add_ messages, scatter_reduce, sparse adjacency
edge_index = torch.tensor([[0, 1, 1, 2, 3, 4, 2], [1, 0, 2, 1, 4, 3, 0]])
N = 5
x = torch.randn(N, 4)
lin = nn.Linear(4, 3, bias=False)
row, col = edge_index
deg = torch.zeros(N).scatter_add_(0, col, torch.ones(col.size(0)))
deg_inv_sqrt = deg.pow(-0.5)
deg_inv_sqrt[deg_inv_sqrt == float("inf")] = 0
norm = deg_inv_sqrt[row] * deg_inv_sqrt[col]
h = lin(x)
msg = norm.view(-1, 1) * h[row]
out_ = torch.zeros(N, 3).index_add_(0, col, msg)
out(out_, deg)
agg_mean = torch.zeros(N, 3).scatter_reduce(
    0, col.view(-1, 1).expand(-1, 3), h[row], reduce="mean", include_self=False
)
agg_max = torch.zeros(N, 3).scatter_reduce(
    0, col.view(-1, 1).expand(-1, 3), h[row], reduce="amax", include_self=False
)
(agg_mean.sum() + agg_max.sum() + out_.sum()).backward()
out(agg_mean, agg_max, lin.weight.grad)
adj = torch.sparse_coo_tensor(edge_index, torch.ones(edge_index.size(1)), (N, N))
print(adj)
adj = adj.coalesce()
print(adj.indices(), adj.values(), adj.is_coalesced(), adj.layout)
w = torch.randn(4, 3, requires_grad=True)
support = x @ w
o2 = torch.sparse.mm(adj, support)
o2.sum().backward()
out(o2, w.grad)
print(torch.sparse.sum(adj, dim=1).to_dense(), adj.to_dense().sum(1))
eye = torch.sparse_coo_tensor(torch.arange(N).repeat(2, 1), torch.ones(N), (N, N))
a_hat = (adj + eye).coalesce()
d = torch.sparse.sum(a_hat, 1).to_dense().pow(-0.5)
vals = d[a_hat.indices()[0]] * a_hat.values() * d[a_hat.indices()[1]]
a_norm = torch.sparse_coo_tensor(a_hat.indices(), vals, (N, N))
print(torch.spmm(a_norm, x).shape, (a_norm @ x)[0])
dense_adj = adj.to_dense()
print(dense_adj.to_sparse().indices().shape, dense_adj.nonzero().t())
print(torch.sparse.softmax(adj, dim=1).to_dense()[1])
src = torch.randn(7, 3)
print(torch.zeros(N, 3).index_reduce_(0, col, src, "prod", include_self=True)[0])
