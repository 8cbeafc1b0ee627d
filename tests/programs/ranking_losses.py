# ranking and embedding losses as metric-learning scripts use them: MarginRankingLoss over
# score pairs, HingeEmbeddingLoss on distances, CosineEmbeddingLoss, MultiLabelMarginLoss,
# SoftMarginLoss, the functional forms and their reductions, and a short training loop
torch.manual_seed(0)
s1 = torch.randn(6, requires_grad=True)
s2 = torch.randn(6, requires_grad=True)
target = torch.tensor([1, -1, 1, 1, -1, -1]).float()
for reduction in ("mean", "sum", "none"):
    loss = nn.MarginRankingLoss(margin=0.3, reduction=reduction)(s1, s2, target)
    out(loss)
loss = F.margin_ranking_loss(s1, s2, target, margin=0.1)
loss.backward()
out(s1.grad, s2.grad)
d = torch.rand(6, requires_grad=True)
for margin in (1.0, 0.5):
    out(
        nn.HingeEmbeddingLoss(margin=margin)(d, target),
        F.hinge_embedding_loss(d, target, reduction="none"),
    )
a, b = torch.randn(4, 5), torch.randn(4, 5)
out(nn.CosineEmbeddingLoss(margin=0.2)(a, b, torch.tensor([1, -1, 1, -1])))
scores = torch.randn(2, 4, requires_grad=True)
labels = torch.tensor([[3, 0, -1, 1], [1, 2, 3, -1]])
mlm = nn.MultiLabelMarginLoss()(scores, labels)
mlm.backward()
out(mlm, scores.grad)
out(nn.SoftMarginLoss()(torch.randn(3, 2), torch.tensor([[1.0, -1.0], [-1.0, 1.0], [1.0, 1.0]])))
out(
    nn.MultiLabelSoftMarginLoss(weight=torch.tensor([1.0, 2.0, 0.5]))(
        torch.randn(2, 3), torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]])
    )
)
print(nn.MarginRankingLoss(margin=0.3), nn.HingeEmbeddingLoss(), nn.MultiLabelMarginLoss())
err(lambda: nn.MarginRankingLoss()(torch.randn(3), torch.randn(4), torch.ones(3)))


class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 1)

    def forward(self, x):
        return self.fc(x).squeeze(-1)


scorer = Scorer()
opt = torch.optim.SGD(scorer.parameters(), lr=0.1)
docs_a, docs_b = torch.randn(16, 4), torch.randn(16, 4)
prefer = torch.where(docs_a.sum(1) > docs_b.sum(1), 1.0, -1.0)
criterion = nn.MarginRankingLoss(margin=0.5)
for epoch in range(5):
    opt.zero_grad()
    loss = criterion(scorer(docs_a), scorer(docs_b), prefer)
    loss.backward()
    opt.step()
    acc = ((scorer(docs_a) - scorer(docs_b)).sign() == prefer).float().mean()
    print(f"epoch {epoch} loss {loss.item():.4f} pairwise accuracy {acc:.3f}")
# ---
# randomized leaky ReLU: random slopes in training (drawn from torch's stream), the mean slope
# in eval, its gradient, and the functional and in-place forms
torch.manual_seed(0)
x = torch.randn(2, 5, requires_grad=True)
m = nn.RReLU(0.1, 0.3)
print(m)
y = m(x)
y.sum().backward()
out(y, x.grad)
m.eval()
out(m(x), F.rrelu(x, 0.1, 0.3, training=False))
z = torch.randn(6)
out(F.rrelu(z, training=True), torch.rrelu(z), F.rrelu_(z.clone()))
