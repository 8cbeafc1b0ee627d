# NeRF: positional encoding, volume rendering with an exclusive cumprod, hierarchical sampling
class Embedder:
    def __init__(self, multires, include_input=True, log_sampling=True):
        self.embed_fns = []
        d = 3
        out_dim = 0
        if include_input:
            self.embed_fns.append(lambda x: x)
            out_dim += d
        max_freq = multires - 1
        if log_sampling:
            freq_bands = 2.0 ** torch.linspace(0.0, max_freq, steps=multires)
        else:
            freq_bands = torch.linspace(2.0**0.0, 2.0**max_freq, steps=multires)
        for freq in freq_bands:
            for p_fn in [torch.sin, torch.cos]:
                self.embed_fns.append(lambda x, p_fn=p_fn, freq=freq: p_fn(x * freq))
                out_dim += d
        self.out_dim = out_dim

    def embed(self, inputs):
        return torch.cat([fn(inputs) for fn in self.embed_fns], -1)


def raw2outputs(raw, z_vals, rays_d, raw_noise_std=0.0, white_bkgd=False):
    raw2alpha = lambda raw, dists, act_fn=F.relu: 1.0 - torch.exp(-act_fn(raw) * dists)
    dists = z_vals[..., 1:] - z_vals[..., :-1]
    dists = torch.cat([dists, torch.Tensor([1e10]).expand(dists[..., :1].shape)], -1)
    dists = dists * torch.norm(rays_d[..., None, :], dim=-1)
    rgb = torch.sigmoid(raw[..., :3])
    noise = 0.0
    if raw_noise_std > 0.0:
        noise = torch.randn(raw[..., 3].shape) * raw_noise_std
    alpha = raw2alpha(raw[..., 3] + noise, dists)
    weights = (
        alpha
        * torch.cumprod(torch.cat([torch.ones((alpha.shape[0], 1)), 1.0 - alpha + 1e-10], -1), -1)[
            :, :-1
        ]
    )
    rgb_map = torch.sum(weights[..., None] * rgb, -2)
    depth_map = torch.sum(weights * z_vals, -1)
    disp_map = 1.0 / torch.max(
        1e-10 * torch.ones_like(depth_map), depth_map / torch.sum(weights, -1)
    )
    acc_map = torch.sum(weights, -1)
    if white_bkgd:
        rgb_map = rgb_map + (1.0 - acc_map[..., None])
    return rgb_map, disp_map, acc_map, weights, depth_map


def sample_pdf(bins, weights, N_samples, det=False):
    weights = weights + 1e-5
    pdf = weights / torch.sum(weights, -1, keepdim=True)
    cdf = torch.cumsum(pdf, -1)
    cdf = torch.cat([torch.zeros_like(cdf[..., :1]), cdf], -1)
    if det:
        u = torch.linspace(0.0, 1.0, steps=N_samples)
        u = u.expand(list(cdf.shape[:-1]) + [N_samples])
    else:
        u = torch.rand(list(cdf.shape[:-1]) + [N_samples])
    u = u.contiguous()
    inds = torch.searchsorted(cdf, u, right=True)
    below = torch.max(torch.zeros_like(inds - 1), inds - 1)
    above = torch.min((cdf.shape[-1] - 1) * torch.ones_like(inds), inds)
    inds_g = torch.stack([below, above], -1)
    matched_shape = [inds_g.shape[0], inds_g.shape[1], cdf.shape[-1]]
    cdf_g = torch.gather(cdf.unsqueeze(1).expand(matched_shape), 2, inds_g)
    bins_g = torch.gather(bins.unsqueeze(1).expand(matched_shape), 2, inds_g)
    denom = cdf_g[..., 1] - cdf_g[..., 0]
    denom = torch.where(denom < 1e-5, torch.ones_like(denom), denom)
    t = (u - cdf_g[..., 0]) / denom
    samples = bins_g[..., 0] + t * (bins_g[..., 1] - bins_g[..., 0])
    return samples


torch.manual_seed(0)
embedder = Embedder(4)
pts = torch.rand(5, 3)
emb = embedder.embed(pts)
print(embedder.out_dim, emb.shape)
out(emb)

N_rays, N_samples = 4, 8
rays_o = torch.zeros(N_rays, 3)
rays_d = F.normalize(torch.randn(N_rays, 3), dim=-1)
near, far = 2.0, 6.0
t_vals = torch.linspace(0.0, 1.0, steps=N_samples)
z_vals = near * (1.0 - t_vals) + far * t_vals
z_vals = z_vals.expand([N_rays, N_samples])
mids = 0.5 * (z_vals[..., 1:] + z_vals[..., :-1])
upper = torch.cat([mids, z_vals[..., -1:]], -1)
lower = torch.cat([z_vals[..., :1], mids], -1)
t_rand = torch.rand(z_vals.shape)
z_vals = lower + (upper - lower) * t_rand
pts = rays_o[..., None, :] + rays_d[..., None, :] * z_vals[..., :, None]
print(pts.shape)

mlp = nn.Sequential(nn.Linear(embedder.out_dim, 32), nn.ReLU(), nn.Linear(32, 4))
raw = mlp(embedder.embed(pts))
rgb_map, disp_map, acc_map, weights, depth_map = raw2outputs(
    raw, z_vals, rays_d, raw_noise_std=1.0, white_bkgd=True
)
print(rgb_map.shape, weights.shape, f"{acc_map.mean().item():.5f}")
target = torch.rand(N_rays, 3)
img_loss = F.mse_loss(rgb_map, target)
psnr = -10.0 * torch.log(img_loss) / torch.log(torch.Tensor([10.0]))
print(f"loss {img_loss.item():.5f} psnr {psnr.item():.3f}")
img_loss.backward()
out(rgb_map, disp_map, depth_map, weights, mlp[0].weight.grad)

z_vals_mid = 0.5 * (z_vals[..., 1:] + z_vals[..., :-1])
z_samples = sample_pdf(z_vals_mid, weights[..., 1:-1].detach(), 6, det=True)
z_rand = sample_pdf(z_vals_mid, weights[..., 1:-1].detach(), 6, det=False)
z_all, _ = torch.sort(torch.cat([z_vals, z_samples], -1), -1)
print(z_samples.requires_grad, z_all.shape, bool((z_all[:, 1:] >= z_all[:, :-1]).all()))
out(z_samples, z_rand, z_all)
print(torch.searchsorted(torch.tensor([0.0, 0.5, 1.0]), torch.tensor([0.5, 0.7]), right=True))
print(torch.searchsorted(torch.tensor([0.0, 0.5, 1.0]), torch.tensor([0.5, 0.7]), side="left"))
