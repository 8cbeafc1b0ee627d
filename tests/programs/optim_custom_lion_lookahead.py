# Writing optimizers: a Lion subclass of Optimizer, a Lookahead wrapper, add_param_group, state_dict
torch.manual_seed(0)
Optimizer = torch.optim.Optimizer


class Lion(Optimizer):
    def __init__(self, params, lr=1e-4, betas=(0.9, 0.99), weight_decay=0.0):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        defaults = dict(lr=lr, betas=betas, weight_decay=weight_decay)
        super().__init__(params, defaults)

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                p.data.mul_(1 - group["lr"] * group["weight_decay"])
                grad = p.grad
                state = self.state[p]
                if len(state) == 0:
                    state["exp_avg"] = torch.zeros_like(p)
                exp_avg = state["exp_avg"]
                beta1, beta2 = group["betas"]
                update = exp_avg * beta1 + grad * (1 - beta1)
                p.add_(update.sign_(), alpha=-group["lr"])
                exp_avg.mul_(beta2).add_(grad, alpha=1 - beta2)
        return loss


class Lookahead:
    def __init__(self, optimizer, k=5, alpha=0.5):
        self.optimizer = optimizer
        self.k, self.alpha = k, alpha
        self.param_groups = self.optimizer.param_groups
        self.state = self.optimizer.state
        self.defaults = self.optimizer.defaults
        self.slow = [[p.detach().clone() for p in g["params"]] for g in self.param_groups]
        self.counter = 0

    def zero_grad(self, set_to_none=True):
        self.optimizer.zero_grad(set_to_none=set_to_none)

    def step(self, closure=None):
        loss = self.optimizer.step(closure)
        self.counter += 1
        if self.counter % self.k == 0:
            for group, slow in zip(self.param_groups, self.slow):
                for p, q in zip(group["params"], slow):
                    q.add_(p.data - q, alpha=self.alpha)
                    p.data.copy_(q)
        return loss


model = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))
base = Lion(model[0].parameters(), lr=1e-3, weight_decay=0.1)
base.add_param_group({"params": model[2].parameters(), "lr": 3e-4})
print(base)
opt = Lookahead(base, k=3)
x, y = torch.randn(16, 3), torch.randn(16, 1)


def closure():
    opt.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    return loss


for step in range(6):
    loss = opt.step(closure)
    print(f"step {step}: {loss.item():.5f}")
sd = base.state_dict()
print(len(sd["state"]), sd["param_groups"][1], sorted(sd["state"][0]))
fresh = Lion(model[0].parameters(), lr=1.0)
fresh.add_param_group({"params": model[2].parameters()})
fresh.load_state_dict(sd)
print(
    fresh.param_groups[0]["lr"],
    torch.equal(fresh.state[model[0].weight]["exp_avg"], base.state[model[0].weight]["exp_avg"]),
)
err(lambda: Lion(model.parameters(), lr=-1))
err(lambda: base.add_param_group({"params": model[0].weight}))
err(lambda: Lion([], lr=0.1))
out(model[0].weight, model[2].bias, loss)
# ---
# Optimizer hooks and the per-parameter zero_grad / grad accumulation semantics real loops rely on
torch.manual_seed(0)
lin = nn.Linear(2, 1)
opt = torch.optim.SGD(lin.parameters(), lr=0.1, momentum=0.9, dampening=0.1, nesterov=False)
calls = []
opt.register_step_pre_hook(lambda o, args, kwargs: calls.append("pre"))
opt.register_step_post_hook(lambda o, args, kwargs: calls.append("post"))
x = torch.ones(4, 2)
lin(x).sum().backward()
lin(x).sum().backward()
print(lin.weight.grad)
opt.step()
opt.zero_grad(set_to_none=False)
print(lin.weight.grad, calls)
opt.zero_grad()
print(lin.weight.grad, opt.state[lin.weight]["momentum_buffer"])
out(lin.weight, lin.bias)
