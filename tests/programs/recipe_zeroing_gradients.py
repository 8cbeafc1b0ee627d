# "Zeroing out gradients" recipe: a small CNN trained with and without zero_grad, accumulation
torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 4, 3)
        self.pool = nn.MaxPool2d(2, 2)
        self.fc1 = nn.Linear(4 * 3 * 3, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = x.view(-1, 4 * 3 * 3)
        return self.fc1(x)


net = Net()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
inputs = torch.randn(8, 3, 8, 8)
labels = torch.randint(0, 10, (8,))
for epoch in range(2):
    running_loss = 0.0
    for i in range(4):
        batch, target = inputs[2 * i : 2 * i + 2], labels[2 * i : 2 * i + 2]
        optimizer.zero_grad()
        outputs = net(batch)
        loss = criterion(outputs, target)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        if i % 2 == 1:
            print(f"[{epoch + 1}, {i + 1:5d}] loss: {running_loss / 2:.3f}")
            running_loss = 0.0
print("Finished Training")
print(net.conv1.weight.grad is None, net.fc1.bias.grad.shape)
optimizer.zero_grad(set_to_none=False)
print(net.fc1.bias.grad)
optimizer.zero_grad()
print(net.fc1.bias.grad)
# without zeroing, grads add up
for _ in range(2):
    criterion(net(inputs[:2]), labels[:2]).backward()
twice = net.fc1.bias.grad.clone()
net.zero_grad()
criterion(net(inputs[:2]), labels[:2]).backward()
out(torch.allclose(twice, 2 * net.fc1.bias.grad), twice)
for p in net.parameters():
    p.grad = None
print([p.grad for p in net.parameters()])
net.fc1.bias.grad = torch.zeros(10)
net.fc1.bias.grad.requires_grad_(False)
net.zero_grad(set_to_none=False)
print(net.fc1.bias.grad, net.conv1.bias.grad)
err(lambda: setattr(net.fc1.bias, "grad", torch.zeros(3)))
err(lambda: setattr(net.fc1.bias, "grad", torch.zeros(10, dtype=torch.float64)))
