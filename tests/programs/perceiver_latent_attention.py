# Perceiver: latent array cross-attending to a long input, Fourier position features, self-attention
import math


def fourier_encode(x, max_freq, num_bands=4):
    x = x.unsqueeze(-1)
    dtype, orig_x = x.dtype, x
    scales = torch.linspace(1.0, max_freq / 2, num_bands, dtype=dtype)
    scales = scales[(*((None,) * (len(x.shape) - 1)), Ellipsis)]
    x = x * scales * math.pi
    x = torch.cat([x.sin(), x.cos()], dim=-1)
    return torch.cat((x, orig_x), dim=-1)


class PreNorm(nn.Module):
    def __init__(self, dim, fn, context_dim=None):
        super().__init__()
        self.fn = fn
        self.norm = nn.LayerNorm(dim)
        self.norm_context = nn.LayerNorm(context_dim) if context_dim is not None else None

    def forward(self, x, **kwargs):
        x = self.norm(x)
        if self.norm_context is not None:
            kwargs["context"] = self.norm_context(kwargs["context"])
        return self.fn(x, **kwargs)


class Attention(nn.Module):
    def __init__(self, query_dim, context_dim=None, heads=2, dim_head=8):
        super().__init__()
        inner_dim = dim_head * heads
        context_dim = context_dim if context_dim is not None else query_dim
        self.scale = dim_head**-0.5
        self.heads = heads
        self.to_q = nn.Linear(query_dim, inner_dim, bias=False)
        self.to_kv = nn.Linear(context_dim, inner_dim * 2, bias=False)
        self.to_out = nn.Linear(inner_dim, query_dim)

    def forward(self, x, context=None, mask=None):
        h = self.heads
        q = self.to_q(x)
        context = context if context is not None else x
        k, v = self.to_kv(context).chunk(2, dim=-1)
        q, k, v = (
            t.reshape(t.shape[0], t.shape[1], h, -1)
            .permute(0, 2, 1, 3)
            .reshape(t.shape[0] * h, t.shape[1], -1)
            for t in (q, k, v)
        )
        sim = torch.einsum("b i d, b j d -> b i j", q, k) * self.scale
        if mask is not None:
            mask = mask.reshape(mask.shape[0], -1)
            max_neg_value = -torch.finfo(sim.dtype).max
            mask = mask.repeat_interleave(h, dim=0)[:, None, :]
            sim.masked_fill_(~mask, max_neg_value)
        attn = sim.softmax(dim=-1)
        out_ = torch.einsum("b i j, b j d -> b i d", attn, v)
        b = out_.shape[0] // h
        out_ = (
            out_.reshape(b, h, out_.shape[1], -1).permute(0, 2, 1, 3).reshape(b, out_.shape[1], -1)
        )
        return self.to_out(out_)


class FeedForward(nn.Module):
    def __init__(self, dim, mult=2):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(dim, dim * mult * 2), GEGLU(), nn.Linear(dim * mult, dim)
        )

    def forward(self, x):
        return self.net(x)


class GEGLU(nn.Module):
    def forward(self, x):
        x, gates = x.chunk(2, dim=-1)
        return x * F.gelu(gates)


class Perceiver(nn.Module):
    def __init__(
        self,
        input_channels=3,
        num_latents=6,
        latent_dim=16,
        depth=2,
        num_freq_bands=4,
        max_freq=10.0,
        num_classes=4,
    ):
        super().__init__()
        self.num_freq_bands, self.max_freq = num_freq_bands, max_freq
        input_dim = input_channels + 2 * (2 * num_freq_bands + 1)
        self.latents = nn.Parameter(torch.randn(num_latents, latent_dim))
        self.cross_attn = PreNorm(
            latent_dim,
            Attention(latent_dim, input_dim, heads=1, dim_head=16),
            context_dim=input_dim,
        )
        self.cross_ff = PreNorm(latent_dim, FeedForward(latent_dim))
        self.layers = nn.ModuleList(
            [
                nn.ModuleList(
                    [
                        PreNorm(latent_dim, Attention(latent_dim)),
                        PreNorm(latent_dim, FeedForward(latent_dim)),
                    ]
                )
                for _ in range(depth)
            ]
        )
        self.to_logits = nn.Sequential(nn.LayerNorm(latent_dim), nn.Linear(latent_dim, num_classes))

    def forward(self, data, mask=None):
        b, *axis, _ = data.shape
        axis_pos = [torch.linspace(-1.0, 1.0, steps=size) for size in axis]
        pos = torch.stack(torch.meshgrid(*axis_pos, indexing="ij"), dim=-1)
        enc_pos = fourier_encode(pos, self.max_freq, self.num_freq_bands)
        enc_pos = (
            enc_pos.reshape(*enc_pos.shape[:-2], -1).unsqueeze(0).expand(b, *enc_pos.shape[:-2], -1)
        )
        data = torch.cat((data, enc_pos), dim=-1).reshape(b, -1, data.shape[-1] + enc_pos.shape[-1])
        x = self.latents.unsqueeze(0).repeat(b, 1, 1)
        x = self.cross_attn(x, context=data, mask=mask) + x
        x = self.cross_ff(x) + x
        for attn, ff in self.layers:
            x = attn(x) + x
            x = ff(x) + x
        return self.to_logits(x.mean(dim=-2))


torch.manual_seed(0)
enc = fourier_encode(torch.tensor([[0.0, 0.5]]), 10.0)
print(enc.shape)
out(enc)
model = Perceiver()
img = torch.randn(3, 5, 4, 3)
mask = torch.ones(3, 5, 4, dtype=torch.bool)
mask[0, -1] = False
logits = model(img, mask=mask)
print(logits.shape, sum(p.numel() for p in model.parameters()))
loss = F.cross_entropy(logits, torch.tensor([0, 3, 1]))
loss.backward()
print(f"loss {loss.item():.5f} latent grad {model.latents.grad.norm().item():.5f}")
out(logits, model.latents.grad)
