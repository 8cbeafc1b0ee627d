# From scratch: Xavier-scaled weights, hand-written log_softmax, NLL via x[range(n), y], accuracy
import math

x_train = torch.randn(256, 64)
y_train = (x_train[:, :10].argmax(dim=1)).long()
weights = torch.randn(64, 10) / math.sqrt(64)
weights.requires_grad_()
bias = torch.zeros(10, requires_grad=True)


def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)


def model(xb):
    return log_softmax(xb @ weights + bias)


def nll(input, target):
    return -input[range(target.shape[0]), target].mean()


def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()


bs = 32
preds = model(x_train[0:bs])
print(preds[0].shape, preds.grad_fn.name())
loss_func = nll
print(f"{loss_func(preds, y_train[0:bs]).item():.5f}", f"{accuracy(preds, y_train[0:bs]):.4f}")
lr = 0.5
n = x_train.shape[0]
for _epoch in range(2):
    for i in range((n - 1) // bs + 1):
        start_i = i * bs
        end_i = start_i + bs
        xb = x_train[start_i:end_i]
        yb = y_train[start_i:end_i]
        loss = loss_func(model(xb), yb)
        loss.backward()
        with torch.no_grad():
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()
print(f"{loss_func(model(x_train), y_train).item():.5f}", accuracy(model(x_train), y_train))
out(weights, bias, loss)
# ---
# The same model refactored: F.cross_entropy, nn.Module with Parameters, then nn.Linear + optim
import math

x_train = torch.randn(200, 20)
y_train = (x_train[:, :4].sum(1) > 0).long() + (x_train[:, 4] > 1).long()
loss_func = F.cross_entropy


class MnistLogistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.weights = nn.Parameter(torch.randn(20, 3) / math.sqrt(20))
        self.bias = nn.Parameter(torch.zeros(3))

    def forward(self, xb):
        return xb @ self.weights + self.bias


model = MnistLogistic()
print(f"{loss_func(model(x_train[:16]), y_train[:16]).item():.5f}")


def fit(model, epochs=2, bs=25, lr=0.3):
    for _epoch in range(epochs):
        for i in range((len(x_train) - 1) // bs + 1):
            xb = x_train[i * bs : i * bs + bs]
            yb = y_train[i * bs : i * bs + bs]
            loss = loss_func(model(xb), yb)
            loss.backward()
            with torch.no_grad():
                for p in model.parameters():
                    p -= p.grad * lr
                model.zero_grad()
    return loss


last = fit(model)
print(f"{loss_func(model(x_train), y_train).item():.5f}")


class MnistLinear(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(20, 3)

    def forward(self, xb):
        return self.lin(xb)


model2 = MnistLinear()
opt = torch.optim.SGD(model2.parameters(), lr=0.3)
for _epoch in range(2):
    for i in range(8):
        xb, yb = x_train[i * 25 : i * 25 + 25], y_train[i * 25 : i * 25 + 25]
        loss = loss_func(model2(xb), yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
print(f"{loss_func(model2(x_train), y_train).item():.5f}", model2.lin.weight.grad)
out(last, *model.parameters(), *model2.parameters())
# ---
# TensorDataset + DataLoader, validation under no_grad, loss_batch, a numpy weighted mean
DataLoader, TensorDataset = torch.utils.data.DataLoader, torch.utils.data.TensorDataset

x_train, x_valid = torch.randn(120, 12), torch.randn(40, 12)
w_true = torch.randn(12, 4)
y_train, y_valid = (x_train @ w_true).argmax(1), (x_valid @ w_true).argmax(1)
train_ds = TensorDataset(x_train, y_train)
valid_ds = TensorDataset(x_valid, y_valid)
print(len(train_ds), [t.shape for t in train_ds[0:3]])


def get_data(train_ds, valid_ds, bs):
    return (
        DataLoader(train_ds, batch_size=bs, shuffle=True),
        DataLoader(valid_ds, batch_size=bs * 2),
    )


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
        print(epoch, f"{val_loss:.5f}", nums)


train_dl, valid_dl = get_data(train_ds, valid_ds, 16)
model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
fit(3, model, F.cross_entropy, opt, train_dl, valid_dl)
out(*model.parameters())
# ---
# A CNN: view to images, conv + relu, avg_pool2d, Sequential with a Lambda layer, a wrapped loader
DataLoader, TensorDataset = torch.utils.data.DataLoader, torch.utils.data.TensorDataset


class MnistCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, kernel_size=3, stride=2, padding=1)
        self.conv2 = nn.Conv2d(4, 4, kernel_size=3, stride=2, padding=1)
        self.conv3 = nn.Conv2d(4, 3, kernel_size=3, stride=2, padding=1)

    def forward(self, xb):
        xb = xb.view(-1, 1, 16, 16)
        xb = F.relu(self.conv1(xb))
        xb = F.relu(self.conv2(xb))
        xb = F.relu(self.conv3(xb))
        xb = F.avg_pool2d(xb, 2)
        return xb.view(-1, xb.size(1))


class Lambda(nn.Module):
    def __init__(self, func):
        super().__init__()
        self.func = func

    def forward(self, x):
        return self.func(x)


def preprocess(x, y):
    return x.view(-1, 1, 16, 16), y


class WrappedDataLoader:
    def __init__(self, dl, func):
        self.dl = dl
        self.func = func

    def __len__(self):
        return len(self.dl)

    def __iter__(self):
        for b in self.dl:
            yield self.func(*b)


x = torch.rand(48, 256)
y = torch.randint(0, 3, (48,))
ds = TensorDataset(x, y)
cnn = MnistCNN()
opt = torch.optim.SGD(cnn.parameters(), lr=0.1, momentum=0.9)
for xb, yb in DataLoader(ds, batch_size=16):
    loss = F.cross_entropy(cnn(xb), yb)
    loss.backward()
    opt.step()
    opt.zero_grad()
print(f"{loss.item():.5f}", cnn(x[:2]).shape)
seq = nn.Sequential(
    nn.Conv2d(1, 4, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.Conv2d(4, 3, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    Lambda(lambda x: x.view(x.size(0), -1)),
)
print(seq)
wdl = WrappedDataLoader(DataLoader(ds, batch_size=12, shuffle=True), preprocess)
opt2 = torch.optim.SGD(seq.parameters(), lr=0.1, momentum=0.9)
print(len(wdl))
for xb, yb in wdl:
    loss2 = F.cross_entropy(seq(xb), yb)
    loss2.backward()
    opt2.step()
    opt2.zero_grad()
out(loss, loss2, *cnn.parameters(), *seq.parameters())
