# Two-tower retrieval with in-batch negatives (logQ correction, temperature), DeepFM
class Tower(nn.Module):
    def __init__(self, n_ids, n_feats, dim=8):
        super().__init__()
        self.id_emb = nn.Embedding(n_ids, dim)
        self.mlp = nn.Sequential(nn.Linear(dim + n_feats, 16), nn.ReLU(), nn.Linear(16, dim))

    def forward(self, ids, feats):
        return F.normalize(self.mlp(torch.cat([self.id_emb(ids), feats], dim=-1)), dim=-1)


torch.manual_seed(0)
user_tower, item_tower = Tower(20, 3), Tower(30, 2)
params = list(user_tower.parameters()) + list(item_tower.parameters())
opt = torch.optim.Adagrad(params, lr=0.1)
item_freq = torch.rand(30) + 0.1
item_prob = item_freq / item_freq.sum()
temperature = 0.1
for step in range(4):
    users = torch.randint(0, 20, (8,))
    items = (users * 7) % 30
    u = user_tower(users, torch.randn(8, 3))
    v = item_tower(items, torch.randn(8, 2))
    logits = u @ v.T / temperature
    logits = logits - torch.log(item_prob[items])[None, :]
    same = items[None, :] == items[:, None]
    mask = same & ~torch.eye(8, dtype=torch.bool)
    logits = logits.masked_fill(mask, float("-inf"))
    labels = torch.arange(8)
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    recall = (logits.topk(3, dim=1).indices == labels[:, None]).any(1).float().mean()
    print(
        f"step {step} loss {loss.item():.5f} recall@3 {recall.item():.3f} masked {int(mask.sum())}"
    )
out(logits, user_tower.id_emb.weight.grad)
with torch.no_grad():
    corpus = item_tower(torch.arange(30), torch.zeros(30, 2))
    query = user_tower(torch.tensor([1, 2]), torch.zeros(2, 3))
    scores, top = (query @ corpus.T).topk(5)
print(top, f"{scores.max().item():.5f}")


class DeepFM(nn.Module):
    def __init__(self, field_dims, embed_dim=4):
        super().__init__()
        self.offsets = torch.tensor(
            (0, *torch.cumsum(torch.tensor(field_dims), 0)[:-1].tolist()), dtype=torch.long
        )
        total = sum(field_dims)
        self.linear = nn.Embedding(total, 1)
        self.bias = nn.Parameter(torch.zeros((1,)))
        self.embedding = nn.Embedding(total, embed_dim)
        nn.init.xavier_uniform_(self.embedding.weight.data)
        self.embed_output_dim = len(field_dims) * embed_dim
        self.mlp = nn.Sequential(
            nn.Linear(self.embed_output_dim, 8, bias=False),
            nn.BatchNorm1d(8),
            nn.ReLU(),
            nn.Dropout(0.2),
            nn.Linear(8, 1),
        )

    def fm(self, x):
        square_of_sum = torch.sum(x, dim=1) ** 2
        sum_of_square = torch.sum(x**2, dim=1)
        return 0.5 * torch.sum(square_of_sum - sum_of_square, dim=1, keepdim=True)

    def forward(self, x):
        x = x + self.offsets.unsqueeze(0)
        embed_x = self.embedding(x)
        lin = torch.sum(self.linear(x), dim=1) + self.bias
        out_ = lin + self.fm(embed_x) + self.mlp(embed_x.view(-1, self.embed_output_dim))
        return torch.sigmoid(out_.squeeze(1))


torch.manual_seed(1)
fm = DeepFM([3, 5, 4])
print(fm.offsets)
x = torch.stack(
    [torch.randint(0, 3, (16,)), torch.randint(0, 5, (16,)), torch.randint(0, 4, (16,))], 1
)
target = torch.rand(16).round()
opt = torch.optim.Adam(fm.parameters(), lr=0.01, weight_decay=1e-6)
for epoch in range(3):
    pred = fm(x)
    loss = F.binary_cross_entropy(pred, target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"deepfm epoch {epoch} logloss {loss.item():.5f}")
fm.eval()
out(fm(x), fm.linear.weight.grad)
