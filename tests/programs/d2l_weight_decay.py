# d2l weight decay: high-dimensional linear regression, l2_penalty by hand, then per-group decay
n_train, n_test, num_inputs, batch_size = 20, 40, 60, 5
true_w, true_b = torch.ones((num_inputs, 1)) * 0.01, 0.05


def synthetic_data(w, b, num_examples):
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))


train_data = synthetic_data(true_w, true_b, n_train)
test_data = synthetic_data(true_w, true_b, n_test)
train_iter = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(*train_data), batch_size, shuffle=True
)
test_iter = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(*test_data), batch_size, shuffle=False
)


def init_params():
    w = torch.normal(0, 1, size=(num_inputs, 1), requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    return [w, b]


def l2_penalty(w):
    return torch.sum(w.pow(2)) / 2


def linreg(X, w, b):
    return torch.matmul(X, w) + b


def squared_loss(y_hat, y):
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2


def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


def evaluate_loss(net, data_iter, loss):
    total, n = 0.0, 0
    for X, y in data_iter:
        out_ = net(X)
        batch_loss = loss(out_, y.reshape(out_.shape))
        total += batch_loss.sum().item()
        n += batch_loss.numel()
    return total / n


def train(lambd):
    w, b = init_params()
    net, loss = lambda X: linreg(X, w, b), squared_loss
    num_epochs, lr = 10, 0.003
    for _epoch in range(num_epochs):
        for X, y in train_iter:
            batch_loss = loss(net(X), y) + lambd * l2_penalty(w)
            batch_loss.sum().backward()
            sgd([w, b], lr, batch_size)
    print(
        f"lambd={lambd}: L2 norm of w: {torch.norm(w).item():.4f}, "
        f"test loss {evaluate_loss(net, test_iter, loss):.4f}"
    )
    return w


w0 = train(lambd=0)
w3 = train(lambd=3)
out(w0.detach(), w3.detach())


def train_concise(wd):
    net = nn.Sequential(nn.Linear(num_inputs, 1))
    for param in net.parameters():
        param.data.normal_()
    loss = nn.MSELoss(reduction="none")
    num_epochs, lr = 10, 0.003
    trainer = torch.optim.SGD(
        [{"params": net[0].weight, "weight_decay": wd}, {"params": net[0].bias}], lr=lr
    )
    for _epoch in range(num_epochs):
        for X, y in train_iter:
            trainer.zero_grad()
            batch_loss = loss(net(X), y)
            batch_loss.mean().backward()
            trainer.step()
    print(f"wd={wd}: L2 norm of w: {net[0].weight.norm().item():.4f}")
    print([g["weight_decay"] for g in trainer.param_groups])
    return net


net = train_concise(3)
out(net[0].weight, net[0].bias)
