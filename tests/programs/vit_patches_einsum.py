# ViT from parts: F.unfold patch embedding vs a strided Conv2d, class token, einsum attention
torch.manual_seed(0)
B, C, H, W, P, D, heads = 2, 3, 8, 8, 4, 12, 3
imgs = torch.randn(B, C, H, W)
patches = F.unfold(imgs, kernel_size=P, stride=P)  # (B, C*P*P, L)
print(patches.shape)
patches = patches.transpose(1, 2)
proj = nn.Linear(C * P * P, D)
tokens = proj(patches)
conv = nn.Conv2d(C, D, kernel_size=P, stride=P)
with torch.no_grad():
    conv.weight.copy_(proj.weight.view(D, C, P, P))
    conv.bias.copy_(proj.bias)
tokens_conv = conv(imgs).flatten(2).transpose(1, 2)
print(tokens.shape, torch.allclose(tokens, tokens_conv, atol=1e-5))
folded = F.fold(F.unfold(imgs, P, stride=P), output_size=(H, W), kernel_size=P, stride=P)
print(torch.equal(folded, imgs))
ones = F.fold(F.unfold(torch.ones(1, 1, 5, 5), 3, padding=1), (5, 5), 3, padding=1)
print(ones)


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.qkv = nn.Linear(dim, dim * 3, bias=False)
        self.out = nn.Linear(dim, dim)

    def forward(self, x, return_attn=False):
        b, n, d = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = (t.reshape(b, n, self.heads, d // self.heads).transpose(1, 2) for t in (q, k, v))
        dots = torch.einsum("bhid,bhjd->bhij", q, k) * self.scale
        attn = dots.softmax(dim=-1)
        out = torch.einsum("bhij,bhjd->bhid", attn, v)
        out = out.transpose(1, 2).reshape(b, n, d)
        return (self.out(out), attn) if return_attn else self.out(out)


class ViT(nn.Module):
    def __init__(self, n_classes=5, depth=2):
        super().__init__()
        n_patches = (H // P) * (W // P)
        self.embed = nn.Linear(C * P * P, D)
        self.cls = nn.Parameter(torch.zeros(1, 1, D))
        self.pos = nn.Parameter(torch.randn(1, n_patches + 1, D) * 0.02)
        self.blocks = nn.ModuleList(
            nn.ModuleDict(
                {
                    "ln1": nn.LayerNorm(D),
                    "attn": Attention(D, heads),
                    "ln2": nn.LayerNorm(D),
                    "mlp": nn.Sequential(nn.Linear(D, 2 * D), nn.GELU(), nn.Linear(2 * D, D)),
                }
            )
            for _ in range(depth)
        )
        self.head = nn.Sequential(nn.LayerNorm(D), nn.Linear(D, n_classes))

    def forward(self, x):
        x = self.embed(F.unfold(x, P, stride=P).transpose(1, 2))
        cls = self.cls.expand(x.shape[0], -1, -1)
        x = torch.cat([cls, x], dim=1) + self.pos
        for blk in self.blocks:
            x = x + blk["attn"](blk["ln1"](x))
            x = x + blk["mlp"](blk["ln2"](x))
        return self.head(x[:, 0])


vit = ViT()
print(vit.blocks[0])
print(sum(p.numel() for p in vit.parameters() if p.requires_grad))
opt = torch.optim.AdamW(vit.parameters(), lr=3e-3)
labels = torch.tensor([1, 3])
for step in range(3):
    logits = vit(imgs)
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(
        f"step {step} loss {loss.item():.4f} acc {(logits.argmax(-1) == labels).float().mean():.2f}"
    )
_, attn = vit.blocks[0]["attn"](torch.randn(1, 5, D), return_attn=True)
print(attn.shape, attn.sum(-1))
ein = torch.einsum("ij,jk->ik", torch.ones(2, 3), torch.arange(6.0).view(3, 2))
print(
    ein,
    torch.einsum("ii", torch.eye(3) * 2),
    torch.einsum("i,j->ij", torch.arange(2.0), torch.arange(3.0)),
)
print(
    torch.einsum("bij->bji", torch.arange(4.0).view(1, 2, 2)),
    torch.einsum("...d,d->...", torch.ones(2, 3, 4), torch.arange(4.0)),
)
out(logits, loss, vit.cls.grad, vit.pos.grad, attn)
