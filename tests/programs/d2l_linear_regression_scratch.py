# d2l-style linear regression from scratch: synthetic data, data_iter generator, sgd update
import random

random.seed(0)
torch.manual_seed(0)


def synthetic_data(w, b, num_examples):
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))


true_w, true_b = torch.tensor([2, -3.4]), 4.2
features, labels = synthetic_data(true_w, true_b, 100)
print("features:", features[0], "\nlabel:", labels[0])


def data_iter(batch_size, features, labels):
    num_examples = len(features)
    indices = list(range(num_examples))
    random.shuffle(indices)
    for i in range(0, num_examples, batch_size):
        batch_indices = torch.tensor(indices[i : min(i + batch_size, num_examples)])
        yield features[batch_indices], labels[batch_indices]


w = torch.normal(0, 0.01, size=(2, 1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)


def linreg(X, w, b):
    return torch.matmul(X, w) + b


def squared_loss(y_hat, y):
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2


def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


lr, num_epochs, batch_size = 0.03, 3, 10
for epoch in range(num_epochs):
    for X, y in data_iter(batch_size, features, labels):
        l = squared_loss(linreg(X, w, b), y)  # noqa: E741
        l.sum().backward()
        sgd([w, b], lr, batch_size)
    with torch.no_grad():
        train_l = squared_loss(linreg(features, w, b), labels)
        print(f"epoch {epoch + 1}, loss {float(train_l.mean()):.5f}")
print(f"w error: {true_w - w.reshape(true_w.shape)}")
print(f"b error: {true_b - b}")
net = nn.Sequential(nn.Linear(2, 1))
net[0].weight.data.normal_(0, 0.01)
net[0].bias.data.fill_(0)
dataset = torch.utils.data.TensorDataset(*(features, labels))
loader = torch.utils.data.DataLoader(dataset, batch_size, shuffle=True)
trainer = torch.optim.SGD(net.parameters(), lr=0.03)
loss = nn.MSELoss()
for epoch in range(2):
    for X, y in loader:
        l = loss(net(X), y)  # noqa: E741
        trainer.zero_grad()
        l.backward()
        trainer.step()
    l = loss(net(features), labels)  # noqa: E741
    print(f"epoch {epoch + 1}, loss {l:.5f}")
print(net[0].weight.data, net[0].bias.data)
