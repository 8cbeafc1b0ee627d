# a regression loop that prepares its data with NumPy
# Features are standardised with NumPy, moved in with from_numpy, and the loop mixes
# tensors with NumPy arrays and scalars the way scripts do.
raw = np.array(
    [[1.0, 200.0, 3.0], [2.0, 180.0, 1.0], [3.0, 260.0, 2.0], [4.0, 240.0, 5.0], [5.0, 300.0, 4.0]]
)
mean, std = raw.mean(axis=0), raw.std(axis=0)
features = torch.from_numpy((raw - mean) / std).float()
target = torch.from_numpy(np.array([[1.5], [1.0], [2.5], [3.0], [4.0]], dtype=np.float32))
model = nn.Linear(3, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.1, -0.2, 0.3]]))
    model.bias.fill_(0.05)
opt = torch.optim.Adam(model.parameters(), lr=0.1)
history = []
for epoch in range(5):
    opt.zero_grad()
    pred = model(features)
    loss = ((pred - target) ** 2).mean()
    loss.backward()
    opt.step()
    history.append(loss.item())
    print(f"epoch {epoch} loss {loss.item():.4f}")
losses = np.array(history)
out(model.weight, model.bias, float(losses.min()), bool(np.all(np.diff(losses) < 0)))
with torch.no_grad():
    pred_np = model(features).numpy()
residual = pred_np - target.numpy()
out(float(np.abs(residual).max()) < 2.0, pred_np.shape, residual.dtype.name)
# ---
# tensors in NumPy expressions and NumPy functions on tensors
t = torch.tensor([1.0, 2.0, 3.0])
a = np.array([0.5, 1.5, 2.5])
s = t + a  # NumPy adds: the result comes back as a float64 tensor
out(s, t * a.astype(np.float32), t / a, a / t, t @ a)
out(t == np.array([1.0, 2.0, 5.0]), np.exp(t), np.maximum(t, 2.0), np.isnan(t))
out(np.sum(t.numpy()), np.asarray(t), np.concatenate([t, t]), np.float64(2) * t)
print(type(np.exp(t)).__name__, type(np.asarray(t)).__name__, np.asarray(t).dtype)
# ---
# arrays where tensors belong: torch's TypeError names the argument
lin = nn.Linear(3, 2)
err(lambda: lin(np.ones(3, dtype=np.float32)))
err(lambda: torch.exp(np.ones(2)))
err(lambda: F.relu(np.ones(2)))
err(lambda: torch.cat([np.ones(2)]))
err(lambda: nn.Embedding(4, 2)(np.array([1, 2])))
err(lambda: torch.ones(2, requires_gard=True))
err(lambda: torch.zeros_like(torch.ones(2), like=True))
out(lin(torch.from_numpy(np.ones(3, dtype=np.float32))).shape)
