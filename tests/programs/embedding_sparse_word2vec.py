# skip-gram word2vec with negative sampling: sparse embedding gradients and SparseAdam
corpus = ["the", "quick", "brown", "fox", "jumps", "over", "the", "lazy", "dog"]
corpus += ["the", "dog", "sleeps"]
vocab = sorted(set(corpus))
stoi = {w: i for i, w in enumerate(vocab)}
pairs = [(stoi[corpus[i]], stoi[corpus[j]]) for i in range(len(corpus))
         for j in (i - 1, i + 1) if 0 <= j < len(corpus)]  # fmt: skip
center = torch.tensor([c for c, _ in pairs])
context = torch.tensor([o for _, o in pairs])
negatives = torch.tensor([[(c * 3 + k) % len(vocab) for k in range(1, 4)] for c, _ in pairs])


class SkipGram(nn.Module):
    def __init__(self, n, dim):
        super().__init__()
        self.inp = nn.Embedding(n, dim, sparse=True)
        self.out = nn.Embedding(n, dim, sparse=True)
        with torch.no_grad():
            grid = torch.arange(n * dim, dtype=torch.float32).reshape(n, dim)
            self.inp.weight.copy_(torch.sin(grid) * 0.5)
            self.out.weight.copy_(torch.cos(grid) * 0.5)

    def forward(self, c, o, neg):
        v = self.inp(c)
        pos = F.logsigmoid((v * self.out(o)).sum(-1))
        negs = F.logsigmoid(-(self.out(neg) @ v.unsqueeze(-1)).squeeze(-1)).sum(-1)
        return -(pos + negs).mean()


model = SkipGram(len(vocab), 4)
opt = torch.optim.SparseAdam(model.parameters(), lr=0.05)
print(opt)
for epoch in range(4):
    opt.zero_grad()
    loss = model(center, context, negatives)
    loss.backward()
    opt.step()
    print(epoch, round(loss.item(), 5))
g = model.out.weight.grad
out(g.is_sparse, str(g.layout), g._nnz(), g.coalesce().indices(), g.to_dense())
out(
    model.inp.weight, opt.state[model.inp.weight]["step"], opt.state[model.out.weight]["exp_avg_sq"]
)
sims = F.cosine_similarity(model.inp.weight[stoi["dog"]], model.inp.weight, dim=-1)
out(sims.argsort(descending=True)[:3])
# ---
# a sparse embedding gradient: its entries, accumulation over two backwards, padding_idx
emb = nn.Embedding(6, 3, sparse=True, padding_idx=0)
with torch.no_grad():
    emb.weight.copy_(torch.arange(18.0).reshape(6, 3) / 10)
emb(torch.tensor([[1, 0, 2], [2, 5, 0]])).pow(2).sum().backward()
g = emb.weight.grad
print(g)
out(g.is_coalesced(), g.coalesce().values(), g.grad_fn)
emb(torch.tensor([4])).sum().backward()
print(emb.weight.grad)
out(emb.weight.grad.to_dense())
err(lambda: torch.optim.Adam(emb.parameters()).step())
err(lambda: torch.optim.AdamW(emb.parameters()).step())
err(lambda: str(torch.optim.SparseAdam(nn.Linear(2, 2).parameters(), lr=0.1)))
dense = nn.Linear(2, 1)
dense(torch.ones(1, 2)).sum().backward()
err(lambda: torch.optim.SparseAdam(dense.parameters()).step())
err(lambda: torch.optim.SparseAdam(emb.parameters(), lr=-1.0))
err(lambda: torch.optim.SparseAdam(emb.parameters(), betas=(1.0, 0.9)))
# ---
# plain SGD and Adagrad on sparse embedding gradients, mixed with a dense classifier head
emb = nn.Embedding(8, 4, sparse=True)
head = nn.Linear(4, 2)
with torch.no_grad():
    emb.weight.copy_(torch.linspace(-1, 1, 32).reshape(8, 4))
    head.weight.copy_(torch.tensor([[0.5, -0.2, 0.1, 0.3], [-0.4, 0.2, 0.6, -0.1]]))
    head.bias.zero_()
sparse_opt = torch.optim.SGD(emb.parameters(), lr=0.3)
dense_opt = torch.optim.Adagrad(head.parameters(), lr=0.1)
tokens = torch.tensor([[1, 3, 3], [7, 2, 0], [5, 5, 6]])
labels = torch.tensor([0, 1, 1])
for step in range(3):
    sparse_opt.zero_grad()
    dense_opt.zero_grad()
    logits = head(emb(tokens).mean(1))
    loss = F.cross_entropy(logits, labels)
    loss.backward()
    sparse_opt.step()
    dense_opt.step()
    print(step, round(loss.item(), 5))
out(emb.weight, head.weight, emb.weight.grad.is_sparse)
ada = torch.optim.Adagrad(emb.parameters(), lr=0.2)
ada.step()
out(emb.weight, ada.state[emb.weight]["sum"])
