# a physics-informed network for u'' = -pi^2 sin(pi x) on [0, 1]: derivatives of the network
# by autograd.grad(create_graph=True), a residual plus boundary loss, Adam then LBFGS, in
# float64 through set_default_dtype as such scripts do
import math

torch.set_default_dtype(torch.float64)


class PINN(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(1, width), nn.Tanh(), nn.Linear(width, width), nn.Tanh(), nn.Linear(width, 1)
        )

    def forward(self, x):
        return self.net(x)


def derivatives(model, x):
    x = x.clone().requires_grad_(True)
    u = model(x)
    (u_x,) = torch.autograd.grad(u, x, torch.ones_like(u), create_graph=True)
    (u_xx,) = torch.autograd.grad(u_x, x, torch.ones_like(u_x), create_graph=True)
    return u, u_x, u_xx


def pinn_loss(model, x_col):
    _, _, u_xx = derivatives(model, x_col)
    residual = u_xx + math.pi**2 * torch.sin(math.pi * x_col)
    boundary = model(torch.tensor([[0.0], [1.0]]))
    return residual.pow(2).mean() + boundary.pow(2).mean()


model = PINN()
x_col = torch.linspace(0, 1, 21).unsqueeze(1)
u, u_x, u_xx = derivatives(model, x_col[:3])
print(u.shape, u_x.grad_fn is not None, u_xx.requires_grad)
out(u, u_x, u_xx)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(30):
    opt.zero_grad()
    loss = pinn_loss(model, x_col)
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(f"adam step {step:3d} loss {loss.item():.5f}")
lbfgs = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=10, history_size=5)


def closure():
    lbfgs.zero_grad()
    loss = pinn_loss(model, x_col)
    loss.backward()
    return loss


for it in range(3):
    loss = lbfgs.step(closure)
    print(f"lbfgs {it} loss {loss.item():.5f}")
with torch.no_grad():
    x_test = torch.tensor([[0.25], [0.5], [0.75]])
    pred = model(x_test)
    exact = torch.sin(math.pi * x_test)
    print("max error", f"{(pred - exact).abs().max().item():.4f}")
out(pred)
state = lbfgs.state[lbfgs._params[0]]
print(sorted(state.keys()), state["func_evals"], state["n_iter"])
# ---
# a heat-equation PINN in two inputs: mixed partial derivatives from one grad call, the
# gradient of a vector output through is_grads_batched, and a hard boundary condition
torch.manual_seed(1)
net = nn.Sequential(nn.Linear(2, 12), nn.Tanh(), nn.Linear(12, 1))
xt = torch.rand(8, 2, requires_grad=True)
u = net(xt) * xt[:, :1] * (1 - xt[:, :1])
grads = torch.autograd.grad(u.sum(), xt, create_graph=True)[0]
u_x, u_t = grads[:, 0], grads[:, 1]
u_xx = torch.autograd.grad(u_x.sum(), xt, create_graph=True)[0][:, 0]
residual = u_t - 0.1 * u_xx
loss = residual.pow(2).mean()
out(u_x, u_t, u_xx, loss)
loss.backward()
print([f"{p.grad.norm().item():.5f}" for p in net.parameters()])
eye = torch.eye(2).unsqueeze(1).expand(2, 8, 2)
x2 = torch.rand(8, 2, requires_grad=True)
y2 = torch.stack([x2[:, 0] ** 2 * x2[:, 1], torch.sin(x2[:, 1])], dim=1)
(jac_rows,) = torch.autograd.grad(
    y2, x2, eye.transpose(1, 2).contiguous().transpose(1, 2), is_grads_batched=True
)
out(jac_rows.shape, jac_rows)
