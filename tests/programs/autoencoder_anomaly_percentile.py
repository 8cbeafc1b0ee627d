# autoencoder anomaly detection: reconstruction errors thresholded with np.percentile
torch.manual_seed(0)
rng = np.random.default_rng(0)
normal = rng.normal(0, 1, size=(64, 6)).astype(np.float32)
anomalies = rng.normal(4, 1, size=(6, 6)).astype(np.float32)
mean, std = normal.mean(axis=0), normal.std(axis=0)
scale = lambda a: (a - mean) / std
train = torch.from_numpy(scale(normal))
model = nn.Sequential(nn.Linear(6, 3), nn.Tanh(), nn.Linear(3, 6))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
loader = torch.utils.data.DataLoader(train, batch_size=16, shuffle=True)
history = []
for epoch in range(5):
    total = 0.0
    for xb in loader:
        loss = F.mse_loss(model(xb), xb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * xb.size(0)
    history.append(total / len(train))
    print(f"epoch {epoch + 1}: {history[-1]:.5f}")
model.eval()
with torch.no_grad():
    test = torch.tensor(np.vstack([scale(normal[:10]), scale(anomalies)]))
    errors = ((model(test) - test) ** 2).mean(dim=1).numpy()
    train_err = ((model(train) - train) ** 2).mean(dim=1).numpy()
threshold = np.percentile(train_err, 95)
labels = np.r_[np.zeros(10), np.ones(6)]
pred = (errors > threshold).astype(int)
tp = int(((pred == 1) & (labels == 1)).sum())
fp = int(((pred == 1) & (labels == 0)).sum())
print(f"threshold {threshold:.4f} tp {tp} fp {fp} precision {tp / max(tp + fp, 1):.3f}")
print(np.round(errors, 3), np.argsort(errors)[-3:], f"{np.mean(history):.6f}")
err_t = torch.from_numpy(errors)
print(err_t.topk(3).indices, torch.quantile(torch.from_numpy(train_err), 0.95), err_t > threshold)
