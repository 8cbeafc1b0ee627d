# Matrix factorization recommender: biased embeddings, sparse gradients with SparseAdam + Adam, BPR
torch.manual_seed(0)
n_users, n_items, dim = 12, 9, 4


class MF(nn.Module):
    def __init__(self):
        super().__init__()
        self.user_emb = nn.Embedding(n_users, dim, sparse=True)
        self.item_emb = nn.Embedding(n_items, dim, sparse=True)
        self.user_bias = nn.Embedding(n_users, 1, sparse=True)
        self.item_bias = nn.Embedding(n_items, 1, sparse=True)
        self.global_bias = nn.Parameter(torch.zeros(1))
        for e in (self.user_emb, self.item_emb):
            nn.init.normal_(e.weight, std=0.1)
        for e in (self.user_bias, self.item_bias):
            nn.init.zeros_(e.weight)

    def forward(self, u, i):
        dot = (self.user_emb(u) * self.item_emb(i)).sum(1)
        return dot + self.user_bias(u).squeeze(1) + self.item_bias(i).squeeze(1) + self.global_bias


model = MF()
sparse_params = [
    p for n, p in model.named_parameters() if "emb" in n or "bias" in n and n != "global_bias"
]
dense_params = [model.global_bias]
opt_sparse = torch.optim.SparseAdam(sparse_params, lr=0.05)
opt_dense = torch.optim.Adam(dense_params, lr=0.05)
users = torch.randint(0, n_users, (40,))
items = torch.randint(0, n_items, (40,))
ratings = torch.randint(1, 6, (40,)).float()
for epoch in range(4):
    pred = model(users, items)
    loss = F.mse_loss(pred, ratings)
    opt_sparse.zero_grad()
    opt_dense.zero_grad()
    loss.backward()
    opt_sparse.step()
    opt_dense.step()
    print(f"epoch {epoch}: rmse {loss.sqrt().item():.4f}")
g = model.user_emb.weight.grad
print(g.is_sparse, g.layout, g.coalesce().indices().shape, g.to_dense().shape)
print(sorted(set(users.tolist())) == g.coalesce().indices()[0].unique().tolist())
with torch.no_grad():
    scores = model.user_emb.weight @ model.item_emb.weight.T + model.item_bias.weight.T
    top = scores.topk(3, dim=1).indices
print(top[:3])
out(loss, model.global_bias, g.to_dense())
# ---
# Implicit feedback: BPR loss with sampled negatives, EmbeddingBag user profiles, recall@k
torch.manual_seed(0)
n_users, n_items, dim = 6, 10, 4
item_emb = nn.Embedding(n_items, dim)
profile = nn.EmbeddingBag(n_items, dim, mode="mean")
history = torch.tensor([0, 1, 2, 3, 3, 4, 5, 6, 7, 8, 9, 1])
offsets = torch.tensor([0, 3, 5, 6, 9, 10])
pos = torch.tensor([1, 4, 5, 7, 9, 2])
opt = torch.optim.Adagrad(list(item_emb.parameters()) + list(profile.parameters()), lr=0.1)
for step in range(3):
    neg = torch.randint(0, n_items, (n_users,))
    u = profile(history, offsets)
    x_ui = (u * item_emb(pos)).sum(-1)
    x_uj = (u * item_emb(neg)).sum(-1)
    loss = -F.logsigmoid(x_ui - x_uj).mean() + 1e-4 * u.norm(dim=1).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} bpr {loss.item():.5f}")
with torch.no_grad():
    scores = profile(history, offsets) @ item_emb.weight.T
    topk = scores.topk(3, dim=1).indices
    hits = (topk == pos[:, None]).any(1).float()
print(f"recall@3 {hits.mean():.3f}", topk)
weighted = profile(history, offsets, per_sample_weights=None)
ps = nn.EmbeddingBag(n_items, dim, mode="sum")
print(ps(history, offsets, per_sample_weights=torch.linspace(0.1, 1.2, 12)).shape)
out(loss, scores, weighted)
