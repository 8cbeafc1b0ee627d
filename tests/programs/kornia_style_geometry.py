# Image geometry in the style of a differentiable vision library: homography warps with grid_sample
torch.manual_seed(0)


def create_meshgrid(h, w, normalized=True):
    xs = torch.linspace(-1, 1, w) if normalized else torch.linspace(0, w - 1, w)
    ys = torch.linspace(-1, 1, h) if normalized else torch.linspace(0, h - 1, h)
    gx, gy = torch.meshgrid(xs, ys, indexing="xy")
    return torch.stack([gx, gy], dim=-1).unsqueeze(0)


def convert_points_to_homogeneous(p):
    return F.pad(p, [0, 1], "constant", 1.0)


def convert_points_from_homogeneous(p, eps=1e-8):
    z = p[..., -1:]
    scale = torch.where(z.abs() > eps, 1.0 / (z + eps), torch.ones_like(z))
    return scale * p[..., :-1]


def transform_points(M, pts):
    ph = convert_points_to_homogeneous(pts)
    out = torch.matmul(M.unsqueeze(1), ph.unsqueeze(-1)).squeeze(-1)
    return convert_points_from_homogeneous(out)


def normal_transform_pixel(h, w):
    tr = torch.tensor([[1.0, 0.0, -1.0], [0.0, 1.0, -1.0], [0.0, 0.0, 1.0]])
    tr[0, 0] = 2.0 / (w - 1)
    tr[1, 1] = 2.0 / (h - 1)
    return tr.unsqueeze(0)


def warp_perspective(src, M, dsize, align_corners=True):
    B, C, H, W = src.shape
    h, w = dsize
    N_src = normal_transform_pixel(H, W)
    N_dst = normal_transform_pixel(h, w)
    dst_norm_trans_src_norm = N_dst @ M @ torch.linalg.inv(N_src)
    src_norm_trans_dst_norm = torch.linalg.inv(dst_norm_trans_src_norm)
    grid = create_meshgrid(h, w).expand(B, -1, -1, -1).reshape(B, -1, 2)
    grid = transform_points(src_norm_trans_dst_norm, grid)
    return F.grid_sample(
        src,
        grid.view(B, h, w, 2),
        mode="bilinear",
        padding_mode="zeros",
        align_corners=align_corners,
    )


def get_rotation_matrix2d(center, angle_deg, scale):
    a = torch.deg2rad(angle_deg)
    alpha, beta = scale * torch.cos(a), scale * torch.sin(a)
    cx, cy = center[:, 0], center[:, 1]
    row0 = torch.stack([alpha, beta, (1 - alpha) * cx - beta * cy], dim=-1)
    row1 = torch.stack([-beta, alpha, beta * cx + (1 - alpha) * cy], dim=-1)
    return torch.stack([row0, row1], dim=1)


img = torch.arange(2 * 1 * 5 * 6, dtype=torch.float32).view(2, 1, 5, 6) / 10
angle = torch.tensor([90.0, 30.0], requires_grad=True)
A = get_rotation_matrix2d(torch.tensor([[2.5, 2.0], [2.5, 2.0]]), angle, torch.tensor([1.0, 0.8]))
M = torch.cat([A, torch.tensor([0.0, 0.0, 1.0]).expand(2, 1, 3)], dim=1)
print(M[0].detach().round(decimals=4))
warped = warp_perspective(img, M, (5, 6))
print(warped.shape, warped.grad_fn.name())
print(warped[0, 0].detach().round(decimals=3))
warped.sum().backward()
print("d sum / d angle =", [f"{g:.4f}" for g in angle.grad.tolist()])
pts = torch.tensor([[[0.0, 0.0], [5.0, 4.0], [2.5, 2.0]]]).expand(2, -1, -1)
print(transform_points(M.detach(), pts))
H = torch.tensor([[[1.0, 0.2, 0.5], [0.1, 0.9, -0.3], [0.01, 0.02, 1.0]]])
print(transform_points(H, pts[:1]), create_meshgrid(2, 3, normalized=False)[0, ..., 0])
out(M, warped, angle.grad)
# ---
# Filters as grouped conv2d: gaussian blur, Sobel gradients, a tiny Canny, and rgb_to_hsv
torch.manual_seed(0)


def gaussian(window_size, sigma):
    x = torch.arange(window_size, dtype=torch.float32) - window_size // 2
    if window_size % 2 == 0:
        x = x + 0.5
    g = torch.exp(-x.pow(2.0) / (2 * sigma**2))
    return g / g.sum()


def filter2d(x, kernel, border_type="reflect"):
    b, c, h, w = x.shape
    kh, kw = kernel.shape[-2:]
    k = kernel.to(x).expand(c, 1, kh, kw)
    padded = F.pad(x, [kw // 2, kw // 2, kh // 2, kh // 2], mode=border_type)
    return F.conv2d(padded, k, groups=c)


def gaussian_blur2d(x, ksize, sigma):
    ky, kx = gaussian(ksize[0], sigma[0]), gaussian(ksize[1], sigma[1])
    return filter2d(x, torch.outer(ky, kx)[None])


def spatial_gradient(x):
    kx = torch.tensor([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]]) / 8
    gx = filter2d(x, kx[None], "replicate")
    gy = filter2d(x, kx.t()[None], "replicate")
    return torch.stack([gx, gy], dim=2)


def canny(x, low, high):
    g = spatial_gradient(gaussian_blur2d(x, (5, 5), (1.0, 1.0)))
    gx, gy = g[:, :, 0], g[:, :, 1]
    mag = torch.sqrt(gx * gx + gy * gy + 1e-6)
    angle = torch.rad2deg(torch.atan2(gy, gx))
    angle = torch.round(angle / 45) * 45 % 180
    shifted = {
        0: (F.pad(mag, [1, 1, 0, 0])[..., :, 2:], F.pad(mag, [1, 1, 0, 0])[..., :, :-2]),
        90: (F.pad(mag, [0, 0, 1, 1])[..., 2:, :], F.pad(mag, [0, 0, 1, 1])[..., :-2, :]),
    }
    keep = torch.ones_like(mag, dtype=torch.bool)
    for a, (n1, n2) in shifted.items():
        sel = angle == a
        keep &= ~sel | ((mag >= n1) & (mag >= n2))
    nms = mag * keep
    strong = nms > high
    weak = (nms > low) & ~strong
    grown = F.max_pool2d(strong.float(), 3, 1, 1) > 0
    return mag, (strong | (weak & grown)).to(x.dtype)


def rgb_to_hsv(image, eps=1e-8):
    maxc, argmax = image.max(-3)
    minc = image.min(-3)[0]
    v = maxc
    deltac = maxc - minc
    s = deltac / (v + eps)
    deltac = torch.where(deltac == 0, torch.ones_like(deltac), deltac)
    maxc_tmp = maxc.unsqueeze(-3) - image
    rc, gc, bc = maxc_tmp[..., 0, :, :], maxc_tmp[..., 1, :, :], maxc_tmp[..., 2, :, :]
    h = torch.stack([bc - gc, 2.0 * deltac + rc - bc, 4.0 * deltac + gc - rc], dim=-3)
    h = torch.gather(h, dim=-3, index=argmax.unsqueeze(-3)).squeeze(-3)
    h = (h / deltac) / 6.0
    h = torch.remainder(h, 1.0) * 2 * torch.pi
    return torch.stack([h, s, v], dim=-3)


print(gaussian(5, 1.5), gaussian(4, 1.0))
x = torch.zeros(1, 1, 9, 9)
x[..., 3:7, 2:6] = 1.0
blur = gaussian_blur2d(x, (3, 3), (1.0, 1.0))
print(blur[0, 0, 2:5, 1:5])
g = spatial_gradient(x)
print(g.shape, g[0, 0, 0, 4], g[0, 0, 1, :, 3])
mag, edges = canny(x, 0.05, 0.1)
print(f"edge pixels {int(edges.sum())}, max magnitude {mag.max().item():.5f}")
print(edges[0, 0].int())
rgb = torch.rand(2, 3, 2, 3, requires_grad=True)
hsv = rgb_to_hsv(rgb)
print(hsv[0, :, 0].detach(), hsv.grad_fn.name())
hsv[:, 1:].sum().backward()
print(rgb.grad[0, :, 0])
out(blur, g, edges, hsv, rgb.grad)
