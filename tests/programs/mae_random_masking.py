# MAE: random masking by argsort of noise, gather to keep and restore, 2D sin-cos positions


def get_1d_sincos_pos_embed_from_grid(embed_dim, pos):
    omega = np.arange(embed_dim // 2, dtype=np.float64)
    omega /= embed_dim / 2.0
    omega = 1.0 / 10000**omega
    pos = pos.reshape(-1)
    out_ = np.einsum("m,d->md", pos, omega)
    return np.concatenate([np.sin(out_), np.cos(out_)], axis=1)


def get_2d_sincos_pos_embed(embed_dim, grid_size, cls_token=False):
    grid_h = np.arange(grid_size, dtype=np.float32)
    grid_w = np.arange(grid_size, dtype=np.float32)
    grid = np.meshgrid(grid_w, grid_h)
    grid = np.stack(grid, axis=0).reshape([2, 1, grid_size, grid_size])
    emb_h = get_1d_sincos_pos_embed_from_grid(embed_dim // 2, grid[0])
    emb_w = get_1d_sincos_pos_embed_from_grid(embed_dim // 2, grid[1])
    pos_embed = np.concatenate([emb_h, emb_w], axis=1)
    if cls_token:
        pos_embed = np.concatenate([np.zeros([1, embed_dim]), pos_embed], axis=0)
    return pos_embed


def random_masking(x, mask_ratio):
    N, L, D = x.shape
    len_keep = int(L * (1 - mask_ratio))
    noise = torch.rand(N, L, device=x.device)
    ids_shuffle = torch.argsort(noise, dim=1)
    ids_restore = torch.argsort(ids_shuffle, dim=1)
    ids_keep = ids_shuffle[:, :len_keep]
    x_masked = torch.gather(x, dim=1, index=ids_keep.unsqueeze(-1).repeat(1, 1, D))
    mask = torch.ones([N, L], device=x.device)
    mask[:, :len_keep] = 0
    mask = torch.gather(mask, dim=1, index=ids_restore)
    return x_masked, mask, ids_restore


def patchify(imgs, p):
    assert imgs.shape[2] == imgs.shape[3] and imgs.shape[2] % p == 0
    h = w = imgs.shape[2] // p
    x = imgs.reshape(shape=(imgs.shape[0], 3, h, p, w, p))
    x = torch.einsum("nchpwq->nhwpqc", x)
    return x.reshape(shape=(imgs.shape[0], h * w, p**2 * 3))


def unpatchify(x, p):
    h = w = int(x.shape[1] ** 0.5)
    assert h * w == x.shape[1]
    x = x.reshape(shape=(x.shape[0], h, w, p, p, 3))
    x = torch.einsum("nhwpqc->nchpwq", x)
    return x.reshape(shape=(x.shape[0], 3, h * p, h * p))


torch.manual_seed(0)
pe = get_2d_sincos_pos_embed(8, 2, cls_token=True)
print(pe.shape, pe.dtype)
pos_embed = nn.Parameter(torch.zeros(1, 5, 8), requires_grad=False)
pos_embed.data.copy_(torch.from_numpy(pe).float().unsqueeze(0))
out(pos_embed)
imgs = torch.randn(2, 3, 4, 4)
patches = patchify(imgs, 2)
print(patches.shape, patches.is_contiguous(), torch.equal(unpatchify(patches, 2), imgs))
embed = nn.Linear(12, 8)
mask_token = nn.Parameter(torch.zeros(1, 1, 8))
torch.nn.init.normal_(mask_token, std=0.02)
x = embed(patches) + pos_embed[:, 1:, :]
x_masked, mask, ids_restore = random_masking(x, 0.5)
print(x_masked.shape, mask, ids_restore)
mask_tokens = mask_token.repeat(x_masked.shape[0], ids_restore.shape[1] - x_masked.shape[1], 1)
x_ = torch.cat([x_masked, mask_tokens], dim=1)
x_ = torch.gather(x_, dim=1, index=ids_restore.unsqueeze(-1).repeat(1, 1, x_masked.shape[2]))
pred = nn.Linear(8, 12)(x_)
target = patches
mean = target.mean(dim=-1, keepdim=True)
var = target.var(dim=-1, keepdim=True)
target = (target - mean) / (var + 1.0e-6) ** 0.5
loss = (pred - target) ** 2
loss = loss.mean(dim=-1)
loss = (loss * mask).sum() / mask.sum()
loss.backward()
print(f"loss {loss.item():.5f}")
out(loss, mask_token.grad, embed.weight.grad, x_)
