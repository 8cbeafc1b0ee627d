# d2l batch norm from scratch: moving statistics under no_grad, a BatchNorm module, LeNet with it
def batch_norm(X, gamma, beta, moving_mean, moving_var, eps, momentum):
    if not torch.is_grad_enabled():
        X_hat = (X - moving_mean) / torch.sqrt(moving_var + eps)
    else:
        assert len(X.shape) in (2, 4)
        if len(X.shape) == 2:
            mean = X.mean(dim=0)
            var = ((X - mean) ** 2).mean(dim=0)
        else:
            mean = X.mean(dim=(0, 2, 3), keepdim=True)
            var = ((X - mean) ** 2).mean(dim=(0, 2, 3), keepdim=True)
        X_hat = (X - mean) / torch.sqrt(var + eps)
        moving_mean = (1.0 - momentum) * moving_mean + momentum * mean
        moving_var = (1.0 - momentum) * moving_var + momentum * var
    Y = gamma * X_hat + beta
    return Y, moving_mean.data, moving_var.data


class BatchNorm(nn.Module):
    def __init__(self, num_features, num_dims):
        super().__init__()
        shape = (1, num_features) if num_dims == 2 else (1, num_features, 1, 1)
        self.gamma = nn.Parameter(torch.ones(shape))
        self.beta = nn.Parameter(torch.zeros(shape))
        self.moving_mean = torch.zeros(shape)
        self.moving_var = torch.ones(shape)

    def forward(self, X):
        if self.moving_mean.device != X.device:
            self.moving_mean = self.moving_mean.to(X.device)
            self.moving_var = self.moving_var.to(X.device)
        Y, self.moving_mean, self.moving_var = batch_norm(
            X, self.gamma, self.beta, self.moving_mean, self.moving_var, eps=1e-5, momentum=0.1
        )
        return Y


net = nn.Sequential(
    nn.LazyConv2d(6, kernel_size=5),
    BatchNorm(6, num_dims=4),
    nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.LazyConv2d(16, kernel_size=5),
    BatchNorm(16, num_dims=4),
    nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Flatten(),
    nn.LazyLinear(120),
    BatchNorm(120, num_dims=2),
    nn.Sigmoid(),
    nn.LazyLinear(10),
)
X = torch.randn(8, 1, 28, 28)
y = torch.randint(0, 10, (8,))
net(X)
opt = torch.optim.SGD(net.parameters(), lr=0.5)
for step in range(3):
    loss = F.cross_entropy(net(X), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step}: {loss.item():.4f}")
print(net[1].gamma.reshape((-1,)), net[1].beta.reshape((-1,)))
print(net[1].moving_mean.reshape(-1)[:3], net[9])
with torch.no_grad():
    out(net(X[:2]))
builtin = nn.BatchNorm2d(6)
builtin.train()
Z = torch.randn(4, 6, 5, 5)
ours = BatchNorm(6, 4)
out(builtin(Z), ours(Z))
print(builtin.running_var.flatten()[:3], ours.moving_var.flatten()[:3])


# ---
# d2l dropout and weight decay from scratch: dropout_layer masks, l2_penalty, a high-dim regression
def dropout_layer(X, dropout):
    assert 0 <= dropout <= 1
    if dropout == 1:
        return torch.zeros_like(X)
    mask = (torch.rand(X.shape) > dropout).float()
    return mask * X / (1.0 - dropout)


X = torch.arange(16, dtype=torch.float32).reshape((2, 8))
print("dropout_p = 0:", dropout_layer(X, 0))
print("dropout_p = 0.5:", dropout_layer(X, 0.5))
print("dropout_p = 1:", dropout_layer(X, 1))


def l2_penalty(w):
    return (w**2).sum() / 2


n_train, num_inputs, batch_size = 20, 200, 5
true_w, true_b = torch.ones((num_inputs, 1)) * 0.01, 0.05
features = torch.normal(0, 1, (n_train, num_inputs))
labels = features @ true_w + true_b + torch.normal(0, 0.01, (n_train, 1))
for lambd in (0, 3):
    w = torch.normal(0, 1, size=(num_inputs, 1), requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    for _ in range(10):
        for i in range(0, n_train, batch_size):
            Xb, yb = features[i : i + batch_size], labels[i : i + batch_size]
            l = ((Xb @ w + b - yb) ** 2 / 2).sum() + lambd * l2_penalty(w)  # noqa: E741
            l.backward()
            with torch.no_grad():
                for param in (w, b):
                    param -= 0.003 * param.grad / batch_size
                    param.grad.zero_()
    print(f"lambda {lambd}: L2 norm of w: {torch.norm(w).item():.4f}")
net = nn.Sequential(nn.Linear(num_inputs, 1))
for param in net.parameters():
    param.data.normal_()
trainer = torch.optim.SGD(
    [{"params": net[0].weight, "weight_decay": 3}, {"params": net[0].bias}], lr=0.003
)
for _ in range(5):
    for i in range(0, n_train, batch_size):
        trainer.zero_grad()
        loss = nn.MSELoss(reduction="none")
        l = loss(net(features[i : i + batch_size]), labels[i : i + batch_size])  # noqa: E741
        l.mean().backward()
        trainer.step()
print(f"L2 norm of w: {net[0].weight.norm().item():.4f}")
print(trainer)
