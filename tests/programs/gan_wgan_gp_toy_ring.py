# WGAN-GP on 2-D toy data: critic steps, gradient penalty with create_graph, RMSprop and Adam
torch.manual_seed(0)
G = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 2))
Dn = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
opt_g = torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.5, 0.9))
opt_d = torch.optim.Adam(Dn.parameters(), lr=1e-3, betas=(0.5, 0.9))


def real_batch(n):
    theta = torch.rand(n) * 2 * torch.pi
    return torch.stack([torch.cos(theta), torch.sin(theta)], 1) + 0.05 * torch.randn(n, 2)


def gradient_penalty(critic, real, fake):
    alpha = torch.rand(real.size(0), 1).expand_as(real)
    inter = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    d = critic(inter)
    grads = torch.autograd.grad(
        outputs=d,
        inputs=inter,
        grad_outputs=torch.ones_like(d),
        create_graph=True,
        retain_graph=True,
        only_inputs=True,
    )[0]
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()


for it in range(4):
    for _ in range(3):
        real = real_batch(32)
        fake = G(torch.randn(32, 2)).detach()
        d_loss = Dn(fake).mean() - Dn(real).mean()
        gp = gradient_penalty(Dn, real, fake)
        opt_d.zero_grad()
        (d_loss + 10 * gp).backward()
        opt_d.step()
    g_loss = -Dn(G(torch.randn(32, 2))).mean()
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
    print(
        f"[{it}/4] D: {d_loss.item():+.4f} GP: {gp.item():.4f} G: {g_loss.item():+.4f}",
        f"W: {-d_loss.item():.4f}",
    )
for p in Dn.parameters():
    p.data.clamp_(-0.01, 0.01)
out(Dn[0].weight[:2], G[2].bias, Dn[2].weight.grad)
