# WGAN-GP: the gradient penalty on interpolates, with create_graph, in a critic update
rng = np.random.default_rng(0)


def fill(module):
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(torch.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape))))


netG = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 2))
netD = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))
fill(netG)
fill(netD)
optimizerD = torch.optim.Adam(netD.parameters(), lr=1e-3, betas=(0.5, 0.9))
optimizerG = torch.optim.Adam(netG.parameters(), lr=1e-3, betas=(0.5, 0.9))
LAMBDA = 10


def calc_gradient_penalty(netD, real_data, fake_data, alpha):
    alpha = alpha.expand(real_data.size())
    interpolates = alpha * real_data + ((1 - alpha) * fake_data)
    interpolates.requires_grad_(True)
    disc_interpolates = netD(interpolates)
    gradients = torch.autograd.grad(
        outputs=disc_interpolates,
        inputs=interpolates,
        grad_outputs=torch.ones(disc_interpolates.size()),
        create_graph=True,
        retain_graph=True,
        only_inputs=True,
    )[0]
    return ((gradients.norm(2, dim=1) - 1) ** 2).mean() * LAMBDA


for iteration in range(3):
    for p in netD.parameters():
        p.requires_grad = True
    for _ in range(2):
        real = torch.tensor(rng.standard_normal((6, 2)) + [2.0, -1.0], dtype=torch.float32)
        noise = torch.tensor(rng.standard_normal((6, 2)), dtype=torch.float32)
        alpha = torch.tensor(rng.uniform(size=(6, 1)), dtype=torch.float32)
        netD.zero_grad()
        D_real = netD(real).mean()
        with torch.no_grad():
            fake = netG(noise)
        D_fake = netD(fake).mean()
        gradient_penalty = calc_gradient_penalty(netD, real, fake, alpha)
        D_cost = D_fake - D_real + gradient_penalty
        D_cost.backward()
        optimizerD.step()
    for p in netD.parameters():
        p.requires_grad = False
    netG.zero_grad()
    noise = torch.tensor(rng.standard_normal((6, 2)), dtype=torch.float32)
    G_cost = -netD(netG(noise)).mean()
    G_cost.backward()
    optimizerG.step()
    out(iteration, D_cost, gradient_penalty, G_cost)
out(netD[0].weight.grad, netG[0].weight.grad, netD[0].weight.requires_grad)
# ---
# a physics-informed network: u'' + u = 0 through nested autograd.grad, trained with Adam
torch.set_default_dtype(torch.float64)
rng = np.random.default_rng(1)
net = nn.Sequential(nn.Linear(1, 10), nn.Tanh(), nn.Linear(10, 10), nn.Tanh(), nn.Linear(10, 1))
with torch.no_grad():
    for p in net.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.8, 0.8, tuple(p.shape))))
t = torch.linspace(0, 3, 12).view(-1, 1).requires_grad_(True)
t0 = torch.zeros(1, 1, requires_grad=True)
optimizer = torch.optim.Adam(net.parameters(), lr=1e-2)


def derivatives(u, t):
    du = torch.autograd.grad(u, t, torch.ones_like(u), create_graph=True)[0]
    d2u = torch.autograd.grad(du, t, torch.ones_like(du), create_graph=True)[0]
    return du, d2u


for step in range(5):
    optimizer.zero_grad()
    u = net(t)
    du, d2u = derivatives(u, t)
    residual = d2u + u
    u0 = net(t0)
    du0 = torch.autograd.grad(u0, t0, torch.ones_like(u0), create_graph=True)[0]
    loss = residual.pow(2).mean() + (u0 - 1).pow(2).sum() + du0.pow(2).sum()
    loss.backward()
    optimizer.step()
    # torch's mm backward picks a transposed product for a 1x1 input (TBackward0): values only
    out(step, loss, du0.detach())
out(net[0].weight.grad, t.grad is None, d2u.grad_fn is not None)
# the third derivative, and a Hessian-vector product via double backward
u = net(t)
du, d2u = derivatives(u, t)
d3u = torch.autograd.grad(d2u.sum(), t)[0]
out(d3u)
params = list(net.parameters())
g = torch.autograd.grad(net(t).pow(2).mean(), params, create_graph=True)
v = [torch.ones_like(p) for p in params]
hvp = torch.autograd.grad(g, params, grad_outputs=v)
out(hvp[0], hvp[-1])
