# hyperparameter tuning without a library: random search, splits, plateau schedules, best state
import copy
import random

random.seed(0)
torch.manual_seed(0)
X = torch.randn(120, 6)
true_w = torch.randn(6, 3)
y = (X @ true_w + 0.1 * torch.randn(120, 3)).argmax(dim=1)
dataset = torch.utils.data.TensorDataset(X, y)
generator = torch.Generator().manual_seed(42)
train_set, val_set = torch.utils.data.random_split(dataset, [0.75, 0.25], generator=generator)
print(len(train_set), len(val_set), train_set.indices[:5])


class Net(nn.Module):
    def __init__(self, l1=16, l2=8):
        super().__init__()
        self.fc1 = nn.Linear(6, l1)
        self.fc2 = nn.Linear(l1, l2)
        self.fc3 = nn.Linear(l2, 3)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


def train_and_validate(config, epochs=4):
    torch.manual_seed(config["seed"])
    net = Net(config["l1"], config["l2"])
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(net.parameters(), lr=config["lr"], momentum=0.9)
    scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(
        optimizer, mode="min", factor=0.5, patience=0
    )
    trainloader = torch.utils.data.DataLoader(
        train_set,
        batch_size=config["batch_size"],
        shuffle=True,
        generator=torch.Generator().manual_seed(0),
    )
    valloader = torch.utils.data.DataLoader(val_set, batch_size=config["batch_size"])
    best = (float("inf"), None, 0.0)
    for _ in range(epochs):
        net.train()
        for inputs, labels in trainloader:
            optimizer.zero_grad()
            loss = criterion(net(inputs), labels)
            loss.backward()
            optimizer.step()
        net.eval()
        val_loss, correct, total = 0.0, 0, 0
        with torch.no_grad():
            for inputs, labels in valloader:
                outputs = net(inputs)
                val_loss += criterion(outputs, labels).item() * len(labels)
                correct += (outputs.argmax(1) == labels).sum().item()
                total += labels.size(0)
        val_loss /= total
        scheduler.step(val_loss)
        if val_loss < best[0]:
            best = (val_loss, copy.deepcopy(net.state_dict()), correct / total)
    return best, optimizer.param_groups[0]["lr"]


results = []
for trial in range(4):
    config = {
        "l1": 2 ** random.randint(2, 5),
        "l2": 2 ** random.randint(2, 4),
        "lr": 10 ** random.uniform(-3, -1),
        "batch_size": random.choice([8, 16, 32]),
        "seed": trial,
    }
    (loss, state, acc), last_lr = train_and_validate(config)
    results.append((loss, trial, config, state))
    print(
        f"trial {trial}: l1={config['l1']} l2={config['l2']} lr={config['lr']:.4f} "
        f"bs={config['batch_size']} -> val loss {loss:.4f} acc {acc:.3f} final lr {last_lr:.5f}"
    )
best_loss, best_trial, best_config, best_state = min(results, key=lambda r: r[0])
print(f"Best trial {best_trial} config: {best_config['l1']}, {best_config['l2']}")
best_net = Net(best_config["l1"], best_config["l2"])
best_net.load_state_dict(best_state)
with torch.no_grad():
    test_acc = (best_net(X).argmax(1) == y).float().mean()
print(f"Best trial whole-set accuracy: {test_acc.item():.3f}")
out(best_loss, best_net.fc3.bias)
