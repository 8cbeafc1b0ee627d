# metric learning: a siamese embedding net with contrastive, triplet and cosine losses
rng = np.random.default_rng(0)


class EmbeddingNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(6, 8), nn.PReLU(), nn.Linear(8, 3))

    def forward(self, x):
        return F.normalize(self.net(x), p=2, dim=1)


class ContrastiveLoss(nn.Module):
    def __init__(self, margin):
        super().__init__()
        self.margin = margin

    def forward(self, output1, output2, target):
        distances = (output2 - output1).pow(2).sum(1)
        losses = 0.5 * (
            target.float() * distances
            + (1 - target).float() * F.relu(self.margin - (distances + 1e-9).sqrt()).pow(2)
        )
        return losses.mean()


net = EmbeddingNet()
with torch.no_grad():
    for p in net.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.6, 0.6, tuple(p.shape))))
anchor = torch.tensor(rng.standard_normal((6, 6)), dtype=torch.float32)
positive = anchor + 0.1 * torch.tensor(rng.standard_normal((6, 6)), dtype=torch.float32)
negative = torch.tensor(rng.standard_normal((6, 6)), dtype=torch.float32)
same = torch.tensor([1, 0, 1, 0, 1, 0])
contrastive = ContrastiveLoss(1.0)
triplet = nn.TripletMarginLoss(margin=0.5, p=2)
cosine = nn.CosineEmbeddingLoss(margin=0.1)
optimizer = torch.optim.Adam(net.parameters(), lr=0.02)
for step in range(4):
    optimizer.zero_grad()
    a, p, n = net(anchor), net(positive), net(negative)
    pair = torch.where(same.bool().unsqueeze(1), p, n)
    l1 = contrastive(a, pair, same)
    l2 = triplet(a, p, n)
    l3 = cosine(a, pair, same * 2 - 1)
    loss = l1 + l2 + l3
    loss.backward()
    optimizer.step()
    out(step, l1, l2, l3)
with torch.no_grad():
    a, p, n = net(anchor), net(positive), net(negative)
    out(F.cosine_similarity(a, p), F.pairwise_distance(a, n), a.norm(dim=1))
    out(torch.cdist(a, n), (a @ n.T).argmax(1))
out(net.net[1].weight, net.net[1].weight.grad)
out(
    F.triplet_margin_with_distance_loss(
        a, p, n, distance_function=lambda u, v: 1 - F.cosine_similarity(u, v), margin=0.3
    )
)
