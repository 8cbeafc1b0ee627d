# per-sample gradients: vmap(grad(loss)) over functional_call on a small MLP
functional_call, grad, vmap = torch.func.functional_call, torch.func.grad, torch.func.vmap


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


rng = np.random.default_rng(0)
model = MLP()
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape))))
data = torch.tensor(rng.standard_normal((6, 4)), dtype=torch.float32)
targets = torch.tensor([0, 2, 1, 1, 0, 2])

params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}


def compute_loss(params, buffers, sample, target):
    batch = sample.unsqueeze(0)
    predictions = functional_call(model, (params, buffers), (batch,))
    return F.cross_entropy(predictions, target.unsqueeze(0))


ft_per_sample_grads = vmap(grad(compute_loss), in_dims=(None, None, 0, 0))(
    params, buffers, data, targets
)
out({k: g.shape for k, g in ft_per_sample_grads.items()})
out(ft_per_sample_grads)

# the same gradients, one sample at a time, with ordinary backward
for i in range(data.shape[0]):
    model.zero_grad()
    loss = F.cross_entropy(model(data[i : i + 1]), targets[i : i + 1])
    loss.backward()
    out(
        i,
        all(
            torch.allclose(ft_per_sample_grads[k][i], p.grad, atol=1e-6)
            for k, p in model.named_parameters()
        ),
    )
# ---
# per-sample gradients: the batch mean of per-sample grads is the batch gradient
functional_call, grad, vmap = torch.func.functional_call, torch.func.grad, torch.func.vmap
grad_and_value = torch.func.grad_and_value

rng = np.random.default_rng(1)
model = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 1))
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.tensor(rng.uniform(-1, 1, tuple(p.shape))))
x = torch.tensor(rng.standard_normal((8, 3)), dtype=torch.float32)
y = torch.tensor(rng.standard_normal((8, 1)), dtype=torch.float32)
params = {k: v.detach() for k, v in model.named_parameters()}


def loss_fn(params, xb, yb):
    pred = functional_call(model, params, (xb.unsqueeze(0),))
    return F.mse_loss(pred, yb.unsqueeze(0))


grads, losses = vmap(grad_and_value(loss_fn), in_dims=(None, 0, 0))(params, x, y)
out(losses, grads["0.weight"].shape)
F.mse_loss(model(x), y).backward()
for k, p in model.named_parameters():
    out(k, torch.allclose(grads[k].mean(0), p.grad, atol=1e-6))

# per-sample gradient norms, clipped and averaged as DP-SGD does
norms = torch.stack([g.flatten(1).norm(dim=1) for g in grads.values()], dim=1).norm(dim=1)
factor = (1.0 / (norms + 1e-6)).clamp(max=1.0)
clipped = {k: (g * factor.view(-1, *[1] * (g.dim() - 1))).mean(0) for k, g in grads.items()}
out(norms, factor, clipped)

# grad with respect to the input, per sample
input_grads = vmap(grad(lambda xi, yi: loss_fn(params, xi, yi)))(x, y)
out(input_grads)
