# Self-supervised losses: Barlow Twins cross-correlation (off-diagonal), VICReg variance/covariance
def off_diagonal(x):
    n, m = x.shape
    assert n == m
    return x.flatten()[:-1].view(n - 1, n + 1)[:, 1:].flatten()


class BarlowTwinsLoss(nn.Module):
    def __init__(self, dim, lambd=5e-3):
        super().__init__()
        self.lambd = lambd
        self.bn = nn.BatchNorm1d(dim, affine=False)

    def forward(self, z1, z2):
        c = self.bn(z1).T @ self.bn(z2)
        c.div_(z1.shape[0])
        on_diag = torch.diagonal(c).add_(-1).pow_(2).sum()
        off_diag = off_diagonal(c).pow_(2).sum()
        return on_diag + self.lambd * off_diag, on_diag, off_diag


def vicreg_loss(x, y, sim_coeff=25.0, std_coeff=25.0, cov_coeff=1.0):
    repr_loss = F.mse_loss(x, y)
    x = x - x.mean(dim=0)
    y = y - y.mean(dim=0)
    std_x = torch.sqrt(x.var(dim=0) + 0.0001)
    std_y = torch.sqrt(y.var(dim=0) + 0.0001)
    std_loss = torch.mean(F.relu(1 - std_x)) / 2 + torch.mean(F.relu(1 - std_y)) / 2
    batch_size, num_features = x.shape
    cov_x = (x.T @ x) / (batch_size - 1)
    cov_y = (y.T @ y) / (batch_size - 1)
    cov_loss = off_diagonal(cov_x).pow_(2).sum().div(num_features) + off_diagonal(cov_y).pow_(
        2
    ).sum().div(num_features)
    loss = sim_coeff * repr_loss + std_coeff * std_loss + cov_coeff * cov_loss
    return loss, (repr_loss, std_loss, cov_loss)


m = torch.arange(16.0).view(4, 4)
print(off_diagonal(m))
torch.manual_seed(0)
backbone = nn.Sequential(nn.Linear(10, 32), nn.ReLU())
projector = nn.Sequential(
    nn.Linear(32, 16, bias=False),
    nn.BatchNorm1d(16),
    nn.ReLU(inplace=True),
    nn.Linear(16, 16, bias=False),
)
criterion = BarlowTwinsLoss(16)
params = list(backbone.parameters()) + list(projector.parameters())
opt = torch.optim.SGD(params, lr=0.05, momentum=0.9)
x = torch.randn(12, 10)
for step in range(3):
    y1 = x + 0.1 * torch.randn_like(x)
    y2 = x * (1 + 0.1 * torch.randn_like(x))
    z1, z2 = projector(backbone(y1)), projector(backbone(y2))
    loss, on_diag, off_diag = criterion(z1, z2)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"barlow {step}: {loss.item():.5f} on {on_diag.item():.5f} off {off_diag.item():.5f}")
out(loss, on_diag, projector[0].weight.grad)

for step in range(3):
    y1 = x + 0.1 * torch.randn_like(x)
    y2 = x.flip(1) * 0.5 + 0.1 * torch.randn_like(x)
    loss, (r, s, c) = vicreg_loss(projector(backbone(y1)), projector(backbone(y2)))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(
        f"vicreg {step}: {loss.item():.5f} inv {r.item():.5f} var {s.item():.5f} cov {c.item():.5f}"
    )
out(loss)
print(f"backbone grad norm {backbone[0].weight.grad.norm().item():.4f}")
c = torch.randn(3, 3)
err(lambda: torch.diagonal(c).add_(-1))
err(lambda: off_diagonal(torch.randn(3, 4)))
print(
    torch.cov(torch.randn(5, 2).T).shape,
    torch.corrcoef(torch.tensor([[1.0, 2.0, 4.0], [1.0, 0.0, -1.0]])),
)
