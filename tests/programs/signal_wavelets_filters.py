# Haar wavelets (1D multilevel, 2D) with strided slicing and conv, and soft-threshold denoising
torch.manual_seed(0)
s2 = 2**0.5


def haar_1d(x):
    return (x[..., ::2] + x[..., 1::2]) / s2, (x[..., ::2] - x[..., 1::2]) / s2


def ihaar_1d(a, d):
    out = torch.empty(*a.shape[:-1], a.shape[-1] * 2, dtype=a.dtype)
    out[..., ::2] = (a + d) / s2
    out[..., 1::2] = (a - d) / s2
    return out


def wavedec(x, levels):
    coeffs = []
    for _ in range(levels):
        x, d = haar_1d(x)
        coeffs.append(d)
    return [x] + coeffs[::-1]


def waverec(coeffs):
    a = coeffs[0]
    for d in coeffs[1:]:
        a = ihaar_1d(a, d)
    return a


t = torch.linspace(0, 1, 64)
clean = torch.sin(2 * torch.pi * 3 * t) + (t > 0.5).float()
noisy = clean + 0.2 * torch.randn(64)
coeffs = wavedec(noisy, 3)
print([c.shape[-1] for c in coeffs], torch.allclose(waverec(coeffs), noisy, atol=1e-6))
sigma = torch.median(coeffs[-1].abs()) / 0.6745
thr = sigma * torch.sqrt(2 * torch.log(torch.tensor(64.0)))
den = [coeffs[0]] + [torch.sign(c) * torch.clamp(c.abs() - thr, min=0) for c in coeffs[1:]]
rec = waverec(den)
print(
    f"sigma {sigma.item():.4f} thr {thr.item():.4f} mse noisy {F.mse_loss(noisy, clean).item():.4f}"
    f" denoised {F.mse_loss(rec, clean).item():.4f}"
)
img = torch.arange(16.0).view(1, 1, 4, 4)
k = (
    torch.tensor(
        [
            [[[1.0, 1.0], [1.0, 1.0]]],
            [[[1.0, -1.0], [1.0, -1.0]]],
            [[[1.0, 1.0], [-1.0, -1.0]]],
            [[[1.0, -1.0], [-1.0, 1.0]]],
        ]
    )
    / 2
)
bands = F.conv2d(img, k, stride=2)
print(bands.squeeze(0))
recon = F.conv_transpose2d(bands, k, stride=2)
print(
    torch.equal(recon, img),
    f"energy kept {bands.pow(2).sum().item() / img.pow(2).sum().item():.6f}",
)
out(coeffs, rec, bands)
# ---
# Savitzky-Golay smoothing and derivative filters from a least-squares fit, applied with conv1d
torch.manual_seed(0)


def savgol_coeffs(window, polyorder, deriv=0, delta=1.0):
    half = window // 2
    x = torch.arange(-half, half + 1, dtype=torch.float64)
    A = x.unsqueeze(1) ** torch.arange(polyorder + 1, dtype=torch.float64)
    pinv = torch.linalg.pinv(A)
    fact = torch.exp(torch.lgamma(torch.tensor(deriv + 1.0, dtype=torch.float64)))
    return (pinv[deriv] * fact / delta**deriv).flip(0)


def savgol_filter(y, window, polyorder, deriv=0, delta=1.0):
    c = savgol_coeffs(window, polyorder, deriv, delta).to(y.dtype)
    pad = window // 2
    yp = F.pad(y.view(1, 1, -1), (pad, pad), mode="replicate")
    return F.conv1d(yp, c.flip(0).view(1, 1, -1)).view(-1)


c = savgol_coeffs(5, 2)
print(c, c.sum())
d1c = savgol_coeffs(7, 3, deriv=1) * 28
d1c[d1c.abs() < 1e-9] = 0
print(d1c)
t = torch.linspace(0, 2, 101, dtype=torch.float64)
y = t**3 - t + 0.01 * torch.randn(101, dtype=torch.float64)
sm = savgol_filter(y, 11, 3)
d1 = savgol_filter(y, 11, 3, deriv=1, delta=float(t[1] - t[0]))
print(
    f"smooth error {(sm - (t**3 - t))[10:-10].abs().max().item():.5f}",
    f"derivative error {(d1 - (3 * t**2 - 1))[10:-10].abs().max().item():.4f}",
)
print(sm.dtype, d1[50].item() > 1.9)
out(c, sm, d1)
# ---
# Histogram equalisation of an 8-bit image: histc/bincount, the CDF lookup table, CLAHE-like tiles
torch.manual_seed(0)
img = (torch.rand(32, 32) ** 3 * 180 + 20).to(torch.uint8)
hist = torch.bincount(img.flatten().long(), minlength=256)
cdf = hist.cumsum(0)
cdf_min = cdf[cdf > 0].min()
lut = (
    torch.round((cdf - cdf_min).float() / (img.numel() - cdf_min) * 255)
    .clamp(0, 255)
    .to(torch.uint8)
)
eq = lut[img.long()]
print(img.dtype, eq.dtype, img.min().item(), img.max().item(), eq.min().item(), eq.max().item())
print(
    torch.histc(img.float(), bins=8, min=0, max=255),
    torch.histc(eq.float(), bins=8, min=0, max=255),
)
print(f"mean {img.float().mean().item():.3f} -> {eq.float().mean().item():.3f}")
tiles = img.view(4, 8, 4, 8).permute(0, 2, 1, 3).reshape(16, 64)
tile_hist = torch.zeros(16, 256, dtype=torch.long).scatter_add_(
    1, tiles.long(), torch.ones_like(tiles, dtype=torch.long)
)
clip = 4
excess = (tile_hist - clip).clamp(min=0).sum(1, keepdim=True)
clipped = tile_hist.clamp(max=clip) + excess // 256
tile_lut = (clipped.cumsum(1).float() * 255 / clipped.sum(1, keepdim=True)).round().to(torch.uint8)
out_tiles = torch.gather(tile_lut, 1, tiles.long())
print(out_tiles.shape, out_tiles.dtype, excess.squeeze()[:6])
h, edges = torch.histogram(img.float(), bins=4, range=(0.0, 256.0))
print(h, edges)
out(eq, lut, out_tiles, h)
