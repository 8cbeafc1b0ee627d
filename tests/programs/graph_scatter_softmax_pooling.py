# Graph library utilities: scatter softmax with scatter_reduce amax, global pooling and edge dropout
torch.manual_seed(0)


def scatter_sum(src, index, dim_size):
    out = torch.zeros((dim_size,) + src.shape[1:], dtype=src.dtype)
    return out.index_add_(0, index, src)


def scatter_max(src, index, dim_size):
    idx = index.view(-1, *([1] * (src.dim() - 1))).expand_as(src)
    out = torch.full((dim_size,) + src.shape[1:], float("-inf"), dtype=src.dtype)
    return out.scatter_reduce(0, idx, src, reduce="amax", include_self=True)


def scatter_softmax(src, index, dim_size):
    maxes = scatter_max(src, index, dim_size)
    recentered = (src - maxes.index_select(0, index)).exp()
    denom = scatter_sum(recentered, index, dim_size)
    return recentered / denom.index_select(0, index)


def global_mean_pool(x, batch, size):
    count = torch.bincount(batch, minlength=size).clamp(min=1).to(x.dtype)
    return scatter_sum(x, batch, size) / count.unsqueeze(-1)


def global_max_pool(x, batch, size):
    idx = batch.unsqueeze(-1).expand_as(x)
    return torch.zeros(size, x.size(1)).scatter_reduce(0, idx, x, reduce="amax", include_self=False)


def dropout_edge(edge_index, p, training=True, force_undirected=False):
    if not training or p == 0.0:
        return edge_index, torch.ones(edge_index.size(1), dtype=torch.bool)
    row, col = edge_index
    edge_mask = torch.rand(row.size(0)) >= p
    if force_undirected:
        edge_mask[row > col] = False
    kept = edge_index[:, edge_mask]
    if force_undirected:
        kept = torch.cat([kept, kept.flip(0)], dim=1)
        edge_mask = edge_mask.nonzero().repeat((2, 1)).squeeze()
    return kept, edge_mask


def add_self_loops(edge_index, n):
    loop = torch.arange(n, dtype=edge_index.dtype).unsqueeze(0).repeat(2, 1)
    return torch.cat([edge_index, loop], dim=1)


edge_index = torch.tensor([[0, 1, 1, 2, 2, 3, 4, 5, 5, 6], [1, 0, 2, 1, 3, 2, 5, 4, 6, 5]])
n = 7
x = torch.randn(n, 4, requires_grad=True)
batch = torch.tensor([0, 0, 0, 0, 1, 1, 1])
ei = add_self_loops(edge_index, n)
att_logits = (x[ei[0]] * x[ei[1]]).sum(-1)
alpha = scatter_softmax(att_logits, ei[1], n)
print(alpha.shape, alpha.grad_fn.name())
print(scatter_sum(alpha, ei[1], n).detach())
msg = alpha.unsqueeze(-1) * x[ei[0]]
h = scatter_sum(msg, ei[1], n)
pooled_mean = global_mean_pool(h, batch, 2)
pooled_max = global_max_pool(h, batch, 2)
print(pooled_mean.detach(), pooled_max.grad_fn.name())
(pooled_mean.sum() + pooled_max.sum()).backward()
print(x.grad)
kept, mask = dropout_edge(edge_index, 0.3)
print(kept, mask)
ku, mu = dropout_edge(edge_index, 0.3, force_undirected=True)
print(ku, mu)
print(dropout_edge(edge_index, 0.3, training=False)[0].shape)
deg = torch.zeros(n, dtype=torch.long).scatter_add_(
    0, edge_index[1], torch.ones_like(edge_index[1])
)
print(deg, scatter_max(torch.tensor([1.0, 5.0, 2.0]), torch.tensor([0, 0, 2]), 4))
out(alpha, h, pooled_mean, pooled_max, x.grad, kept, mask, ku, mu)
