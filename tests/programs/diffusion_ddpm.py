# DDPM: linear and cosine noise schedules, q_sample with gather, a time-conditioned UNet step
import math

T = 50
betas = torch.linspace(1e-4, 0.02, T)
alphas = 1.0 - betas
alphas_cumprod = torch.cumprod(alphas, dim=0)
alphas_cumprod_prev = F.pad(alphas_cumprod[:-1], (1, 0), value=1.0)
sqrt_recip_alphas = torch.sqrt(1.0 / alphas)
sqrt_alphas_cumprod = torch.sqrt(alphas_cumprod)
sqrt_one_minus_alphas_cumprod = torch.sqrt(1.0 - alphas_cumprod)
posterior_variance = betas * (1.0 - alphas_cumprod_prev) / (1.0 - alphas_cumprod)
out(alphas_cumprod[:5], alphas_cumprod_prev[:3], posterior_variance[-3:])
print(f"{alphas_cumprod[-1].item():.6f} {posterior_variance[1:].log().mean():.4f}")


def cosine_beta_schedule(timesteps, s=0.008):
    steps = timesteps + 1
    x = torch.linspace(0, timesteps, steps, dtype=torch.float64)
    ac = torch.cos(((x / timesteps) + s) / (1 + s) * torch.pi * 0.5) ** 2
    ac = ac / ac[0]
    b = 1 - (ac[1:] / ac[:-1])
    return torch.clip(b, 0.0001, 0.9999)


cos_betas = cosine_beta_schedule(T)
out(cos_betas[:4], cos_betas[-2:], cos_betas.dtype)


def extract(a, t, x_shape):
    batch_size = t.shape[0]
    res = a.gather(-1, t.cpu())
    return res.reshape(batch_size, *((1,) * (len(x_shape) - 1))).to(t.device)


def q_sample(x_start, t, noise=None):
    if noise is None:
        noise = torch.randn_like(x_start)
    return (
        extract(sqrt_alphas_cumprod, t, x_start.shape) * x_start
        + extract(sqrt_one_minus_alphas_cumprod, t, x_start.shape) * noise
    )


class SinusoidalPositionEmbeddings(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, time):
        half_dim = self.dim // 2
        embeddings = math.log(10000) / (half_dim - 1)
        embeddings = torch.exp(torch.arange(half_dim, device=time.device) * -embeddings)
        embeddings = time[:, None] * embeddings[None, :]
        return torch.cat((embeddings.sin(), embeddings.cos()), dim=-1)


emb = SinusoidalPositionEmbeddings(8)(torch.tensor([0, 1, 10, 49]))
out(emb)


class Block(nn.Module):
    def __init__(self, dim, dim_out, time_dim, groups=4):
        super().__init__()
        self.mlp = nn.Sequential(nn.SiLU(), nn.Linear(time_dim, dim_out * 2))
        self.proj = nn.Conv2d(dim, dim_out, 3, padding=1)
        self.norm = nn.GroupNorm(groups, dim_out)
        self.act = nn.SiLU()

    def forward(self, x, t_emb):
        scale, shift = self.mlp(t_emb)[:, :, None, None].chunk(2, dim=1)
        x = self.norm(self.proj(x))
        x = x * (scale + 1) + shift
        return self.act(x)


class TinyUnet(nn.Module):
    def __init__(self, channels=1, dim=8, time_dim=16):
        super().__init__()
        self.time_mlp = nn.Sequential(
            SinusoidalPositionEmbeddings(dim), nn.Linear(dim, time_dim), nn.GELU()
        )
        self.init_conv = nn.Conv2d(channels, dim, 1)
        self.down = Block(dim, dim * 2, time_dim)
        self.downsample = nn.Conv2d(dim * 2, dim * 2, 4, 2, 1)
        self.mid = Block(dim * 2, dim * 2, time_dim)
        self.upsample = nn.ConvTranspose2d(dim * 2, dim * 2, 4, 2, 1)
        self.up = Block(dim * 4, dim, time_dim)
        self.final_conv = nn.Conv2d(dim, channels, 1)

    def forward(self, x, time):
        t = self.time_mlp(time)
        x = self.init_conv(x)
        h = self.down(x, t)
        x = self.mid(self.downsample(h), t)
        x = self.upsample(x)
        x = self.up(torch.cat((x, h), dim=1), t)
        return self.final_conv(x)


model = TinyUnet()
print(model)
print(sum(p.numel() for p in model.parameters()))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
x_start = torch.rand(4, 1, 8, 8) * 2 - 1
for step in range(3):
    optimizer.zero_grad()
    t = torch.randint(0, T, (x_start.shape[0],)).long()
    noise = torch.randn_like(x_start)
    x_noisy = q_sample(x_start, t, noise)
    predicted = model(x_noisy, t)
    loss = F.smooth_l1_loss(noise, predicted)
    loss.backward()
    optimizer.step()
    print(f"step {step} t={t.tolist()} loss {loss.item():.5f}")
out(model.down.norm.weight.grad, model.upsample.bias.grad)


@torch.no_grad()
def p_sample(model, x, t, t_index):
    betas_t = extract(betas, t, x.shape)
    sqrt_one_minus = extract(sqrt_one_minus_alphas_cumprod, t, x.shape)
    sqrt_recip = extract(sqrt_recip_alphas, t, x.shape)
    model_mean = sqrt_recip * (x - betas_t * model(x, t) / sqrt_one_minus)
    if t_index == 0:
        return model_mean
    posterior_variance_t = extract(posterior_variance, t, x.shape)
    noise = torch.randn_like(x)
    return model_mean + torch.sqrt(posterior_variance_t) * noise


img = torch.randn((2, 1, 8, 8))
imgs = []
for i in reversed(range(0, 6)):
    img = p_sample(model, img, torch.full((2,), i, dtype=torch.long), i)
    imgs.append(img.cpu().numpy())
out(img, len(imgs), imgs[0].shape, img.requires_grad)
print(img[0, 0, :2])
