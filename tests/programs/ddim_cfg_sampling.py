# DDIM sampling with classifier-free guidance: a tiny conditional eps-model, cosine schedule, eta
import math


def cosine_beta_schedule(timesteps, s=0.008):
    steps = timesteps + 1
    x = torch.linspace(0, timesteps, steps, dtype=torch.float64)
    alphas_cumprod = torch.cos(((x / timesteps) + s) / (1 + s) * math.pi * 0.5) ** 2
    alphas_cumprod = alphas_cumprod / alphas_cumprod[0]
    betas = 1 - (alphas_cumprod[1:] / alphas_cumprod[:-1])
    return torch.clip(betas, 0, 0.999)


def timestep_embedding(timesteps, dim, max_period=10000):
    half = dim // 2
    freqs = torch.exp(
        -math.log(max_period) * torch.arange(start=0, end=half, dtype=torch.float32) / half
    )
    args = timesteps[:, None].float() * freqs[None]
    embedding = torch.cat([torch.cos(args), torch.sin(args)], dim=-1)
    if dim % 2:
        embedding = torch.cat([embedding, torch.zeros_like(embedding[:, :1])], dim=-1)
    return embedding


class EpsModel(nn.Module):
    def __init__(self, dim=4, num_classes=3, emb=16):
        super().__init__()
        self.class_emb = nn.Embedding(num_classes + 1, emb)  # the last index is the null class
        self.null_class = num_classes
        self.net = nn.Sequential(nn.Linear(dim + emb + emb, 64), nn.SiLU(), nn.Linear(64, dim))
        self.emb = emb

    def forward(self, x, t, y):
        h = torch.cat([x, timestep_embedding(t, self.emb), self.class_emb(y)], dim=-1)
        return self.net(h)


def extract(a, t, x_shape):
    b = t.shape[0]
    out_ = a.gather(-1, t)
    return out_.reshape(b, *((1,) * (len(x_shape) - 1)))


T = 50
betas = cosine_beta_schedule(T).float()
alphas = 1.0 - betas
alphas_cumprod = torch.cumprod(alphas, dim=0)
alphas_cumprod_prev = F.pad(alphas_cumprod[:-1], (1, 0), value=1.0)
print(betas.dtype, f"{betas[0].item():.6f} {betas[-1].item():.6f}", alphas_cumprod_prev[:2])

torch.manual_seed(0)
model = EpsModel()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
data = torch.randn(32, 4)
labels = torch.randint(0, 3, (32,))
data = data + labels[:, None].float()
p_uncond = 0.2
for step in range(6):
    t = torch.randint(0, T, (32,), dtype=torch.long)
    noise = torch.randn_like(data)
    x_t = (
        extract(alphas_cumprod.sqrt(), t, data.shape) * data
        + extract((1 - alphas_cumprod).sqrt(), t, data.shape) * noise
    )
    drop = torch.rand(32) < p_uncond
    y = torch.where(drop, torch.full_like(labels, model.null_class), labels)
    loss = F.mse_loss(model(x_t, t, y), noise)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.5f} dropped {int(drop.sum())}")


@torch.no_grad()
def ddim_sample(model, y, ddim_steps=10, eta=0.0, guidance_scale=3.0, generator=None):
    n = y.shape[0]
    times = torch.linspace(-1, T - 1, steps=ddim_steps + 1).long().flip(0)
    time_pairs = list(zip(times[:-1].tolist(), times[1:].tolist()))
    x = torch.randn(n, 4, generator=generator)
    for time, time_next in time_pairs:
        t = torch.full((n,), time, dtype=torch.long)
        x_in = torch.cat([x, x])
        t_in = torch.cat([t, t])
        y_in = torch.cat([y, torch.full_like(y, model.null_class)])
        eps_cond, eps_uncond = model(x_in, t_in, y_in).chunk(2)
        eps = eps_uncond + guidance_scale * (eps_cond - eps_uncond)
        alpha = alphas_cumprod[time]
        x0 = (x - (1 - alpha).sqrt() * eps) / alpha.sqrt()
        x0 = x0.clamp(-4.0, 4.0)
        if time_next < 0:
            x = x0
            continue
        alpha_next = alphas_cumprod[time_next]
        sigma = eta * ((1 - alpha / alpha_next) * (1 - alpha_next) / (1 - alpha)).sqrt()
        c = (1 - alpha_next - sigma**2).sqrt()
        noise = torch.randn(x.shape, generator=generator)
        x = x0 * alpha_next.sqrt() + c * eps + sigma * noise
    return x, times


y = torch.tensor([0, 1, 2, 2])
g = torch.Generator().manual_seed(42)
samples, times = ddim_sample(model, y, generator=g)
print(times.tolist())
samples_eta, _ = ddim_sample(model, y, eta=1.0, generator=torch.Generator().manual_seed(42))
print(samples.requires_grad, samples.shape, f"{(samples - samples_eta).abs().max().item():.4f}")
out(samples, samples_eta, alphas_cumprod)
