# Adafactor: factored second moments for matrices, a full one for vectors, relative steps
torch.manual_seed(0)
w = torch.randn(4, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
c = torch.randn(2, 3, 2, requires_grad=True)
opt = torch.optim.Adafactor(
    [{"params": [w, c]}, {"params": [b], "weight_decay": 0.1, "maximize": True}], lr=0.05
)
for _ in range(4):
    opt.zero_grad()
    loss = (w.sum(0) * b).pow(2).sum() + (c**3).sum()
    loss.backward()
    opt.step()
    out(loss)
out(w, b, c, opt.state[w]["row_var"], opt.state[w]["col_var"], opt.state[c]["col_var"])
out(opt.state[b]["variance"], opt.state[b]["step"], sorted(opt.state[w]), sorted(opt.state[b]))
print(opt.state_dict()["param_groups"])
opt2 = torch.optim.Adafactor([w], d=2.0, eps=(1e-30, 1e-3))
(w**2).sum().backward()
opt2.step()
out(w)
z = torch.zeros(2, 2, requires_grad=True)
zero_opt = torch.optim.Adafactor([z])
z.sum().backward()
zero_opt.step()
out(z)
for bad in (
    dict(lr=-1),
    dict(beta2_decay=0.5),
    dict(eps=(-1, 1e-3)),
    dict(d=0.5),
    dict(weight_decay=-1),
):
    try:
        torch.optim.Adafactor([w], **bad)
    except ValueError as e:
        print(e)
err(
    lambda: torch.optim.Adafactor([torch.ones(2, dtype=torch.complex64, requires_grad=True)]).step()
)
