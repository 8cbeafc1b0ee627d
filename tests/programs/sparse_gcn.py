# a two-layer graph convolutional network on a small graph, with a sparse normalized adjacency
ring = [[i, (i + 1) % 8] for i in range(8)] + [[0, 4], [2, 6]]
edges = np.array(ring + [[b, a] for a, b in ring], dtype=np.int32)
adj = torch.sparse_coo_tensor(edges.T, torch.ones(len(edges)), (8, 8), dtype=torch.int64)
adj = torch.eye(8) + adj  # self-loops; dense + sparse gives a dense tensor
degree = torch.diag(torch.sqrt(1 / torch.sum(adj, dim=1))).to_sparse()
norm_adj = (degree @ adj @ degree).to_sparse()  # D^-1/2 (A + I) D^-1/2
print(norm_adj.is_sparse, norm_adj.layout, norm_adj._nnz(), norm_adj.shape)
out(norm_adj.to_dense())


class GraphConv(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(in_features, out_features))
        with torch.no_grad():
            grid = torch.linspace(-1, 1, in_features * out_features)
            self.weight.copy_(grid.reshape(in_features, out_features) / in_features**0.5)

    def forward(self, x, adj):
        return torch.spmm(adj, torch.mm(x, self.weight))


class GCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.gc1 = GraphConv(4, 8)
        self.gc2 = GraphConv(8, 2)

    def forward(self, x, adj):
        x = F.relu(self.gc1(x, adj))
        return F.log_softmax(self.gc2(x, adj), dim=1)


features = torch.tensor(np.eye(8)[:, :4] + np.arange(8)[:, None] / 8, dtype=torch.float32)
features = features.to_sparse()
labels = torch.tensor([0, 0, 0, 0, 1, 1, 1, 1])
train = torch.tensor([0, 1, 4, 5])
model = GCN()
optimizer = torch.optim.Adam(model.parameters(), lr=0.05, weight_decay=5e-4)
for epoch in range(6):
    model.train()
    optimizer.zero_grad()
    output = model(features, norm_adj)
    loss = F.nll_loss(output[train], labels[train])
    loss.backward()
    optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
model.eval()
with torch.no_grad():
    prediction = model(features, norm_adj).argmax(1)
out(prediction, output, model.gc1.weight.grad, model.gc2.weight)


# ---
# sparse COO basics: construction, coalescing, printing and dense round trips
indices = torch.tensor([[0, 1, 1, 0], [2, 0, 2, 2]])
values = torch.tensor([3.0, 4.0, 5.0, 1.0])
s = torch.sparse_coo_tensor(indices, values, (2, 3))
print(s)
print(s.is_coalesced(), s._nnz(), s.sparse_dim(), s.dense_dim())
c = s.coalesce()
print(c)
print(c.indices(), c.values())
print(s.t())
print(torch.tensor([[0.0, 2.0], [1.5, 0.0]]).to_sparse())
print(torch.sparse.sum(s), torch.sparse.sum(s, dim=0))
out(s.to_dense(), c.to_dense(), (s * 2).to_dense(), (s + c).to_dense())
err(lambda: s.indices())
err(lambda: s.exp())
err(lambda: s + torch.ones(2, 3))
err(lambda: s.numpy())


# ---
# learnable edge weights: gradients reach the values of a sparse matrix
ring = [[i, (i + 1) % 6] for i in range(6)]
index = torch.tensor(ring).t()
x = torch.tensor(np.linspace(-1, 1, 12).reshape(6, 2), dtype=torch.float32, requires_grad=True)
weights = torch.linspace(0.5, 1.5, 6).requires_grad_()
adj = torch.sparse_coo_tensor(index, weights, (6, 6))
h = torch.sparse.mm(adj, x)
loss = (h**2).sum() + (adj @ x).sum()
loss.backward()
out(h, weights.grad, x.grad, type(adj.grad_fn).__name__)
leaf = torch.sparse_coo_tensor(index, torch.ones(6), (6, 6)).requires_grad_()
torch.sparse.mm(leaf, x.detach()).pow(2).sum().backward()
print(leaf.grad)
