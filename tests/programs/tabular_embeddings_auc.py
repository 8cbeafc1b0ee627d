# tabular model: per-column categorical embeddings, BCE with pos_weight, ROC-AUC via sort/cumsum
torch.manual_seed(0)
n = 96
cards = [5, 3, 7]
cat_cols = torch.stack([torch.randint(0, c, (n,)) for c in cards], dim=1)
cont = torch.randn(n, 4)
logit = cont[:, 0] - 0.5 * cont[:, 1] + (cat_cols[:, 0] == 2).float() * 1.5 - 1.0
target = (torch.sigmoid(logit) > torch.rand(n)).float()
print(cat_cols[:3], target.mean())


class TabularNet(nn.Module):
    def __init__(self, cardinalities, n_cont, hidden=16):
        super().__init__()
        self.embeds = nn.ModuleList(nn.Embedding(c, min(50, (c + 1) // 2)) for c in cardinalities)
        emb_dim = sum(e.embedding_dim for e in self.embeds)
        self.bn_cont = nn.BatchNorm1d(n_cont)
        self.emb_drop = nn.Dropout(0.1)
        self.layers = nn.Sequential(
            nn.Linear(emb_dim + n_cont, hidden),
            nn.ReLU(inplace=True),
            nn.BatchNorm1d(hidden),
            nn.Dropout(0.2),
            nn.Linear(hidden, 1),
        )

    def forward(self, x_cat, x_cont):
        x = torch.cat([emb(x_cat[:, i]) for i, emb in enumerate(self.embeds)], dim=1)
        x = self.emb_drop(x)
        x = torch.cat([x, self.bn_cont(x_cont)], dim=1)
        return self.layers(x).squeeze(-1)


model = TabularNet(cards, 4)
print(model)
pos_weight = (target == 0).sum() / (target == 1).sum()
criterion = nn.BCEWithLogitsLoss(pos_weight=pos_weight)
opt = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=1e-5)
train_idx, valid_idx = torch.arange(0, 72), torch.arange(72, n)
for epoch in range(5):
    model.train()
    perm = train_idx[torch.randperm(len(train_idx))]
    for batch in perm.split(24):
        loss = criterion(model(cat_cols[batch], cont[batch]), target[batch])
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        scores = torch.sigmoid(model(cat_cols[valid_idx], cont[valid_idx]))
    y = target[valid_idx]
    order = torch.argsort(scores, descending=True)
    tps = torch.cumsum(y[order], 0)
    fps = torch.cumsum(1 - y[order], 0)
    tpr = torch.cat([torch.zeros(1), tps / tps[-1]])
    fpr = torch.cat([torch.zeros(1), fps / fps[-1]])
    auc = torch.trapezoid(tpr, fpr)
    acc = ((scores > 0.5).float() == y).float().mean()
    print(
        f"epoch {epoch}: train loss {loss.item():.4f} valid AUC {auc.item():.4f} "
        f"acc {acc.item():.3f}"
    )
print(pos_weight, [tuple(e.weight.shape) for e in model.embeds])
out(scores, auc, model.embeds[0].weight, model.layers[2].running_mean)
