# Linear and Bilinear shapes and errors
lin = nn.Linear(3, 2)
nn.init.constant_(lin.weight, 0.5)
nn.init.constant_(lin.bias, -1.0)
x = torch.arange(3.0)
out(lin(x), lin(x.reshape(1, 1, 3)).shape, lin(torch.ones(0, 3)).shape)
err(lambda: lin(torch.ones(2, 4)))
err(lambda: lin(torch.ones(2, 3, dtype=torch.float64)))
err(lambda: lin(torch.ones(2, 3, dtype=torch.int64)))
err(lambda: lin(torch.tensor(1.0)))
out(nn.Linear(0, 2)(torch.ones(1, 0)).shape)
out(nn.Linear(2, 3, dtype=torch.float64).weight.dtype)
bl = nn.Bilinear(2, 3, 1)
nn.init.constant_(bl.weight, 0.1)
nn.init.constant_(bl.bias, 0.2)
y = bl(torch.ones(4, 2, requires_grad=True), torch.ones(4, 3))
out(y, bl(torch.ones(2), torch.ones(3)).shape)
err(lambda: bl(torch.ones(4, 2), torch.ones(5, 3)))
err(lambda: bl(torch.ones(4, 3), torch.ones(4, 3)))
out(bl.weight.shape, bl.in1_features, bl.in2_features, bl.out_features)
# ---
# Linear grads and grad_fn names
lin = nn.Linear(2, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, -1.0], [0.5, 2.0]]))
    lin.bias.copy_(torch.tensor([0.1, 0.2]))
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
y = lin(x)
out(y)
y.pow(2).sum().backward()
out(x.grad, lin.weight.grad, lin.bias.grad)
y1 = lin(torch.tensor([1.0, 2.0]))
out(y1)
y3 = lin(torch.ones(2, 3, 2))
out(y3)
out(nn.Linear(2, 2, bias=False)(torch.ones(2, 2)).grad_fn.name())
# ---
# Conv1d and Conv2d unbatched, groups, dilation, padding modes
torch.manual_seed(0)
c = nn.Conv2d(2, 4, 3, padding=1, groups=2, bias=True)
with torch.no_grad():
    c.weight.copy_(torch.arange(36.0).reshape(4, 1, 3, 3) / 10)
    c.bias.copy_(torch.tensor([0.0, 1.0, 2.0, 3.0]))
x = torch.arange(32.0).reshape(2, 4, 4)
y = c(x)
out(y, c(x.unsqueeze(0)).shape)
err(lambda: c(torch.ones(3, 4, 4)))
err(lambda: c(torch.ones(4, 4)))
err(lambda: c(torch.ones(1, 1, 2, 4, 4)))
err(lambda: c(torch.ones(1, 2, 4, 4, dtype=torch.float64)))
err(lambda: nn.Conv2d(3, 4, 3, groups=2))
err(lambda: nn.Conv2d(4, 3, 3, groups=2))
err(lambda: nn.Conv2d(2, 2, 3, padding="same", stride=2))
err(lambda: nn.Conv2d(2, 2, 3, padding="full"))
err(lambda: nn.Conv2d(2, 2, 3, padding_mode="mirror"))
err(lambda: nn.Conv2d(2, 2, 5)(torch.ones(1, 2, 3, 3)))
for mode in ["zeros", "reflect", "replicate", "circular"]:
    cm = nn.Conv2d(1, 1, 3, padding=1, padding_mode=mode, bias=False)
    nn.init.ones_(cm.weight)
    out(cm(torch.arange(16.0).reshape(1, 1, 4, 4)))
cs = nn.Conv2d(1, 1, (2, 3), padding="same", dilation=(2, 1), bias=False)
nn.init.ones_(cs.weight)
out(cs(torch.arange(20.0).reshape(1, 1, 4, 5)))
# ---
# Conv1d with stride, dilation and gradients
c = nn.Conv1d(2, 2, 2, stride=2, dilation=2, bias=False)
with torch.no_grad():
    c.weight.copy_(torch.tensor([[[1.0, 2.0], [3.0, 4.0]], [[-1.0, 0.0], [0.5, 0.5]]]))
x = torch.arange(14.0).reshape(1, 2, 7).requires_grad_()
y = c(x)
out(y)
y.sum().backward()
out(x.grad, c.weight.grad)
out(c(torch.ones(2, 7)).shape)
err(lambda: c(torch.ones(2, 2)))
cs = nn.Conv1d(1, 1, 4, padding="same", bias=False)
nn.init.ones_(cs.weight)
out(cs(torch.arange(6.0).reshape(1, 6)))
# ---
# ConvTranspose2d output_padding and output_size
ct = nn.ConvTranspose2d(1, 2, 3, stride=2, padding=1, output_padding=1, bias=False)
with torch.no_grad():
    ct.weight.copy_(torch.arange(18.0).reshape(1, 2, 3, 3) / 9)
x = torch.arange(4.0).reshape(1, 1, 2, 2).requires_grad_()
y = ct(x)
out(y)
y.sum().backward()
out(x.grad)
out(ct(torch.ones(1, 2, 2)).shape)
ct2 = nn.ConvTranspose2d(1, 1, 3, stride=2)
out(ct2(torch.ones(1, 1, 3, 3), output_size=[8, 8]).shape)
err(lambda: ct2(torch.ones(1, 1, 3, 3), output_size=[20, 20]))
err(lambda: nn.ConvTranspose2d(1, 1, 3, stride=2, output_padding=2)(torch.ones(1, 1, 3, 3)))
out(ct2.weight.shape, nn.ConvTranspose2d(4, 6, 2, groups=2).weight.shape)
# ---
# pooling corners
x = torch.arange(25.0).reshape(1, 1, 5, 5).requires_grad_()
mp = nn.MaxPool2d(2)
y = mp(x)
out(y)
y.sum().backward()
out(x.grad)
out(nn.MaxPool2d(2, ceil_mode=True)(x), nn.MaxPool2d(3, stride=2, padding=1)(x))
yy, idx = nn.MaxPool2d(2, return_indices=True)(x)
out(yy, idx)
out(nn.MaxPool2d(2, dilation=2)(x))
out(nn.MaxPool2d(2)(torch.arange(16.0).reshape(1, 4, 4)))
err(lambda: nn.MaxPool2d(2, padding=2)(x))
err(lambda: nn.MaxPool2d(6)(x))
out(nn.AvgPool2d(2)(x), nn.AvgPool2d(2, ceil_mode=True)(x))
out(nn.AvgPool2d(3, 2, 1)(x), nn.AvgPool2d(3, 2, 1, count_include_pad=False)(x))
out(nn.AvgPool2d(2, divisor_override=1)(x))
err(lambda: nn.AvgPool2d(2, padding=2)(x))
out(nn.AdaptiveAvgPool2d((2, 3))(x), nn.AdaptiveAvgPool2d((None, 2))(x).shape)
out(nn.AdaptiveAvgPool2d(1)(x[0]).shape)
err(lambda: nn.AdaptiveAvgPool2d(2)(torch.ones(5, 5)))
z = nn.AdaptiveAvgPool2d(3)(x)
z.sum().backward()
out(x.grad)
out(F.max_pool2d(torch.ones(1, 1, 4, 4, dtype=torch.float64), 2).dtype)
err(lambda: F.max_pool2d(torch.ones(1, 1, 4, 4, dtype=torch.int64), 2))
out(F.avg_pool2d(torch.ones(1, 1, 4, 4, dtype=torch.float64), 2).dtype)
# ---
# integer convolutions, bool refused
out(F.conv1d(torch.arange(5).reshape(1, 1, 5), torch.tensor([[[1, -1]]])))
out(
    F.conv2d(
        torch.ones(1, 1, 3, 3, dtype=torch.int32),
        torch.ones(1, 1, 2, 2, dtype=torch.int32),
        padding=1,
    )
)
out(
    F.conv_transpose2d(
        torch.ones(1, 1, 2, 2, dtype=torch.int64),
        torch.ones(1, 1, 2, 2, dtype=torch.int64),
        stride=2,
    )
)
out(
    F.conv2d(
        torch.ones(1, 1, 3, 3, dtype=torch.uint8),
        torch.ones(1, 1, 2, 2, dtype=torch.uint8),
        bias=torch.tensor([3], dtype=torch.uint8),
    )
)
err(lambda: F.conv2d(torch.ones(1, 1, 3, 3, dtype=torch.int64), torch.ones(1, 1, 2, 2)))
err(
    lambda: F.conv2d(
        torch.ones(1, 1, 3, 3, dtype=torch.bool), torch.ones(1, 1, 2, 2, dtype=torch.bool)
    )
)
# ---
# ConvTranspose2d with output_padding >= stride (allowed below dilation)
ct = nn.ConvTranspose2d(1, 1, (3, 2), stride=1, padding=1, output_padding=1, dilation=2, bias=False)
with torch.no_grad():
    ct.weight.copy_(torch.arange(6.0).reshape(1, 1, 3, 2))
x = torch.arange(9.0).reshape(1, 1, 3, 3).requires_grad_()
y = ct(x)
out(y)
(y * y).sum().backward()
out(x.grad, ct.weight.grad)
err(
    lambda: nn.ConvTranspose2d(1, 1, 3, stride=1, output_padding=2, dilation=2)(
        torch.ones(1, 1, 3, 3)
    )
)
# ---
# affine_grid + grid_sample: a spatial transformer, every mode and padding
torch.set_default_dtype(torch.float64)  # float32 theta gradients cancel to a few ulps
image = torch.arange(24.0).reshape(1, 2, 3, 4).requires_grad_()
theta = torch.tensor([[[0.9, -0.3, 0.1], [0.2, 1.2, -0.15]]], requires_grad=True)
for corners in [False, True]:
    grid = F.affine_grid(theta, [1, 2, 3, 4], align_corners=corners)
    out(grid)
    for mode in ["bilinear", "nearest", "bicubic"]:
        for padding in ["zeros", "border", "reflection"]:
            y = F.grid_sample(image, grid, mode=mode, padding_mode=padding, align_corners=corners)
            y.pow(2).sum().backward()
            out(mode, padding, y, image.grad, theta.grad)
            image.grad = None
            theta.grad = None
volume = torch.linspace(-1, 1, 24).reshape(1, 1, 2, 3, 4)
grid3 = F.affine_grid(
    torch.tensor([[[1.0, 0.2, 0, 0], [0, 1, 0, 0.1], [0, 0, 0.8, 0]]]),
    [1, 1, 2, 2, 3],
    align_corners=False,
)
out(F.grid_sample(volume, grid3, align_corners=False))
err(lambda: F.grid_sample(volume, grid3, mode="bicubic"))
err(lambda: F.grid_sample(image, grid, mode="area"))
err(lambda: F.grid_sample(image, grid, padding_mode="wrap"))
err(lambda: F.grid_sample(image, torch.zeros(2, 1, 1, 2)))
err(lambda: F.grid_sample(image, torch.zeros(1, 1, 1, 3)))
err(lambda: F.grid_sample(image.float(), torch.zeros(1, 1, 1, 2), align_corners=False))
err(lambda: F.grid_sample(torch.ones(1, 1, 0, 2), torch.zeros(1, 1, 1, 2), align_corners=False))
err(lambda: F.affine_grid(torch.zeros(1, 2, 3, dtype=torch.long), [1, 1, 2, 2]))
err(lambda: F.affine_grid(theta, [1, 1, 2]))
err(lambda: F.affine_grid(theta, [1, 3, 3, 3, 3]))
# ---
# LPPool, MaxUnpool, ChannelShuffle
x = (torch.arange(48.0).reshape(1, 3, 4, 4) / 10 - 2).requires_grad_()
for pool in [
    nn.LPPool2d(2, 2),
    nn.LPPool2d(1.5, (2, 3), stride=1, ceil_mode=True),
    nn.LPPool1d(3, 2),
]:
    inp = x.abs() + 0.1 if pool.norm_type == 1.5 else x
    inp = inp.flatten(2) if isinstance(pool, nn.LPPool1d) else inp
    y = pool(inp)
    y.sum().backward()
    print(pool)
    out(y, x.grad)
    x.grad = None
pool, unpool = nn.MaxPool2d(2, return_indices=True), nn.MaxUnpool2d(2)
pooled, indices = pool(x)
restored = unpool(pooled, indices)
restored.pow(2).sum().backward()
print(unpool, nn.MaxUnpool1d(3, stride=2, padding=1))
out(pooled, indices, restored, x.grad)
out(unpool(pooled, indices, output_size=[5, 5]).shape)
p1, i1 = F.max_pool1d(x.flatten(2), 3, return_indices=True)
out(F.max_unpool1d(p1, i1, 3))
shuffle = nn.ChannelShuffle(3)
print(shuffle)
out(shuffle(x), F.channel_shuffle(x, 1), torch.channel_shuffle(x.detach(), 3))
err(lambda: unpool(pooled, indices, output_size=[9, 9]))
err(lambda: F.max_unpool2d(pooled, indices.float(), 2))
err(lambda: F.channel_shuffle(x, 2))
err(lambda: F.channel_shuffle(torch.ones(6), 2))
# ---
# circular padding copies the centre into a view of the output, even with no padding
# (CopySlices), then each side from the output's opposite edge
x = torch.arange(12.0).reshape(1, 3, 4).requires_grad_()
for pad in ((0, 0), (1, 2), (0, 0, 1, 1), (-1, 1), (2, -1, 0, 1)):
    y = F.pad(x, pad, mode="circular")
    (g,) = torch.autograd.grad((y * torch.arange(float(y.numel())).reshape(y.shape)).sum(), x)
    out(y, g)
