# Dropout p=0, p=1, invalid p, eval and no_grad independence
x = torch.ones(3, 4, requires_grad=True)
d1 = nn.Dropout(1.0)
y = d1(x)
out(y, y.grad_fn.name())
d0 = nn.Dropout(0.0)
y0 = d0(x)
out(y0, y0.grad_fn.name() if y0.grad_fn is not None else None)
err(lambda: nn.Dropout(1.5))
err(lambda: nn.Dropout(-0.1))
err(lambda: F.dropout(x, 2.0))
d = nn.Dropout(0.5).eval()
ye = d(x)
out(ye, ye.requires_grad, ye is x)
with torch.no_grad():
    yn = nn.Dropout(0.5)(x)
out(yn.requires_grad, ((yn == 0) | (yn == 2)).all())
out(F.dropout(x, 0.5, training=False))
d2 = nn.Dropout2d(1.0)
out(d2(torch.ones(2, 3, 2, 2)), d2(torch.ones(3, 2, 2)).shape)
err(lambda: nn.Dropout2d(1.1))
out(F.dropout2d(torch.ones(1, 2, 2, 2), 0.0))
xi = torch.ones(2, 2)
nn.Dropout(1.0, inplace=True)(xi)
out(xi)
err(lambda: nn.Dropout(0.5)(torch.ones(3, dtype=torch.int64)))
# ---
# Dropout statistics: scale is 1/(1-p)
torch.manual_seed(0)
y = F.dropout(torch.ones(10000), 0.25)
vals = sorted(set(y.tolist()))
out(len(vals), [round(v, 4) for v in vals], abs(float((y == 0).float().mean()) - 0.25) < 0.03)
# ---
# activations: values, inplace, grad_fn names, repr
x = torch.tensor([-2.0, -0.5, 0.0, 0.5, 3.0], requires_grad=True)
for m in [
    nn.ReLU(),
    nn.LeakyReLU(),
    nn.LeakyReLU(0.2),
    nn.GELU(),
    nn.GELU("tanh"),
    nn.SiLU(),
    nn.Sigmoid(),
    nn.Tanh(),
]:
    y = m(x)
    (g,) = torch.autograd.grad(y.sum(), x)
    out(type(m).__name__, y, y.grad_fn.name(), g)
err(lambda: nn.GELU("fast")(x))
z = x.detach().clone()
r = nn.ReLU(inplace=True)(z)
out(r is z, z)
z = x.detach().clone()
nn.LeakyReLU(0.1, inplace=True)(z)
out(z)
err(lambda: nn.ReLU(inplace=True)(x))
xl = x.clone()
yl = nn.ReLU(inplace=True)(xl)
out(yl.grad_fn.name())
yl2 = nn.SiLU(inplace=True)(x.clone())
out(yl2.grad_fn.name())
err(lambda: nn.ReLU()(torch.tensor([-1, 2])))
out(nn.ReLU()(torch.tensor([-1, 2])))
err(lambda: nn.GELU()(torch.tensor([-1, 2])))
err(lambda: nn.Sigmoid()(torch.tensor([-1, 2])))
out(nn.Sigmoid()(torch.tensor([-1, 2])))
# ---
# Softmax and LogSoftmax dims
x = torch.tensor([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]], requires_grad=True)
s = nn.Softmax(dim=1)(x)
ls = nn.LogSoftmax(dim=0)(x)
out(s, s.grad_fn.name(), ls, ls.grad_fn.name())
out(nn.Softmax(dim=-1)(torch.tensor([0.0, 1.0])))
out(F.softmax(x, 1, dtype=torch.float64).dtype, F.log_softmax(x, -1).grad_fn.name())
err(lambda: nn.Softmax(dim=2)(x))
err(lambda: nn.Softmax(dim=1)(torch.tensor([[1, 2]])))
out(F.softmax(torch.tensor([[1, 2]]), dim=1, dtype=torch.float32))
print(nn.Softmax(dim=1), nn.LogSoftmax(), nn.Softmax2d(), nn.Softmin(0))
# ---
# feature dropout masks: whole channels, and 3-D inputs to dropout2d read as (N, C, L)
torch.manual_seed(0)
y = F.dropout2d(torch.ones(4, 6, 5), 0.5)
out(y.shape, bool((y == y[:, :, :1]).all()))
y = F.dropout2d(torch.ones(4, 6, 3, 3), 0.5)
out(bool((y == y[:, :, :1, :1]).all()))
y = F.dropout3d(torch.ones(6, 2, 2, 2), 0.5)
out(bool((y == y[:, :1, :1, :1]).all()))
y = F.dropout1d(torch.ones(6, 5), 0.5)
out(bool((y == y[:, :1]).all()))
err(lambda: F.dropout1d(torch.ones(2, 3, 4, 5), 0.5))
err(lambda: F.dropout1d(torch.ones(5), 0.5, training=False))
err(lambda: F.dropout2d(torch.ones(2, 3, 4, 4, dtype=torch.int64), 0.5))
out(F.dropout(torch.tensor([1, 2]), 1.0), F.dropout(torch.tensor([1, 2]), 0.5, training=False))
err(lambda: F.gelu(torch.tensor([1, 2])))
err(lambda: F.silu(torch.tensor([1, 2])))
err(lambda: F.leaky_relu(torch.tensor([1, 2])))
err(lambda: F.softplus(torch.tensor([1, 2])))
err(lambda: F.gelu(torch.tensor([True])))
# ---
# dropout1d/3d give an unbatched input a batch dim around the kernel and squeeze it off
# after, even when nothing is dropped (SqueezeBackward1; in place SqueezeBackward4)
x = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.0, -0.25]], requires_grad=True)
out(F.dropout1d(x, 0.0), F.dropout1d(x, 0.5, training=False), F.dropout1d(x, 1.0))
out(
    F.dropout3d(x.reshape(1, 1, 2, 3), 0.0),
    F.dropout3d(x, 1.0),
    F.dropout2d(x.reshape(1, 2, 3), 0.0),
)
y = x * 1
out(F.dropout1d(y, 0.0, inplace=True), y)
# ---
# dropout of an empty input returns the input itself, whatever p (torch's _dropout_impl)
x = torch.zeros(3, requires_grad=True)[torch.tensor([], dtype=torch.long)]
x2 = torch.zeros(2, 0, 3, requires_grad=True).sum(0)
out(F.dropout(x, p=1.0), F.dropout(x, p=0.5), F.alpha_dropout(x, 1.0, True), F.dropout(x, 1.0) is x)
out(F.feature_alpha_dropout(x2, 1.0, True), F.dropout1d(x2, 1.0), F.dropout2d(x2, 1.0))
