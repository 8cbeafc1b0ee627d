# grad modes: context manager, decorator, plain call, nesting, exceptions
x = torch.tensor([1.0], requires_grad=True)
with torch.no_grad():
    a = x * 2
    with torch.enable_grad():
        b = x * 2
    c = x * 2
out(a.requires_grad, b.requires_grad, c.requires_grad, torch.is_grad_enabled())


@torch.no_grad()
def f(t):
    return t * 2, torch.is_grad_enabled()


@torch.no_grad
def f2(t):
    return t * 2


out(f(x)[0].requires_grad, f(x)[1], f2(x).requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(False)
out((x * 2).requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(True)
with torch.set_grad_enabled(False):
    out((x * 2).requires_grad)
out(torch.is_grad_enabled())


@torch.set_grad_enabled(False)
def g(t):
    return t * 2


out(g(x).requires_grad, torch.is_grad_enabled())


@torch.enable_grad()
def h(t):
    return t * 2


with torch.no_grad():
    out(h(x).requires_grad)
try:
    with torch.no_grad():
        raise ValueError
except ValueError:
    pass
out(torch.is_grad_enabled())
with torch.no_grad():
    y = x + 1
    out(y.requires_grad, y.grad_fn, y.is_leaf)
    x2 = torch.ones(2, requires_grad=True)
    out(x2.requires_grad, x2.is_leaf)
    x.mul_(2)
out(x, x.grad_fn, x.is_leaf)
# ---
# inference_mode
x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.inference_mode():
    y = x * 2
    out(
        torch.is_grad_enabled(),
        torch.is_inference_mode_enabled(),
        y.requires_grad,
        y.is_inference(),
    )
out(torch.is_inference_mode_enabled(), x.is_inference(), torch.is_grad_enabled())
err(lambda: (y * x).sum().backward())
with torch.inference_mode(False):
    out(torch.is_grad_enabled(), (x * 2).requires_grad)


@torch.inference_mode()
def f(t):
    return t * 3


out(f(x).requires_grad, f(x).is_inference())
err(lambda: y.add_(1))
z = y.clone()
out(z.is_inference(), z.requires_grad)
with torch.no_grad():
    with torch.inference_mode():
        pass
    out(torch.is_grad_enabled())
# ---
# grad mode thread local
import threading

res = []


def worker():
    res.append(torch.is_grad_enabled())
    with torch.no_grad():
        res.append(torch.is_grad_enabled())


with torch.no_grad():
    t = threading.Thread(target=worker)
    t.start()
    t.join()
    res.append(torch.is_grad_enabled())
out(res, torch.is_grad_enabled())
# ---
# grad-mode arguments and generators
err(lambda: torch.set_grad_enabled(1))
err(lambda: torch.set_grad_enabled("a"))
out(torch.is_grad_enabled())


@torch.no_grad()
def gen():
    yield torch.is_grad_enabled()
    yield torch.is_grad_enabled()


out(list(gen()), torch.is_grad_enabled())
x = torch.tensor([1.0], requires_grad=True)
out(torch.autograd.grad((x * x).sum(), x, create_graph=1)[0].requires_grad)
out(torch.autograd.functional.jacobian(lambda a: a**2, x, create_graph=1).requires_grad)
