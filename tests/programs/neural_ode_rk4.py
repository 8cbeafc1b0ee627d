# Neural ODE trained through a fixed-step RK4 solver (torchdiffeq-free), spiral dynamics
torch.manual_seed(0)


def rk4_step(func, t, dt, y):
    k1 = func(t, y)
    k2 = func(t + dt / 2, y + dt * k1 / 2)
    k3 = func(t + dt / 2, y + dt * k2 / 2)
    k4 = func(t + dt, y + dt * k3)
    return y + dt * (k1 + 2 * k2 + 2 * k3 + k4) / 6


def odeint(func, y0, t):
    ys = [y0]
    for t0, t1 in zip(t[:-1], t[1:]):
        ys.append(rk4_step(func, t0, t1 - t0, ys[-1]))
    return torch.stack(ys)


true_A = torch.tensor([[-0.1, 2.0], [-2.0, -0.1]])


class Lambda(nn.Module):
    def forward(self, t, y):
        return torch.mm(y**3, true_A)


class ODEFunc(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 2))
        self.nfe = 0
        for m in self.net.modules():
            if isinstance(m, nn.Linear):
                nn.init.normal_(m.weight, mean=0, std=0.1)
                nn.init.constant_(m.bias, val=0)

    def forward(self, t, y):
        self.nfe += 1
        return self.net(y**3)


t = torch.linspace(0.0, 2.0, 11)
true_y0 = torch.tensor([[2.0, 0.0]])
with torch.no_grad():
    true_y = odeint(Lambda(), true_y0, t)
print(true_y.shape, true_y[-1])
func = ODEFunc()
optimizer = torch.optim.RMSprop(func.parameters(), lr=1e-3)
for itr in range(1, 4):
    optimizer.zero_grad()
    pred_y = odeint(func, true_y0, t)
    loss = torch.mean(torch.abs(pred_y - true_y))
    loss.backward()
    optimizer.step()
    print(f"Iter {itr:04d} | Total Loss {loss.item():.6f} | NFE {func.nfe}")
out(true_y, pred_y, loss, func.net[0].weight.grad)
# ---
# Euler vs RK4 error on y' = -y in float64, autograd sensitivity dy(T)/dy0 against exp(-T)


def rk4_step(func, t, dt, y):  # noqa: F811 - each program stands alone
    k1 = func(t, y)
    k2 = func(t + dt / 2, y + dt * k1 / 2)
    k3 = func(t + dt / 2, y + dt * k2 / 2)
    k4 = func(t + dt, y + dt * k3)
    return y + dt * (k1 + 2 * k2 + 2 * k3 + k4) / 6


y0 = torch.tensor(1.0, dtype=torch.float64, requires_grad=True)
f = lambda t, y: -y
for steps in (4, 8, 16):
    h = 1.0 / steps
    ye, yr = y0, y0
    for k in range(steps):
        ye = ye + h * f(k * h, ye)
        yr = rk4_step(f, k * h, h, yr)
    (g,) = torch.autograd.grad(yr, y0)
    exact = torch.exp(torch.tensor(-1.0, dtype=torch.float64))
    print(
        f"n={steps:2d} euler err {abs(ye.item() - exact.item()):.2e} "
        f"rk4 err {abs(yr.item() - exact.item()):.2e} dT/dy0 {g.item():.6f}"
    )
out(ye, yr, g)
