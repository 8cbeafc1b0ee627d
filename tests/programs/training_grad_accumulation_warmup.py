# Gradient accumulation with loss scaling by steps, clip_grad_norm_, linear warmup + cosine decay
import math
from dataclasses import dataclass, field

torch.manual_seed(0)


@dataclass
class TrainArgs:
    lr: float = 1e-2
    warmup_steps: int = 3
    max_steps: int = 10
    grad_accum: int = 4
    max_grad_norm: float = 1.0
    micro_batch: int = 4
    log_every: int = 2
    betas: tuple = field(default=(0.9, 0.999))


def get_cosine_schedule_with_warmup(
    optimizer, num_warmup_steps, num_training_steps, num_cycles=0.5, last_epoch=-1
):
    def lr_lambda(current_step):
        if current_step < num_warmup_steps:
            return float(current_step) / float(max(1, num_warmup_steps))
        progress = float(current_step - num_warmup_steps) / float(
            max(1, num_training_steps - num_warmup_steps)
        )
        return max(0.0, 0.5 * (1.0 + math.cos(math.pi * float(num_cycles) * 2.0 * progress)))

    return torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda, last_epoch)


def main(args: TrainArgs):
    model = nn.Sequential(nn.Linear(6, 16), nn.GELU(), nn.Dropout(0.1), nn.Linear(16, 1))
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, betas=args.betas)
    scheduler = get_cosine_schedule_with_warmup(optimizer, args.warmup_steps, args.max_steps)
    X = torch.randn(args.max_steps * args.grad_accum * args.micro_batch, 6)
    y = X @ torch.linspace(-1, 1, 6).unsqueeze(1) + 0.1 * torch.randn(len(X), 1)
    batches = list(zip(X.split(args.micro_batch), y.split(args.micro_batch)))
    model.train()
    running, norms = 0.0, []
    for i, (xb, yb) in enumerate(batches):
        loss = F.mse_loss(model(xb), yb)
        loss = loss / args.grad_accum
        loss.backward()
        running += loss.item()
        if (i + 1) % args.grad_accum == 0:
            total_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
            norms.append(total_norm)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
            step = (i + 1) // args.grad_accum
            if step % args.log_every == 0:
                print(
                    f"step {step:3d} | loss {running:.4f} | lr {scheduler.get_last_lr()[0]:.2e} "
                    f"| grad norm {total_norm:.3f}"
                )
            running = 0.0
    return model, torch.stack(norms), scheduler


if __name__ == "__main__":
    model, norms, sched = main(TrainArgs())
    print(norms.dtype, norms.shape, norms.requires_grad)
    print(sched.state_dict()["last_epoch"], sched.state_dict()["_step_count"])
    out(norms, model[0].weight)
# ---
# clip_grad_value_, per-parameter grad norms, inf norm, error_if_nonfinite, foreach clipping
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))
loss = model(torch.randn(5, 4) * 10).pow(2).sum()
loss.backward()
grads = [p.grad.detach().clone() for p in model.parameters()]
for name, p in model.named_parameters():
    print(f"{name:10s} {p.grad.norm(2).item():.4f}")
norm_inf = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0, norm_type="inf")
print(f"inf norm before clip {norm_inf:.4f}")
for p, g in zip(model.parameters(), grads):
    p.grad = g.clone()
nn.utils.clip_grad_value_(model.parameters(), clip_value=0.5)
print(max(p.grad.abs().max().item() for p in model.parameters()))
for p, g in zip(model.parameters(), grads):
    p.grad = g.clone()
n2 = nn.utils.clip_grad_norm_(model.parameters(), 2.0, foreach=True)
after = torch.norm(torch.stack([torch.norm(p.grad.detach(), 2.0) for p in model.parameters()]), 2.0)
print(f"{n2:.4f} -> {after:.4f}")
model[0].weight.grad[0, 0] = float("nan")
err(lambda: nn.utils.clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=True))
print(nn.utils.clip_grad_norm_(model.parameters(), 1.0))
out(n2, after, norm_inf)
