# tabular regression: standardisation, random_split, DataLoader, early stopping on validation loss
import copy

torch.manual_seed(0)
n, d = 120, 5
X = torch.randn(n, d) * torch.tensor([1.0, 10.0, 0.1, 3.0, 1.0]) + torch.tensor(
    [0.0, 50.0, 0.0, -2.0, 1.0]
)
true_w = torch.tensor([1.5, -0.2, 8.0, 0.5, 0.0])
y = X @ true_w + 0.3 * torch.randn(n)
dataset = torch.utils.data.TensorDataset(X, y.unsqueeze(1))
gen = torch.Generator().manual_seed(42)
train_ds, val_ds, test_ds = torch.utils.data.random_split(dataset, [0.7, 0.15, 0.15], generator=gen)
print(len(train_ds), len(val_ds), len(test_ds))
print(train_ds.indices[:8])
train_X = torch.stack([train_ds[i][0] for i in range(len(train_ds))])
mean, std = train_X.mean(0), train_X.std(0)
print("mean", mean)
print("std ", std)


def normalise(batch_x):
    return (batch_x - mean) / std


train_loader = torch.utils.data.DataLoader(train_ds, batch_size=16, shuffle=True, generator=gen)
val_loader = torch.utils.data.DataLoader(val_ds, batch_size=32)
test_loader = torch.utils.data.DataLoader(test_ds, batch_size=32)
print(len(train_loader), len(val_loader))
model = nn.Sequential(
    nn.Linear(d, 32, bias=False), nn.BatchNorm1d(32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, 1)
)
criterion = nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=1e-4)
scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(
    optimizer, mode="min", factor=0.5, patience=1
)


def evaluate(loader):
    model.eval()
    total, count = 0.0, 0
    with torch.no_grad():
        for xb, yb in loader:
            pred = model(normalise(xb))
            total += criterion(pred, yb).item() * xb.size(0)
            count += xb.size(0)
    return total / count


best_loss, best_state, patience, bad_epochs = float("inf"), None, 3, 0
for epoch in range(12):
    model.train()
    running = 0.0
    for xb, yb in train_loader:
        optimizer.zero_grad()
        loss = criterion(model(normalise(xb)), yb)
        loss.backward()
        optimizer.step()
        running += loss.item() * xb.size(0)
    train_loss = running / len(train_ds)
    val_loss = evaluate(val_loader)
    scheduler.step(val_loss)
    lr = optimizer.param_groups[0]["lr"]
    print(f"epoch {epoch:2d} train {train_loss:9.4f} val {val_loss:9.4f} lr {lr:.4g}")
    if val_loss < best_loss - 1e-4:
        best_loss, bad_epochs = val_loss, 0
        best_state = copy.deepcopy(model.state_dict())
    else:
        bad_epochs += 1
        if bad_epochs >= patience:
            print(f"early stopping at epoch {epoch}")
            break
model.load_state_dict(best_state)
print(f"best val {best_loss:.4f} test {evaluate(test_loader):.4f}")
# the Linear before BatchNorm has no bias: its gradient would be rounding noise that Adam amplifies
print(list(best_state.keys()))
print(best_state["1.num_batches_tracked"], best_state["1.running_mean"].shape)
out(model[0].weight, model[1].running_var, model[4].bias)
# ---
# classification metrics under no_grad: argmax accuracy, bincount confusion matrix, recall
torch.manual_seed(1)
n_classes = 4
X = torch.randn(200, 6)
W_true = torch.randn(6, n_classes)
y = (X @ W_true + 0.5 * torch.randn(200, n_classes)).argmax(1)
print(torch.bincount(y, minlength=n_classes))
loader = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(X, y), batch_size=50, shuffle=True, drop_last=True
)
clf = nn.Sequential(nn.Linear(6, 16), nn.GELU(), nn.Linear(16, n_classes))
opt = torch.optim.SGD(clf.parameters(), lr=0.2, momentum=0.9, nesterov=True)
for epoch in range(4):
    correct = total = 0
    for xb, yb in loader:
        logits = clf(xb)
        loss = F.cross_entropy(logits, yb, label_smoothing=0.1)
        opt.zero_grad()
        loss.backward()
        opt.step()
        correct += (logits.argmax(dim=1) == yb).sum().item()
        total += yb.numel()
    print(f"epoch {epoch}: loss {loss.item():.4f} acc {100.0 * correct / total:.1f}%")
clf.eval()
with torch.no_grad():
    pred = clf(X).argmax(dim=1)
    acc = (pred == y).float().mean()
    conf = torch.bincount(y * n_classes + pred, minlength=n_classes**2).reshape(
        n_classes, n_classes
    )
    recall = conf.diag() / conf.sum(1).clamp(min=1)
    precision = conf.diag().float() / conf.sum(0).clamp(min=1)
print(conf)
print(f"accuracy {acc:.3f}")
print("recall", recall)
print("precision", precision)
f1 = 2 * precision * recall / (precision + recall + 1e-12)
print(f"macro F1 {f1.mean().item():.4f}")
out(acc, conf, recall, precision)
