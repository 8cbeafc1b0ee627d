# CS231n PyTorch notebook: a barebones three-layer ConvNet with manual SGD and accuracy checks
USE_GPU = True
dtype = torch.float32
if USE_GPU and torch.cuda.is_available():
    device = torch.device("cuda")
else:
    device = torch.device("cpu")
print_every = 2
print("using device:", device)


def flatten(x):
    N = x.shape[0]
    return x.view(N, -1)


x = torch.arange(12).view(2, 1, 3, 2)
print("Before flattening: ", x)
print("After flattening: ", flatten(x))


def three_layer_convnet(x, params):
    conv_w1, conv_b1, conv_w2, conv_b2, fc_w, fc_b = params
    x = F.relu(F.conv2d(x, conv_w1, conv_b1, padding=2))
    x = F.relu(F.conv2d(x, conv_w2, conv_b2, padding=1))
    x = flatten(x)
    return x.mm(fc_w) + fc_b


def random_weight(shape):
    if len(shape) == 2:
        fan_in = shape[0]
    else:
        fan_in = np.prod(shape[1:])
    w = torch.randn(shape, device=device, dtype=dtype) * np.sqrt(2.0 / fan_in)
    w.requires_grad = True
    return w


def zero_weight(shape):
    return torch.zeros(shape, device=device, dtype=dtype, requires_grad=True)


print(random_weight((3, 5)))
H = W = 8
channel_1, channel_2, num_classes = 6, 4, 10
params = [
    random_weight((channel_1, 3, 5, 5)),
    zero_weight((channel_1,)),
    random_weight((channel_2, channel_1, 3, 3)),
    zero_weight((channel_2,)),
    random_weight((channel_2 * H * W, num_classes)),
    zero_weight((num_classes,)),
]
images = torch.randn(20, 3, H, W, dtype=dtype)
labels = torch.randint(0, num_classes, (20,))
scores = three_layer_convnet(images[:4], params)
print(scores.size())


def check_accuracy_part2(params):
    num_correct, num_samples = 0, 0
    with torch.no_grad():
        for t in range(0, 20, 10):
            x, y = images[t : t + 10], labels[t : t + 10]
            scores = three_layer_convnet(x, params)
            _, preds = scores.max(1)
            num_correct += (preds == y).sum()
            num_samples += preds.size(0)
        acc = float(num_correct) / num_samples
        print(f"Got {num_correct} / {num_samples} correct ({100 * acc:.2f}%)")
    return acc


def train_part2(model_fn, params, learning_rate):
    for t in range(6):
        x, y = images[t * 3 : t * 3 + 4], labels[t * 3 : t * 3 + 4]
        scores = model_fn(x, params)
        loss = F.cross_entropy(scores, y)
        loss.backward()
        with torch.no_grad():
            for w in params:
                w -= learning_rate * w.grad
                w.grad.zero_()
        if t % print_every == 0:
            print(f"Iteration {t}, loss = {loss.item():.4f}")
            check_accuracy_part2(params)


train_part2(three_layer_convnet, params, 3e-3)
out(*params[:2])
# ---
# CS231n PyTorch notebook part III/IV: an nn.Module ConvNet with kaiming init, then nn.Sequential
dtype, device = torch.float32, torch.device("cpu")


class ThreeLayerConvNet(nn.Module):
    def __init__(self, in_channel, channel_1, channel_2, num_classes):
        super().__init__()
        self.conv1 = nn.Conv2d(in_channel, channel_1, 5, padding=2)
        nn.init.kaiming_normal_(self.conv1.weight)
        nn.init.constant_(self.conv1.bias, 0)
        self.conv2 = nn.Conv2d(channel_1, channel_2, 3, padding=1)
        nn.init.kaiming_normal_(self.conv2.weight)
        nn.init.constant_(self.conv2.bias, 0)
        self.fc = nn.Linear(channel_2 * 8 * 8, num_classes)
        nn.init.kaiming_normal_(self.fc.weight)
        nn.init.constant_(self.fc.bias, 0)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        return self.fc(x.flatten(1))


images = torch.randn(16, 3, 8, 8, dtype=dtype)
labels = torch.randint(0, 10, (16,))
loader = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(images, labels),
    batch_size=4,
    sampler=torch.utils.data.sampler.SubsetRandomSampler(range(12)),
)
loader_val = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(images, labels),
    batch_size=4,
    sampler=torch.utils.data.sampler.SubsetRandomSampler(range(12, 16)),
)


def check_accuracy_part34(loader, model):
    num_correct = 0
    num_samples = 0
    model.eval()
    with torch.no_grad():
        for x, y in loader:
            x = x.to(device=device, dtype=dtype)
            y = y.to(device=device, dtype=torch.long)
            scores = model(x)
            _, preds = scores.max(1)
            num_correct += (preds == y).sum()
            num_samples += preds.size(0)
        acc = float(num_correct) / num_samples
        print("Got %d / %d correct (%.2f)" % (num_correct, num_samples, 100 * acc))  # noqa: UP031


def train_part34(model, optimizer, epochs=1):
    model = model.to(device=device)
    for e in range(epochs):
        for t, (x, y) in enumerate(loader):
            model.train()
            scores = model(x)
            loss = F.cross_entropy(scores, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if t % 2 == 0:
                print("Epoch %d, Iteration %d, loss = %.4f" % (e, t, loss.item()))  # noqa: UP031
                check_accuracy_part34(loader_val, model)


model = ThreeLayerConvNet(3, 6, 4, 10)
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
train_part34(model, optimizer)
out(model.conv1.weight, model.fc.bias)


class Flatten(nn.Module):
    def forward(self, x):
        return flatten(x)


def flatten(x):
    return x.view(x.shape[0], -1)


model = nn.Sequential(
    nn.Conv2d(3, 6, 5, padding=2),
    nn.ReLU(),
    nn.Conv2d(6, 4, 3, padding=1),
    nn.ReLU(),
    Flatten(),
    nn.Linear(4 * 8 * 8, 10),
)
optimizer = torch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9, nesterov=True)
print(model)
train_part34(model, optimizer, epochs=2)
out(model[5].weight.grad)
