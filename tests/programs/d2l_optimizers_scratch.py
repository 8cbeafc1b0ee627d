# d2l optimizers from scratch: momentum, adagrad, rmsprop, adadelta, adam and yogi on a quadratic
def init_states(n, dim=2):
    return [(torch.zeros((dim, 1)), torch.zeros(1)) for _ in range(n)]


def sgd_momentum(params, states, hyperparams):
    for p, v in zip(params, states):
        with torch.no_grad():
            v[:] = hyperparams["momentum"] * v + p.grad
            p[:] -= hyperparams["lr"] * v
        p.grad.data.zero_()


def adagrad(params, states, hyperparams):
    eps = 1e-6
    for p, s in zip(params, states):
        with torch.no_grad():
            s[:] += torch.square(p.grad)
            p[:] -= hyperparams["lr"] * p.grad / torch.sqrt(s + eps)
        p.grad.data.zero_()


def rmsprop(params, states, hyperparams):
    gamma, eps = hyperparams["gamma"], 1e-6
    for p, s in zip(params, states):
        with torch.no_grad():
            s[:] = gamma * s + (1 - gamma) * torch.square(p.grad)
            p[:] -= hyperparams["lr"] * p.grad / torch.sqrt(s + eps)
        p.grad.data.zero_()


def adadelta(params, states, hyperparams):
    rho, eps = hyperparams["rho"], 1e-5
    for p, (s, delta) in zip(params, states):
        with torch.no_grad():
            s[:] = rho * s + (1 - rho) * torch.square(p.grad)
            g = (torch.sqrt(delta + eps) / torch.sqrt(s + eps)) * p.grad
            p[:] -= g
            delta[:] = rho * delta + (1 - rho) * g * g
        p.grad.data.zero_()


def adam(params, states, hyperparams):
    beta1, beta2, eps = 0.9, 0.999, 1e-6
    for p, (v, s) in zip(params, states):
        with torch.no_grad():
            v[:] = beta1 * v + (1 - beta1) * p.grad
            s[:] = beta2 * s + (1 - beta2) * torch.square(p.grad)
            v_bias_corr = v / (1 - beta1 ** hyperparams["t"])
            s_bias_corr = s / (1 - beta2 ** hyperparams["t"])
            p[:] -= hyperparams["lr"] * v_bias_corr / (torch.sqrt(s_bias_corr) + eps)
        p.grad.data.zero_()
    hyperparams["t"] += 1


def yogi(params, states, hyperparams):
    beta1, beta2, eps = 0.9, 0.999, 1e-3
    for p, (v, s) in zip(params, states):
        with torch.no_grad():
            v[:] = beta1 * v + (1 - beta1) * p.grad
            s[:] = s + (1 - beta2) * torch.sign(torch.square(p.grad) - s) * torch.square(p.grad)
            v_bias_corr = v / (1 - beta1 ** hyperparams["t"])
            s_bias_corr = s / (1 - beta2 ** hyperparams["t"])
            p[:] -= hyperparams["lr"] * v_bias_corr / (torch.sqrt(s_bias_corr) + eps)
        p.grad.data.zero_()
    hyperparams["t"] += 1


X = torch.normal(0.0, 1.0, (50, 2))
y = X @ torch.tensor([[2.0], [-3.4]]) + 4.2
for name, fn, hp, pair in [
    ("momentum", sgd_momentum, {"lr": 0.02, "momentum": 0.5}, False),
    ("adagrad", adagrad, {"lr": 0.1}, False),
    ("rmsprop", rmsprop, {"lr": 0.01, "gamma": 0.9}, False),
    ("adadelta", adadelta, {"rho": 0.9}, True),
    ("adam", adam, {"lr": 0.01, "t": 1}, True),
    ("yogi", yogi, {"lr": 0.01, "t": 1}, True),
]:
    w = torch.normal(mean=0.0, std=0.01, size=(2, 1), requires_grad=True)
    b = torch.zeros((1), requires_grad=True)
    if pair:
        states = [(torch.zeros((2, 1)), torch.zeros((2, 1))), (torch.zeros(1), torch.zeros(1))]
    else:
        states = [torch.zeros((2, 1)), torch.zeros(1)]
    losses = []
    for _ in range(5):
        l = ((X @ w + b - y) ** 2 / 2).mean()  # noqa: E741
        l.backward()
        fn([w, b], states, hp)
        losses.append(round(l.item(), 4))
    print(name, losses, [round(v, 4) for v in w.detach().flatten().tolist()])
