# TransE knowledge-graph embeddings: margin ranking loss, corrupted triples, renorm_, filtered ranks
torch.manual_seed(0)
n_ent, n_rel, dim = 8, 3, 5
triples = torch.tensor(
    [[0, 0, 1], [1, 0, 2], [2, 1, 3], [3, 2, 4], [4, 1, 5], [5, 0, 6], [6, 2, 7]]
)


class TransE(nn.Module):
    def __init__(self, margin=1.0, norm=1):
        super().__init__()
        self.ent = nn.Embedding(n_ent, dim)
        self.rel = nn.Embedding(n_rel, dim)
        bound = 6 / dim**0.5
        nn.init.uniform_(self.ent.weight, -bound, bound)
        nn.init.uniform_(self.rel.weight, -bound, bound)
        self.rel.weight.data = F.normalize(self.rel.weight.data, p=2, dim=1)
        self.norm = norm
        self.criterion = nn.MarginRankingLoss(margin=margin, reduction="mean")

    def distance(self, t):
        return (self.ent(t[:, 0]) + self.rel(t[:, 1]) - self.ent(t[:, 2])).norm(p=self.norm, dim=1)

    def forward(self, pos, neg):
        self.ent.weight.data.renorm_(p=2, dim=0, maxnorm=1)
        pd, nd = self.distance(pos), self.distance(neg)
        return self.criterion(pd, nd, torch.full_like(pd, -1.0)), pd, nd


model = TransE()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for epoch in range(5):
    neg = triples.clone()
    head_or_tail = torch.randint(0, 2, (len(triples),))
    rand_ent = torch.randint(0, n_ent, (len(triples),))
    neg[:, 0] = torch.where(head_or_tail == 1, rand_ent, neg[:, 0])
    neg[:, 2] = torch.where(head_or_tail == 0, rand_ent, neg[:, 2])
    loss, pd, nd = model(triples, neg)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(
        f"epoch {epoch}: loss {loss.item():.4f} "
        f"pos {pd.mean().item():.4f} neg {nd.mean().item():.4f}"
    )
print(model.ent.weight.norm(dim=1).max() <= 1.0 + 1e-6)
with torch.no_grad():
    h, r, t = triples[:, 0], triples[:, 1], triples[:, 2]
    scores = (model.ent(h) + model.rel(r))[:, None, :] - model.ent.weight[None, :, :]
    dist = scores.norm(p=1, dim=2)
    known = torch.zeros(len(triples), n_ent, dtype=torch.bool)
    for i, (hh, rr, _) in enumerate(triples.tolist()):
        for h2, r2, t2 in triples.tolist():
            if h2 == hh and r2 == rr:
                known[i, t2] = True
    target = dist.gather(1, t[:, None])
    filtered = dist.masked_fill(known & (torch.arange(n_ent)[None] != t[:, None]), float("inf"))
    ranks = (filtered < target).sum(1) + 1
print(ranks, f"MRR {(1.0 / ranks.float()).mean():.4f} hits@3 {(ranks <= 3).float().mean():.3f}")
out(loss, dist, ranks)
