# micrograd's torch reference checks: legacy Tensor([..]).double(), .data.item(), scalar graphs
x = torch.Tensor([-4.0]).double()
x.requires_grad = True
z = 2 * x + 2 + x
q = z.relu() + z * x
h = (z * z).relu()
y = h + q + q * x
y.backward()
xpt, ypt = x, y
print(ypt.data.item(), xpt.grad.item(), type(x).__name__, x.dtype, x.is_leaf)
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
print(f"{g.data.item():.6f}", f"{a.grad.item():.6f}", f"{b.grad.item():.6f}")
print(abs(g.data.item() - 24.70408163265306) < tol, abs(a.grad.item() - 138.83381924198252) < tol)
print(
    torch.Tensor(2, 3).shape,
    torch.Tensor([[1, 2]]).dtype,
    torch.Tensor().shape,
    torch.DoubleTensor([1]).dtype,
)
out(y, x.grad, g, a.grad, b.grad)
# ---
# a tiny MLP in the micrograd style trained with torch: hinge loss, L2 regularisation, manual SGD
torch.manual_seed(1337)
X = torch.randn(20, 2, dtype=torch.float64)
y = torch.where(X[:, 0] * X[:, 1] > 0, 1.0, -1.0).double()
model = nn.Sequential(
    nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 1)
).double()
print("number of parameters", sum(p.numel() for p in model.parameters()))
for k in range(8):
    scores = model(X).squeeze(1)
    losses = (1 + -y * scores).relu()
    data_loss = losses.mean()
    reg_loss = 1e-4 * sum((p * p).sum() for p in model.parameters())
    total_loss = data_loss + reg_loss
    accuracy = ((y > 0) == (scores > 0)).double().mean()
    model.zero_grad()
    total_loss.backward()
    learning_rate = 1.0 - 0.9 * k / 100
    for p in model.parameters():
        p.data -= learning_rate * p.grad
    print(f"step {k} loss {total_loss.item():.6f}, accuracy {accuracy.item() * 100:.1f}%")
out(total_loss, *model.parameters())
