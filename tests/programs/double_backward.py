# pooling and padding: the first-order gradient requires grad (its input edge has a zero
# derivative), so differentiating it again gives zeros
def names(node, depth=2):
    if node is None or depth == 0:
        return None if node is None else node.name()
    return [node.name(), [names(n, depth - 1) for n, _ in node.next_functions]]


x = ((torch.arange(96, dtype=torch.float64).reshape(2, 3, 4, 4) * 0.37).sin()).requires_grad_()
x1 = ((torch.arange(48, dtype=torch.float64).reshape(2, 3, 8) * 0.37).sin()).requires_grad_()
cases = [
    (x, lambda t: F.max_pool2d(t, 2)),
    (x, lambda t: F.max_pool2d(t, 3, 1, 1)),
    (x, lambda t: F.avg_pool2d(t, 2)),
    (x, lambda t: F.adaptive_avg_pool2d(t, 3)),
    (x, lambda t: F.adaptive_max_pool2d(t, 3)),
    (x, lambda t: F.pad(t, (1, 1, 1, 1), mode="reflect")),
    (x, lambda t: F.pad(t, (1, 2, 0, 1), mode="replicate")),
    (x1, lambda t: F.max_pool1d(t, 2)),
    (x1, lambda t: F.avg_pool1d(t, 2)),
    (x1, lambda t: F.adaptive_max_pool1d(t, 3)),
]
for inp, f in cases:
    inp.grad = None
    (g,) = torch.autograd.grad(f(inp).sum(), inp, create_graph=True)
    out(g.requires_grad, names(g.grad_fn))
    g.sum().backward()
    out(inp.grad)
    (g,) = torch.autograd.grad((f(inp) ** 2).sum(), inp, create_graph=True)
    out(g, names(g.grad_fn))
    out(torch.autograd.grad((g * g).sum(), inp)[0])

# ---
# 3-d pooling double backward
x = ((torch.arange(64, dtype=torch.float64).reshape(1, 1, 4, 4, 4) * 0.41).cos()).requires_grad_()
for f in (lambda t: F.max_pool3d(t, 2), lambda t: F.avg_pool3d(t, 2)):
    (g,) = torch.autograd.grad((f(x) ** 2).sum(), x, create_graph=True)
    out(g, g.grad_fn.name(), [type(n).__name__ for n, _ in g.grad_fn.next_functions])
    out(torch.autograd.grad(g.sum(), x)[0])

# ---
# piecewise-linear activations: named backward nodes whose input edge has a zero derivative
x = (torch.arange(12, dtype=torch.float64).reshape(3, 4) * 0.53 - 3.1).requires_grad_()
w = torch.tensor([0.25], dtype=torch.float64)
fns = [
    lambda t: F.hardtanh(t),
    lambda t: F.relu6(t * 2),
    lambda t: F.threshold(t, 0.1, 2.0),
    lambda t: F.leaky_relu(t, 0.1),
    lambda t: F.hardshrink(t),
    lambda t: F.softshrink(t, 0.7),
    lambda t: F.prelu(t, w),
    lambda t: torch.relu(t),
]
for f in fns:
    x.grad = None
    (g,) = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    out(g, g.grad_fn.name(), [None if n is None else n.name() for n, _ in g.grad_fn.next_functions])
    g.sum().backward()
    out(x.grad)
    (g,) = torch.autograd.grad((f(x) ** 2).sum(), x, create_graph=True)
    out(g, torch.autograd.grad((g**2).sum(), x)[0])

# ---
# smooth activations, softmax and log_softmax: second derivatives through the named nodes
x = ((torch.arange(15, dtype=torch.float64).reshape(3, 5) * 0.61).sin() * 2.5).requires_grad_()
fns = [
    lambda t: F.softplus(t, 2.0, 3.0),
    lambda t: F.logsigmoid(t),
    lambda t: F.gelu(t),
    lambda t: F.gelu(t, approximate="tanh"),
    lambda t: F.elu(t),
    lambda t: F.hardswish(t),
    lambda t: F.softmax(t, 1),
    lambda t: F.log_softmax(t, 0),
    lambda t: F.softmin(t, 1),
    lambda t: F.leaky_relu(t, 0.2),
]
for f in fns:
    (g,) = torch.autograd.grad((f(x) * x.cos()).sum(), x, create_graph=True)
    node = g.grad_fn
    out(g, node.name(), [None if n is None else n.name() for n, _ in node.next_functions])
    out(torch.autograd.grad((g * g).sum(), x)[0])

# ---
# convolution: both first-order gradients are ConvolutionBackwardBackward0 nodes
x = (torch.arange(2 * 3 * 5 * 5, dtype=torch.float64).reshape(2, 3, 5, 5) * 0.3).sin()
w = (torch.arange(2 * 3 * 3 * 3, dtype=torch.float64).reshape(2, 3, 3, 3) * 0.7).cos()
x.requires_grad_()
w.requires_grad_()
y = F.conv2d(x, w, padding=1, stride=2)
gx, gw = torch.autograd.grad((y**2).sum(), (x, w), create_graph=True)
for g in (gx, gw):
    out(g, g.grad_fn.name(), [None if n is None else n.name() for n, _ in g.grad_fn.next_functions])
hx, hw = torch.autograd.grad((gx**2).sum() + (gw * gw.sin()).sum(), (x, w))
out(hx, hw)
# the input gradient is linear in grad_output and the weight: its input derivative is None
(g,) = torch.autograd.grad(F.conv2d(x, w).sum(), x, create_graph=True)
out(g.requires_grad, g.grad_fn.name())
x.grad = None
g.sum().backward()
out(x.grad, w.grad is None)
# transposed and 1-d convolutions
z = ((torch.arange(2 * 2 * 7, dtype=torch.float64).reshape(2, 2, 7) * 0.9).sin()).requires_grad_()
k = ((torch.arange(2 * 3 * 3, dtype=torch.float64).reshape(2, 3, 3) * 0.4).cos()).requires_grad_()
for f in (lambda: F.conv_transpose1d(z, k, stride=2), lambda: F.conv1d(z, k.transpose(0, 1))):
    gz, gk = torch.autograd.grad((f() ** 2).sum(), (z, k), create_graph=True)
    out(gz.grad_fn.name(), gk.grad_fn.name())
    out(torch.autograd.grad((gz**2).sum() + (gk**2).sum(), (z, k)))

# ---
# losses: nll_loss and cross_entropy keep the input edge
x = ((torch.arange(12, dtype=torch.float64).reshape(3, 4) * 0.77).sin()).requires_grad_()
t = torch.tensor([0, 2, 1])
for f in (lambda: F.nll_loss(x, t), lambda: F.cross_entropy(x, t), lambda: F.mse_loss(x, x.cos())):
    x.grad = None
    (g,) = torch.autograd.grad(f(), x, create_graph=True)
    out(g, g.grad_fn.name())
    g.sum().backward()
    out(x.grad)

# ---
# errors: hardsigmoid has no double backward in torch; clamp's gradient does not require grad
x = torch.tensor([-4.0, -1.0, 0.5, 2.0, 3.5], dtype=torch.float64, requires_grad=True)
(g,) = torch.autograd.grad(F.hardsigmoid(x).sum(), x, create_graph=True)
out(g.requires_grad, type(g.grad_fn).__name__, len(g.grad_fn.next_functions))
err(lambda: g.sum().backward())
(g,) = torch.autograd.grad((F.hardsigmoid(x) ** 2).sum(), x, create_graph=True)
out([type(n).__name__ for n, _ in g.grad_fn.next_functions])
err(lambda: g.sum().backward())
(g,) = torch.autograd.grad(x.clamp(-1.5, 1.5).sum(), x, create_graph=True)
out(g.requires_grad, g.grad_fn)
err(lambda: g.sum().backward())
(g,) = torch.autograd.grad(x.abs().sum(), x, create_graph=True)
out(g, [type(n).__name__ for n, _ in g.grad_fn.next_functions])

# ---
# named loss and activation backward nodes: edges and second derivatives
x = ((torch.arange(12, dtype=torch.float64).reshape(3, 4) * 0.77).sin()).requires_grad_()
y = ((torch.arange(12, dtype=torch.float64).reshape(3, 4) * 0.31).cos()).requires_grad_()
fns = [
    lambda: F.mse_loss(x, y),
    lambda: F.mse_loss(x, y, reduction="sum"),
    lambda: F.smooth_l1_loss(x, y, beta=0.5),
    lambda: F.huber_loss(x, y, delta=0.4),
    lambda: F.soft_margin_loss(x, y.detach().sign()),
    lambda: F.glu(x, 1).pow(2).sum(),
    lambda: F.rrelu(x, 0.2, 0.2, training=True).pow(2).sum(),
    lambda: F.prelu(x, y[0]).pow(2).sum(),
]
for f in fns:
    gx, gy = torch.autograd.grad(f(), (x, y), create_graph=True, allow_unused=True)
    out(gx, [None if n is None else n.name() for n, _ in gx.grad_fn.next_functions])
    inputs = (x, y) if gy is not None else (x,)
    total = (gx * gx.cos()).sum() + (0 if gy is None else (gy * gy).sum())
    out(torch.autograd.grad(total, inputs, allow_unused=True))
x.grad = None
(g,) = torch.autograd.grad(F.multi_margin_loss(x, torch.tensor([0, 3, 1])), x, create_graph=True)
out(g, type(g.grad_fn).__name__)
err(lambda: g.sum().backward())

# ---
# batch norm and layer norm: every gradient is a Native*BackwardBackward0 node
x = ((torch.arange(24, dtype=torch.float64).reshape(2, 3, 4) * 0.37).sin()).requires_grad_()
w = torch.tensor([0.5, 1.5, -1.0], dtype=torch.float64, requires_grad=True)
b = torch.tensor([0.1, 0.2, 0.3], dtype=torch.float64, requires_grad=True)
w2 = torch.linspace(0.5, 2, 4, dtype=torch.float64).requires_grad_()
b2 = torch.linspace(-1, 1, 4, dtype=torch.float64).requires_grad_()
rm, rv = torch.zeros(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64)
cases = [
    (lambda: F.batch_norm(x, rm, rv, w, b, training=True), (x, w, b)),
    (lambda: F.batch_norm(x, rm, rv, w, b, training=False), (x, w, b)),
    (lambda: F.batch_norm(x, None, None, training=True), (x,)),
    (lambda: F.layer_norm(x, (4,), w2, b2), (x, w2, b2)),
    (lambda: F.layer_norm(x, (3, 4)), (x,)),
    (lambda: F.instance_norm(x), (x,)),
]
for f, inputs in cases:
    gs = torch.autograd.grad((f() ** 2 * x.cos()).sum(), inputs, create_graph=True)
    for g in gs:
        out(
            g,
            g.grad_fn.name(),
            [None if n is None else n.name() for n, _ in g.grad_fn.next_functions],
        )
    out(torch.autograd.grad(sum((g * g).sum() for g in gs), inputs, allow_unused=True))
    x.grad = None
    (g,) = torch.autograd.grad(f().sum(), x, create_graph=True)
    g.sum().backward()
    out(g.requires_grad, x.grad)


# ---
# in-place ops save a clone of the original input (CloneBackward0), as torch
def names(node, depth=3):
    if node is None or depth == 0:
        return None if node is None else node.name()
    return [node.name(), [names(n, depth - 1) for n, _ in node.next_functions]]


x = torch.tensor([1.5, -2.0, 0.3, 0.8], dtype=torch.float64, requires_grad=True)
w = torch.tensor([0.5, 2.0, -1.0, 1.5], dtype=torch.float64, requires_grad=True)
a = x * 1
a.mul_(w)
(g,) = torch.autograd.grad((a * a).sum(), w, create_graph=True)
out(g, names(g.grad_fn))
fns = [
    lambda t: F.hardtanh(t, inplace=True),
    lambda t: F.threshold(t, 0.1, 2.0, inplace=True),
    lambda t: F.hardswish(t, inplace=True),
    lambda t: F.silu(t, inplace=True),
    lambda t: t.sin_(),
    lambda t: t.pow_(3),
    lambda t: F.elu(t, inplace=True),
]
for f in fns:
    a = x * 1
    f(a)
    (g,) = torch.autograd.grad((a * a).sum(), x, create_graph=True)
    out(g, names(g.grad_fn, 4), torch.autograd.grad((g * g).sum(), x)[0])

# ---
# pdist's gradient is a PdistBackwardBackward0 node with no derivative, as torch
x = ((torch.arange(12, dtype=torch.float64).reshape(4, 3) * 0.9).sin()).requires_grad_()
(g,) = torch.autograd.grad(F.pdist(x).sum(), x, create_graph=True)
out(g, g.grad_fn.name(), [None if n is None else n.name() for n, _ in g.grad_fn.next_functions])
err(lambda: g.sum().backward())


# ---
# scaled_dot_product_attention: the fused CPU kernel (4-D) has no double backward; the math
# path (3-D) is composite and differentiates again
def names(node, depth=3):
    if node is None or depth == 0:
        return None if node is None else node.name()
    return [node.name(), [names(n, depth - 1) for n, _ in node.next_functions]]


for shape in ((2, 3, 4), (1, 2, 3, 4)):
    q = ((torch.arange(24, dtype=torch.float64).reshape(shape) * 0.37).sin()).requires_grad_()
    y = F.scaled_dot_product_attention(q, q * 0.5, q.cos())
    (g,) = torch.autograd.grad((y * y).sum(), q, create_graph=True)
    out(y, g, names(g.grad_fn))
    err(lambda: torch.autograd.grad(g.sum(), q))


# ---
# norms and max reductions: the first-order gradient follows torch's formula (names, values)
def names(node, depth=3):
    if node is None or depth == 0:
        return None if node is None else node.name()
    return [node.name(), [names(n, depth - 1) for n, _ in node.next_functions]]


x = ((torch.arange(24, dtype=torch.float64).reshape(2, 3, 4) * 0.53).sin()).requires_grad_()
fns = [
    lambda: x.norm(),
    lambda: x.norm(dim=1).sum(),
    lambda: torch.linalg.vector_norm(x, 1, dim=(0, 2)).sum(),
    lambda: torch.linalg.vector_norm(x, float("inf"), dim=2).sum(),
    lambda: F.normalize(x, dim=1).pow(2).mul(x).sum(),
    lambda: F.cosine_similarity(x, x.cos(), dim=2).sum(),
    lambda: x.amax(1).pow(2).sum(),
    lambda: x.amin((0, 2), keepdim=True).pow(2).sum(),
]
for f in fns:
    (g,) = torch.autograd.grad(f(), x, create_graph=True)
    out(g, names(g.grad_fn))
    (h,) = torch.autograd.grad((g * g.sin()).sum(), x, allow_unused=True)
    out(torch.zeros_like(x) + h)  # (torch may answer an efficient ZeroTensor)
