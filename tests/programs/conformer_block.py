# Conformer block: macaron FFNs, masked MHSA, conv module (GLU, depthwise Conv1d, BatchNorm, SiLU)
class FeedForwardModule(nn.Module):
    def __init__(self, dim, expansion=4, dropout=0.1):
        super().__init__()
        self.sequential = nn.Sequential(
            nn.LayerNorm(dim),
            nn.Linear(dim, dim * expansion),
            nn.SiLU(),
            nn.Dropout(dropout),
            nn.Linear(dim * expansion, dim),
            nn.Dropout(dropout),
        )

    def forward(self, x):
        return self.sequential(x)


class Transpose(nn.Module):
    def __init__(self, shape):
        super().__init__()
        self.shape = shape

    def forward(self, x):
        return x.transpose(*self.shape)


class ConvModule(nn.Module):
    def __init__(self, dim, kernel_size=7, expansion_factor=2, dropout=0.1):
        super().__init__()
        assert (kernel_size - 1) % 2 == 0, "kernel_size should be a odd number for 'SAME' padding"
        self.sequential = nn.Sequential(
            nn.LayerNorm(dim),
            Transpose(shape=(1, 2)),
            nn.Conv1d(dim, dim * expansion_factor, kernel_size=1),
            nn.GLU(dim=1),
            nn.Conv1d(
                dim,
                dim,
                kernel_size,
                stride=1,
                padding=(kernel_size - 1) // 2,
                groups=dim,
                bias=False,
            ),
            nn.BatchNorm1d(dim),
            nn.SiLU(),
            nn.Conv1d(dim, dim, kernel_size=1),
            nn.Dropout(p=dropout),
        )

    def forward(self, x):
        return self.sequential(x).transpose(1, 2)


class ConformerBlock(nn.Module):
    def __init__(self, dim=16, heads=4, kernel_size=7, dropout=0.1):
        super().__init__()
        self.ff1 = FeedForwardModule(dim, dropout=dropout)
        self.attn_norm = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, dropout=dropout, batch_first=True)
        self.attn_dropout = nn.Dropout(dropout)
        self.conv = ConvModule(dim, kernel_size, dropout=dropout)
        self.ff2 = FeedForwardModule(dim, dropout=dropout)
        self.norm = nn.LayerNorm(dim)

    def forward(self, x, key_padding_mask=None):
        x = x + 0.5 * self.ff1(x)
        h = self.attn_norm(x)
        h, weights = self.attn(h, h, h, key_padding_mask=key_padding_mask, need_weights=True)
        x = x + self.attn_dropout(h)
        x = x + self.conv(x)
        x = x + 0.5 * self.ff2(x)
        return self.norm(x), weights


class Conv2dSubsampling(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.sequential = nn.Sequential(
            nn.Conv2d(in_channels, out_channels, kernel_size=3, stride=2),
            nn.ReLU(),
            nn.Conv2d(out_channels, out_channels, kernel_size=3, stride=2),
            nn.ReLU(),
        )

    def forward(self, inputs, input_lengths):
        outputs = self.sequential(inputs.unsqueeze(1))
        batch_size, channels, subsampled_lengths, sumsampled_dim = outputs.size()
        outputs = outputs.permute(0, 2, 1, 3)
        outputs = outputs.contiguous().view(
            batch_size, subsampled_lengths, channels * sumsampled_dim
        )
        output_lengths = input_lengths >> 2
        output_lengths -= 1
        return outputs, output_lengths


torch.manual_seed(0)
sub = Conv2dSubsampling(1, 4)
feats = torch.randn(2, 40, 12)
lengths = torch.tensor([40, 31])
x, out_lengths = sub(feats, lengths)
print(x.shape, out_lengths, lengths)
proj = nn.Linear(x.size(-1), 16)
block = ConformerBlock()
print(block.conv.sequential[4], block.conv.sequential[3])
mask = torch.arange(x.size(1))[None, :] >= out_lengths[:, None]
print(mask)
opt = torch.optim.AdamW(
    list(sub.parameters()) + list(proj.parameters()) + list(block.parameters()), lr=1e-3
)
target = torch.randn(2, 9, 16)
block.train()
for step in range(3):
    x, out_lengths = sub(feats, lengths)
    y, w = block(proj(x), key_padding_mask=mask)
    loss = (y - target).masked_fill(mask[..., None], 0.0).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.5f} attn on padding {w[1, :, -1].sum().item():.2e}")
block.eval()
with torch.no_grad():
    y, w = block(proj(sub(feats, lengths)[0]), key_padding_mask=mask)
print(y.shape, w.shape, torch.allclose(w.sum(-1), torch.ones(2, x.size(1))))
out(y, w, block.conv.sequential[5].running_mean)
