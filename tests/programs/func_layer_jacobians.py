# jacrev, jacfwd and hessian through convolution, pooling, padding, resampling and losses
F = torch.nn.functional
jacrev, jacfwd, hessian = torch.func.jacrev, torch.func.jacfwd, torch.func.hessian
w = torch.sin(torch.arange(2 * 1 * 3 * 3.0)).reshape(2, 1, 3, 3) * 0.5
b = torch.tensor([0.1, -0.2])
x = torch.cos(torch.arange(36.0) * 0.4).reshape(1, 1, 6, 6)


def net(x, w=w):
    h = F.conv2d(F.pad(x, (1, 1, 1, 1), mode="reflect"), w, b).relu()
    h = F.max_pool2d(h, 2)
    h = F.interpolate(h, scale_factor=2, mode="bilinear", align_corners=False)
    return F.adaptive_avg_pool2d(h, 2).flatten(1)


out(jacrev(net)(x).shape, jacrev(net)(x).sum((0, 1)))
out(jacrev(net, argnums=1)(x, w).sum((0, 1)))
out(torch.allclose(jacrev(net)(x), jacfwd(net)(x), atol=1e-5))
out(hessian(lambda x: net(x).pow(2).sum())(x).sum((0, 1, 2, 3)))
target = torch.tensor([1])
out(jacrev(lambda x: F.cross_entropy(net(x), target))(x).sum((0, 1)))
out(hessian(lambda w: F.mse_loss(net(x, w), torch.ones(1, 8)))(w).sum((0, 1, 2, 3)))
# ---
# vmap over jacrev of a small CNN and of losses: one Jacobian per sample
F = torch.nn.functional
conv = nn.Conv1d(2, 3, 3)
with torch.no_grad():
    conv.weight.copy_(torch.sin(torch.arange(18.0)).reshape(3, 2, 3) * 0.3)
    conv.bias.copy_(torch.tensor([0.0, 0.1, -0.1]))
xs = torch.cos(torch.arange(3 * 2 * 7.0) * 0.3).reshape(3, 2, 7)


def f(x):
    return F.avg_pool1d(F.pad(conv(x), (1, 1), mode="replicate"), 2).sum(0)


js = torch.vmap(torch.func.jacrev(f))(xs)
out(js.shape, js.sum((1, 2, 3)))
ys = torch.tensor([[0.2, 0.9, 0.5], [0.1, 0.4, 0.7], [0.6, 0.3, 0.8]])
hs = torch.vmap(torch.func.hessian(lambda p, y: F.binary_cross_entropy(p.sigmoid(), y)))(
    ys, ys.flip(0)
)
out(hs)
gs = torch.vmap(
    torch.func.jacrev(lambda p: F.huber_loss(p, torch.zeros(3), reduction="none", delta=0.5))
)(ys)
out(gs)
