# GNN message passing: mean aggregation with scatter_reduce, index_add_ and degree normalization
torch.manual_seed(0)
num_nodes = 6
edge_index = torch.tensor([[0, 1, 1, 2, 3, 4, 5, 0], [1, 0, 2, 1, 4, 3, 0, 5]])
x = torch.randn(num_nodes, 4)
y = torch.tensor([0, 1, 0, 1, 0, 1])


class SAGELayer(nn.Module):
    def __init__(self, i, o):
        super().__init__()
        self.lin_self = nn.Linear(i, o)
        self.lin_nb = nn.Linear(i, o, bias=False)

    def forward(self, x, ei):
        src, dst = ei
        msg = x[src]
        agg = torch.zeros(x.size(0), x.size(1)).scatter_reduce(
            0, dst.unsqueeze(-1).expand_as(msg), msg, reduce="mean", include_self=False
        )
        return self.lin_self(x) + self.lin_nb(agg)


class GCNLayer(nn.Module):
    def __init__(self, i, o):
        super().__init__()
        self.lin = nn.Linear(i, o)

    def forward(self, x, ei):
        loops = torch.arange(x.size(0))
        src = torch.cat([ei[0], loops])
        dst = torch.cat([ei[1], loops])
        deg = torch.zeros(x.size(0)).index_add_(0, dst, torch.ones(dst.numel()))
        norm = deg.pow(-0.5)
        norm[torch.isinf(norm)] = 0
        w = norm[src] * norm[dst]
        h = self.lin(x)
        out = torch.zeros_like(h).index_add_(0, dst, h[src] * w.view(-1, 1))
        return out


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = GCNLayer(4, 8)
        self.c2 = SAGELayer(8, 2)

    def forward(self, x, ei):
        h = F.relu(self.c1(x, ei))
        h = F.dropout(h, p=0.5, training=self.training)
        return self.c2(h, ei)


net = Net()
opt = torch.optim.Adam(net.parameters(), lr=0.01, weight_decay=5e-4)
train_mask = torch.tensor([True, True, True, False, False, False])
for epoch in range(10):
    net.train()
    opt.zero_grad()
    o = net(x, edge_index)
    loss = F.cross_entropy(o[train_mask], y[train_mask])
    loss.backward()
    opt.step()
    net.eval()
    pred = net(x, edge_index).argmax(dim=1)
    acc = int((pred[~train_mask] == y[~train_mask]).sum()) / int((~train_mask).sum())
    if epoch % 3 == 0:
        print(f"Epoch: {epoch:03d}, Loss: {loss:.4f}, Test: {acc:.4f}")
out(o, net.c1.lin.weight.grad)
deg = torch.bincount(edge_index[1], minlength=num_nodes)
print(
    deg,
    torch.zeros(num_nodes).scatter_reduce(
        0, edge_index[1], x[edge_index[0], 0], reduce="amax", include_self=False
    ),
)
adj = torch.sparse_coo_tensor(edge_index, torch.ones(edge_index.size(1)), (num_nodes, num_nodes))
print(torch.sparse.mm(adj, x).sum(), adj.to_dense().sum(1), adj.coalesce().indices().shape)
