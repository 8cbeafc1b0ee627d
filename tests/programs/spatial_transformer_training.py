# spatial transformer: localisation net, affine_grid and grid_sample, identity init of theta
torch.manual_seed(0)


class STN(nn.Module):
    def __init__(self):
        super().__init__()
        self.loc = nn.Sequential(
            nn.Conv2d(1, 4, 3),
            nn.MaxPool2d(2, stride=2),
            nn.ReLU(True),
            nn.Flatten(),
            nn.Linear(4 * 3 * 3, 6),
        )
        self.loc[-1].weight.data.zero_()
        self.loc[-1].bias.data.copy_(torch.tensor([1, 0, 0, 0, 1, 0], dtype=torch.float))
        self.cls = nn.Sequential(
            nn.Conv2d(1, 2, 3, padding=1), nn.AdaptiveAvgPool2d(2), nn.Flatten(), nn.Linear(8, 3)
        )

    def forward(self, x):
        theta = self.loc(x).view(-1, 2, 3)
        grid = F.affine_grid(theta, x.size(), align_corners=False)
        x = F.grid_sample(x, grid, align_corners=False)
        return self.cls(x), theta


net = STN()
x = torch.randn(4, 1, 8, 8)
y = torch.tensor([0, 1, 2, 1])
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for i in range(4):
    logits, theta = net(x)
    loss = F.nll_loss(F.log_softmax(logits, dim=1), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"{i} {loss.item():.5f}", theta[0].detach().flatten().tolist()[:2] == [1.0, 0.0])
out(theta, net.loc[-1].weight.grad.abs().sum())
rot = torch.tensor([[[0.0, -1.0, 0.0], [1.0, 0.0, 0.0]]])
img = torch.arange(16.0).view(1, 1, 4, 4)
print(
    F.grid_sample(
        img,
        F.affine_grid(rot, (1, 1, 4, 4), align_corners=True),
        align_corners=True,
        mode="nearest",
    )
)
print(
    F.grid_sample(
        img,
        F.affine_grid(
            torch.tensor([[[0.5, 0, 0.2], [0, 0.5, -0.1]]]), (1, 1, 3, 3), align_corners=False
        ),
        padding_mode="zeros",
        align_corners=False,
    )
)
