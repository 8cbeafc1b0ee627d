# a tiny Vision Transformer: patches by unfold and by strided conv, cls token, pre-norm blocks
rng = np.random.default_rng(0)
images = torch.tensor(rng.standard_normal((2, 3, 8, 8)), dtype=torch.float32)
patch = 4
patches = images.unfold(2, patch, patch).unfold(3, patch, patch)
out(patches.shape)
patches = patches.permute(0, 2, 3, 1, 4, 5).reshape(2, -1, 3 * patch * patch)
via_F = F.unfold(images, kernel_size=patch, stride=patch).transpose(1, 2)
out(patches.shape, torch.equal(patches, via_F))


class ViT(nn.Module):
    def __init__(self, dim=8, depth=2, heads=2, num_classes=3):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, kernel_size=patch, stride=patch)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos_embed = nn.Parameter(torch.zeros(1, 1 + (8 // patch) ** 2, dim))
        layer = nn.TransformerEncoderLayer(
            dim, heads, 2 * dim, dropout=0.0, activation="gelu", batch_first=True, norm_first=True
        )
        self.encoder = nn.TransformerEncoder(layer, depth, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, num_classes)

    def forward(self, x):
        x = self.patch_embed(x).flatten(2).transpose(1, 2)
        cls = self.cls_token.expand(x.shape[0], -1, -1)
        x = torch.cat((cls, x), dim=1) + self.pos_embed
        x = self.encoder(x)
        return self.head(self.norm(x[:, 0]))


model = ViT()
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.4, 0.4, tuple(p.shape))))
# the conv patch embedding is a linear map of the unfolded patches
w = model.patch_embed.weight.flatten(1)
emb = model.patch_embed(images).flatten(2).transpose(1, 2)
out(torch.allclose(emb, patches @ w.T + model.patch_embed.bias, atol=1e-5))
labels = torch.tensor([2, 0])
decay = [p for n, p in model.named_parameters() if p.dim() >= 2 and "embed" not in n]
no_decay = [p for n, p in model.named_parameters() if p.dim() < 2 or "embed" in n]
optimizer = torch.optim.AdamW(
    [{"params": decay, "weight_decay": 0.05}, {"params": no_decay, "weight_decay": 0.0}], lr=1e-2
)
for step in range(3):
    optimizer.zero_grad()
    logits = model(images)
    loss = F.cross_entropy(logits, labels, label_smoothing=0.1)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    out(step, loss, logits.argmax(-1))
out(model.cls_token.grad, model.pos_embed.grad.shape)
model.eval()
with torch.no_grad():
    out(model(images).softmax(-1))
