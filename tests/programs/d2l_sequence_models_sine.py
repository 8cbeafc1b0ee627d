# d2l sequence models: a noisy sine, tau-lagged features, an MLP, one-step vs multi-step prediction
T = 200
time = torch.arange(1, T + 1, dtype=torch.float32)
x = torch.sin(0.01 * time * 6) + torch.normal(0, 0.2, (T,))
tau = 4
features = torch.zeros((T - tau, tau))
for i in range(tau):
    features[:, i] = x[i : T - tau + i]
labels = x[tau:].reshape((-1, 1))
print(features.shape, labels.shape, features[:2])

batch_size, n_train = 16, 120
train_iter = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(features[:n_train], labels[:n_train]), batch_size, shuffle=True
)


def init_weights(m):
    if type(m) is nn.Linear:
        nn.init.xavier_uniform_(m.weight)


def get_net():
    net = nn.Sequential(nn.Linear(4, 10), nn.ReLU(), nn.Linear(10, 1))
    net.apply(init_weights)
    return net


loss = nn.MSELoss(reduction="none")


def evaluate_loss(net, data_iter, loss):
    metric = [0.0, 0]
    for X, y in data_iter:
        out_ = net(X)
        y = y.reshape(out_.shape)
        batch_loss = loss(out_, y)
        metric[0] += batch_loss.sum().item()
        metric[1] += batch_loss.numel()
    return metric[0] / metric[1]


def train(net, train_iter, loss, epochs, lr):
    trainer = torch.optim.Adam(net.parameters(), lr)
    for epoch in range(epochs):
        for X, y in train_iter:
            trainer.zero_grad()
            batch_loss = loss(net(X), y)
            batch_loss.sum().backward()
            trainer.step()
        print(f"epoch {epoch + 1}, loss: {evaluate_loss(net, train_iter, loss):f}")


net = get_net()
train(net, train_iter, loss, 4, 0.01)

onestep_preds = net(features)
print(
    onestep_preds.shape,
    onestep_preds.grad_fn.name(),
    onestep_preds.grad_fn.next_functions[0][0].name(),
)

multistep_preds = torch.zeros(T)
multistep_preds[: n_train + tau] = x[: n_train + tau]
for i in range(n_train + tau, T):
    multistep_preds[i] = net(multistep_preds[i - tau : i].reshape((1, -1)))
print(multistep_preds.requires_grad, multistep_preds.grad_fn.__class__.__name__)
print(f"{(multistep_preds[n_train + tau :] - x[n_train + tau :]).abs().mean().item():.4f}")

max_steps = 8
features = torch.zeros((T - tau - max_steps + 1, tau + max_steps))
for i in range(tau):
    features[:, i] = x[i : i + T - tau - max_steps + 1]
for i in range(tau, tau + max_steps):
    features[:, i] = net(features[:, i - tau : i]).reshape(-1)
steps = (1, 4, 8)
for s in steps:
    print(s, f"{features[:, tau + s - 1].detach().std().item():.4f}")
out(onestep_preds, multistep_preds, features)
