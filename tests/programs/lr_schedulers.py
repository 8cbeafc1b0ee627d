# StepLR, CosineAnnealingLR, LambdaLR values and get_last_lr
def lrs(make_sched, steps=8, lr=1.0):
    p = torch.ones(1, requires_grad=True)
    opt = torch.optim.SGD([p], lr=lr)
    s = make_sched(opt)
    got = [s.get_last_lr()]
    for _ in range(steps):
        opt.step()
        s.step()
        got.append(s.get_last_lr())
    return got, s.last_epoch, opt.param_groups[0]["lr"]


out(lrs(lambda o: torch.optim.lr_scheduler.StepLR(o, 3)))
out(lrs(lambda o: torch.optim.lr_scheduler.StepLR(o, step_size=2, gamma=0.5)))
out(lrs(lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=4)))
out(lrs(lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=3, eta_min=0.1)))
out(lrs(lambda o: torch.optim.lr_scheduler.LambdaLR(o, lambda e: 1 / (e + 1))))
out(lrs(lambda o: torch.optim.lr_scheduler.LambdaLR(o, lambda e: 0.9**e), lr=0.5))
# ---
# schedulers: state_dict, several groups, initial_lr, last_epoch errors
p = torch.ones(1, requires_grad=True)
q = torch.ones(1, requires_grad=True)
opt = torch.optim.SGD([{"params": [p]}, {"params": [q], "lr": 0.5}], lr=1.0)
s = torch.optim.lr_scheduler.LambdaLR(opt, [lambda e: 0.5**e, lambda e: 1.0 + e])
opt.step()
s.step()
out(s.get_last_lr(), [g["initial_lr"] for g in opt.param_groups])
sd = s.state_dict()
out(sorted(sd), sd["last_epoch"], sd["base_lrs"], sd["_last_lr"])
err(lambda: torch.optim.lr_scheduler.LambdaLR(opt, [lambda e: 1.0]))
st = torch.optim.lr_scheduler.StepLR(opt, 2)
out(sorted(st.state_dict()))
opt2 = torch.optim.SGD([p], lr=0.3)
err(lambda: torch.optim.lr_scheduler.StepLR(opt2, 2, last_epoch=3))
s2 = torch.optim.lr_scheduler.StepLR(torch.optim.SGD([p], lr=0.3), 2)
s2.load_state_dict(
    {
        "step_size": 2,
        "gamma": 0.1,
        "base_lrs": [0.3],
        "last_epoch": 5,
        "_last_lr": [0.003],
        "_step_count": 6,
        "verbose": False,
        "_get_lr_called_within_step": False,
    }
)
out(s2.last_epoch, s2.get_last_lr())
c = torch.optim.lr_scheduler.CosineAnnealingLR(torch.optim.SGD([p], lr=0.3), 10)
out(sorted(c.state_dict()))
err(lambda: torch.optim.lr_scheduler.StepLR("opt", 2))
# ---
# scheduler step order warning does not change values
import warnings

p = torch.ones(1, requires_grad=True)
opt = torch.optim.SGD([p], lr=1.0)
s = torch.optim.lr_scheduler.StepLR(opt, 1, gamma=0.5)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    s.step()
out(len(w), [str(x.category.__name__) for x in w], s.get_last_lr())
opt.step()
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    s.step()
out(len(w), s.get_last_lr())
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    out(s.get_lr())
out(len(w), [str(x.category.__name__) for x in w])
