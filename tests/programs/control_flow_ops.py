# data-dependent control flow written with torch.cond / torch.while_loop (export-friendly
# models run them eagerly too): a gated residual block and a fixed-point iteration
class Gated(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        return torch.cond(
            x.mean() > 0, lambda x: self.lin(x).relu() + x, lambda x: self.lin(x) * 0.5, (x,)
        )


torch.manual_seed(0)
model = Gated()
for x in (torch.randn(3, 4) + 1, torch.randn(3, 4) - 1):
    y = model(x)
    y.pow(2).sum().backward()
    out(y, model.lin.weight.grad.clone())
    model.zero_grad()


def newton_sqrt(a):
    # x <- (x + a / x) / 2 until converged or 50 steps
    def keep_going(i, x):
        return (i < 50) & ((x * x - a).abs().max() > 1e-6)

    def step(i, x):
        return i + 1, (x + a / x) / 2

    return torch.while_loop(keep_going, step, (torch.tensor(0), torch.ones_like(a)))


steps, root = newton_sqrt(torch.tensor([2.0, 9.0, 0.25]))
print(steps, root)
err(lambda: torch.cond(torch.tensor(True), lambda x: x, lambda x: x * 2, (root,)))
err(lambda: torch.while_loop(lambda x: x.sum() < 9, lambda x: (torch.cat([x, x]),), (root,)))
