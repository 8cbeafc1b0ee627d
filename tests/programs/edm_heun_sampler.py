# EDM (Karras et al.): c_skip/c_out/c_in/c_noise preconditioning, log-normal sigmas, Heun sampler
class EDMPrecond(nn.Module):
    def __init__(self, dim=3, sigma_data=0.5, sigma_min=0.002, sigma_max=80.0):
        super().__init__()
        self.sigma_data, self.sigma_min, self.sigma_max = sigma_data, sigma_min, sigma_max
        self.F = nn.Sequential(
            nn.Linear(dim + 1, 32), nn.SiLU(), nn.Linear(32, 32), nn.SiLU(), nn.Linear(32, dim)
        )

    def forward(self, x, sigma):
        sigma = sigma.to(torch.float32).reshape(-1, 1)
        c_skip = self.sigma_data**2 / (sigma**2 + self.sigma_data**2)
        c_out = sigma * self.sigma_data / (sigma**2 + self.sigma_data**2).sqrt()
        c_in = 1 / (self.sigma_data**2 + sigma**2).sqrt()
        c_noise = sigma.log() / 4
        F_x = self.F(torch.cat([c_in * x, c_noise], dim=1))
        return c_skip * x + c_out * F_x

    def round_sigma(self, sigma):
        return torch.as_tensor(sigma)


class EDMLoss:
    def __init__(self, P_mean=-1.2, P_std=1.2, sigma_data=0.5):
        self.P_mean, self.P_std, self.sigma_data = P_mean, P_std, sigma_data

    def __call__(self, net, images):
        rnd_normal = torch.randn([images.shape[0], 1])
        sigma = (rnd_normal * self.P_std + self.P_mean).exp()
        weight = (sigma**2 + self.sigma_data**2) / (sigma * self.sigma_data) ** 2
        n = torch.randn_like(images) * sigma
        D_yn = net(images + n, sigma)
        return weight * ((D_yn - images) ** 2)


@torch.no_grad()
def edm_sampler(
    net,
    latents,
    num_steps=6,
    sigma_min=0.002,
    sigma_max=80,
    rho=7,
    S_churn=0,
    S_min=0,
    S_max=float("inf"),
    S_noise=1,
    generator=None,
):
    sigma_min = max(sigma_min, net.sigma_min)
    sigma_max = min(sigma_max, net.sigma_max)
    step_indices = torch.arange(num_steps, dtype=torch.float64)
    t_steps = (
        sigma_max ** (1 / rho)
        + step_indices / (num_steps - 1) * (sigma_min ** (1 / rho) - sigma_max ** (1 / rho))
    ) ** rho
    t_steps = torch.cat([net.round_sigma(t_steps), torch.zeros_like(t_steps[:1])])
    x_next = latents.to(torch.float64) * t_steps[0]
    for i, (t_cur, t_next) in enumerate(zip(t_steps[:-1], t_steps[1:])):
        x_cur = x_next
        gamma = min(S_churn / num_steps, 2**0.5 - 1) if S_min <= t_cur <= S_max else 0
        t_hat = net.round_sigma(t_cur + gamma * t_cur)
        x_hat = x_cur + (t_hat**2 - t_cur**2).sqrt() * S_noise * torch.randn(
            x_cur.shape, generator=generator, dtype=torch.float64
        )
        denoised = net(x_hat.float(), t_hat.expand(x_hat.shape[0])).to(torch.float64)
        d_cur = (x_hat - denoised) / t_hat
        x_next = x_hat + (t_next - t_hat) * d_cur
        if i < num_steps - 1:
            denoised = net(x_next.float(), t_next.expand(x_next.shape[0])).to(torch.float64)
            d_prime = (x_next - denoised) / t_next
            x_next = x_hat + (t_next - t_hat) * (0.5 * d_cur + 0.5 * d_prime)
    return x_next, t_steps


torch.manual_seed(0)
net = EDMPrecond()
loss_fn = EDMLoss()
data = torch.randn(64, 3) * 0.5 + torch.tensor([1.0, -1.0, 0.0])
opt = torch.optim.Adam(net.parameters(), lr=2e-3)
ema = torch.optim.swa_utils.AveragedModel(
    net, multi_avg_fn=torch.optim.swa_utils.get_ema_multi_avg_fn(0.9)
)
for step in range(5):
    loss = loss_fn(net, data).mean()
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
    opt.step()
    ema.update_parameters(net)
    print(f"step {step} loss {loss.item():.5f}")
print(ema.n_averaged, type(ema.module).__name__)
g = torch.Generator().manual_seed(1)
latents = torch.randn(4, 3, generator=g)
samples, t_steps = edm_sampler(ema.module, latents, generator=g)
print(t_steps.dtype, [round(v, 4) for v in t_steps.tolist()])
samples2, _ = edm_sampler(
    net, latents, S_churn=10, S_min=0.05, S_max=50, generator=torch.Generator().manual_seed(2)
)
print(samples.dtype, samples.shape, bool(torch.isfinite(samples2).all()))
out(samples, samples2, ema.module.F[0].weight)
