# Research optimizers: schedule-free AdamW (train/eval swap) and Sophia with a Hutchinson Hessian
class ScheduleFreeAdamW(torch.optim.Optimizer):
    def __init__(
        self,
        params,
        lr=2.5e-3,
        betas=(0.9, 0.999),
        eps=1e-8,
        weight_decay=0.0,
        warmup_steps=2,
        r=0.0,
        weight_lr_power=2.0,
    ):
        defaults = dict(
            lr=lr,
            betas=betas,
            eps=eps,
            r=r,
            k=0,
            warmup_steps=warmup_steps,
            train_mode=True,
            weight_sum=0.0,
            lr_max=-1.0,
            weight_lr_power=weight_lr_power,
            weight_decay=weight_decay,
        )
        super().__init__(params, defaults)

    def eval(self):
        for group in self.param_groups:
            train_mode = group["train_mode"]
            beta1, _ = group["betas"]
            if train_mode:
                for p in group["params"]:
                    state = self.state[p]
                    if "z" in state:
                        p.data.lerp_(end=state["z"], weight=1 - 1 / beta1)
                group["train_mode"] = False

    def train(self):
        for group in self.param_groups:
            train_mode = group["train_mode"]
            beta1, _ = group["betas"]
            if not train_mode:
                for p in group["params"]:
                    state = self.state[p]
                    if "z" in state:
                        p.data.lerp_(end=state["z"], weight=1 - beta1)
                group["train_mode"] = True

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            eps = group["eps"]
            beta1, beta2 = group["betas"]
            decay = group["weight_decay"]
            k = group["k"]
            r = group["r"]
            warmup_steps = group["warmup_steps"]
            weight_lr_power = group["weight_lr_power"]
            sched = (k + 1) / warmup_steps if k < warmup_steps else 1.0
            bias_correction2 = 1 - beta2 ** (k + 1)
            lr = group["lr"] * sched * bias_correction2**0.5
            lr_max = group["lr_max"] = max(lr, group["lr_max"])
            weight = ((k + 1) ** r) * (lr_max**weight_lr_power)
            weight_sum = group["weight_sum"] = group["weight_sum"] + weight
            try:
                ckp1 = weight / weight_sum
            except ZeroDivisionError:
                ckp1 = 0
            for p in group["params"]:
                if p.grad is None:
                    continue
                y = p.data
                grad = p.grad.data
                state = self.state[p]
                if "z" not in state:
                    state["z"] = torch.clone(y)
                    state["exp_avg_sq"] = torch.zeros_like(p.data)
                exp_avg_sq = state["exp_avg_sq"]
                z = state["z"]
                exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                denom = exp_avg_sq.sqrt().add_(eps)
                grad_normalized = grad.div_(denom)
                grad_normalized.add_(y, alpha=decay)
                y.lerp_(end=z, weight=ckp1)
                y.add_(grad_normalized, alpha=lr * (beta1 * (1 - ckp1) - 1))
                z.sub_(grad_normalized, alpha=lr)
            group["k"] = k + 1
        return loss


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
opt = ScheduleFreeAdamW(model.parameters(), lr=1e-2, weight_decay=1e-3)
x, y = torch.randn(20, 3), torch.randn(20, 1)
for step in range(4):
    model.train()
    opt.train()
    loss = F.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    opt.eval()
    with torch.no_grad():
        eval_loss = F.mse_loss(model(x), y)
    print(
        f"step {step} train {loss.item():.6f} eval(x) {eval_loss.item():.6f} "
        f"ckp sum {opt.param_groups[0]['weight_sum']:.3e}"
    )
out(model[0].weight, opt.state[model[0].weight]["z"])


class SophiaG(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-2, betas=(0.965, 0.99), rho=0.04, weight_decay=1e-1):
        super().__init__(params, dict(lr=lr, betas=betas, rho=rho, weight_decay=weight_decay))

    @torch.no_grad()
    def update_hessian(self):
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = torch.zeros((1,), dtype=torch.float)
                    state["exp_avg"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                    state["hessian"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                state["hessian"].mul_(beta2).addcmul_(p.grad, p.grad, value=1 - beta2)

    @torch.no_grad()
    def step(self, bs=20):
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = torch.zeros((1,), dtype=torch.float)
                    state["exp_avg"] = torch.zeros_like(p)
                    state["hessian"] = torch.zeros_like(p)
                state["step"] += 1
                p.mul_(1 - group["lr"] * group["weight_decay"])
                state["exp_avg"].mul_(beta1).add_(p.grad, alpha=1 - beta1)
                ratio = (
                    state["exp_avg"].abs() / (group["rho"] * bs * state["hessian"] + 1e-15)
                ).clamp(None, 1)
                p.addcmul_(state["exp_avg"].sign(), ratio, value=-group["lr"])


def hutchinson_diag(loss, params, generator):
    grads = torch.autograd.grad(loss, params, create_graph=True)
    vs = [torch.randint(0, 2, p.shape, generator=generator).float() * 2 - 1 for p in params]
    hvs = torch.autograd.grad(grads, params, grad_outputs=vs)
    return [v * hv for v, hv in zip(vs, hvs)]


torch.manual_seed(1)
model = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
sophia = SophiaG(model.parameters())
gen = torch.Generator().manual_seed(0)
for step in range(4):
    loss = F.mse_loss(model(x), y)
    sophia.zero_grad()
    loss.backward()
    sophia.step()
    if step % 2 == 0:
        logits = model(x)
        samp = logits + torch.randn(logits.shape, generator=gen)
        loss_sampled = F.mse_loss(logits, samp.detach())
        sophia.zero_grad()
        loss_sampled.backward()
        sophia.update_hessian()
    print(
        f"sophia step {step} loss {loss.item():.6f} "
        f"step count {sophia.state[model[0].weight]['step'].item():.0f}"
    )
diag = hutchinson_diag(F.mse_loss(model(x), y), list(model.parameters()), gen)
print([tuple(d.shape) for d in diag], f"{sum(d.sum() for d in diag).item():.6f}")
out(model[2].weight, sophia.state[model[2].weight]["hessian"], diag[2])
