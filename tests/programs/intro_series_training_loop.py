# "Training with PyTorch": a classifier loop reporting every few batches, validation and checkpoints
import io

torch.manual_seed(0)
training_set = torch.utils.data.TensorDataset(torch.randn(64, 1, 8, 8), torch.randint(0, 4, (64,)))
validation_set = torch.utils.data.TensorDataset(
    torch.randn(16, 1, 8, 8), torch.randint(0, 4, (16,))
)
training_loader = torch.utils.data.DataLoader(training_set, batch_size=4, shuffle=True)
validation_loader = torch.utils.data.DataLoader(validation_set, batch_size=4, shuffle=False)
classes = ("T-shirt/top", "Trouser", "Pullover", "Dress")
print(f"Training set has {len(training_set)} instances")
print(f"Validation set has {len(validation_set)} instances")
dataiter = iter(training_loader)
images, labels = next(dataiter)
print("  ".join(classes[labels[j]] for j in range(4)))


class GarmentClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 3)
        self.pool = nn.MaxPool2d(2, 2)
        self.fc1 = nn.Linear(6 * 3 * 3, 32)
        self.fc3 = nn.Linear(32, 4)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = x.view(-1, 6 * 3 * 3)
        x = F.relu(self.fc1(x))
        return self.fc3(x)


model = GarmentClassifier()
loss_fn = torch.nn.CrossEntropyLoss()
dummy_outputs = torch.rand(4, 4)
dummy_labels = torch.tensor([1, 2, 3, 0])
print(dummy_outputs)
print(dummy_labels)
loss = loss_fn(dummy_outputs, dummy_labels)
print(f"Total loss for this batch: {loss.item()}")
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)


def train_one_epoch(epoch_index):
    running_loss = 0.0
    last_loss = 0.0
    for i, data in enumerate(training_loader):
        inputs, labels = data
        optimizer.zero_grad()
        outputs = model(inputs)
        loss = loss_fn(outputs, labels)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        if i % 5 == 4:
            last_loss = running_loss / 5
            print(f"  batch {i + 1} loss: {last_loss}")
            tb_x = epoch_index * len(training_loader) + i + 1
            print(f"  Loss/train {last_loss:.6f} at {tb_x}")
            running_loss = 0.0
    return last_loss


EPOCHS = 2
best_vloss = 1_000_000.0
saved = {}
for epoch_number in range(EPOCHS):
    print(f"EPOCH {epoch_number + 1}:")
    model.train(True)
    avg_loss = train_one_epoch(epoch_number)
    running_vloss = 0.0
    model.eval()
    with torch.no_grad():
        for vdata in validation_loader:
            vinputs, vlabels = vdata
            voutputs = model(vinputs)
            vloss = loss_fn(voutputs, vlabels)
            running_vloss += vloss
    avg_vloss = running_vloss / len(validation_loader)
    print(f"LOSS train {avg_loss} valid {avg_vloss}")
    if avg_vloss < best_vloss:
        best_vloss = avg_vloss
        model_path = f"model_{epoch_number}"
        buffer = io.BytesIO()
        torch.save(model.state_dict(), buffer)
        saved[model_path] = buffer.getvalue()
print(sorted(saved), best_vloss)
saved_model = GarmentClassifier()
saved_model.load_state_dict(torch.load(io.BytesIO(saved[sorted(saved)[-1]])))
out(best_vloss, saved_model.fc3.bias)
