# what is torch.nn really: hand-written weights, log_softmax, NLL and no_grad updates
import math

rng = np.random.default_rng(0)
n, features, classes = 32, 10, 4
x_train = torch.tensor(rng.standard_normal((n, features)), dtype=torch.float32)
y_train = torch.tensor(rng.integers(0, classes, size=n))
x_valid = torch.tensor(rng.standard_normal((16, features)), dtype=torch.float32)
y_valid = torch.tensor(rng.integers(0, classes, size=16))
out(x_train.shape, y_train.min(), y_train.max())

weights = torch.tensor(rng.standard_normal((features, classes)), dtype=torch.float32)
weights = weights / math.sqrt(features)
weights.requires_grad_()
bias = torch.zeros(classes, requires_grad=True)
out(weights.is_leaf, weights.requires_grad, bias)


def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)


def model(xb):
    return log_softmax(xb @ weights + bias)


def nll(input, target):
    return -input[torch.arange(target.shape[0]), target].mean()


def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()


bs = 8
xb = x_train[0:bs]
preds = model(xb)
out(preds[0], preds.shape)
loss_func = nll
yb = y_train[0:bs]
out(loss_func(preds, yb), accuracy(preds, yb))

lr = 0.5
epochs = 2
for epoch in range(epochs):
    for i in range((n - 1) // bs + 1):
        start_i = i * bs
        end_i = start_i + bs
        xb = x_train[start_i:end_i]
        yb = y_train[start_i:end_i]
        pred = model(xb)
        loss = loss_func(pred, yb)
        loss.backward()
        with torch.no_grad():
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()
    out(epoch, loss)
out(loss_func(model(xb), yb), accuracy(model(xb), yb), weights.grad, bias)

# the same training with F.cross_entropy: identical numbers
loss_func = F.cross_entropy


def model(xb):
    return xb @ weights + bias


out(loss_func(model(xb), yb), accuracy(model(xb), yb))
# ---
# what is torch.nn really: nn.Module, nn.Linear, optim, TensorDataset and DataLoader
import math

rng = np.random.default_rng(0)
n, features, classes = 32, 10, 4
x_train = torch.tensor(rng.standard_normal((n, features)), dtype=torch.float32)
y_train = torch.tensor(rng.integers(0, classes, size=n))
x_valid = torch.tensor(rng.standard_normal((16, features)), dtype=torch.float32)
y_valid = torch.tensor(rng.integers(0, classes, size=16))
w0 = torch.tensor(rng.standard_normal((features, classes)), dtype=torch.float32)
w0 = w0 / math.sqrt(features)
loss_func = F.cross_entropy
bs, lr, epochs = 8, 0.5, 2


class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.weights = nn.Parameter(w0.clone())
        self.bias = nn.Parameter(torch.zeros(classes))

    def forward(self, xb):
        return xb @ self.weights + self.bias


class Mnist_Linear(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(features, classes)
        with torch.no_grad():
            self.lin.weight.copy_(w0.t())
            self.lin.bias.zero_()

    def forward(self, xb):
        return self.lin(xb)


def fit_manual(model):
    for _epoch in range(epochs):
        for i in range((n - 1) // bs + 1):
            xb, yb = x_train[i * bs : i * bs + bs], y_train[i * bs : i * bs + bs]
            loss = loss_func(model(xb), yb)
            loss.backward()
            with torch.no_grad():
                for p in model.parameters():
                    p -= p.grad * lr
                model.zero_grad()
    return loss


def loss_batch(model, loss_func, xb, yb, opt=None):
    loss = loss_func(model(xb), yb)
    if opt is not None:
        loss.backward()
        opt.step()
        opt.zero_grad()
    return loss.item(), len(xb)


def fit(epochs, model, loss_func, opt, train_dl, valid_dl):
    for epoch in range(epochs):
        model.train()
        for xb, yb in train_dl:
            loss_batch(model, loss_func, xb, yb, opt)
        model.eval()
        with torch.no_grad():
            losses, nums = zip(*[loss_batch(model, loss_func, xb, yb) for xb, yb in valid_dl])
        val_loss = np.sum(np.multiply(losses, nums)) / np.sum(nums)
        print(epoch, round(float(val_loss), 5))


a = fit_manual(Mnist_Logistic())
b = fit_manual(Mnist_Linear())
out(a, b, torch.allclose(a, b))

model = Mnist_Linear()
opt = torch.optim.SGD(model.parameters(), lr=lr)
train_ds = torch.utils.data.TensorDataset(x_train, y_train)
valid_ds = torch.utils.data.TensorDataset(x_valid, y_valid)
out(len(train_ds), train_ds[3])
train_dl = torch.utils.data.DataLoader(train_ds, batch_size=bs)
valid_dl = torch.utils.data.DataLoader(valid_ds, batch_size=bs * 2)
fit(epochs, model, loss_func, opt, train_dl, valid_dl)
out(model.lin.weight, model.lin.bias, loss_func(model(x_valid), y_valid))


class Lambda(nn.Module):
    def __init__(self, func):
        super().__init__()
        self.func = func

    def forward(self, x):
        return self.func(x)


def preprocess(x):
    return x.view(-1, 1, 2, 5)


cnn = nn.Sequential(
    Lambda(preprocess),
    nn.Conv2d(1, 4, kernel_size=(1, 3), stride=1, padding=(0, 1)),
    nn.ReLU(),
    nn.Conv2d(4, classes, kernel_size=(2, 3), stride=1, padding=(0, 1)),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    Lambda(lambda x: x.view(x.size(0), -1)),
)
with torch.no_grad():
    for p in cnn.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.4, 0.4, tuple(p.shape))))
opt = torch.optim.SGD(cnn.parameters(), lr=0.1, momentum=0.9)
fit(epochs, cnn, loss_func, opt, train_dl, valid_dl)
out(cnn(x_valid[:2]), [type(m).__name__ for m in cnn])
