# Attribution: integrated gradients along a Riemann/trapezoid path, SmoothGrad, input x gradient
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 3))
model.eval()
inputs = torch.randn(4, 5)
baselines = torch.zeros_like(inputs)
target = torch.tensor([0, 2, 1, 2])


def forward_target(x, target):
    return model(x).gather(1, target.unsqueeze(1)).squeeze(1)


def approximation_parameters(method, n):
    if method == "riemann_trapezoid":
        step_sizes = [1 / (n - 1)] * n
        step_sizes[0] = step_sizes[-1] = 0.5 / (n - 1)
        alphas = torch.linspace(0, 1, n).tolist()
    elif method == "riemann_middle":
        step_sizes = [1 / n] * n
        alphas = [(i + 0.5) / n for i in range(n)]
    else:
        nodes, weights = np.polynomial.legendre.leggauss(n)
        step_sizes = (0.5 * weights).tolist()
        alphas = (0.5 * (nodes + 1)).tolist()
    return step_sizes, alphas


def integrated_gradients(x, baseline, target, n_steps=20, method="riemann_trapezoid"):
    step_sizes, alphas = approximation_parameters(method, n_steps)
    scaled = torch.cat([baseline + a * (x - baseline) for a in alphas], dim=0).requires_grad_()
    out = forward_target(scaled, target.repeat(n_steps))
    grads = torch.autograd.grad(out.sum(), scaled)[0]
    grads = grads.view(n_steps, *x.shape) * torch.tensor(step_sizes).view(n_steps, 1, 1)
    total = grads.sum(0)
    attributions = total * (x - baseline)
    delta = attributions.sum(1) - (forward_target(x, target) - forward_target(baseline, target))
    return attributions, delta


def smoothgrad(x, target, n_samples=8, stdevs=0.2, square=False, generator=None):
    noise = torch.randn((n_samples,) + x.shape, generator=generator) * stdevs
    noisy = (x.unsqueeze(0) + noise).reshape(-1, x.shape[1]).requires_grad_(True)
    out = forward_target(noisy, target.repeat(n_samples))
    (g,) = torch.autograd.grad(out, noisy, grad_outputs=torch.ones_like(out))
    g = g.view(n_samples, *x.shape)
    return (g * g).mean(0) if square else g.mean(0)


for method in ("riemann_trapezoid", "riemann_middle", "gausslegendre"):
    attr, delta = integrated_gradients(inputs, baselines, target, n_steps=16, method=method)
    print(f"{method:18s} small delta {bool(delta.abs().max() < 1e-3)} first {attr[0, :3]}")
attr, delta = integrated_gradients(inputs, baselines, target, n_steps=50)
print(attr.shape, attr.requires_grad, attr.grad_fn)
x = inputs.clone().requires_grad_()
saliency = torch.autograd.grad(forward_target(x, target).sum(), x)[0].abs()
print(saliency.argmax(dim=1), (saliency * inputs).sum(1))
g = torch.Generator().manual_seed(7)
sg = smoothgrad(inputs, target, generator=g)
sg2 = smoothgrad(inputs, target, square=True, generator=g)
print(sg[1], sg2.min() >= 0)
# input x gradient and the completeness check at the end of IG
ixg = x * torch.autograd.grad(forward_target(x, target).sum(), x)[0]
print(ixg.grad_fn.name(), F.cosine_similarity(ixg.detach(), attr, dim=1))
out(attr, delta, saliency, sg, sg2)
