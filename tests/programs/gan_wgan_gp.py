# WGAN-GP: critic on 2-D points, gradient penalty through autograd.grad(create_graph=True)
torch.manual_seed(0)


class Critic(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(2, hidden),
            nn.LeakyReLU(0.2),
            nn.Linear(hidden, hidden),
            nn.LeakyReLU(0.2),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x)


G = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 2))
D = Critic()
print(G)
print(D)
opt_g = torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.0, 0.9))
opt_d = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.0, 0.9))
print(opt_d)


def sample_real(n):
    theta = torch.rand(n) * 2 * torch.pi
    r = 1.0 + 0.1 * torch.randn(n)
    return torch.stack([r * torch.cos(theta), r * torch.sin(theta)], dim=1)


def gradient_penalty(critic, real, fake):
    alpha = torch.rand(real.size(0), 1).expand_as(real)
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    scores = critic(interp)
    grads = torch.autograd.grad(
        outputs=scores,
        inputs=interp,
        grad_outputs=torch.ones_like(scores),
        create_graph=True,
        retain_graph=True,
        only_inputs=True,
    )[0]
    grads = grads.view(grads.size(0), -1)
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()


lambda_gp, n_critic = 10.0, 3
for it in range(4):
    for _ in range(n_critic):
        real = sample_real(32)
        z = torch.randn(32, 3)
        fake = G(z).detach()
        d_real = D(real).mean()
        d_fake = D(fake).mean()
        gp = gradient_penalty(D, real, fake)
        loss_d = d_fake - d_real + lambda_gp * gp
        opt_d.zero_grad()
        loss_d.backward()
        opt_d.step()
    z = torch.randn(32, 3)
    loss_g = -D(G(z)).mean()
    opt_g.zero_grad()
    loss_g.backward()
    opt_g.step()
    wdist = (d_real - d_fake).item()
    print(
        f"[{it}] loss_D={loss_d.item():.4f} loss_G={loss_g.item():.4f} "
        f"W={wdist:.4f} GP={gp.item():.4f}"
    )
out(loss_d, loss_g, gp)
out(*[p.grad for p in D.parameters()])
print(gp.grad_fn.name())
# ---
# original WGAN: weight clipping with clamp_ over parameters and RMSprop
torch.manual_seed(1)
critic = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
gen = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 4))
opt_c = torch.optim.RMSprop(critic.parameters(), lr=5e-3)
opt_g = torch.optim.RMSprop(gen.parameters(), lr=5e-3)
print(opt_c)
clip = 0.05
data = torch.randn(64, 4) * 0.5 + torch.tensor([1.0, -1.0, 0.5, 0.0])
for step in range(5):
    idx = torch.randint(0, 64, (16,))
    real = data[idx]
    fake = gen(torch.randn(16, 2))
    loss_c = -(critic(real).mean() - critic(fake.detach()).mean())
    opt_c.zero_grad()
    loss_c.backward()
    opt_c.step()
    for p in critic.parameters():
        p.data.clamp_(-clip, clip)
    if step % 2 == 1:
        loss_g = -critic(gen(torch.randn(16, 2))).mean()
        opt_g.zero_grad()
        loss_g.backward()
        opt_g.step()
        print(f"step {step}: critic {loss_c.item():+.5f} gen {loss_g.item():+.5f}")
w = critic[0].weight
print(w.abs().max().item() <= clip, tuple(w.shape))
print(critic[2].weight)
out(*critic.parameters(), *gen.parameters())
