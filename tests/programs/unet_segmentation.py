# a two-level U-Net block: conv/norm/activation, max-pool down, transposed-conv up, skip concat
def fill_(module, scale=0.25):
    with torch.no_grad():
        for i, (name, p) in enumerate(module.named_parameters()):
            grid = torch.arange(p.numel(), dtype=torch.float32).reshape(p.shape)
            p.copy_(
                torch.cos(grid * 0.37 + i) * scale + (1.0 if name.endswith("norm.weight") else 0.0)
            )


class DoubleConv(nn.Sequential):
    def __init__(self, cin, cout):
        super().__init__(
            nn.Conv2d(cin, cout, 3, padding=1, bias=False),
            nn.GroupNorm(2, cout),
            nn.LeakyReLU(0.1, inplace=True),
            nn.Conv2d(cout, cout, 3, padding=1, padding_mode="reflect", bias=False),
            nn.BatchNorm2d(cout),
            nn.SiLU(),
        )


class UNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.down1 = DoubleConv(1, 4)
        self.down2 = DoubleConv(4, 8)
        self.pool = nn.MaxPool2d(2)
        self.up = nn.ConvTranspose2d(8, 4, 2, stride=2)
        self.dec = DoubleConv(8, 4)
        self.out = nn.Conv2d(4, 2, 1)

    def forward(self, x):
        s1 = self.down1(x)
        b = self.down2(self.pool(s1))
        u = self.up(b)
        u = F.pad(u, [0, s1.shape[-1] - u.shape[-1], 0, s1.shape[-2] - u.shape[-2]])
        return self.out(self.dec(torch.cat([u, s1], dim=1)))


net = UNet()
fill_(net)
img = torch.sin(torch.arange(2 * 1 * 9 * 9, dtype=torch.float32).reshape(2, 1, 9, 9) * 0.7)
mask = (img > 0).long().squeeze(1)
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
for step in range(3):
    opt.zero_grad()
    logits = net(img)
    loss = F.cross_entropy(logits, mask) + 0.1 * (
        1 - (logits.softmax(1)[:, 1] * mask).sum() / mask.sum()
    )
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5))
out(logits.shape, net.down1[4].running_mean, net.up.weight.grad.abs().sum())
net.eval()
with torch.no_grad():
    pred = net(img).argmax(1)
out(pred, (pred == mask).float().mean())
# ---
# upsampling choices in decoders: interpolate modes, PixelShuffle, Upsample, output_padding
x = torch.arange(2 * 4 * 3 * 3, dtype=torch.float32).reshape(2, 4, 3, 3) / 10
x.requires_grad_()
ups = [
    F.interpolate(x, scale_factor=2, mode="nearest"),
    F.interpolate(x, size=(5, 5), mode="bilinear", align_corners=True),
    F.interpolate(x, size=(5, 7), mode="bilinear", align_corners=False),
    F.interpolate(x, scale_factor=2, mode="bicubic", align_corners=False),
    nn.Upsample(scale_factor=2, mode="nearest-exact")(x),
    nn.PixelShuffle(2)(x),
    F.interpolate(x, size=(2, 2), mode="area"),
    F.interpolate(x, size=(2, 2), mode="bilinear", antialias=True),
]
sum(u.square().mean() for u in ups).backward()
out(*[u.shape for u in ups], x.grad)
out(ups[1][0, 0], ups[3][1, 2, :2], ups[7][0, 0])
tconv = nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1, output_padding=1)
with torch.no_grad():
    tconv.weight.copy_(torch.linspace(-1, 1, tconv.weight.numel()).reshape(tconv.weight.shape))
    tconv.bias.fill_(0.1)
out(
    tconv(x).shape, tconv(x)[0, 1, :2], nn.PixelUnshuffle(2)(torch.arange(16.0).reshape(1, 1, 4, 4))
)
