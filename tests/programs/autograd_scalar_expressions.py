# micrograd-style checks: scalar expressions through +, *, pow, relu, backward and .grad
x = torch.Tensor([-4.0]).double()
x.requires_grad = True
z = 2 * x + 2 + x
q = z.relu() + z * x
h = (z * z).relu()
y = h + q + q * x
y.backward()
out(y.data.item(), x.grad.item(), y, x.grad)
# ---
# micrograd-style checks: a longer expression with division, negative powers and chaining
a = torch.Tensor([-4.0]).double()
b = torch.Tensor([2.0]).double()
a.requires_grad = True
b.requires_grad = True
c = a + b
d = a * b + b**3
c = c + c + 1
c = c + 1 + c + (-a)
d = d + d * 2 + (b + a).relu()
d = d + 3 * d + (b - a).relu()
e = c - d
f = e**2
g = f / 2.0
g = g + 10.0 / f
g.backward()
tol = 1e-6
out(g.data.item(), a.grad.item(), b.grad.item())
out(abs(g.data.item() - 24.70408163265306) < tol, abs(a.grad.item() - 138.83381924198252) < tol)
out([type(t.grad_fn).__name__ for t in (g, c, d, e, f)])
# ---
# micrograd-style checks: a neuron with tanh, and the same by exp by hand
x1 = torch.tensor([2.0], dtype=torch.double, requires_grad=True)
x2 = torch.tensor([0.0], dtype=torch.double, requires_grad=True)
w1 = torch.tensor([-3.0], dtype=torch.double, requires_grad=True)
w2 = torch.tensor([1.0], dtype=torch.double, requires_grad=True)
b = torch.tensor([6.8813735870195432], dtype=torch.double, requires_grad=True)
n = x1 * w1 + x2 * w2 + b
o = torch.tanh(n)
o.backward()
out(o.data.item(), [t.grad.item() for t in (x1, x2, w1, w2, b)])
grads = [t.grad.clone() for t in (x1, x2, w1, w2, b)]
for t in (x1, x2, w1, w2, b):
    t.grad = None
n = x1 * w1 + x2 * w2 + b
e = (2 * n).exp()
o2 = (e - 1) / (e + 1)
o2.backward()
out(o2, all(torch.allclose(t.grad, g) for t, g in zip((x1, x2, w1, w2, b), grads)))
# ---
# micrograd-style checks: a tiny MLP of scalars trained with a hinge loss
rng = np.random.default_rng(1)
xs = torch.tensor([[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]])
ys = torch.tensor([1.0, -1.0, -1.0, 1.0])
sizes = [3, 4, 4, 1]
layers = [
    (
        torch.tensor(rng.uniform(-1, 1, (i, o)), dtype=torch.float32, requires_grad=True),
        torch.zeros(o, requires_grad=True),
    )
    for i, o in zip(sizes[:-1], sizes[1:])
]
params = [p for layer in layers for p in layer]
out(sum(p.numel() for p in params))


def mlp(x):
    for k, (w, b) in enumerate(layers):
        x = x @ w + b
        if k < len(layers) - 1:
            x = x.tanh()
    return x.squeeze(-1)


for k in range(10):
    scores = mlp(xs)
    losses = (1 + -ys * scores).relu()
    data_loss = losses.mean()
    reg_loss = 1e-4 * sum((p * p).sum() for p in params)
    loss = data_loss + reg_loss
    accuracy = ((ys > 0) == (scores > 0)).float().mean()
    for p in params:
        p.grad = None
    loss.backward()
    learning_rate = 1.0 - 0.9 * k / 10
    with torch.no_grad():
        for p in params:
            p.sub_(learning_rate * p.grad)
    out(k, loss, accuracy.item())
out(mlp(xs), layers[0][0].grad)
