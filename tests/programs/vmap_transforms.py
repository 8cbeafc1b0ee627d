# per-sample gradients of a small CNN (the torch.func per-sample-gradients tutorial)
# The loss of one sample runs under vmap(grad(...)) with the parameters shared
# (in_dims=None): every sample gets its own gradient of every parameter.
functional_call = torch.func.functional_call
grad = torch.func.grad
vmap = torch.func.vmap


class SimpleCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3)
        self.fc1 = nn.Linear(4 * 3 * 3, 5)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = torch.flatten(x, 1)
        return F.log_softmax(self.fc1(x), dim=1)


model = SimpleCNN().double()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(
            torch.linspace(-0.5, 0.5, p.numel(), dtype=torch.float64).reshape(p.shape) / (i + 1)
        )
data = torch.linspace(-1.0, 1.0, 4 * 8 * 8, dtype=torch.float64).reshape(4, 1, 8, 8).sin()
targets = torch.tensor([0, 3, 1, 4])
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}


def compute_loss(params, buffers, sample, target):
    batch = sample.unsqueeze(0)
    predictions = functional_call(model, (params, buffers), (batch,))
    return F.nll_loss(predictions, target.unsqueeze(0))


ft_per_sample_grads = vmap(grad(compute_loss), in_dims=(None, None, 0, 0))(
    params, buffers, data, targets
)
for name, g in ft_per_sample_grads.items():
    out(name, g)
# the same gradients one sample at a time
for b in range(4):
    model.zero_grad()
    F.nll_loss(model(data[b : b + 1]), targets[b : b + 1]).backward()
    out(torch.allclose(model.fc1.weight.grad, ft_per_sample_grads["fc1.weight"][b]))
# ---
# model ensembling with stack_module_state: predictions and one gradient step per model
functional_call = torch.func.functional_call
grad = torch.func.grad
stack_module_state = torch.func.stack_module_state
vmap = torch.func.vmap


def make(k):
    model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.linspace(-1.0, 1.0, p.numel()).reshape(p.shape) * (k + 1) / (i + 3))
    return model


models = [make(k) for k in range(3)]
params, buffers = stack_module_state(models)
out(sorted(params), params["0.weight"].shape, params["0.weight"].is_leaf)
base = make(0)
x = torch.linspace(-2.0, 2.0, 5 * 3).reshape(5, 3)
y = torch.tensor([0, 1, 1, 0, 1])


def predict(p, b, inputs):
    return functional_call(base, (p, b), (inputs,))


preds = vmap(predict, in_dims=(0, 0, None))(params, buffers, x)
out(preds.detach(), torch.stack([m(x) for m in models]).detach())


def loss(p, b, inputs, labels):
    return F.cross_entropy(predict(p, b, inputs), labels)


grads = vmap(grad(loss), in_dims=(0, 0, None, None))(params, buffers, x, y)
for k, m in enumerate(models):
    m.zero_grad()
    F.cross_entropy(m(x), y).backward()
    out(torch.allclose(grads["2.weight"][k], m[2].weight.grad, atol=1e-6))
new_params = {k: p - 0.1 * grads[k] for k, p in params.items()}
out(vmap(loss, in_dims=(0, 0, None, None))(new_params, buffers, x, y).detach())
# ---
# jacobians and hessians of a batch: vmap over jacrev, jacfwd and hessian
hessian = torch.func.hessian
jacfwd = torch.func.jacfwd
jacrev = torch.func.jacrev
vmap = torch.func.vmap


def f(v):
    return (v.sin() * v.sum()).tanh()


xs = torch.linspace(-1.0, 1.0, 4 * 3, dtype=torch.float64).reshape(4, 3)
out(vmap(jacrev(f))(xs))
out(vmap(jacfwd(f))(xs))
out(vmap(hessian(lambda v: (v.exp() * v).sum()))(xs))
# is_grads_batched: one vector-Jacobian product per row of the grad_outputs
w = torch.linspace(-1.0, 1.0, 6, dtype=torch.float64).reshape(2, 3).requires_grad_()
z = (w @ xs.t()).tanh()
(jac,) = torch.autograd.grad(
    z, w, torch.eye(8, dtype=torch.float64).reshape(8, 2, 4), is_grads_batched=True
)
out(jac)
out(torch.autograd.functional.jacobian(lambda t: (t @ xs.t()).tanh(), w.detach(), vectorize=True))
