# maximum/minimum/fmax/fmin gradients where a NaN meets a number, a NaN or a tie
nan = float("nan")
for op in [torch.maximum, torch.minimum, torch.fmax, torch.fmin]:
    a = torch.tensor([1.0, nan, nan, 2.0, 3.0, nan], dtype=torch.float64, requires_grad=True)
    b = torch.tensor([nan, 1.0, nan, 2.0, 1.0, 0.0], dtype=torch.float64, requires_grad=True)
    y = op(a, b)
    g = torch.autograd.grad((y * y).sum(), [a, b], create_graph=True)
    out(y, g[0], g[1], torch.autograd.grad((g[0] + g[1]).sum(), [a, b], allow_unused=True))
# ---
# reductions over a slice holding NaN: amax/amin/aminmax (NaN), max/min/median (shared)
nan = float("nan")
x = torch.tensor([[1.0, nan, 3.0], [2.0, 2.0, 1.0], [nan, nan, 0.0]], requires_grad=True)
for f in [
    lambda t: t.amax(1),
    lambda t: t.amin(0),
    lambda t: t.amax(),
    lambda t: sum(t.aminmax(dim=1)),
    lambda t: t.max(),
    lambda t: t.min(),
    lambda t: t.median(),
    lambda t: t.max(1).values,
    lambda t: t.min(0).values,
]:
    y = f(x)
    out(y, torch.autograd.grad(y.sum(), x)[0])
# ---
# sign, relu, threshold, abs at NaN; atan2 at the origin; copysign at signed zeros and NaN
nan = float("nan")
x = torch.tensor([nan, 0.0, -0.0, -2.0, 3.0], dtype=torch.float64, requires_grad=True)
out(torch.sign(x), torch.sgn(x))  # (their gradients are torch's ZeroTensors)
for f in [torch.relu, torch.abs, lambda t: F.threshold(t, 1.0, -5.0)]:
    y = f(x)
    out(y, torch.autograd.grad(y.sum(), x)[0])
a = torch.tensor([0.0, 0.0, -0.0, 1.0], dtype=torch.float64, requires_grad=True)
b = torch.tensor([0.0, -0.0, 0.0, 0.0], dtype=torch.float64, requires_grad=True)
out(torch.autograd.grad(torch.atan2(a, b).sum(), [a, b]))
c = torch.tensor([nan, 1.0, -0.0, 0.0, 2.0, 0.0], dtype=torch.float64, requires_grad=True)
d = torch.tensor([1.0, nan, -1.0, -0.0, 0.0, nan], dtype=torch.float64)
g = torch.autograd.grad((torch.copysign(c, d) * c).sum(), c, create_graph=True)[0]
out(g, torch.autograd.grad(g.sum(), c)[0])
# ---
# var/std without degrees of freedom
x = torch.tensor([1.5], dtype=torch.float64, requires_grad=True)
for f in [lambda t: t.var(), lambda t: t.std(), lambda t: torch.var_mean(t)[0]]:
    y = f(x)
    out(y, torch.autograd.grad(y, x)[0])
x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
for correction in [2, 3]:
    y = x.var(correction=correction)
    out(y, torch.autograd.grad(y, x)[0])
