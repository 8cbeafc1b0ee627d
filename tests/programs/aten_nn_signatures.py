# torch's top-level forms of nn.functional ops (native signatures, int reductions)
x = torch.arange(24.0).reshape(2, 3, 4).sin().requires_grad_()
img = torch.arange(2 * 3 * 4 * 4.0).reshape(2, 3, 4, 4).cos().requires_grad_()
w = torch.tensor([1.0, 2.0, 0.5], requires_grad=True)
b = torch.tensor([0.1, 0.0, -0.1], requires_grad=True)
t = torch.tensor([[0.0, 1.0, 1.0, 0.0], [1.0, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 0.0]])
y = torch.tensor([1.0, -1.0, 1.0])
results = [
    torch.dropout(x, 0.5, False),
    torch.dropout(x, 0.0, True),
    torch.layer_norm(x, [4]),
    torch.layer_norm(x, (4,), torch.ones(4), torch.zeros(4), 1e-3),
    torch.group_norm(x, 3, w, b),
    torch.batch_norm(x, w, b, torch.zeros(3), torch.ones(3), True, 0.1, 1e-5, False),
    torch.batch_norm(x, None, None, torch.zeros(3), torch.ones(3), False, 0.1, 1e-5, False),
    torch.instance_norm(x, w, b, None, None, True, 0.1, 1e-5, False),
    torch.max_pool1d(x, 2),
    torch.max_pool1d(x, 2, 1, 1),
    torch.max_pool2d(img, 2),
    torch.max_pool2d(img, (2, 2), (1, 2), 1, 1, True),
    torch.max_pool3d(img.unsqueeze(0), 2),
    torch.avg_pool1d(x, 2),
    torch.adaptive_avg_pool1d(x, 3),
    torch.bilinear(x[0], x[1], torch.ones(2, 4, 4), torch.zeros(2)),
    torch.binary_cross_entropy_with_logits(x[0], t),
    torch.binary_cross_entropy_with_logits(x[0], t, None, torch.ones(4), 1),
    torch.binary_cross_entropy_with_logits(x[0], t, reduction=2),
    torch.cosine_embedding_loss(x[0], x[1], y),
    torch.hinge_embedding_loss(x[0], t * 2 - 1, 1.0, 1),
    torch.margin_ranking_loss(x[0, :, 0], x[1, :, 0], y, 0.1, 2),
    torch.kl_div(x[0], t),
    torch.kl_div(x[0], t, 1),
    torch.kl_div(x[0], x[1], 2, log_target=True),
    torch.poisson_nll_loss(x[0], t, True, False, 1e-8, 1),
    torch.triplet_margin_loss(x[0], x[1], x[0].flip(0)),
    torch.chain_matmul(x[0], x[1].t(), x[0]),
    torch.chain_matmul(x[0]),
]
for r in results:
    out(r)
values, indices = torch.adaptive_max_pool1d(x, 3)
out(values, indices)
z = x.detach().clone()
out(torch.dropout_(z, 0.0, True) is z)
# ---
# top-level dropout family: required train flag, RuntimeError for a bad p, identity when off
x = torch.ones(4, 6, requires_grad=True)
out(torch.dropout(x, 0.5, False) is x, torch.alpha_dropout(x, 0.3, False) is x)
out(torch.feature_dropout(x, 0.0, True) is x, torch.feature_alpha_dropout(x, 0.5, False) is x)
y = torch.dropout(x, 0.5, True)
out(y.shape, y.grad_fn.name(), sorted(set(y.flatten().tolist())) <= [0.0, 2.0])
y = torch.alpha_dropout(torch.ones(50, 40), 0.2, True)
out(sorted(set(round(v, 4) for v in y.flatten().tolist())))
y = torch.feature_alpha_dropout(torch.ones(8, 30, 5), 0.2, True)
out(bool((y == y[:, :, :1]).all()), sorted(set(round(v, 4) for v in y.flatten().tolist())))
y = torch.feature_dropout(torch.ones(8, 30, 5), 0.5, True)
out(bool((y == y[:, :, :1]).all()))
out(torch.dropout(x, 1.0, True), torch.alpha_dropout(x, 1.0, True))
out(torch.alpha_dropout(x, 0.5, True).grad_fn.name(), F.alpha_dropout(x, 0.5, True).grad_fn.name())
err(lambda: torch.dropout(x, 1.5, True))
err(lambda: torch.dropout(x, 0.5))
err(lambda: torch.feature_dropout(torch.ones(3), 0.5, True))
err(lambda: F.alpha_dropout(x, 1.5, True))
out(F.alpha_dropout(x) is x, F.feature_alpha_dropout(x, 0.5) is x)
z = x * 1
out(torch.dropout_(z, 0.5, True) is z, z.grad_fn.name())
z = x * 1
out(torch.alpha_dropout_(z, 0.5, True) is z, z.grad_fn.name())
z = x * 1
out(torch.feature_dropout_(z, 0.5, False) is z, torch.feature_alpha_dropout_(z, 0.5, True) is z)
print(nn.AlphaDropout(0.2), nn.FeatureAlphaDropout(0.1))
m = nn.AlphaDropout(0.2).eval()
out(m(x) is x)
# ---
# native_dropout returns (output, mask)
x = torch.arange(1.0, 7.0).reshape(2, 3).requires_grad_()
o, mask = torch.native_dropout(x, 0.5, False)
out(o, mask)
o.sum().backward()
out(x.grad)
o, mask = torch.native_dropout(x, 0.5, True)
out(o.shape, mask.dtype, o.grad_fn.name(), bool((o == x * mask * 2).all()))
o, mask = torch.native_dropout(x, 1.0, True)
out(o, mask)
err(lambda: torch.native_dropout(x, 1.5, True))
# ---
# top-level normalization with ATen signatures (float64: float32 rounding differs by ulps)
torch.set_default_dtype(torch.float64)
x = torch.arange(24.0).reshape(2, 3, 4).div(7).sin().requires_grad_()
w = torch.tensor([1.0, 2.0, 0.5, -1.0], requires_grad=True)
b = torch.tensor([0.1, 0.2, 0.3, 0.4], requires_grad=True)
out(torch.layer_norm(x, [4], w, b), torch.layer_norm(x, (3, 4)))
o, mean, rstd = torch.native_layer_norm(x, [4], w, b, 1e-5)
out(o, mean, rstd)
out(torch.native_layer_norm(x, [3, 4], None, None, 1e-5))
c = torch.tensor([1.0, -0.5, 2.0], requires_grad=True)
rm, rv = torch.zeros(3), torch.ones(3)
out(torch.batch_norm(x, c, c, rm, rv, True, 0.1, 1e-5, False), rm, rv)
out(torch.batch_norm(x, None, None, rm, rv, False, 0.1, 1e-5, False))
out(torch.batch_norm(x[:1, :, :1], None, None, None, None, True, 0.1, 1e-5, False))
out(torch.native_batch_norm(x, c, c, rm, rv, True, 0.2, 1e-5), rm, rv)
out(torch.native_batch_norm(x, c, c, rm, rv, False, 0.1, 1e-5))
out(torch.native_batch_norm(x, None, None, None, None, True, 0.1, 1e-5))
err(lambda: torch.batch_norm(x, c, c, rm, rv, True, 0.1, 1e-5))
err(lambda: torch.batch_norm(x, None, None, None, None, False, 0.1, 1e-5, False))
g = torch.arange(24.0).reshape(2, 4, 3).cos().requires_grad_()
out(torch.group_norm(g, 2), torch.group_norm(g, 4, w, b, 1e-3))
out(torch.native_group_norm(g, None, None, 2, 4, 3, 2, 1e-5))
err(lambda: torch.group_norm(x, 2))
out(torch.instance_norm(x, None, None, None, None, True, 0.1, 1e-5, False))
out(torch.instance_norm(x, c, c, rm, rv, True, 0.1, 1e-5, False), rm, rv)
out(torch.instance_norm(x, c, c, rm, rv, False, 0.1, 1e-5, False))
err(lambda: torch.instance_norm(x, None, None, None, None, False, 0.1, 1e-5, False))
torch.layer_norm(x, [4], w, b).pow(2).sum().backward()
out(x.grad, w.grad, b.grad)
# ---
# top-level pooling
x = torch.arange(24.0).reshape(2, 3, 4).mul(1.7).sin().requires_grad_()
x4 = torch.arange(48.0).reshape(1, 3, 4, 4).mul(0.3).cos().requires_grad_()
x5 = torch.arange(96.0).reshape(1, 3, 2, 4, 4).mul(0.7).sin()
out(
    torch.max_pool1d(x, 2),
    torch.max_pool1d(x, 2, 1, 1, 1, True),
    torch.max_pool1d(x, kernel_size=3),
)
out(torch.max_pool2d(x4, 2), torch.max_pool2d(x4, (2, 2), (1, 1)), torch.max_pool3d(x5, 2))
out(torch.max_pool1d_with_indices(x, 2), torch.max_pool1d_with_indices(x, 2, 1, 1))
out(
    torch.avg_pool1d(x, 2),
    torch.avg_pool1d(x, 3, 1, 1, False, False),
    torch.avg_pool1d(x, 3, (), 1, True),
)
out(torch.adaptive_avg_pool1d(x, 3), torch.adaptive_max_pool1d(x, 3))
err(lambda: torch.max_pool1d(x, 5))
i = torch.ones(1, 2, 4, dtype=torch.int64)
err(lambda: torch.max_pool1d(i, 2))
out(F.max_pool1d(i, 2, return_indices=True), torch.max_pool2d(i.unsqueeze(0), 2))
err(lambda: torch.adaptive_avg_pool1d(i, 2))
err(lambda: torch.adaptive_avg_pool1d(i, 1))
err(lambda: F.adaptive_avg_pool3d(i.reshape(1, 1, 2, 2, 2), 2))
err(lambda: torch.max_pool1d(x, 2, return_indices=True))
err(lambda: torch.adaptive_max_pool1d(x, 3, True))
torch.max_pool1d(x, 2).sum().backward()
out(x.grad)
# ---
# top-level losses take reduction as an int, and default to no reduction
p = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = torch.tensor([1.0, 0.0, 1.0])
out(
    torch.binary_cross_entropy_with_logits(p, y),
    torch.binary_cross_entropy_with_logits(p, y, None, None, 1),
)
out(torch.binary_cross_entropy_with_logits(p, y, torch.ones(3), torch.ones(3) * 2, 2))
out(torch.binary_cross_entropy_with_logits(p, y, reduction=3))
err(lambda: torch.binary_cross_entropy_with_logits(p, y, reduction="sum"))
lp = torch.tensor([[-1.0, -0.5, -2.0], [-0.3, -1.5, -1.0]], requires_grad=True)
q = torch.tensor([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]])
out(
    torch.kl_div(lp, q),
    torch.kl_div(lp, q, 1),
    torch.kl_div(lp, q, 2),
    torch.kl_div(lp, q.log(), 1, log_target=True),
)
err(lambda: torch.kl_div(lp, q, "batchmean"))
err(lambda: torch.kl_div(lp, q, True))
err(lambda: torch.kl_div(lp, q, 1, True))
a = torch.tensor([[1.0, 2.0], [0.5, -1.0], [3.0, 0.0]], requires_grad=True)
bb = torch.tensor([[1.0, 0.0], [0.5, 1.0], [-1.0, 1.0]])
t = torch.tensor([1.0, -1.0, -1.0])
out(torch.cosine_embedding_loss(a, bb, t), torch.cosine_embedding_loss(a, bb, t, 0.1, 1))
out(torch.margin_ranking_loss(p, p.detach() * 0.5, t), torch.margin_ranking_loss(p, y, t, 0.5, 2))
out(
    torch.hinge_embedding_loss(a, torch.ones(3, 2)),
    torch.hinge_embedding_loss(a, -torch.ones(3, 2), 2.0, 2),
)
(torch.kl_div(lp, q, 1) + torch.cosine_embedding_loss(a, bb, t, 0.0, 2)).backward()
out(lp.grad, a.grad)
# ---
# bilinear, prelu, hardshrink, activations with ATen's signatures
x1 = torch.arange(6.0).reshape(2, 3).sin().requires_grad_()
x2 = torch.arange(8.0).reshape(2, 4).cos()
w = torch.arange(60.0).reshape(5, 3, 4).div(30).requires_grad_()
out(torch.bilinear(x1, x2, w), torch.bilinear(x1, x2, w, torch.ones(5)))
v = torch.tensor([[-1.0, 0.2, 0.7], [0.4, -0.3, 2.0]], requires_grad=True)
out(v.prelu(torch.tensor([0.25])), torch.prelu(v, torch.tensor([0.1, 0.2, 0.3])))
out(v.hardshrink(), v.hardshrink(0.3), torch.hardshrink(v, lambd=0.35))
out(torch.celu(v, 2.0), torch.selu(v), torch.threshold(v, 0.1, 2.0), torch.rrelu(v))
err(lambda: torch.threshold(v, 0.1, 2.0, True))
err(lambda: torch.selu(v, True))
err(lambda: torch.rrelu(v, inplace=True))
r = v.detach().clone()
out(torch.relu_(r) is r, r)
out(torch.celu_(r, 1.5) is r, torch.selu_(r) is r, torch.threshold_(r, 0.5, -1.0) is r, r)
# ---
# channel_shuffle
x = torch.arange(16.0).reshape(1, 4, 2, 2).requires_grad_()
y = torch.channel_shuffle(x, 2)
out(
    y, nn.ChannelShuffle(2)(x), F.channel_shuffle(x, 4), torch.native_channel_shuffle(x, 2).detach()
)
y.backward(torch.arange(16.0).reshape(1, 4, 2, 2))
out(x.grad)
print(nn.ChannelShuffle(3))
err(lambda: torch.channel_shuffle(x, 3))
err(lambda: torch.channel_shuffle(torch.ones(2, 4), 2))
err(lambda: torch.channel_shuffle(x, 0))
y = torch.native_channel_shuffle(x, 2)
out(y.grad_fn.name())
err(lambda: y.sum().backward())
err(lambda: torch.native_channel_shuffle(x, 3))
