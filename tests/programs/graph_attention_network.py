# a graph attention network (GAT) on a small graph: masked attention with torch.where,
# leaky ReLU scores, multi-head concatenation, dropout off in eval, Adam with weight decay
rng = np.random.default_rng(1)


class GraphAttentionLayer(nn.Module):
    def __init__(self, in_features, out_features, n_heads, concat=True, dropout=0.4, alpha=0.2):
        super().__init__()
        self.n_heads, self.concat, self.dropout = n_heads, concat, dropout
        self.n_hidden = out_features // n_heads if concat else out_features
        self.W = nn.Parameter(torch.empty(in_features, self.n_hidden * n_heads))
        self.a = nn.Parameter(torch.empty(n_heads, 2 * self.n_hidden, 1))
        self.leakyrelu = nn.LeakyReLU(alpha)
        self.softmax = nn.Softmax(dim=1)

    def _get_attention_scores(self, h_transformed):
        source = torch.matmul(h_transformed, self.a[:, : self.n_hidden, :])
        target = torch.matmul(h_transformed, self.a[:, self.n_hidden :, :])
        e = source + target.mT
        return self.leakyrelu(e)

    def forward(self, h, adj_mat):
        n_nodes = h.shape[0]
        h_transformed = torch.mm(h, self.W)
        h_transformed = F.dropout(h_transformed, self.dropout, training=self.training)
        h_transformed = h_transformed.view(n_nodes, self.n_heads, self.n_hidden).permute(1, 0, 2)
        e = self._get_attention_scores(h_transformed)
        connectivity_mask = -9e16 * torch.ones_like(e)
        e = torch.where(adj_mat > 0, e, connectivity_mask)
        attention = F.softmax(e, dim=-1)
        attention = F.dropout(attention, self.dropout, training=self.training)
        h_prime = torch.matmul(attention, h_transformed)
        if self.concat:
            return h_prime.permute(1, 0, 2).contiguous().view(n_nodes, self.n_heads * self.n_hidden)
        return h_prime.mean(dim=0)


class GAT(nn.Module):
    def __init__(self, in_features, n_hidden, n_heads, num_classes):
        super().__init__()
        self.gat1 = GraphAttentionLayer(in_features, n_hidden, n_heads, concat=True)
        self.gat2 = GraphAttentionLayer(n_hidden, num_classes, 1, concat=False)

    def forward(self, x, adj):
        x = F.elu(self.gat1(x, adj))
        return F.log_softmax(self.gat2(x, adj), dim=1)


n = 7
adj = torch.tensor(rng.random((n, n)) < 0.4, dtype=torch.float32)
adj = ((adj + adj.T + torch.eye(n)) > 0).float()
features = torch.tensor(rng.normal(size=(n, 5)), dtype=torch.float32)
labels = torch.tensor([0, 1, 2, 0, 1, 2, 0])
idx_train, idx_test = torch.arange(0, 5), torch.arange(5, 7)
model = GAT(5, 8, 2, 3)
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape))))
model.eval()  # dropout off so that both libraries take the same path
optimizer = torch.optim.Adam(model.parameters(), lr=0.05, weight_decay=5e-4)
criterion = nn.NLLLoss()
for _ in range(4):
    optimizer.zero_grad()
    output = model(features, adj)
    loss = criterion(output[idx_train], labels[idx_train])
    loss.backward()
    optimizer.step()
    pred = output[idx_test].argmax(dim=1)
    out(loss, pred, (pred == labels[idx_test]).sum().item() / len(idx_test))
out(output, model.gat1.a.grad, model.gat2.W.grad)
