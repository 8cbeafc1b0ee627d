# CNN classifier: nn.Sequential, Dropout in eval, label smoothing, StepLR, argmax accuracy
rng = np.random.default_rng(0)
images = torch.tensor(rng.standard_normal((24, 1, 8, 8)), dtype=torch.float32)
labels = torch.tensor(rng.integers(0, 3, size=24))
train_set = torch.utils.data.TensorDataset(images[:16], labels[:16])
test_set = torch.utils.data.TensorDataset(images[16:], labels[16:])
train_loader = torch.utils.data.DataLoader(train_set, batch_size=4, shuffle=False)
test_loader = torch.utils.data.DataLoader(test_set, batch_size=4)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 4, 3, 1),
            nn.ReLU(),
            nn.Conv2d(4, 6, 3, 1),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Dropout(0.25),
        )
        self.classifier = nn.Sequential(
            nn.Flatten(),
            nn.Linear(6 * 2 * 2, 8),
            nn.ReLU(),
            nn.Dropout(0.5),
            nn.Linear(8, 3),
        )

    def forward(self, x):
        return F.log_softmax(self.classifier(self.features(x)), dim=1)


model = Net()
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.4, 0.4, tuple(p.shape))))
print(model)
criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
optimizer = torch.optim.Adadelta(model.parameters(), lr=1.0)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.7)


def test(model, loader):
    model.eval()
    test_loss, correct = 0.0, 0
    with torch.no_grad():
        for data, target in loader:
            output = model(data)
            test_loss += F.nll_loss(output, target, reduction="sum").item()
            pred = output.argmax(dim=1, keepdim=True)
            correct += pred.eq(target.view_as(pred)).sum().item()
    test_loss /= len(loader.dataset)
    print(
        f"Test set: Average loss: {test_loss:.4f}, Accuracy: {correct}/{len(loader.dataset)} "
        f"({100.0 * correct / len(loader.dataset):.0f}%)"
    )
    return test_loss, correct


for epoch in range(1, 3):
    # dropout draws differ between libraries, so training runs with it off (p is kept)
    model.train()
    for m in model.modules():
        if isinstance(m, nn.Dropout):
            m.eval()
    for batch_idx, (data, target) in enumerate(train_loader):
        optimizer.zero_grad()
        output = model(data)
        loss = criterion(output, target)
        loss.backward()
        optimizer.step()
        out(epoch, batch_idx, loss)
    out(test(model, test_loader), scheduler.get_last_lr())
    scheduler.step()
out(scheduler.get_last_lr(), optimizer.param_groups[0]["lr"], scheduler.state_dict())
out(model.training, model.classifier[3].training, model.classifier[3].p)
model.eval()
with torch.no_grad():
    a = model(images[:4])
    b = model(images[:4])
out(torch.equal(a, b), a.exp().sum(1))
# ---
# CrossEntropyLoss with label smoothing: class weights, ignore_index, probabilities as targets
logits = torch.tensor(
    [[2.0, -1.0, 0.5], [0.1, 0.2, 0.3], [-1.0, 3.0, 0.0], [0.0, 0.0, 5.0]], requires_grad=True
)
target = torch.tensor([0, 2, 1, -100])
weight = torch.tensor([1.0, 2.0, 0.5])
for reduction in ("mean", "sum", "none"):
    loss = nn.CrossEntropyLoss(
        weight=weight, ignore_index=-100, label_smoothing=0.2, reduction=reduction
    )(logits, target)
    out(reduction, loss)
loss = F.cross_entropy(logits, target, label_smoothing=0.2)
loss.backward()
out(loss, logits.grad)
probs = torch.tensor([[0.7, 0.2, 0.1], [0.0, 0.0, 1.0], [0.3, 0.3, 0.4], [0.1, 0.8, 0.1]])
out(F.cross_entropy(logits, probs, label_smoothing=0.1))
err(lambda: F.cross_entropy(logits, target, label_smoothing=1.5))
out((logits.argmax(dim=1) == torch.tensor([0, 2, 1, 2])).sum().item())
