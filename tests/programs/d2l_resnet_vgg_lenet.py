# d2l classic CNNs: LeNet with sigmoid and AvgPool2d, VGG blocks, ResNet Residual with 1x1 convs
net = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5, padding=2), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Conv2d(6, 16, kernel_size=5), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Flatten(),
    nn.Linear(16 * 5 * 5, 120), nn.Sigmoid(),
    nn.Linear(120, 84), nn.Sigmoid(),
    nn.Linear(84, 10),
)  # fmt: skip
X = torch.rand(size=(1, 1, 28, 28), dtype=torch.float32)
for layer in net:
    X = layer(X)
    print(layer.__class__.__name__, "output shape: \t", X.shape)
out(X)


def vgg_block(num_convs, in_channels, out_channels):
    layers = []
    for _ in range(num_convs):
        layers.append(nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=1))
        layers.append(nn.ReLU())
        in_channels = out_channels
    layers.append(nn.MaxPool2d(kernel_size=2, stride=2))
    return nn.Sequential(*layers)


def vgg(conv_arch):
    conv_blks = []
    in_channels = 1
    for num_convs, out_channels in conv_arch:
        conv_blks.append(vgg_block(num_convs, in_channels, out_channels))
        in_channels = out_channels
    return nn.Sequential(
        *conv_blks, nn.Flatten(),
        nn.Linear(out_channels * 2 * 2, 32), nn.ReLU(), nn.Dropout(0.5),
        nn.Linear(32, 10),
    )  # fmt: skip


conv_arch = ((1, 4), (1, 8), (2, 8))
net = vgg(conv_arch)
X = torch.randn(size=(1, 1, 16, 16))
for blk in net:
    X = blk(X)
    print(blk.__class__.__name__, "output shape:\t", X.shape)
print(net[0])
print(sum(p.numel() for p in net.parameters()))


# ---
# d2l ResNet: Residual blocks with use_1x1conv and strides, resnet_block stages, a training step
class Residual(nn.Module):
    def __init__(self, input_channels, num_channels, use_1x1conv=False, strides=1):
        super().__init__()
        self.conv1 = nn.Conv2d(
            input_channels, num_channels, kernel_size=3, padding=1, stride=strides
        )
        self.conv2 = nn.Conv2d(num_channels, num_channels, kernel_size=3, padding=1)
        if use_1x1conv:
            self.conv3 = nn.Conv2d(input_channels, num_channels, kernel_size=1, stride=strides)
        else:
            self.conv3 = None
        self.bn1 = nn.BatchNorm2d(num_channels)
        self.bn2 = nn.BatchNorm2d(num_channels)

    def forward(self, X):
        Y = F.relu(self.bn1(self.conv1(X)))
        Y = self.bn2(self.conv2(Y))
        if self.conv3:
            X = self.conv3(X)
        Y += X
        return F.relu(Y)


blk = Residual(3, 3)
X = torch.rand(4, 3, 6, 6)
Y = blk(X)
print(Y.shape, Y.grad_fn.name())
blk = Residual(3, 6, use_1x1conv=True, strides=2)
print(blk(X).shape)

b1 = nn.Sequential(
    nn.Conv2d(1, 8, kernel_size=7, stride=2, padding=3),
    nn.BatchNorm2d(8),
    nn.ReLU(),
    nn.MaxPool2d(kernel_size=3, stride=2, padding=1),
)


def resnet_block(input_channels, num_channels, num_residuals, first_block=False):
    blk = []
    for i in range(num_residuals):
        if i == 0 and not first_block:
            blk.append(Residual(input_channels, num_channels, use_1x1conv=True, strides=2))
        else:
            blk.append(Residual(num_channels, num_channels))
    return blk


b2 = nn.Sequential(*resnet_block(8, 8, 2, first_block=True))
b3 = nn.Sequential(*resnet_block(8, 16, 2))
net = nn.Sequential(b1, b2, b3, nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(), nn.Linear(16, 10))
X = torch.rand(size=(2, 1, 32, 32))
for layer in net:
    X = layer(X)
    print(layer.__class__.__name__, "output shape:\t", X.shape)

opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
data = torch.randn(8, 1, 32, 32)
target = torch.randint(0, 10, (8,))
for step in range(2):
    net.train()
    loss = F.cross_entropy(net(data), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f}")
net.eval()
with torch.no_grad():
    acc = (net(data).argmax(dim=1) == target).float().mean()
print(f"acc {acc:.3f}", net[1][0].bn1.num_batches_tracked, net[1][0].bn1.running_var[:3])
out(net[2][0].conv3.weight.grad, net[1][1].bn2.running_mean)
