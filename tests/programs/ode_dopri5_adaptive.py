# An adaptive Dormand-Prince (dopri5) ODE solver with step-size control, as ODE libraries write it
torch.manual_seed(0)
A = [
    [],
    [1 / 5],
    [3 / 40, 9 / 40],
    [44 / 45, -56 / 15, 32 / 9],
    [19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729],
    [9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656],
    [35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84],
]
C = [0, 1 / 5, 3 / 10, 4 / 5, 8 / 9, 1, 1]
B = torch.tensor(
    [35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0], dtype=torch.float64
)
B_ERR = B - torch.tensor(
    [5179 / 57600, 0, 7571 / 16695, 393 / 640, -92097 / 339200, 187 / 2100, 1 / 40],
    dtype=torch.float64,
)


def rms_norm(t):
    return t.pow(2).mean().sqrt()


def dopri5_step(f, t, y, h):
    ks = []
    for stage in range(7):
        yi = y
        for a, k in zip(A[stage], ks):
            yi = yi + h * a * k
        ks.append(f(t + C[stage] * h, yi))
    K = torch.stack(ks, dim=0)
    y_new = y + h * torch.tensordot(B.to(y.dtype), K, dims=1)
    err = h * torch.tensordot(B_ERR.to(y.dtype), K, dims=1)
    return y_new, err


def odeint_adaptive(f, y0, t_span, rtol=1e-6, atol=1e-8, h0=0.1, max_steps=500):
    t, t_end = t_span
    y, h = y0, h0
    n_accept = n_reject = 0
    ts, ys = [t], [y0]
    while t < t_end and n_accept + n_reject < max_steps:
        h = min(h, t_end - t)
        y_new, err = dopri5_step(f, t, y, h)
        scale = atol + rtol * torch.max(y.abs(), y_new.abs())
        error_ratio = rms_norm(err / scale)
        if error_ratio <= 1:
            t, y = t + h, y_new
            ts.append(t)
            ys.append(y)
            n_accept += 1
        else:
            n_reject += 1
        dfactor = 1.0 if error_ratio < 1 else 0.2
        factor = (
            min(10.0, max(dfactor, 0.9 * error_ratio.item() ** (-1 / 5)))
            if error_ratio > 0
            else 10.0
        )
        h = h * factor
    return torch.tensor(ts, dtype=torch.float64), torch.stack(ys), n_accept, n_reject


def lotka_volterra(t, z, a=1.5, b=1.0, c=3.0, d=1.0):
    x, y = z[..., 0], z[..., 1]
    return torch.stack([a * x - b * x * y, -c * y + d * x * y], dim=-1)


ts, ys, acc, rej = odeint_adaptive(
    lotka_volterra, torch.tensor([1.0, 1.0], dtype=torch.float64), (0.0, 5.0)
)
print(f"accepted {acc} rejected {rej} final {ys[-1].tolist()}")
print(ts[:5], ys.shape, ys.dtype)
decay = lambda t, y: -0.5 * y
_, yd, a2, r2 = odeint_adaptive(
    decay, torch.ones(3, dtype=torch.float64), (0.0, 2.0), rtol=1e-9, atol=1e-12
)
exact = torch.tensor(-1.0, dtype=torch.float64).exp()
print(f"decay error {(yd[-1] - exact).abs().max().item():.2e}", f"steps {a2}")
# gradients through the solver: fit the decay rate by backpropagating through every step
k = torch.tensor(0.2, dtype=torch.float64, requires_grad=True)
opt = torch.optim.Adam([k], lr=0.1)
target = torch.exp(torch.tensor(-0.7 * 2.0, dtype=torch.float64))
for _ in range(8):
    _, ysol, _, _ = odeint_adaptive(
        lambda t, y: -k * y, torch.ones(1, dtype=torch.float64), (0.0, 2.0), rtol=1e-5, atol=1e-7
    )
    loss = (ysol[-1, 0] - target) ** 2
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"k {k.item():.4f} loss {loss.item():.3e}", ysol.grad_fn.name())
out(ts, ys, k, loss)
