# SimCLR NT-Xent loss with normalize, masked_fill of the diagonal and logsumexp
torch.manual_seed(0)
enc = nn.Sequential(nn.Linear(10, 16, bias=False), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, 8))
x = torch.randn(6, 10)
aug1 = x + 0.1 * torch.randn_like(x)
aug2 = x * (torch.rand_like(x) > 0.2).float()


def nt_xent(z1, z2, tau=0.5):
    z = F.normalize(torch.cat([z1, z2], dim=0), dim=1)
    n = z1.shape[0]
    sim = z @ z.T / tau
    sim = sim.masked_fill(torch.eye(2 * n, dtype=torch.bool), float("-inf"))
    pos = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    loss_a = -sim[torch.arange(2 * n), pos] + torch.logsumexp(sim, dim=1)
    loss_b = F.cross_entropy(sim, pos)
    return loss_a.mean(), loss_b


opt = torch.optim.Adam(enc.parameters(), lr=3e-3)
for step in range(4):
    la, lb = nt_xent(enc(aug1), enc(aug2))
    opt.zero_grad()
    la.backward()
    opt.step()
    print(f"step {step}: {la.item():.6f} {lb.item():.6f}")
with torch.no_grad():
    z = F.normalize(enc.eval()(x), dim=-1)
    sims = torch.mm(z, z.t()).fill_diagonal_(-1)
    print(sims.max(dim=1), torch.cosine_similarity(z[:1], z[1:], dim=-1))
