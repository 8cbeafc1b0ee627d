# optimizer hooks recipe: per-optimizer and global step hooks, printed in the order they run
import importlib

# torch.optim drops its submodules' names: the global hooks are reached by importing the module
optimizer_module = importlib.import_module(torch.__name__ + ".optim.optimizer")
model = nn.Linear(3, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
calls = []


def pre_hook(optimizer, args, kwargs):
    calls.append(("pre", type(optimizer).__name__, args, sorted(kwargs)))


def post_hook(optimizer, args, kwargs):
    calls.append(("post", optimizer.param_groups[0]["lr"]))


h1 = opt.register_step_pre_hook(pre_hook)
h2 = opt.register_step_post_hook(post_hook)
g1 = optimizer_module.register_optimizer_step_pre_hook(
    lambda o, a, k: calls.append(("global pre", len(o.param_groups)))
)
g2 = optimizer_module.register_optimizer_step_post_hook(
    lambda o, a, k: calls.append(("global post",))
)
x = torch.randn(4, 3)
model(x).pow(2).mean().backward()
opt.step()
for c in calls:
    print(c)
print(type(h1).__name__, type(g1).__name__)
g1.remove()
g2.remove()
h1.remove()
calls.clear()
opt.step()
print(calls)
h2.remove()
out(model.weight, model.bias)
# ---
# optimizer hooks recipe: a pre-hook returning new (args, kwargs), step's closure, hook errors
w = torch.tensor([1.0, -2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.5)


def replace_closure(optimizer, args, kwargs):
    print("pre-hook sees", len(args), "args and", list(kwargs), args[0] is optimizer)
    return args, kwargs


opt.register_step_pre_hook(replace_closure)


def closure():
    opt.zero_grad()
    loss = (w**2).sum()
    loss.backward()
    return loss


loss = opt.step(closure)
print(f"loss {loss.item():.4f}", w.tolist())
loss = opt.step(closure=closure)
print(f"loss {loss.item():.4f}", w.tolist())
opt.register_step_pre_hook(lambda o, a, k: ((o,), {"closure": lambda: torch.tensor(7.0)}))
print(opt.step(closure))
opt.register_step_pre_hook(lambda o, a, k: "not a pair")
err(lambda: opt.step(closure))
# ---
# optimizer hooks recipe: state_dict and load_state_dict hooks that add and strip a field
model = nn.Linear(2, 2)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
model(torch.ones(1, 2)).sum().backward()
opt.step()
seen = []


def sd_pre(optimizer):
    seen.append("state_dict pre")


def sd_post(optimizer, state_dict):
    seen.append("state_dict post")
    state_dict["extra"] = {"epoch": 3}
    return state_dict


opt.register_state_dict_pre_hook(sd_pre)
opt.register_state_dict_post_hook(sd_post)
sd = opt.state_dict()
print(sorted(sd), sd["extra"])


def load_pre(optimizer, state_dict):
    seen.append("load pre")
    state_dict = dict(state_dict)
    state_dict.pop("extra")
    return state_dict


def load_post(optimizer):
    seen.append("load post")


opt2 = torch.optim.Adam(model.parameters(), lr=1e-2)
opt2.register_load_state_dict_pre_hook(load_pre)
opt2.register_load_state_dict_post_hook(load_post)
opt2.load_state_dict(sd)
print(seen)
print(opt2.state_dict()["param_groups"])
out(opt2.state_dict()["state"][0]["exp_avg"])
