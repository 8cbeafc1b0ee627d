# SGD variants: momentum, dampening, nesterov, weight_decay, maximize
def run(**kw):
    w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.1, **kw)
    for i in range(4):
        opt.zero_grad()
        loss = (w * w * torch.tensor([1.0, 2.0, 0.5])).sum() + w[0] * i
        loss.backward()
        opt.step()
    return w.detach()


out(run(), run(momentum=0.9), run(momentum=0.9, dampening=0.5), run(momentum=0.9, nesterov=True))
out(run(weight_decay=0.1), run(maximize=True), run(momentum=0.5, weight_decay=0.01, maximize=True))
err(lambda: torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1, nesterov=True))
err(
    lambda: torch.optim.SGD(
        [torch.ones(1, requires_grad=True)], lr=0.1, momentum=0.9, dampening=0.1, nesterov=True
    )
)
err(lambda: torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=-0.1))
err(lambda: torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1, momentum=-1))
err(lambda: torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1, weight_decay=-1))
err(lambda: torch.optim.SGD([], lr=0.1))
err(lambda: torch.optim.SGD(torch.ones(2, requires_grad=True), lr=0.1))
err(lambda: type(torch.optim.SGD([torch.ones(1)], lr=0.1)).__name__)
out(torch.optim.SGD([torch.ones(1, requires_grad=True)]).defaults)


# ---
# Adam, AdamW, amsgrad, RMSprop trajectories
def run(cls, **kw):
    w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    opt = cls([w], **kw)
    for i in range(5):
        opt.zero_grad()
        loss = (w * w * torch.tensor([1.0, 2.0, 0.5])).sum() + w[1] * i
        loss.backward()
        opt.step()
    return w.detach()


out(run(torch.optim.Adam, lr=0.1), run(torch.optim.Adam, lr=0.1, amsgrad=True, weight_decay=0.1))
out(run(torch.optim.Adam, lr=0.1, betas=(0.5, 0.9), eps=1e-3, maximize=True))
out(run(torch.optim.AdamW, lr=0.1), run(torch.optim.AdamW, lr=0.1, amsgrad=True, weight_decay=0.5))
out(
    run(torch.optim.RMSprop, lr=0.01),
    run(torch.optim.RMSprop, lr=0.01, momentum=0.9, centered=True),
)
out(run(torch.optim.RMSprop, lr=0.01, alpha=0.5, weight_decay=0.1, maximize=True))
err(lambda: torch.optim.Adam([torch.ones(1, requires_grad=True)], betas=(1.0, 0.9)))
err(lambda: torch.optim.Adam([torch.ones(1, requires_grad=True)], betas=(0.9, -0.1)))
err(lambda: torch.optim.Adam([torch.ones(1, requires_grad=True)], eps=-1))
err(lambda: torch.optim.Adam([torch.ones(1, requires_grad=True)], lr=-1))
err(lambda: torch.optim.AdamW([torch.ones(1, requires_grad=True)], weight_decay=-1))
err(lambda: torch.optim.RMSprop([torch.ones(1, requires_grad=True)], alpha=-1))
err(lambda: torch.optim.RMSprop([torch.ones(1, requires_grad=True)], momentum=-1))
out(torch.optim.Adam([torch.ones(1, requires_grad=True)]).defaults["betas"])
out(sorted(torch.optim.AdamW([torch.ones(1, requires_grad=True)]).defaults))
out(sorted(torch.optim.Adam([torch.ones(1, requires_grad=True)]).defaults))
out(sorted(torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1).defaults))
out(sorted(torch.optim.RMSprop([torch.ones(1, requires_grad=True)]).defaults))
# ---
# param groups: per-group options, add_param_group errors
a = torch.ones(2, requires_grad=True)
b = torch.ones(3, requires_grad=True)
opt = torch.optim.SGD([{"params": [a]}, {"params": b, "lr": 0.5, "momentum": 0.9}], lr=0.1)
out(
    len(opt.param_groups),
    [g["lr"] for g in opt.param_groups],
    [g["momentum"] for g in opt.param_groups],
)
out(sorted(opt.param_groups[1]))
(a.sum() + b.sum()).backward()
opt.step()
out(a, b)
c = torch.ones(1, requires_grad=True)
opt.add_param_group({"params": c, "lr": 0.01})
out(len(opt.param_groups), opt.param_groups[2]["lr"], opt.param_groups[2]["momentum"])
err(lambda: opt.add_param_group({"params": [a]}))
err(lambda: opt.add_param_group({"params": [torch.ones(1)]}))
err(lambda: opt.add_param_group({"params": {c}}))
err(lambda: opt.add_param_group({"lr": 0.1}))
err(lambda: torch.optim.SGD([{"params": [a]}, {"params": [a]}], lr=0.1))
out(torch.optim.SGD([{"params": [a]}]).param_groups[0]["lr"])
print(opt)
print(torch.optim.Adam([a], lr=1e-3))
# ---
# zero_grad set_to_none and None grads skipped
a = torch.ones(2, requires_grad=True)
b = torch.ones(2, requires_grad=True)
opt = torch.optim.SGD([a, b], lr=0.1, momentum=0.9)
(a * 2).sum().backward()
opt.step()
out(a, b, b.grad is None, len(opt.state), a in opt.state, b in opt.state)
opt.zero_grad(set_to_none=False)
out(a.grad, b.grad)
opt.zero_grad()
out(a.grad)
opt.step()
out(a)


# ---
# optimizer state_dict round trip and load into a new optimizer
def make():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    v = torch.tensor([[0.5]], requires_grad=True)
    return (
        w,
        v,
        torch.optim.Adam([{"params": [w]}, {"params": [v], "lr": 0.01}], lr=0.1, amsgrad=True),
    )


w, v, opt = make()
for _ in range(3):
    opt.zero_grad()
    (w.pow(2).sum() + v.sum()).backward()
    opt.step()
sd = opt.state_dict()
out(
    sorted(sd), list(sd["state"]), sorted(sd["state"][0]), [g["params"] for g in sd["param_groups"]]
)
out(sd["state"][0]["step"], sd["state"][0]["exp_avg"], sd["param_groups"][1]["lr"])
out(sorted(sd["param_groups"][0]))
w2, v2, opt2 = make()
with torch.no_grad():
    w2.copy_(w)
    v2.copy_(v)
opt2.load_state_dict(sd)
out(opt2.param_groups[1]["lr"], opt2.state[w2]["exp_avg"], opt2.state[w2]["step"])
for o, p, q in ((opt, w, v), (opt2, w2, v2)):
    o.zero_grad()
    (p.pow(2).sum() + q.sum()).backward()
    o.step()
out(w, w2, v, v2)
sd["param_groups"][0]["params"] = [0, 1]
err(lambda: opt2.load_state_dict(sd))
bad = opt.state_dict()
bad["param_groups"] = bad["param_groups"][:1]
err(lambda: opt2.load_state_dict(bad))
sgd = torch.optim.SGD([w], lr=0.1, momentum=0.9)
out(sgd.state_dict()["state"], sgd.state_dict()["param_groups"][0]["params"])
(w.sum()).backward()
sgd.step()
out(sorted(sgd.state_dict()["state"][0]), sgd.state_dict()["state"][0]["momentum_buffer"])
# ---
# optimizer step with closures, version counters and no_grad
w = torch.tensor([2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.25)
calls = []


def closure():
    calls.append(1)
    opt.zero_grad()
    loss = (w * w).sum()
    loss.backward()
    return loss


r = opt.step(closure)
out(r, w, len(calls))
v0 = w._version
opt.step(closure)
out(w._version > v0, w.requires_grad, w.is_leaf, w.grad_fn)
err(lambda: torch.optim.LBFGS([w]).step())
lb = torch.optim.LBFGS([w], lr=1, max_iter=5)
out(lb.step(closure))
out(w)
# ---
# optimizer state-dict hooks, capturable/differentiable refused at step
w = torch.tensor([1.0, -2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
rec = []
opt.register_state_dict_pre_hook(lambda o: rec.append("sd-pre"))
opt.register_state_dict_post_hook(lambda o, sd: rec.append(sorted(sd)))
opt.register_load_state_dict_pre_hook(lambda o, sd: rec.append("load-pre"))
opt.register_load_state_dict_post_hook(lambda o: rec.append("load-post"))
opt.load_state_dict(opt.state_dict())
out(rec)
w.grad = torch.ones(2)
for kw in [dict(capturable=True), dict(differentiable=True)]:
    o = torch.optim.Adam([w], **kw)
    out(o.defaults[next(iter(kw))])
    err(lambda: o.step())
err(lambda: torch.optim.Adam([w], fused=True, foreach=True))
