# the optimizer-step-in-backward recipe: one optimizer per parameter stepped from
# register_post_accumulate_grad_hook, gradients freed as soon as they are used, compared with
# an ordinary step; Tensor hooks on the way and the handle's remove
torch.manual_seed(0)


def make_model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(6, 8), nn.GELU(), nn.LayerNorm(8), nn.Linear(8, 3))


x = torch.randn(5, 6)
y = torch.randint(0, 3, (5,))
model = make_model()
optimizer_dict = {p: torch.optim.Adam([p], foreach=False) for p in model.parameters()}
seen = []


def optimizer_hook(parameter) -> None:
    seen.append(tuple(parameter.shape))
    optimizer_dict[parameter].step()
    optimizer_dict[parameter].zero_grad()


handles = [p.register_post_accumulate_grad_hook(optimizer_hook) for p in model.parameters()]
for _ in range(3):
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    print(f"loss {loss.item():.5f}", all(p.grad is None for p in model.parameters()))
print(seen[:6])
reference = make_model()
opt = torch.optim.Adam(reference.parameters(), foreach=False)
for _ in range(3):
    opt.zero_grad()
    F.cross_entropy(reference(x), y).backward()
    opt.step()
print(all(torch.allclose(a, b) for a, b in zip(model.parameters(), reference.parameters())))
out(list(model.parameters())[0])
for h in handles:
    h.remove()
loss = F.cross_entropy(model(x), y)
loss.backward()
print(len(seen), [p.grad is not None for p in model.parameters()])
state = optimizer_dict[model[0].weight].state_dict()
print(state["state"][0]["step"], sorted(state["param_groups"][0])[:4])
err(lambda: torch.ones(2).register_post_accumulate_grad_hook(optimizer_hook))
nonleaf = torch.ones(2, requires_grad=True) * 2
err(lambda: nonleaf.register_post_accumulate_grad_hook(optimizer_hook))
# ---
# gradient hooks that clip, log and scale, a hook on an intermediate value, and retain_grad
torch.manual_seed(0)
w = torch.randn(3, 3, requires_grad=True)
log = []
w.register_hook(lambda g: log.append(f"{g.norm().item():.4f}"))
w.register_hook(lambda g: g.clamp(-0.1, 0.1))
h = torch.randn(2, 3) @ w
h.retain_grad()
h.register_hook(lambda g: g * 2)
z = h.tanh().sum()
z.backward()
print(log)
out(w.grad, h.grad)
