# a small CNN with fractional max pooling (Graham's FMP), fixed pooling samples, one SGD step
rng = np.random.default_rng(0)
images = torch.from_numpy(rng.normal(size=(4, 1, 12, 12)).astype(np.float32))
labels = torch.tensor([0, 1, 2, 1])


class FMPNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, padding=1)
        samples = torch.from_numpy(rng.uniform(size=(4, 4, 2)).astype(np.float32))
        self.pool = nn.FractionalMaxPool2d(2, output_ratio=(0.7, 0.7), _random_samples=samples)
        self.conv2 = nn.Conv2d(4, 6, 3)
        self.head = nn.Linear(6, 3)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = F.relu(self.conv2(x))
        return self.head(F.adaptive_avg_pool2d(x, 1).flatten(1))


net = FMPNet()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.from_numpy(np.cos(np.arange(p.numel()) * 0.37 + i).reshape(p.shape) * 0.3))
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
for step in range(3):
    opt.zero_grad()
    logits = net(images)
    loss = F.cross_entropy(logits, labels)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5))
out(logits, net.conv1.weight.grad, sorted(net.state_dict().keys()))
print(net.pool, net.pool.output_ratio, net.pool.kernel_size)
# ---
# fractional pooling with indices, unpooling them back, and the pooling windows it chose
x = torch.arange(49.0).reshape(1, 1, 7, 7)
u = torch.tensor([[[0.25, 0.75]]])
y, idx = F.fractional_max_pool2d(x, 2, output_size=4, return_indices=True, _random_samples=u)
out(y, idx)
rows, cols = idx // 7, idx % 7
print(rows[0, 0, :, 0].tolist(), cols[0, 0, 0].tolist())
restored = F.max_unpool2d(y, idx, 2, output_size=x.shape[-2:])
out(restored)
v = torch.tensor([[[0.6, 0.1, 0.4]]], dtype=torch.float64)
x3 = torch.linspace(-1, 1, 2 * 5 * 6 * 5, dtype=torch.float64).sin().reshape(1, 2, 5, 6, 5)
x3.requires_grad_()
y3 = nn.FractionalMaxPool3d((2, 2, 2), output_size=(3, 3, 2), _random_samples=v.expand(1, 2, 3))(x3)
y3.pow(2).sum().backward()
out(y3, x3.grad.abs().sum(), y3.grad_fn.name())
# ---
# double backward through fractional max pooling, NaN windows, unbatched input and errors
x = torch.tensor([[[1.0, 5.0, 2.0, 0.0], [3.0, float("nan"), 4.0, 7.0], [6.0, 2.0, 9.0, 1.0]]])
u = torch.tensor([[[0.5, 0.5]]])
y, i = F.fractional_max_pool2d(x, 2, output_size=(2, 2), return_indices=True, _random_samples=u)
out(y, i)
z = torch.tensor(
    [
        [
            [
                [0.3, 1.2, -0.4, 2.2, 0.8],
                [1.5, -1.1, 0.6, 0.1, 2.5],
                [0.9, 0.2, 1.8, -0.7, 0.4],
                [2.1, 0.5, -0.2, 1.1, 0.0],
            ]
        ]
    ],
    dtype=torch.float64,
    requires_grad=True,
)
pooled = F.fractional_max_pool2d(
    z, (2, 2), output_size=(3, 3), _random_samples=torch.tensor([[[0.2, 0.8]]], dtype=torch.float64)
)
(g,) = torch.autograd.grad(pooled.pow(3).sum(), z, create_graph=True)
g.sum().backward()
out(pooled, g, z.grad, g.grad_fn.name())
err(lambda: F.fractional_max_pool2d(z, 2))
err(lambda: F.fractional_max_pool2d(z, 2, output_size=5, _random_samples=u.double()))
err(lambda: F.fractional_max_pool2d(z, 2, output_size=2, _random_samples=torch.rand(1, 1, 3)))
err(lambda: nn.FractionalMaxPool2d(2, output_ratio=1.5))
err(lambda: nn.FractionalMaxPool2d(2))
err(lambda: nn.FractionalMaxPool2d(2, output_size=2, output_ratio=0.5))
err(lambda: F.fractional_max_pool2d(z, 2, output_ratio=0.5))
