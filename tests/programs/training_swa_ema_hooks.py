# SWA and EMA averaged models, update_bn, clip helpers, post-accumulate-grad optimizer hooks
model = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 2))
vec = nn.utils.parameters_to_vector(model.parameters())
print(vec.shape)
nn.utils.vector_to_parameters(vec * 0.5, model.parameters())
out(model[0].bias)
swa = torch.optim.swa_utils.AveragedModel(model)
ema = torch.optim.swa_utils.AveragedModel(
    model, multi_avg_fn=torch.optim.swa_utils.get_ema_multi_avg_fn(0.9)
)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.swa_utils.SWALR(opt, swa_lr=0.05, anneal_epochs=2, anneal_strategy="cos")
x = torch.randn(16, 4)
y = torch.randint(0, 2, (16,))
for epoch in range(3):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    swa.update_parameters(model)
    ema.update_parameters(model)
    sched.step()
    print(epoch, f"{loss.item():.4f}", sched.get_last_lr())
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x), batch_size=8)
torch.optim.swa_utils.update_bn(loader, swa)
out(swa.module[1].running_mean, swa.n_averaged, ema.module[0].bias)
print(list(swa.state_dict().keys())[:3])
fused = torch.nn.utils.fusion.fuse_conv_bn_eval(nn.Conv2d(2, 3, 3).eval(), nn.BatchNorm2d(3).eval())
out(fused.weight.shape, fused.bias)
params = [p for p in model.parameters()]
for p in params:
    p.grad = torch.ones_like(p) * 3
tn = nn.utils.clip_grad_norm_(params, max_norm=1.0, norm_type=2.0, foreach=True)
out(tn, params[0].grad[0])
params[0].grad[0, 0] = float("nan")
err(lambda: nn.utils.clip_grad_norm_(params, 1.0, error_if_nonfinite=True))
gn = nn.utils.get_total_norm([p.grad for p in params[1:]], norm_type=float("inf"))
nn.utils.clip_grads_with_norm_(params[1:], 1.0, gn)
out(gn, params[1].grad)
hits = []


def post_hook(p):
    hits.append(p.shape)


w = nn.Parameter(torch.randn(3))
w.register_post_accumulate_grad_hook(post_hook)
(w * 2).sum().backward()
print(hits)
opt2 = torch.optim.Adam([w], lr=0.1)
seen = []
h1 = opt2.register_step_pre_hook(lambda o, a, k: seen.append("pre"))
h2 = opt2.register_step_post_hook(lambda o, a, k: seen.append("post"))
opt2.step()
h1.remove()
opt2.step()
print(seen)
print(opt2)
opt2.add_param_group({"params": [nn.Parameter(torch.zeros(2))], "lr": 0.01})
print(
    len(opt2.param_groups),
    opt2.param_groups[1]["betas"],
    sorted(opt2.state_dict()["param_groups"][1].keys()),
)
optim_dict = {p: torch.optim.SGD([p], lr=0.1) for p in [nn.Parameter(torch.ones(2))]}


def optimizer_hook(parameter):
    optim_dict[parameter].step()
    optim_dict[parameter].zero_grad()


for p in optim_dict:
    p.register_post_accumulate_grad_hook(optimizer_hook)
(list(optim_dict)[0] ** 2).sum().backward()
out(list(optim_dict)[0], list(optim_dict)[0].grad)
