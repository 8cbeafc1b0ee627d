# Sharpness-aware minimization (a two-step closure optimizer) and PCGrad gradient surgery
class SAM(torch.optim.Optimizer):
    def __init__(self, params, base_optimizer, rho=0.05, adaptive=False, **kwargs):
        assert rho >= 0.0, f"Invalid rho, should be non-negative: {rho}"
        defaults = dict(rho=rho, adaptive=adaptive, **kwargs)
        super().__init__(params, defaults)
        self.base_optimizer = base_optimizer(self.param_groups, **kwargs)
        self.param_groups = self.base_optimizer.param_groups
        self.defaults.update(self.base_optimizer.defaults)

    @torch.no_grad()
    def first_step(self, zero_grad=False):
        grad_norm = self._grad_norm()
        for group in self.param_groups:
            scale = group["rho"] / (grad_norm + 1e-12)
            for p in group["params"]:
                if p.grad is None:
                    continue
                self.state[p]["old_p"] = p.data.clone()
                e_w = (torch.pow(p, 2) if group["adaptive"] else 1.0) * p.grad * scale.to(p)
                p.add_(e_w)
        if zero_grad:
            self.zero_grad()

    @torch.no_grad()
    def second_step(self, zero_grad=False):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                p.data = self.state[p]["old_p"]
        self.base_optimizer.step()
        if zero_grad:
            self.zero_grad()

    @torch.no_grad()
    def step(self, closure=None):
        assert closure is not None, (
            "Sharpness Aware Minimization requires closure, but it was not provided"
        )
        closure = torch.enable_grad()(closure)
        self.first_step(zero_grad=True)
        closure()
        self.second_step()

    def _grad_norm(self):
        shared_device = self.param_groups[0]["params"][0].device
        norm = torch.norm(
            torch.stack(
                [
                    ((torch.abs(p) if group["adaptive"] else 1.0) * p.grad)
                    .norm(p=2)
                    .to(shared_device)
                    for group in self.param_groups
                    for p in group["params"]
                    if p.grad is not None
                ]
            ),
            p=2,
        )
        return norm


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))
opt = SAM(model.parameters(), torch.optim.SGD, rho=0.1, adaptive=True, lr=0.1, momentum=0.9)
print(
    type(opt.base_optimizer).__name__,
    opt.defaults["rho"],
    opt.param_groups[0]["lr"],
    opt.param_groups[0]["momentum"],
)
x, y = torch.randn(24, 4), torch.randint(0, 3, (24,))
for step in range(3):
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.first_step(zero_grad=True)
    F.cross_entropy(model(x), y).backward()
    opt.second_step(zero_grad=True)
    print(f"sam step {step} loss {loss.item():.5f}")


def closure():
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    return loss


loss = closure()
opt.step(closure)
opt.zero_grad()
out(loss, model[0].weight)
print(
    sorted(opt.state[model[0].weight].keys()),
    "momentum_buffer" in opt.base_optimizer.state[model[0].weight],
)


def pcgrad(grads, generator):
    pc_grad = [g.clone() for g in grads]
    num_task = len(grads)
    for g_i in pc_grad:
        order = torch.randperm(num_task, generator=generator).tolist()
        for j in order:
            g_j = grads[j]
            g_i_g_j = torch.dot(g_i, g_j)
            if g_i_g_j < 0:
                g_i -= g_i_g_j * g_j / (g_j.norm() ** 2)
    return torch.stack(pc_grad).sum(dim=0)


torch.manual_seed(1)
shared = nn.Linear(5, 8)
heads = nn.ModuleList([nn.Linear(8, 1), nn.Linear(8, 1)])
params = list(shared.parameters())
opt2 = torch.optim.Adam(list(shared.parameters()) + list(heads.parameters()), lr=1e-2)
gen = torch.Generator().manual_seed(0)
x = torch.randn(16, 5)
targets = [x[:, :1] * 2, -x[:, :1] + x[:, 1:2]]
for step in range(3):
    h = torch.relu(shared(x))
    losses = [F.mse_loss(head(h), t) for head, t in zip(heads, targets)]
    opt2.zero_grad()
    flat = []
    for task_loss in losses:
        g = torch.autograd.grad(task_loss, params, retain_graph=True)
        flat.append(torch.cat([t.flatten() for t in g]))
    cos = F.cosine_similarity(flat[0], flat[1], dim=0)
    merged = pcgrad(flat, gen)
    sum(losses).backward()
    offset = 0
    for p in params:
        n = p.numel()
        p.grad.copy_(merged[offset : offset + n].view_as(p))
        offset += n
    opt2.step()
    print(f"pcgrad step {step}: losses {[round(v.item(), 5) for v in losses]} cos {cos.item():.5f}")
out(merged, shared.weight)
print(torch.nn.utils.parameters_to_vector(shared.parameters()).shape)
