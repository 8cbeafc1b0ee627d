# a custom autograd.Function (LegendrePolynomial3) fitted to sin with hand-written SGD
import math


class LegendrePolynomial3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input**3 - 3 * input)

    @staticmethod
    def backward(ctx, grad_output):
        (input,) = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input**2 - 1)


dtype = torch.float
x = torch.linspace(-math.pi, math.pi, 200, dtype=dtype)
y = torch.sin(x)
a = torch.full((), 0.0, dtype=dtype, requires_grad=True)
b = torch.full((), -1.0, dtype=dtype, requires_grad=True)
c = torch.full((), 0.0, dtype=dtype, requires_grad=True)
d = torch.full((), 0.3, dtype=dtype, requires_grad=True)
learning_rate = 5e-6
for t in range(300):
    P3 = LegendrePolynomial3.apply
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        out(t, loss.item())
    loss.backward()
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad
        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None
out(a, b, c, d, type(y_pred.grad_fn).__name__, type(P3(x).grad_fn).__name__)
out(torch.autograd.gradcheck(LegendrePolynomial3.apply, (x[:5].double().requires_grad_(),)))


# ---
# a straight-through quantizer Function and gradient-clipping hooks in a training loop
class RoundSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input, scale):
        ctx.mark_non_differentiable(scale)
        return torch.round(input * scale) / scale

    @staticmethod
    def backward(ctx, grad_output):
        out(ctx.needs_input_grad)
        return grad_output, None


class QuantMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 6)
        self.fc2 = nn.Linear(6, 1)
        self.scale = torch.tensor(4.0)

    def forward(self, x):
        h = torch.relu(self.fc1(x))
        return self.fc2(RoundSTE.apply(h, self.scale))


rng = np.random.default_rng(3)
model = QuantMLP()
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.tensor(rng.uniform(-1, 1, tuple(p.shape))))
clipped = []
for name, p in model.named_parameters():
    # clamp each gradient element as it is computed, before it reaches .grad
    p.register_hook(lambda grad, name=name: (clipped.append(name), grad.clamp(-0.1, 0.1))[1])
x = torch.tensor(rng.standard_normal((10, 3)), dtype=torch.float32)
y = torch.tensor(rng.standard_normal((10, 1)), dtype=torch.float32)
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
for step in range(3):
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    out(step, loss, max(p.grad.abs().max().item() for p in model.parameters()))
    optimizer.step()
out(clipped[:4], len(clipped), model.fc1.weight.grad.clone())
# a hook on an intermediate tensor sees and can rescale its gradient
h = model.fc1(x)
h.register_hook(lambda g: g * 0.5)
seen = []
h.register_hook(lambda g: seen.append(g.abs().sum()))
model.fc2(torch.relu(h)).sum().backward()
out(seen, model.fc1.bias.grad)


# ---
# activation checkpointing: torch.utils.checkpoint in a model, equal values and gradients
class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(width, width), nn.GELU(), nn.Linear(width, width))
        self.norm = nn.LayerNorm(width)

    def forward(self, x):
        return self.norm(x + self.net(x))


class Deep(nn.Module):
    def __init__(self, use_checkpoint):
        super().__init__()
        self.blocks = nn.ModuleList([Block(5) for _ in range(3)])
        self.head = nn.Linear(5, 2)
        self.use_checkpoint = use_checkpoint

    def forward(self, x):
        for block in self.blocks:
            if self.use_checkpoint:
                x = torch.utils.checkpoint.checkpoint(block, x, use_reentrant=False)
            else:
                x = block(x)
        return self.head(x)


results = []
for use_checkpoint in (False, True):
    rng = np.random.default_rng(6)
    model = Deep(use_checkpoint)
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.tensor(rng.uniform(-0.6, 0.6, tuple(p.shape))))
    x = torch.tensor(rng.standard_normal((4, 5)), dtype=torch.float32, requires_grad=True)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    for _ in range(2):
        optimizer.zero_grad()
        y = model(x)
        loss = y.pow(2).mean()
        loss.backward()
        optimizer.step()
    results.append((loss, x.grad, model.blocks[0].net[0].weight.grad))
    out(use_checkpoint, loss, x.grad)
out([torch.allclose(a, b, atol=1e-6) for a, b in zip(*results)])
seq = nn.Sequential(*[nn.Linear(5, 5) for _ in range(4)])
with torch.no_grad():
    for p in seq.parameters():
        p.copy_(torch.tensor(np.random.default_rng(7).uniform(-0.5, 0.5, tuple(p.shape))))
inp = torch.ones(2, 5, requires_grad=True)
y = torch.utils.checkpoint.checkpoint_sequential(seq, 2, inp, use_reentrant=False)
y.sum().backward()
out(y, inp.grad)
