# PointNet classifier: shared MLP by Conv1d, T-Net with bmm + identity, max-pool symmetry, reg loss
torch.manual_seed(0)


class TNet(nn.Module):
    def __init__(self, k=3):
        super().__init__()
        self.k = k
        self.conv = nn.Sequential(
            nn.Conv1d(k, 16, 1), nn.BatchNorm1d(16), nn.ReLU(), nn.Conv1d(16, 32, 1), nn.ReLU()
        )
        self.fc = nn.Sequential(nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, k * k))
        nn.init.zeros_(self.fc[-1].weight)
        nn.init.zeros_(self.fc[-1].bias)

    def forward(self, x):
        batchsize = x.size()[0]
        x = self.conv(x)
        x = torch.max(x, 2, keepdim=True)[0].view(-1, 32)
        x = self.fc(x)
        iden = torch.eye(self.k).flatten().view(1, self.k * self.k).repeat(batchsize, 1)
        return (x + iden).view(-1, self.k, self.k)


def feature_transform_regularizer(trans):
    d = trans.size()[1]
    eye = torch.eye(d)[None, :, :]
    return torch.mean(torch.norm(torch.bmm(trans, trans.transpose(2, 1)) - eye, dim=(1, 2)))


class PointNetCls(nn.Module):
    def __init__(self, k=4):
        super().__init__()
        self.stn = TNet(3)
        self.fstn = TNet(16)
        self.conv1 = nn.Conv1d(3, 16, 1)
        self.conv2 = nn.Conv1d(16, 32, 1)
        self.head = nn.Sequential(nn.Linear(32, 16), nn.Dropout(p=0.3), nn.ReLU(), nn.Linear(16, k))

    def forward(self, x):
        trans = self.stn(x)
        x = torch.bmm(x.transpose(2, 1), trans).transpose(2, 1)
        x = F.relu(self.conv1(x))
        trans_feat = self.fstn(x)
        x = torch.bmm(x.transpose(2, 1), trans_feat).transpose(2, 1)
        x = self.conv2(x)
        x = torch.max(x, 2, keepdim=True)[0].view(-1, 32)
        return F.log_softmax(self.head(x), dim=1), trans, trans_feat


model = PointNetCls()
points = torch.randn(4, 3, 20)
labels = torch.tensor([0, 1, 2, 3])
opt = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.999))
scheduler = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
for epoch in range(3):
    model.train()
    pred, trans, trans_feat = model(points)
    loss = F.nll_loss(pred, labels) + feature_transform_regularizer(trans_feat) * 0.001
    opt.zero_grad()
    loss.backward()
    opt.step()
    scheduler.step()
    correct = pred.data.max(1)[1].eq(labels).cpu().sum()
    print(
        f"[{epoch}] train loss: {loss.item():f} accuracy: {correct.item() / float(len(labels)):f}"
    )
model.eval()
with torch.no_grad():
    perm = torch.randperm(20)
    a, _, _ = model(points)
    b, _, _ = model(points[:, :, perm])
print("permutation invariant:", torch.allclose(a, b, atol=1e-6))
out(a, trans.shape, feature_transform_regularizer(trans_feat))
# ---
# Deep Sets sum-decomposition with masks for variable set sizes, set-level regression
torch.manual_seed(0)
phi = nn.Sequential(nn.Linear(1, 8), nn.ELU(), nn.Linear(8, 8))
rho = nn.Sequential(nn.Linear(8, 8), nn.ELU(), nn.Linear(8, 1))
sets = [torch.rand(n, 1) for n in (3, 5, 2, 4)]
padded = nn.utils.rnn.pad_sequence(sets, batch_first=True)
mask = (
    torch.arange(padded.size(1))[None, :] < torch.tensor([len(s) for s in sets])[:, None]
).unsqueeze(-1)
target = torch.stack([s.sum() for s in sets]).unsqueeze(1)
opt = torch.optim.SGD(
    list(phi.parameters()) + list(rho.parameters()), lr=0.05, momentum=0.9, nesterov=True
)
for step in range(5):
    pooled = (phi(padded) * mask).sum(1)
    pred = rho(pooled)
    loss = F.l1_loss(pred, target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step}: L1 {loss.item():.4f}")
print(mask.squeeze(-1).int())
out(pred, loss)
