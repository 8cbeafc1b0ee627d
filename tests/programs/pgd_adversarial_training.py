# PGD adversarial training (Madry): random start in the eps-ball, sign steps, projection, TRADES KL
def pgd_attack(model, x, y, eps=0.3, alpha=0.1, steps=5, random_start=True, generator=None):
    x_adv = x.clone().detach()
    if random_start:
        x_adv = x_adv + torch.empty(x_adv.shape).uniform_(-eps, eps, generator=generator)
        x_adv = torch.clamp(x_adv, min=0, max=1).detach()
    for _ in range(steps):
        x_adv.requires_grad = True
        loss = F.cross_entropy(model(x_adv), y)
        grad = torch.autograd.grad(loss, x_adv, retain_graph=False, create_graph=False)[0]
        x_adv = x_adv.detach() + alpha * grad.sign()
        delta = torch.clamp(x_adv - x, min=-eps, max=eps)
        x_adv = torch.clamp(x + delta, min=0, max=1).detach()
    return x_adv


def trades_loss(model, x, y, eps=0.3, step_size=0.1, steps=3, beta=6.0):
    criterion_kl = nn.KLDivLoss(reduction="sum")
    model.eval()
    x_adv = x.detach() + 0.001 * torch.randn(x.shape).detach()
    for _ in range(steps):
        x_adv.requires_grad_()
        with torch.enable_grad():
            loss_kl = criterion_kl(F.log_softmax(model(x_adv), dim=1), F.softmax(model(x), dim=1))
        grad = torch.autograd.grad(loss_kl, [x_adv])[0]
        x_adv = x_adv.detach() + step_size * torch.sign(grad.detach())
        x_adv = torch.min(torch.max(x_adv, x - eps), x + eps)
        x_adv = torch.clamp(x_adv, 0.0, 1.0)
    model.train()
    x_adv = torch.autograd.Variable(torch.clamp(x_adv, 0.0, 1.0), requires_grad=False)
    logits = model(x)
    loss_natural = F.cross_entropy(logits, y)
    loss_robust = (1.0 / x.size(0)) * criterion_kl(
        F.log_softmax(model(x_adv), dim=1), F.softmax(model(x), dim=1)
    )
    return loss_natural + beta * loss_robust, loss_natural, loss_robust


torch.manual_seed(0)
model = nn.Sequential(nn.Flatten(), nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 3))
x = torch.rand(12, 1, 4, 4)
y = torch.randint(0, 3, (12,))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
g = torch.Generator().manual_seed(1)
for epoch in range(3):
    model.eval()
    x_adv = pgd_attack(model, x, y, generator=g)
    model.train()
    loss = F.cross_entropy(model(x_adv), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        clean_acc = (model(x).argmax(1) == y).float().mean().item()
        adv_acc = (model(x_adv).argmax(1) == y).float().mean().item()
    linf = (x_adv - x).abs().max().item()
    inside = linf <= 0.3 + 1e-6
    print(
        f"epoch {epoch} loss {loss.item():.5f} clean {clean_acc:.3f} adv {adv_acc:.3f} in {inside}"
    )
out(x_adv, model[1].weight.grad)
loss, nat, rob = trades_loss(model, x, y)
loss.backward()
print(f"trades {loss.item():.5f} natural {nat.item():.5f} robust {rob.item():.5f}", model.training)
out(loss, model[3].weight.grad)
print(torch.empty(3).uniform_(-1, 1, generator=torch.Generator().manual_seed(5)))
