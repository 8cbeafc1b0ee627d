# d2l AlexNet-style stack with LocalResponseNorm: the layer-by-layer output-shape walk
net = nn.Sequential(
    nn.Conv2d(1, 8, kernel_size=5, stride=2, padding=1),
    nn.ReLU(),
    nn.LocalResponseNorm(size=3, alpha=1e-3, beta=0.75, k=2.0),
    nn.MaxPool2d(kernel_size=3, stride=2),
    nn.Conv2d(8, 16, kernel_size=3, padding=2),
    nn.ReLU(),
    nn.MaxPool2d(kernel_size=3, stride=2),
    nn.Flatten(),
    nn.LazyLinear(32),
    nn.ReLU(),
    nn.Dropout(p=0.5),
    nn.Linear(32, 10),
)
X = torch.randn(2, 1, 32, 32)
for layer in net:
    X = layer(X)
    print(layer.__class__.__name__, "output shape:\t", X.shape)
print(net)
out(X)
lrn = nn.LocalResponseNorm(2)
x = torch.randn(1, 4, 3, 3, requires_grad=True)
y = lrn(x)
y.sum().backward()
out(y, x.grad)
print(lrn, F.local_response_norm(x, 3).sum().item() != 0)


# ---
# d2l NiN blocks: 1x1 convolutions, global average pooling, a short training loop
def nin_block(in_channels, out_channels, kernel_size, strides, padding):
    return nn.Sequential(
        nn.Conv2d(in_channels, out_channels, kernel_size, strides, padding),
        nn.ReLU(),
        nn.Conv2d(out_channels, out_channels, kernel_size=1),
        nn.ReLU(),
        nn.Conv2d(out_channels, out_channels, kernel_size=1),
        nn.ReLU(),
    )


net = nn.Sequential(
    nin_block(1, 6, kernel_size=5, strides=2, padding=0),
    nn.MaxPool2d(3, stride=2),
    nin_block(6, 10, kernel_size=3, strides=1, padding=1),
    nn.Dropout(0.5),
    nn.AdaptiveAvgPool2d((1, 1)),
    nn.Flatten(),
)


def init_cnn(module):
    if type(module) is nn.Linear or type(module) is nn.Conv2d:
        nn.init.xavier_uniform_(module.weight)


net.apply(init_cnn)
X = torch.rand(size=(4, 1, 24, 24))
for layer in net:
    X = layer(X)
    print(layer.__class__.__name__, "output shape:\t", X.shape)
optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
loss = nn.CrossEntropyLoss()
inputs = torch.rand(8, 1, 24, 24)
targets = torch.randint(0, 10, (8,))
for step in range(3):
    optimizer.zero_grad()
    l = loss(net(inputs), targets)  # noqa: E741
    l.backward()
    optimizer.step()
    print(f"step {step} loss {l.item():.4f}")
print(net[0])


# ---
# d2l GoogLeNet Inception block: four parallel paths concatenated on channels
class Inception(nn.Module):
    def __init__(self, c1, c2, c3, c4, **kwargs):
        super().__init__(**kwargs)
        self.b1_1 = nn.LazyConv2d(c1, kernel_size=1)
        self.b2_1 = nn.LazyConv2d(c2[0], kernel_size=1)
        self.b2_2 = nn.LazyConv2d(c2[1], kernel_size=3, padding=1)
        self.b3_1 = nn.LazyConv2d(c3[0], kernel_size=1)
        self.b3_2 = nn.LazyConv2d(c3[1], kernel_size=5, padding=2)
        self.b4_1 = nn.MaxPool2d(kernel_size=3, stride=1, padding=1)
        self.b4_2 = nn.LazyConv2d(c4, kernel_size=1)

    def forward(self, x):
        b1 = F.relu(self.b1_1(x))
        b2 = F.relu(self.b2_2(F.relu(self.b2_1(x))))
        b3 = F.relu(self.b3_2(F.relu(self.b3_1(x))))
        b4 = F.relu(self.b4_2(self.b4_1(x)))
        return torch.cat((b1, b2, b3, b4), dim=1)


blk = Inception(4, (2, 6), (1, 2), 3)
print(blk)
X = torch.randn(2, 5, 8, 8)
Y = blk(X)
print(Y.shape, sum(p.numel() for p in blk.parameters()))
print(blk)
net = nn.Sequential(
    nn.Conv2d(5, 5, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.MaxPool2d(kernel_size=3, stride=2, padding=1),
    blk,
    nn.AdaptiveAvgPool2d((1, 1)),
    nn.Flatten(),
    nn.Linear(15, 3),
)
out_ = net(torch.randn(3, 5, 16, 16))
out_.square().mean().backward()
out(out_, blk.b3_2.weight.grad.sum(), blk.b1_1.bias.grad)


# ---
# d2l DenseNet: conv_block with BatchNorm first, DenseBlock concatenation, transition block
def conv_block(num_channels):
    return nn.Sequential(
        nn.LazyBatchNorm2d(), nn.ReLU(), nn.LazyConv2d(num_channels, kernel_size=3, padding=1)
    )


class DenseBlock(nn.Module):
    def __init__(self, num_convs, num_channels):
        super().__init__()
        layer = []
        for _ in range(num_convs):
            layer.append(conv_block(num_channels))
        self.net = nn.Sequential(*layer)

    def forward(self, X):
        for blk in self.net:
            Y = blk(X)
            X = torch.cat((X, Y), dim=1)
        return X


def transition_block(num_channels):
    return nn.Sequential(
        nn.LazyBatchNorm2d(),
        nn.ReLU(),
        nn.LazyConv2d(num_channels, kernel_size=1),
        nn.AvgPool2d(kernel_size=2, stride=2),
    )


blk = DenseBlock(2, 5)
X = torch.randn(4, 3, 8, 8)
Y = blk(X)
print(Y.shape)
tb = transition_block(6)
Z = tb(Y)
print(Z.shape)
print(blk.net[0][0])
print(blk.net[0][0].running_mean, blk.net[0][0].num_batches_tracked)
model = nn.Sequential(blk, tb, nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(6, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
y = torch.tensor([0, 1, 1, 0])
for _ in range(3):
    opt.zero_grad()
    loss = F.cross_entropy(model(X), y)
    loss.backward()
    opt.step()
    print(round(loss.item(), 5))
model.eval()
out(model(X))
print(tb[0].running_var)
