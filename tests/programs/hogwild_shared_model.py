# mnist_hogwild's structure: a shared model, per-rank seeded training, then a test pass
from types import SimpleNamespace

torch_mp = torch.multiprocessing


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, kernel_size=3)
        self.conv2 = nn.Conv2d(4, 6, kernel_size=3)
        self.conv2_drop = nn.Dropout2d()
        self.fc1 = nn.Linear(6, 10)
        self.fc2 = nn.Linear(10, 3)

    def forward(self, x):
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = F.relu(F.max_pool2d(self.conv2_drop(self.conv2(x)), 2))
        x = x.view(-1, 6)
        x = F.relu(self.fc1(x))
        x = F.dropout(x, training=self.training)
        x = self.fc2(x)
        return F.log_softmax(x, dim=1)


def train(rank, args, model, device, dataset, dataloader_kwargs):
    torch.manual_seed(args.seed + rank)
    train_loader = torch.utils.data.DataLoader(dataset, **dataloader_kwargs)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=args.momentum)
    for epoch in range(1, args.epochs + 1):
        model.train()
        for batch_idx, (data, target) in enumerate(train_loader):
            optimizer.zero_grad()
            output = model(data.to(device))
            loss = F.nll_loss(output, target.to(device))
            loss.backward()
            optimizer.step()
            if batch_idx % args.log_interval == 0:
                print(
                    f"{rank}\tTrain Epoch: {epoch} [{batch_idx * len(data)}/{len(dataset)}]"
                    f"\tLoss: {loss.item():.6f}"
                )


def test(args, model, device, dataset, dataloader_kwargs):
    torch.manual_seed(args.seed)
    test_loader = torch.utils.data.DataLoader(dataset, **dataloader_kwargs)
    model.eval()
    test_loss, correct = 0, 0
    with torch.no_grad():
        for data, target in test_loader:
            output = model(data.to(device))
            test_loss += F.nll_loss(output, target.to(device), reduction="sum").item()
            pred = output.max(1)[1]
            correct += pred.eq(target.to(device)).sum().item()
    test_loss /= len(test_loader.dataset)
    print(
        f"\nTest set: Average loss: {test_loss:.4f}, Accuracy: {correct}/{len(test_loader.dataset)}"
    )


args = SimpleNamespace(seed=1, lr=0.05, momentum=0.5, epochs=2, log_interval=2, num_processes=2)
use_accel = torch.accelerator.is_available()
device = torch.accelerator.current_accelerator() if use_accel else torch.device("cpu")
print(device, torch_mp.get_sharing_strategy(), "spawn" in torch_mp.get_all_start_methods())
torch.manual_seed(args.seed)
images, labels = torch.randn(24, 1, 10, 10), torch.randint(0, 3, (24,))
dataset = torch.utils.data.TensorDataset(images, labels)
kwargs = {"batch_size": 6, "shuffle": True}
model = Net().to(device)
print(model.fc1.weight.is_shared())
model.share_memory()
print(all(p.is_shared() for p in model.parameters()), model.fc1.weight.grad)
for rank in range(args.num_processes):  # the example starts one process per rank here
    train(rank, args, model, device, dataset, kwargs)
test(args, model, device, dataset, kwargs)
print(model.fc1.weight.is_shared(), model.fc1.weight.grad.is_shared())
out(model.fc2.weight, model.conv1.bias.grad)
