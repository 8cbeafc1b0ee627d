# a feed-forward style network (fast neural style): reflection padding, instance norm,
# residual blocks, nearest upsampling, gram-matrix style loss, Adam
torch.set_default_dtype(torch.float64)  # the style gradients cancel: float32 rounding shows
rng = np.random.default_rng(0)


class ConvLayer(nn.Module):
    def __init__(self, cin, cout, kernel, stride):
        super().__init__()
        self.pad = nn.ReflectionPad2d(kernel // 2)
        self.conv = nn.Conv2d(cin, cout, kernel, stride)

    def forward(self, x):
        return self.conv(self.pad(x))


class ResidualBlock(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = ConvLayer(channels, channels, 3, 1)
        self.in1 = nn.InstanceNorm2d(channels, affine=True)
        self.conv2 = ConvLayer(channels, channels, 3, 1)
        self.in2 = nn.InstanceNorm2d(channels, affine=True)
        self.relu = nn.ReLU()

    def forward(self, x):
        residual = x
        out = self.relu(self.in1(self.conv1(x)))
        return self.in2(self.conv2(out)) + residual


class UpsampleConvLayer(nn.Module):
    def __init__(self, cin, cout, kernel, upsample=None):
        super().__init__()
        self.upsample = upsample
        self.conv = ConvLayer(cin, cout, kernel, 1)

    def forward(self, x):
        if self.upsample:
            x = F.interpolate(x, mode="nearest", scale_factor=self.upsample)
        return self.conv(x)


class TransformerNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.down = nn.Sequential(
            ConvLayer(3, 4, 5, 1), nn.InstanceNorm2d(4, affine=True), nn.ReLU(),
            ConvLayer(4, 6, 3, 2), nn.InstanceNorm2d(6, affine=True), nn.ReLU(),
        )  # fmt: skip
        self.res = nn.Sequential(ResidualBlock(6), ResidualBlock(6))
        self.up = nn.Sequential(
            UpsampleConvLayer(6, 4, 3, upsample=2), nn.InstanceNorm2d(4, affine=True), nn.ReLU(),
            UpsampleConvLayer(4, 3, 5),
        )  # fmt: skip

    def forward(self, x):
        return self.up(self.res(self.down(x)))


def gram_matrix(y):
    b, ch, h, w = y.size()
    features = y.view(b, ch, w * h)
    return features.bmm(features.transpose(1, 2)) / (ch * h * w)


def normalize_batch(batch):
    mean = batch.new_tensor([0.485, 0.456, 0.406]).view(-1, 1, 1)
    std = batch.new_tensor([0.229, 0.224, 0.225]).view(-1, 1, 1)
    return (batch.div_(255.0) - mean) / std


net = TransformerNet()
with torch.no_grad():
    for p in net.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.3, 0.3, tuple(p.shape))))
features = nn.Sequential(nn.Conv2d(3, 5, 3, padding=1), nn.ReLU(), nn.AvgPool2d(2))
with torch.no_grad():
    for p in features.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.3, 0.3, tuple(p.shape))))
features.requires_grad_(False)
style = normalize_batch(
    torch.tensor(
        rng.uniform(0, 255, (1, 3, 8, 8)),
    )
)
gram_style = gram_matrix(features(style))
content = torch.tensor(rng.uniform(0, 255, (2, 3, 8, 8)))
optimizer = torch.optim.Adam(net.parameters(), 1e-2)
mse = nn.MSELoss()
for step in range(3):
    optimizer.zero_grad()
    x = content.clone()
    y = normalize_batch(net(x))
    x = normalize_batch(x)
    features_y, features_x = features(y), features(x)
    content_loss = mse(features_y, features_x)
    style_loss = mse(gram_matrix(features_y), gram_style.expand(2, -1, -1))
    total = content_loss + 10.0 * style_loss
    total.backward()
    optimizer.step()
    out(step, content_loss, style_loss)
out(net.down[1].weight.grad, net.res[0].in1.bias, y.shape, y.grad_fn.name())
net.eval()
with torch.no_grad():
    styled = net(content[:1]).clamp(0, 255)
out(styled.shape, styled.requires_grad, net.up[0].upsample)
print(net.down[1], net.down[0].pad)
