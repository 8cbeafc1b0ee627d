# MLP-Mixer: token-mixing and channel-mixing MLPs over patches, with einops-free rearranges
class MlpBlock(nn.Module):
    def __init__(self, dim, hidden, drop=0.0):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.act = nn.GELU()
        self.drop = nn.Dropout(drop)
        self.fc2 = nn.Linear(hidden, dim)

    def forward(self, x):
        return self.drop(self.fc2(self.drop(self.act(self.fc1(x)))))


class MixerBlock(nn.Module):
    def __init__(self, num_patches, dim, tokens_mlp_dim, channels_mlp_dim):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim, eps=1e-6)
        self.mlp_tokens = MlpBlock(num_patches, tokens_mlp_dim)
        self.norm2 = nn.LayerNorm(dim, eps=1e-6)
        self.mlp_channels = MlpBlock(dim, channels_mlp_dim)

    def forward(self, x):
        x = x + self.mlp_tokens(self.norm1(x).transpose(1, 2)).transpose(1, 2)
        x = x + self.mlp_channels(self.norm2(x))
        return x


class MlpMixer(nn.Module):
    def __init__(
        self, num_classes=5, img_size=8, in_chans=3, patch_size=4, num_blocks=2, embed_dim=16
    ):
        super().__init__()
        self.num_patches = (img_size // patch_size) ** 2
        self.stem = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)
        self.blocks = nn.Sequential(
            *[MixerBlock(self.num_patches, embed_dim, 8, 32) for _ in range(num_blocks)]
        )
        self.norm = nn.LayerNorm(embed_dim, eps=1e-6)
        self.head = nn.Linear(embed_dim, num_classes)
        self.apply(self._init_weights)

    @staticmethod
    def _init_weights(m):
        if isinstance(m, nn.Linear):
            nn.init.xavier_uniform_(m.weight)
            if m.bias is not None:
                nn.init.normal_(m.bias, std=1e-6)
        elif isinstance(m, nn.Conv2d):
            fan_in = m.in_channels * m.kernel_size[0] * m.kernel_size[1]
            nn.init.trunc_normal_(m.weight, std=(1.0 / fan_in) ** 0.5)
            nn.init.zeros_(m.bias)
        elif isinstance(m, nn.LayerNorm):
            nn.init.ones_(m.weight)
            nn.init.zeros_(m.bias)

    def forward_features(self, x):
        x = self.stem(x).flatten(2).transpose(1, 2)
        x = self.blocks(x)
        return self.norm(x)

    def forward(self, x):
        x = self.forward_features(x)
        return self.head(x.mean(dim=1))


torch.manual_seed(0)
model = MlpMixer()
print(model.blocks[0])
n = sum(p.numel() for p in model.parameters())
print(f"params: {n:,}")
images = torch.randn(6, 3, 8, 8)
labels = torch.tensor([0, 1, 2, 3, 4, 0])
opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.05)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1e-2, total_steps=4)
for step in range(4):
    logits = model(images)
    loss = F.cross_entropy(logits, labels, label_smoothing=0.1)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    sched.step()
    acc = (logits.argmax(-1) == labels).float().mean()
    lr = sched.get_last_lr()[0]
    print(
        f"step {step}: loss {loss.item():.4f} acc {acc.item():.2f} gn {gn.item():.4f} lr {lr:.6f}"
    )
model.eval()
with torch.inference_mode():
    probs = model(images).softmax(-1)
print(probs.sum(-1), probs.is_inference())
out(probs, model.head.weight)
