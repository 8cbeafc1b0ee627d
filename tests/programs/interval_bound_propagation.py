# Interval bound propagation: center/radius through Linear (|W|), monotone activations, margins
class IntervalLinear(nn.Linear):
    def forward_bounds(self, lower, upper):
        mid = (upper + lower) / 2
        rad = (upper - lower) / 2
        mid = F.linear(mid, self.weight, self.bias)
        rad = F.linear(rad, self.weight.abs())
        return mid - rad, mid + rad


def propagate(model, lower, upper):
    for layer in model:
        if isinstance(layer, IntervalLinear):
            lower, upper = layer.forward_bounds(lower, upper)
        elif isinstance(layer, (nn.ReLU, nn.Sigmoid, nn.Tanh, nn.Flatten)):
            lower, upper = layer(lower), layer(upper)
        else:
            raise NotImplementedError(type(layer).__name__)
    return lower, upper


def worst_case_logits(lower, upper, y, num_classes):
    onehot = F.one_hot(y, num_classes).bool()
    return torch.where(onehot, lower, upper)


torch.manual_seed(0)
model = nn.Sequential(
    nn.Flatten(),
    IntervalLinear(8, 16),
    nn.ReLU(),
    IntervalLinear(16, 16),
    nn.Tanh(),
    IntervalLinear(16, 3),
)
x = torch.rand(10, 2, 4)
y = torch.randint(0, 3, (10,))
eps = 0.05
lower, upper = propagate(model, (x - eps).clamp(0, 1), (x + eps).clamp(0, 1))
logits = model(x)
print(
    bool((lower <= logits + 1e-6).all() and (logits <= upper + 1e-6).all()),
    f"{(upper - lower).mean().item():.5f}",
)
out(lower, upper)
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
for step in range(4):
    kappa = 1.0 - 0.5 * step / 3
    eps_t = eps * min(1.0, (step + 1) / 2)
    lo, up = propagate(model, (x - eps_t).clamp(0, 1), (x + eps_t).clamp(0, 1))
    clean = F.cross_entropy(model(x), y)
    robust = F.cross_entropy(worst_case_logits(lo, up, y, 3), y)
    loss = kappa * clean + (1 - kappa) * robust
    opt.zero_grad()
    loss.backward()
    opt.step()
    margin = (
        lo.gather(1, y[:, None])
        - up.masked_fill(F.one_hot(y, 3).bool(), float("-inf")).max(1, keepdim=True).values
    )
    verified = (margin > 0).float().mean()
    print(
        f"step {step} kappa {kappa:.3f} eps {eps_t:.3f} clean {clean.item():.5f} "
        f"robust {robust.item():.5f} verified {verified.item():.2f}"
    )
out(loss, margin, model[1].weight.grad)
