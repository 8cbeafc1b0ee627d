# feature attribution by gradients: saliency, input x gradient, SmoothGrad, integrated gradients
torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(1, 4, 3, padding=1),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(2),
    nn.Flatten(),
    nn.Linear(16, 3),
).eval()
image = torch.rand(1, 1, 6, 6)
target = model(image).argmax(dim=1).item()
print("predicted class", target)


def saliency(model, x, target):
    x = x.clone().requires_grad_(True)
    score = model(x)[0, target]
    score.backward()
    return x.grad.abs()


def input_x_gradient(model, x, target):
    x = x.clone().requires_grad_(True)
    (grad,) = torch.autograd.grad(model(x)[:, target].sum(), x)
    return x.detach() * grad


def smoothgrad(model, x, target, n=8, sigma=0.1):
    noisy = x + sigma * torch.randn(n, *x.shape[1:])
    noisy.requires_grad_(True)
    model(noisy)[:, target].sum().backward()
    return noisy.grad.mean(dim=0, keepdim=True)


def integrated_gradients(model, x, target, baseline=None, steps=16):
    if baseline is None:
        baseline = torch.zeros_like(x)
    alphas = torch.linspace(0, 1, steps + 1).view(-1, 1, 1, 1)
    path = (baseline + alphas * (x - baseline)).requires_grad_(True)
    scores = model(path)[:, target]
    grads = torch.autograd.grad(scores.sum(), path)[0]
    avg = (grads[:-1] + grads[1:]).mean(dim=0, keepdim=True) / 2
    return (x - baseline) * avg


s = saliency(model, image, target)
ixg = input_x_gradient(model, image, target)
sg = smoothgrad(model, image, target)
ig = integrated_gradients(model, image, target)
with torch.no_grad():
    gap = model(image)[0, target] - model(torch.zeros_like(image))[0, target]
print(f"completeness: sum(ig)={ig.sum().item():.4f} vs f(x)-f(0)={gap.item():.4f}")
top = s.flatten().topk(5)
print(top.indices.tolist())
print(f"{ixg.sum().item():.6f} {sg.abs().mean().item():.6f}")
out(s, ixg, sg, ig)


# occlusion: how much the score falls when a patch is blanked
def occlusion(model, x, target, patch=2):
    base = model(x)[0, target].item()
    heat = torch.zeros(x.shape[-2] // patch, x.shape[-1] // patch)
    for i in range(heat.shape[0]):
        for j in range(heat.shape[1]):
            occluded = x.clone()
            occluded[..., i * patch : (i + 1) * patch, j * patch : (j + 1) * patch] = 0
            with torch.no_grad():
                heat[i, j] = base - model(occluded)[0, target].item()
    return heat


heat = occlusion(model, image, target)
print(heat)
out(heat)
