# Growing neural cellular automata: Sobel perception by depthwise conv, stochastic updates
def perceive(x, angle=0.0):
    identify = torch.tensor([[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.0]])
    dx = torch.tensor([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]]) / 8.0
    dy = dx.T
    c, s = torch.cos(torch.tensor(angle)), torch.sin(torch.tensor(angle))
    w1 = c * dx - s * dy
    w2 = s * dx + c * dy
    kernel = torch.stack([identify, w1, w2]).unsqueeze(1)
    kernel = kernel.repeat(x.shape[1], 1, 1, 1)
    return F.conv2d(x, kernel, padding=1, groups=x.shape[1])


def alive_mask(x):
    return F.max_pool2d(x[:, 3:4, :, :], kernel_size=3, stride=1, padding=1) > 0.1


class CAModel(nn.Module):
    def __init__(self, channel_n=8, fire_rate=0.5, hidden_size=32):
        super().__init__()
        self.channel_n = channel_n
        self.fire_rate = fire_rate
        self.fc0 = nn.Linear(channel_n * 3, hidden_size)
        self.fc1 = nn.Linear(hidden_size, channel_n, bias=False)
        with torch.no_grad():
            self.fc1.weight.zero_()

    def update(self, x, fire_rate, angle, generator):
        x = x.transpose(1, 3)
        pre_life_mask = alive_mask(x)
        dx = perceive(x, angle)
        dx = dx.transpose(1, 3)
        dx = self.fc1(F.relu(self.fc0(dx)))
        stochastic = (
            torch.rand([dx.size(0), dx.size(1), dx.size(2), 1], generator=generator) > fire_rate
        )
        dx = dx * stochastic.float()
        x = x + dx.transpose(1, 3)
        post_life_mask = alive_mask(x)
        life_mask = (pre_life_mask & post_life_mask).float()
        x = x * life_mask
        return x.transpose(1, 3)

    def forward(self, x, steps=1, fire_rate=None, angle=0.0, generator=None):
        for _ in range(steps):
            x = self.update(x, self.fire_rate if fire_rate is None else fire_rate, angle, generator)
        return x


torch.manual_seed(0)
size, ch = 8, 8
seed = torch.zeros(1, size, size, ch)
seed[:, size // 2, size // 2, 3:] = 1.0
target = torch.zeros(1, size, size, 4)
target[:, 2:6, 2:6, :] = torch.tensor([1.0, 0.5, 0.2, 1.0])
ca = CAModel(ch)
print(alive_mask(seed.transpose(1, 3)).sum().item(), perceive(torch.ones(1, 2, 3, 3)).shape)
opt = torch.optim.Adam(ca.parameters(), lr=2e-3)
sched = torch.optim.lr_scheduler.MultiStepLR(opt, [2], 0.3)
g = torch.Generator().manual_seed(0)
for it in range(3):
    x = ca(seed.repeat(2, 1, 1, 1), steps=6, generator=g)
    loss = F.mse_loss(x[..., :4], target.expand(2, -1, -1, -1))
    opt.zero_grad()
    loss.backward()
    for p in ca.parameters():
        p.grad.data = p.grad.data / (p.grad.data.norm() + 1e-8)
    opt.step()
    sched.step()
    print(
        f"it {it} loss {loss.item():.6f} alive {int(alive_mask(x.detach().transpose(1, 3)).sum())}"
    )
out(x, ca.fc0.weight.grad, perceive(seed.transpose(1, 3), angle=0.3))
