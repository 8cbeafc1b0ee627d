# Polynomial fit with tensors: hand-written forward and backward, weights updated in place
import math

dtype = torch.float
x = torch.linspace(-math.pi, math.pi, 200, dtype=dtype)
y = torch.sin(x)
a = torch.randn((), dtype=dtype)
b = torch.randn((), dtype=dtype)
c = torch.randn((), dtype=dtype)
d = torch.randn((), dtype=dtype)
learning_rate = 1e-6
for t in range(300):
    y_pred = a + b * x + c * x**2 + d * x**3
    loss = (y_pred - y).pow(2).sum().item()
    if t % 100 == 99:
        print(t, round(loss, 3))
    grad_y_pred = 2.0 * (y_pred - y)
    grad_a = grad_y_pred.sum()
    grad_b = (grad_y_pred * x).sum()
    grad_c = (grad_y_pred * x**2).sum()
    grad_d = (grad_y_pred * x**3).sum()
    a -= learning_rate * grad_a
    b -= learning_rate * grad_b
    c -= learning_rate * grad_c
    d -= learning_rate * grad_d
print(f"Result: y = {a.item():.4f} + {b.item():.4f} x + {c.item():.4f} x^2 + {d.item():.4f} x^3")
out(a, b, c, d)
# ---
# Polynomial fit with autograd: requires_grad scalars, updates under no_grad, grad = None
import math

x = torch.linspace(-math.pi, math.pi, 200)
y = torch.sin(x)
a = torch.randn((), requires_grad=True)
b = torch.randn((), requires_grad=True)
c = torch.randn((), requires_grad=True)
d = torch.randn((), requires_grad=True)
learning_rate = 1e-6
for t in range(300):
    y_pred = a + b * x + c * x**2 + d * x**3
    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        print(t, f"{loss.item():.3f}")
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
print(a.is_leaf, a.requires_grad, loss.grad_fn.name())
out(a, b, c, d, loss)
# ---
# Custom autograd.Function: the Legendre polynomial P3 with its hand-written derivative
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


x = torch.linspace(-math.pi, math.pi, 200, dtype=torch.float64)
y = torch.sin(x)
a = torch.full((), 0.0, dtype=torch.float64, requires_grad=True)
b = torch.full((), -1.0, dtype=torch.float64, requires_grad=True)
c = torch.full((), 0.0, dtype=torch.float64, requires_grad=True)
d = torch.full((), 0.3, dtype=torch.float64, requires_grad=True)
learning_rate = 5e-6
for t in range(200):
    P3 = LegendrePolynomial3.apply
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    if t % 50 == 49:
        print(t, f"{loss.item():.6f}")
    loss.backward()
    with torch.no_grad():
        for p in (a, b, c, d):
            p -= learning_rate * p.grad
            p.grad.zero_()
print(type(y_pred.grad_fn).__name__)
# a and c stay within 1e-18 of zero, where the summation order decides the sign
print(
    f"Result: y = {b.item():.6f} * P3({d.item():.6f} x)",
    abs(a.item()) < 1e-12,
    abs(c.item()) < 1e-12,
)
xx = torch.randn(5, dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(LegendrePolynomial3.apply, (xx,)))
out(a, b, c, d)
# ---
# Polynomial fit with nn: unsqueeze + pow to build features, Sequential with Flatten(0, 1), RMSprop
import math

x = torch.linspace(-math.pi, math.pi, 200)
y = torch.sin(x)
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
print(xx.shape)
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
loss_fn = torch.nn.MSELoss(reduction="sum")
optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
for t in range(300):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 100 == 99:
        print(t, round(loss.item(), 2))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
linear_layer = model[0]
print(
    f"Result: y = {linear_layer.bias.item():.5f} + {linear_layer.weight[:, 0].item():.5f} x"
    f" + {linear_layer.weight[:, 1].item():.5f} x^2 + {linear_layer.weight[:, 2].item():.5f} x^3"
)
print(model)
out(linear_layer.weight, linear_layer.bias)
# ---
# Dynamic graphs: a module that reuses its fifth weight a random number of times per call
import math
import random

random.seed(0)


class DynamicNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.randn(()))
        self.b = torch.nn.Parameter(torch.randn(()))
        self.c = torch.nn.Parameter(torch.randn(()))
        self.d = torch.nn.Parameter(torch.randn(()))
        self.e = torch.nn.Parameter(torch.randn(()))

    def forward(self, x):
        y = self.a + self.b * x + self.c * x**2 + self.d * x**3
        for exp in range(4, random.randint(4, 6)):
            y = y + self.e * x**exp
        return y

    def string(self):
        return (
            f"y = {self.a.item():.4f} + {self.b.item():.4f} x + {self.c.item():.4f} x^2"
            f" + {self.d.item():.4f} x^3 + {self.e.item():.4f} x^4 ? + {self.e.item():.4f} x^5 ?"
        )


x = torch.linspace(-math.pi, math.pi, 200)
y = torch.sin(x)
model = DynamicNet()
criterion = torch.nn.MSELoss(reduction="sum")
optimizer = torch.optim.SGD(model.parameters(), lr=1e-8, momentum=0.9)
for t in range(400):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    if t % 100 == 99:
        print(t, f"{loss.item():.0f}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f"Result: {model.string()}")
print([n for n, _ in model.named_parameters()])
out(*model.parameters())
