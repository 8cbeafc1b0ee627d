# d2l optimization chapter: 1-D gd, Newton's method with cosh, 2-D traces of gd/sgd/momentum/adagrad
import math


def f(x):
    return x**2


def f_grad(x):
    return 2 * x


def gd(eta, f_grad):
    x = 10.0
    results = [x]
    for _ in range(10):
        x -= eta * f_grad(x)
        results.append(float(x))
    print(f"epoch 10, x: {x:f}")
    return results


results = gd(0.2, f_grad)
print(torch.tensor(results)[:4])

c = torch.tensor(0.5)


def f_nc(x):
    return torch.cosh(c * x)


def f_grad_nc(x):
    return c * torch.sinh(c * x)


def f_hess(x):
    return c**2 * torch.cosh(c * x)


def newton(eta=1):
    x = 10.0
    results = [x]
    for _ in range(10):
        x -= eta * f_grad_nc(x) / f_hess(x)
        results.append(float(x))
    print("epoch 10, x:", x)
    return results


newton()
c = torch.tensor(0.15 * math.pi)


def f_ncvx(x):
    return x * torch.cos(c * x)


def f_grad_ncvx(x):
    return torch.cos(c * x) - c * x * torch.sin(c * x)


def f_hess_ncvx(x):
    return -2 * c * torch.sin(c * x) - x * c**2 * torch.cos(c * x)


x = torch.tensor(10.0)
for _ in range(5):
    x = x - 0.5 * f_grad_ncvx(x) / f_hess_ncvx(x)
print(f"nonconvex newton: {x.item():.5f}, f={f_ncvx(x).item():.5f}")


def train_2d(trainer, steps=20, f_grad=None):
    x1, x2, s1, s2 = -5, -2, 0, 0
    results = [(x1, x2)]
    for _ in range(steps):
        if f_grad:
            x1, x2, s1, s2 = trainer(x1, x2, s1, s2, f_grad)
        else:
            x1, x2, s1, s2 = trainer(x1, x2, s1, s2)
        results.append((x1, x2))
    print(f"epoch {steps}, x1: {float(x1):f}, x2: {float(x2):f}")
    return results


def f_2d(x1, x2):
    return x1**2 + 2 * x2**2


def f_2d_grad(x1, x2):
    return (2 * x1, 4 * x2)


def gd_2d(x1, x2, s1, s2, f_grad):
    g1, g2 = f_grad(x1, x2)
    return (x1 - eta * g1, x2 - eta * g2, 0, 0)


def sgd_2d(x1, x2, s1, s2, f_grad):
    g1, g2 = f_grad(x1, x2)
    g1 += torch.normal(0.0, 1, (1,)).item()
    g2 += torch.normal(0.0, 1, (1,)).item()
    eta_t = eta * lr()
    return (x1 - eta_t * g1, x2 - eta_t * g2, 0, 0)


t = 1


def exponential_lr():
    global t
    t += 1
    return math.exp(-0.1 * t)


eta = 0.1
gd_trace = train_2d(gd_2d, f_grad=f_2d_grad)
lr = exponential_lr
sgd_trace = train_2d(sgd_2d, steps=50, f_grad=f_2d_grad)
print(torch.tensor(gd_trace).shape, torch.tensor(sgd_trace)[-1])

eta, beta = 0.6, 0.5


def momentum_2d(x1, x2, v1, v2):
    v1 = beta * v1 + 0.2 * x1
    v2 = beta * v2 + 4 * x2
    return x1 - eta * v1, x2 - eta * v2, v1, v2


def f_2d_b(x1, x2):
    return 0.1 * x1**2 + 2 * x2**2


train_2d(momentum_2d)


def adagrad_2d(x1, x2, s1, s2):
    eps = 1e-6
    g1, g2 = 0.2 * x1, 4 * x2
    s1 += g1**2
    s2 += g2**2
    x1 -= eta / math.sqrt(s1 + eps) * g1
    x2 -= eta / math.sqrt(s2 + eps) * g2
    return x1, x2, s1, s2


eta = 0.4
train_2d(adagrad_2d)

# the same 2-D problem through torch.optim, stepping a single parameter tensor
x = torch.tensor([-5.0, -2.0], requires_grad=True)
for name, make in [
    ("SGD", lambda p: torch.optim.SGD(p, lr=0.1)),
    ("momentum", lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.5)),
    ("Adagrad", lambda p: torch.optim.Adagrad(p, lr=0.4)),
    ("RMSprop", lambda p: torch.optim.RMSprop(p, lr=0.1, alpha=0.9)),
    ("Adadelta", lambda p: torch.optim.Adadelta(p, rho=0.9)),
    ("Adam", lambda p: torch.optim.Adam(p, lr=0.5)),
]:
    with torch.no_grad():
        x.copy_(torch.tensor([-5.0, -2.0]))
    opt = make([x])
    for _ in range(20):
        opt.zero_grad()
        loss = 0.1 * x[0] ** 2 + 2 * x[1] ** 2
        loss.backward()
        opt.step()
    print(f"{name:>8}: x1 {x[0].item():f}, x2 {x[1].item():f}, loss {loss.item():.6f}")
out(x)
