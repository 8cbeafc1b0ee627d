# Sobel edges and Gaussian blur with conv2d, morphology with max_pool2d, median filter via unfold
torch.manual_seed(0)
img = torch.zeros(1, 1, 16, 16)
img[..., 4:12, 4:12] = 1.0
img += 0.05 * torch.randn_like(img)
sobel_x = torch.tensor([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]])
kernels = torch.stack([sobel_x, sobel_x.T]).unsqueeze(1)
g = F.conv2d(F.pad(img, (1, 1, 1, 1), mode="replicate"), kernels)
mag = g.pow(2).sum(1, keepdim=True).sqrt()
angle = torch.atan2(g[:, 1], g[:, 0])
print(f"gradient magnitude max {mag.max().item():.4f} mean {mag.mean().item():.4f}")
print("edge pixels:", int((mag > 2.0).sum()))


def gaussian_kernel(size, sigma):
    ax = torch.arange(size, dtype=torch.float32) - (size - 1) / 2
    k1 = torch.exp(-0.5 * (ax / sigma) ** 2)
    k1 = k1 / k1.sum()
    return torch.outer(k1, k1)


gk = gaussian_kernel(5, 1.0)
blurred = F.conv2d(F.pad(img, (2, 2, 2, 2), mode="reflect"), gk[None, None])
print(f"blur keeps mean: {img.mean().item():.5f} -> {blurred.mean().item():.5f}")
binary = (img > 0.5).float()
dilated = F.max_pool2d(binary, 3, stride=1, padding=1)
eroded = -F.max_pool2d(-binary, 3, stride=1, padding=1)
opening = F.max_pool2d(-F.max_pool2d(-binary, 3, 1, 1), 3, 1, 1)
print(
    f"area {int(binary.sum())} dilated {int(dilated.sum())} "
    f"eroded {int(eroded.sum())} opened {int(opening.sum())}"
)
noisy = img.clone()
noisy[0, 0, 2, 3] = 5.0
noisy[0, 0, 9, 9] = -4.0
patches = F.unfold(F.pad(noisy, (1, 1, 1, 1), mode="replicate"), 3)
med = patches.median(dim=1).values.reshape(1, 1, 16, 16)
print(f"median filter: {noisy.abs().max().item():.2f} -> {med.abs().max().item():.4f}")
out(mag[0, 0, 3:6, 3:6], angle[0, 5:7, 3:6], blurred[0, 0, 4, :6], dilated.sum(), med[0, 0, :3, :4])
# ---
# histogram equalisation with histc/bincount/cumsum and a gamma curve, per-channel statistics
torch.manual_seed(4)
img8 = (torch.rand(3, 12, 12) ** 2 * 200).to(torch.uint8)
hist = torch.bincount(img8[0].flatten(), minlength=256)
cdf = hist.cumsum(0)
cdf_min = cdf[cdf > 0].min()
lut = (
    ((cdf - cdf_min).float() / (cdf[-1] - cdf_min).float() * 255)
    .round()
    .clamp(0, 255)
    .to(torch.uint8)
)
eq = lut[img8[0].long()]
print(hist.dtype, cdf.dtype, lut.dtype, eq.dtype)
print(
    f"before {img8[0].min().item()}/{img8[0].max().item()} "
    f"after {eq.min().item()}/{eq.max().item()}"
)
h2 = torch.histc(img8.float(), bins=8, min=0, max=255)
print(h2.tolist())
x = img8.float() / 255
gamma = x.pow(1 / 2.2)
mean, std = x.mean((1, 2)), x.std((1, 2))
print("mean", [f"{v:.4f}" for v in mean.tolist()], "std", [f"{v:.4f}" for v in std.tolist()])
normed = (x - mean[:, None, None]) / std[:, None, None]
hist_counts, bin_edges = torch.histogram(x[0], bins=5, range=(0.0, 1.0))
out(eq[:3, :6], h2, gamma[1, :2, :4], normed.mean(), hist_counts, bin_edges)
