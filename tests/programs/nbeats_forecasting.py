# N-BEATS: generic/trend/seasonality blocks with basis expansion, backcast residuals, sMAPE/MASE


def linear_space(backcast_length, forecast_length, is_forecast=True):
    horizon = forecast_length if is_forecast else backcast_length
    return np.arange(0, horizon) / horizon


def seasonality_model(thetas, t):
    p = thetas.size()[-1]
    p1, p2 = (p // 2, p // 2) if p % 2 == 0 else (p // 2, p // 2 + 1)
    s1 = torch.tensor(np.array([np.cos(2 * np.pi * i * t) for i in range(p1)])).float()
    s2 = torch.tensor(np.array([np.sin(2 * np.pi * i * t) for i in range(p2)])).float()
    S = torch.cat([s1, s2])
    return thetas.mm(S)


def trend_model(thetas, t):
    p = thetas.size()[-1]
    T = torch.tensor(np.array([t**i for i in range(p)])).float()
    return thetas.mm(T)


class Block(nn.Module):
    def __init__(
        self,
        units,
        thetas_dim,
        backcast_length=8,
        forecast_length=4,
        share_thetas=False,
        kind="generic",
    ):
        super().__init__()
        self.kind = kind
        self.fc = nn.Sequential(
            nn.Linear(backcast_length, units), nn.ReLU(), nn.Linear(units, units), nn.ReLU()
        )
        self.backcast_linspace = linear_space(backcast_length, forecast_length, is_forecast=False)
        self.forecast_linspace = linear_space(backcast_length, forecast_length, is_forecast=True)
        if share_thetas:
            self.theta_f_fc = self.theta_b_fc = nn.Linear(units, thetas_dim, bias=False)
        else:
            self.theta_b_fc = nn.Linear(units, thetas_dim, bias=False)
            self.theta_f_fc = nn.Linear(units, thetas_dim, bias=False)
        if kind == "generic":
            self.backcast_fc = nn.Linear(thetas_dim, backcast_length)
            self.forecast_fc = nn.Linear(thetas_dim, forecast_length)

    def forward(self, x):
        x = self.fc(x)
        tb, tf = self.theta_b_fc(x), self.theta_f_fc(x)
        if self.kind == "seasonality":
            return seasonality_model(tb, self.backcast_linspace), seasonality_model(
                tf, self.forecast_linspace
            )
        if self.kind == "trend":
            return trend_model(tb, self.backcast_linspace), trend_model(tf, self.forecast_linspace)
        return self.backcast_fc(tb), self.forecast_fc(tf)


class NBeats(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList(
            [
                Block(16, 3, kind="trend", share_thetas=True),
                Block(16, 4, kind="seasonality", share_thetas=True),
                Block(16, 5, kind="generic"),
            ]
        )

    def forward(self, backcast):
        forecast = torch.zeros(backcast.size(0), 4)
        for block in self.blocks:
            b, f = block(backcast)
            backcast = backcast - b
            forecast = forecast + f
        return backcast, forecast


def smape(y, y_hat):
    return 200 * torch.mean(torch.abs(y - y_hat) / (torch.abs(y) + torch.abs(y_hat) + 1e-8))


def mase(insample, y, y_hat, freq=1):
    scale = torch.mean(torch.abs(insample[:, freq:] - insample[:, :-freq]), dim=1, keepdim=True)
    return torch.mean(torch.abs(y - y_hat) / scale)


torch.manual_seed(0)
t = torch.arange(60, dtype=torch.float32)
series = torch.sin(2 * torch.pi * t / 12) + 0.02 * t + 0.05 * torch.randn(60)
windows = series.unfold(0, 12, 1)
x, y = windows[:, :8], windows[:, 8:]
print(windows.shape, windows.stride(), x.shape)
net = NBeats()
print(
    sum(p.numel() for p in net.parameters()), net.blocks[0].theta_b_fc is net.blocks[0].theta_f_fc
)
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
for epoch in range(5):
    _, forecast = net(x)
    loss = F.l1_loss(forecast, y)
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_value_(net.parameters(), 0.5)
    opt.step()
    s, m = smape(y, forecast).item(), mase(x, y, forecast).item()
    print(f"epoch {epoch}: l1 {loss.item():.5f} smape {s:.4f} mase {m:.4f}")
residual, forecast = net(x)
out(residual, forecast, net.blocks[1].theta_b_fc.weight.grad)
print(
    torch.tensor(linear_space(8, 4)).dtype,
    seasonality_model(torch.ones(1, 5), linear_space(8, 4)).shape,
)
