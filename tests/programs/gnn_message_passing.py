# graph networks without sparse tensors: a dense-normalized GCN and index_add_ message passing
edge_index = torch.tensor(
    [[0, 1, 1, 2, 2, 3, 3, 4, 4, 0, 1, 3], [1, 0, 2, 1, 3, 2, 4, 3, 0, 4, 3, 1]]
)
num_nodes = 5
rng = np.random.default_rng(0)
features = torch.tensor(rng.standard_normal((num_nodes, 3)), dtype=torch.float32)
labels = torch.tensor([0, 1, 0, 1, 1])
train_mask = torch.tensor([True, True, False, True, False])

adj = torch.zeros(num_nodes, num_nodes)
adj[edge_index[0], edge_index[1]] = 1.0
adj = adj + torch.eye(num_nodes)
deg = adj.sum(1)
deg_inv_sqrt = deg.pow(-0.5)
deg_inv_sqrt[torch.isinf(deg_inv_sqrt)] = 0
norm_adj = deg_inv_sqrt.unsqueeze(1) * adj * deg_inv_sqrt.unsqueeze(0)
out(deg, norm_adj)


class GraphConv(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(in_features, out_features))
        self.bias = nn.Parameter(torch.zeros(out_features))

    def forward(self, x, adj):
        return adj @ (x @ self.weight) + self.bias


class GCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.gc1 = GraphConv(3, 8)
        self.gc2 = GraphConv(8, 2)

    def forward(self, x, adj):
        x = F.relu(self.gc1(x, adj))
        return F.log_softmax(self.gc2(x, adj), dim=1)


model = GCN()
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape))))
optimizer = torch.optim.Adam(model.parameters(), lr=0.05, weight_decay=5e-4)
for epoch in range(5):
    model.train()
    optimizer.zero_grad()
    output = model(features, norm_adj)
    loss_train = F.nll_loss(output[train_mask], labels[train_mask])
    acc_train = output[train_mask].max(1)[1].eq(labels[train_mask]).double().mean()
    loss_train.backward()
    optimizer.step()
    out(epoch, loss_train, acc_train)
out(model.gc1.weight.grad)


# the same propagation as scatter-style message passing: gather, scale, index_add_
def propagate(x, edge_index):
    loops = torch.arange(num_nodes)
    src = torch.cat([edge_index[0], loops])
    dst = torch.cat([edge_index[1], loops])
    degree = torch.zeros(num_nodes).index_add_(0, dst, torch.ones(dst.numel()))
    scale = degree[src].rsqrt() * degree[dst].rsqrt()
    messages = x[src] * scale.unsqueeze(1)
    return torch.zeros_like(x).index_add_(0, dst, messages)


x = features.clone().requires_grad_()
a = propagate(x, edge_index)
b = norm_adj.T @ x
out(a, torch.allclose(a, b, atol=1e-6))
a.pow(2).sum().backward()
out(x.grad)
summed = torch.zeros(num_nodes, 3).scatter_add_(
    0, edge_index[1].unsqueeze(1).expand(-1, 3), x[edge_index[0]]
)
pooled = torch.zeros(num_nodes, 3).scatter_reduce(
    0, edge_index[1].unsqueeze(1).expand(-1, 3), x[edge_index[0]], reduce="amax", include_self=False
)
out(summed, pooled, torch.bincount(edge_index[1], minlength=num_nodes))
out(F.one_hot(labels, num_classes=2), torch.unique(edge_index[0], return_counts=True))
