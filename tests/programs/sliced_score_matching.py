# Score matching: sliced (Rademacher projections, create_graph) and denoising score matching
class ScoreNet(nn.Module):
    def __init__(self, dim=2, hidden=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(dim, hidden),
            nn.Softplus(),
            nn.Linear(hidden, hidden),
            nn.Softplus(),
            nn.Linear(hidden, dim),
        )

    def forward(self, x):
        return self.net(x)


def sliced_score_matching(score_net, samples, n_particles=2, generator=None):
    dup_samples = (
        samples.unsqueeze(0)
        .expand(n_particles, *samples.shape)
        .contiguous()
        .view(-1, *samples.shape[1:])
    )
    dup_samples.requires_grad_(True)
    vectors = torch.randn(dup_samples.shape, generator=generator)
    vectors = vectors / torch.norm(vectors, dim=-1, keepdim=True)
    grad1 = score_net(dup_samples)
    gradv = torch.sum(grad1 * vectors)
    loss1 = torch.sum(grad1 * vectors, dim=-1) ** 2 * 0.5
    grad2 = torch.autograd.grad(gradv, dup_samples, create_graph=True)[0]
    loss2 = torch.sum(vectors * grad2, dim=-1)
    loss1 = loss1.view(n_particles, -1).mean(dim=0)
    loss2 = loss2.view(n_particles, -1).mean(dim=0)
    loss = loss1 + loss2
    return loss.mean(), loss1.mean(), loss2.mean()


def ssm_vr(score_net, samples, generator=None):
    samples = samples.clone().requires_grad_(True)
    vectors = torch.randint(0, 2, samples.shape, generator=generator).float() * 2 - 1
    grad1 = score_net(samples)
    gradv = torch.sum(grad1 * vectors)
    grad2 = torch.autograd.grad(gradv, samples, create_graph=True)[0]
    loss1 = torch.norm(grad1, dim=-1) ** 2 * 0.5
    loss2 = torch.sum(vectors * grad2, dim=-1)
    return (loss1 + loss2).mean()


def dsm(score_net, samples, sigma=0.1):
    perturbed = samples + torch.randn_like(samples) * sigma
    target = -1 / (sigma**2) * (perturbed - samples)
    scores = score_net(perturbed)
    return 0.5 * ((scores - target) ** 2).sum(dim=-1).mean(dim=0)


torch.manual_seed(0)
net = ScoreNet()
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
data = torch.cat([torch.randn(32, 2) * 0.3 + 1, torch.randn(32, 2) * 0.3 - 1])
gen = torch.Generator().manual_seed(0)
for step in range(3):
    loss, l1, l2 = sliced_score_matching(net, data, generator=gen)
    vr = ssm_vr(net, data, generator=gen)
    d = dsm(net, data)
    total = loss + vr + 0.01 * d
    opt.zero_grad()
    total.backward()
    opt.step()
    print(
        f"step {step}: ssm {loss.item():.5f} ({l1.item():.5f} + {l2.item():.5f}) "
        f"vr {vr.item():.5f} dsm {d.item():.5f}"
    )
out(total, net.net[0].weight.grad)
x = torch.zeros(4, 2)
step_size = 0.01
for _ in range(5):
    with torch.no_grad():
        x = x + step_size * net(x) + (2 * step_size) ** 0.5 * torch.randn(x.shape, generator=gen)
print(x.requires_grad, f"{x.norm().item():.5f}")
out(x)
