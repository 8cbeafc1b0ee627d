# DLRM: bottom MLP, EmbeddingBag tables with offsets, pairwise dot interaction (bmm, triu_indices)
class DLRM(nn.Module):
    def __init__(self, m_spa=4, ln_emb=(10, 7, 5), ln_bot=(3, 8, 4), ln_top=(10, 8, 1)):
        super().__init__()
        self.emb_l = nn.ModuleList(
            [nn.EmbeddingBag(n, m_spa, mode="sum", sparse=False) for n in ln_emb]
        )
        for emb in self.emb_l:
            n = emb.num_embeddings
            W = torch.empty(n, m_spa).uniform_(-((1.0 / n) ** 0.5), (1.0 / n) ** 0.5)
            emb.weight.data = W
        self.bot_l = self.create_mlp(ln_bot, sigmoid_layer=-1)
        self.top_l = self.create_mlp(ln_top, sigmoid_layer=len(ln_top) - 2)
        num_fea = len(ln_emb) + 1
        self.register_buffer("li", torch.tensor([i for i in range(num_fea) for j in range(i)]))
        self.register_buffer("lj", torch.tensor([j for i in range(num_fea) for j in range(i)]))

    @staticmethod
    def create_mlp(ln, sigmoid_layer):
        layers = nn.ModuleList()
        for i in range(len(ln) - 1):
            n, m = ln[i], ln[i + 1]
            LL = nn.Linear(int(n), int(m), bias=True)
            mean, std_dev = 0.0, (2.0 / (m + n)) ** 0.5
            LL.weight.data = torch.randn(m, n) * std_dev + mean
            LL.bias.data = torch.randn(m) * (1 / m) ** 0.5
            layers.append(LL)
            layers.append(nn.Sigmoid() if i == sigmoid_layer else nn.ReLU())
        return nn.Sequential(*layers)

    def interact_features(self, x, ly):
        batch_size, d = x.shape
        T = torch.cat([x] + ly, dim=1).view((batch_size, -1, d))
        Z = torch.bmm(T, torch.transpose(T, 1, 2))
        _, ni, nj = Z.shape
        offset = 0
        li = torch.tensor([i for i in range(ni) for j in range(i + offset)])
        lj = torch.tensor([j for i in range(nj) for j in range(i + offset)])
        Zflat = Z[:, li, lj]
        return torch.cat([x] + [Zflat], dim=1)

    def interact_triu(self, x, ly):
        T = torch.stack([x] + ly, dim=1)
        Z = T @ T.transpose(1, 2)
        iu = torch.triu_indices(Z.shape[1], Z.shape[2], offset=1)
        return torch.cat([x, Z[:, iu[0], iu[1]]], dim=1)

    def forward(self, dense_x, lS_o, lS_i, triu=False):
        x = self.bot_l(dense_x)
        ly = [emb(idx, off) for emb, idx, off in zip(self.emb_l, lS_i, lS_o)]
        z = self.interact_triu(x, ly) if triu else self.interact_features(x, ly)
        return self.top_l(z)


torch.manual_seed(0)
model = DLRM()
print(model.emb_l[0], model.top_l)
print(model.li.tolist(), model.lj.tolist())
print(torch.triu_indices(4, 4, offset=1), torch.tril_indices(3, 3, -1))
dense = torch.rand(4, 3)
lS_i = [
    torch.tensor([1, 2, 3, 0, 9, 4, 5]),
    torch.tensor([0, 6, 2, 2]),
    torch.tensor([1, 1, 4, 3, 2]),
]
lS_o = [torch.tensor([0, 2, 3, 5]), torch.tensor([0, 1, 2, 3]), torch.tensor([0, 0, 2, 4])]
y = torch.tensor([[1.0], [0.0], [1.0], [0.0]])
p = model(dense, lS_o, lS_i)
p2 = model(dense, lS_o, lS_i, triu=True)
print(p.shape, p2.shape)
loss_fn = nn.BCELoss(reduction="mean")
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for it in range(3):
    p = model(dense, lS_o, lS_i)
    loss = loss_fn(p, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    acc = ((p > 0.5).float() == y).float().mean()
    print(f"it {it} loss {loss.item():.6f} acc {acc.item():.2f}")
out(p, p2, model.emb_l[1].weight.grad, model.emb_l[2].weight.grad)
bag = nn.EmbeddingBag(6, 3, mode="mean", padding_idx=0)
print(
    bag(torch.tensor([[0, 1, 2], [0, 0, 5]])).shape,
    bag(torch.tensor([0, 0, 0, 1]), torch.tensor([0, 2])).shape,
)
out(
    bag(torch.tensor([[0, 1, 2], [0, 0, 5]])),
    bag(torch.tensor([3, 4, 1]), torch.tensor([0, 1]), per_sample_weights=None),
)
