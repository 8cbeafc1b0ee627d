# d2l-style LeNet and VGG block from lazy layers: shapes inferred on the first batch, then trained
torch.manual_seed(0)


def init_cnn(module):
    if type(module) in (nn.Linear, nn.Conv2d):
        nn.init.xavier_uniform_(module.weight)


def vgg_block(num_convs, out_channels):
    layers = []
    for _ in range(num_convs):
        layers.append(nn.LazyConv2d(out_channels, kernel_size=3, padding=1))
        layers.append(nn.LazyBatchNorm2d())
        layers.append(nn.ReLU())
    layers.append(nn.MaxPool2d(kernel_size=2, stride=2))
    return nn.Sequential(*layers)


net = nn.Sequential(
    nn.LazyConv2d(6, kernel_size=5, padding=2),
    nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    vgg_block(2, 8),
    nn.Flatten(),
    nn.LazyLinear(16),
    nn.LazyBatchNorm1d(),
    nn.Sigmoid(),
    nn.LazyLinear(10),
)
print(net)
print(net[0].weight, net[3][1].running_mean, net[0].has_uninitialized_params())
X = torch.randn(4, 1, 8, 8)
for layer in net:
    X = layer(X)
    print(layer.__class__.__name__, "output shape:\t", X.shape)
net.apply(init_cnn)
print(net)
print(sum(p.numel() for p in net.parameters()))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
images, labels = torch.randn(16, 1, 8, 8), torch.randint(0, 10, (16,))
for epoch in range(3):
    loss = F.cross_entropy(net(images), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"epoch {epoch + 1}, loss {loss.item():.4f}")
out(loss, net[0].weight.grad, net[3][1].running_var, net[6].running_mean)
# ---
# lazy transposed convolutions and unbatched inputs; errors before and after initialisation
torch.manual_seed(1)
up = nn.LazyConvTranspose2d(3, kernel_size=2, stride=2)
print(up)
y = up(torch.randn(2, 5, 3, 3))
print(up, y.shape)
c1 = nn.LazyConv1d(4, 3, padding=1, bias=False)
print(c1(torch.randn(2, 6)).shape, c1)
bn = nn.LazyBatchNorm1d(affine=False, track_running_stats=False)
print(bn(torch.randn(5, 3)).shape, bn)
print(dict(bn.named_buffers()), list(bn.parameters()))
err(lambda: nn.LazyConv2d(2, 3)(torch.randn(3, 4)))
err(lambda: nn.LazyConv2d(2, 3, groups=2)(torch.randn(1, 3, 4, 4)))
err(lambda: nn.LazyLinear(3).weight.shape)
lazy = nn.LazyBatchNorm2d()
lazy.load_state_dict(nn.BatchNorm2d(4).state_dict())
print(lazy, lazy.running_var.shape)
out(y, up.weight, lazy.running_var)
