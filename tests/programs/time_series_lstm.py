# time-series forecasting with an LSTM: NumPy scaling, sliding windows with unfold, a
# DataLoader over a TensorDataset, @torch.no_grad() and @torch.inference_mode() predictors
rng = np.random.default_rng(3)
t = np.arange(60, dtype=np.float64)
series = np.sin(t / 4.0) + 0.1 * t / 60.0
low, high = series.min(), series.max()
scaled = (series - low) / (high - low)
data = torch.from_numpy(scaled).float()
window = 8
windows = data.unfold(0, window + 1, 1)
inputs, targets = windows[:, :-1].unsqueeze(-1), windows[:, -1:]
out(windows.shape, inputs.shape, targets.shape, windows.is_contiguous())
n_train = int(len(inputs) * 0.8)
train = torch.utils.data.TensorDataset(inputs[:n_train], targets[:n_train])
test = torch.utils.data.TensorDataset(inputs[n_train:], targets[n_train:])
loader = torch.utils.data.DataLoader(train, batch_size=16, shuffle=False)


class Forecaster(nn.Module):
    def __init__(self, hidden=6):
        super().__init__()
        self.lstm = nn.LSTM(input_size=1, hidden_size=hidden, num_layers=2, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        output, (h_n, c_n) = self.lstm(x)
        return self.head(output[:, -1, :])


model = Forecaster()
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.4, 0.4, tuple(p.shape))))
optimizer = torch.optim.Adam(model.parameters(), lr=0.02)
loss_fn = nn.MSELoss()
for epoch in range(3):
    model.train()
    total = 0.0
    for xb, yb in loader:
        optimizer.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        total += loss.item() * len(xb)
    out(epoch, round(total / len(train), 5))


@torch.no_grad()
def evaluate(dataset):
    model.eval()
    xs, ys = dataset.tensors
    prediction = model(xs)
    return prediction, loss_fn(prediction, ys)


@torch.inference_mode()
def forecast(history, steps):
    model.eval()
    seq = history.clone()
    result = []
    for _ in range(steps):
        nxt = model(seq.view(1, -1, 1))
        result.append(nxt.item())
        seq = torch.cat([seq[1:], nxt.view(1)])
    return torch.tensor(result), seq.is_inference()


prediction, test_loss = evaluate(test)
out(prediction, test_loss, prediction.requires_grad, torch.is_grad_enabled())
future, inference = forecast(data[-window:], 4)
out(future * (high - low) + low, inference)
out(np.round(prediction.squeeze(1).numpy() * (high - low) + low, 4).tolist())
