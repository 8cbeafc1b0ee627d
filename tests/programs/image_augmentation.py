# hand-written image augmentations: flips, random crops, affine_grid rotation, colour jitter, mixup
import math

torch.manual_seed(0)
imgs = torch.rand(4, 3, 8, 8)
mean = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
std = torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1)
normed = (imgs - mean) / std
print(normed.mean(dim=(0, 2, 3)).round(decimals=2), normed.std(dim=(0, 2, 3)))
flip_mask = torch.rand(4) < 0.5
flipped = torch.where(flip_mask.view(4, 1, 1, 1), imgs.flip(dims=[3]), imgs)
print(flip_mask, torch.equal(flipped[flip_mask], imgs[flip_mask].flip(-1)))
padded = F.pad(imgs, (2, 2, 2, 2), mode="reflect")
tops = torch.randint(0, 5, (4,))
lefts = torch.randint(0, 5, (4,))
crops = torch.stack(
    [padded[i, :, t : t + 8, c : c + 8] for i, (t, c) in enumerate(zip(tops, lefts))]
)
print(padded.shape, crops.shape, tops.tolist(), lefts.tolist())
angle = math.radians(30)
theta = (
    torch.tensor(
        [[math.cos(angle), -math.sin(angle), 0.0], [math.sin(angle), math.cos(angle), 0.0]]
    )
    .unsqueeze(0)
    .repeat(4, 1, 1)
)
grid = F.affine_grid(theta, imgs.shape, align_corners=False)
rotated = F.grid_sample(imgs, grid, mode="bilinear", padding_mode="zeros", align_corners=False)
print(grid.shape, rotated.shape, f"{rotated.sum().item():.4f}")
brightness = 1 + (torch.rand(4, 1, 1, 1) - 0.5) * 0.4
gray = (imgs * torch.tensor([0.299, 0.587, 0.114]).view(1, 3, 1, 1)).sum(1, keepdim=True)
saturation = 1 + (torch.rand(4, 1, 1, 1) - 0.5) * 0.4
jittered = ((imgs * brightness - gray) * saturation + gray).clamp(0, 1)
print(jittered.min() >= 0, jittered.max() <= 1, brightness.flatten())
small = F.interpolate(imgs, size=(4, 4), mode="bilinear", align_corners=False, antialias=True)
big = F.interpolate(small, scale_factor=2, mode="nearest")
print(small.shape, big.shape, F.avg_pool2d(imgs, 2).sub(small).abs().max() < 0.2)
print(torch.rot90(imgs[0, 0, :3, :3], 1, dims=(0, 1)))
labels = F.one_hot(torch.tensor([0, 1, 2, 1]), 3).float()
lam = torch.distributions.Beta(torch.tensor(0.4), torch.tensor(0.4)).sample()
perm = torch.randperm(4)
mixed = lam * imgs + (1 - lam) * imgs[perm]
mixed_labels = lam * labels + (1 - lam) * labels[perm]
print(f"lam {lam.item():.4f}", perm, mixed_labels)
cut = torch.zeros(1, 1, 8, 8)
cut[..., 2:5, 3:7] = 1
cutmix = imgs * (1 - cut) + imgs[perm] * cut
print(cut.mean(), cutmix.shape)
noise = imgs + 0.05 * torch.randn_like(imgs)
erased = imgs.clone()
erased[:, :, 1:3, 1:3] = torch.randn(4, 3, 2, 2)
print(f"{noise.sub(imgs).std().item():.4f}", erased.ne(imgs).any(dim=(1, 2, 3)))
out(normed, flipped, crops, rotated, jittered, small, big, mixed, mixed_labels, cutmix, erased)
