# state_dict prefix, keep_vars and order
m = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
sd = m.state_dict(prefix="model.")
out(list(sd.keys()))
out([type(v).__name__ for v in m.state_dict(keep_vars=True).values()])
out([v.requires_grad for v in m.state_dict().values()])
out([v.requires_grad for v in m.state_dict(keep_vars=True).values()])
# ---
# load_state_dict strict error message
m = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
sd = m.state_dict()
sd["2.weight"] = torch.ones(1)
del sd["0.bias"]
try:
    m.load_state_dict(sd)
except RuntimeError as e:
    print(e)
sd = m.state_dict()
sd["1.weight"] = torch.ones(3, 3)
try:
    m.load_state_dict(sd)
except RuntimeError as e:
    print(e)
r = m.load_state_dict(m.state_dict())
print(r)
out(r.missing_keys, r.unexpected_keys)
# ---
# load_state_dict assign keeps the given tensors
m = nn.Linear(2, 2)
w = torch.full((2, 2), 3.0)
b = torch.zeros(2)
m.load_state_dict({"weight": w, "bias": b}, assign=True)
out(m.weight, type(m.weight).__name__, m.weight.requires_grad)
m2 = nn.Linear(2, 2)
m2.load_state_dict({"weight": w, "bias": b})
out(m2.weight.data_ptr() == w.data_ptr(), m2.weight)
# ---
# load_state_dict with non-tensor and dtype cast
m = nn.Linear(2, 1).double()
m.load_state_dict({"weight": torch.ones(1, 2), "bias": torch.zeros(1)})
out(m.weight, m.bias)
err(lambda: m.load_state_dict({"weight": [1.0, 2.0], "bias": torch.zeros(1)}))
err(lambda: m.load_state_dict([1, 2]))
# ---
# non-persistent buffers and register_buffer errors
m = nn.Module()
m.register_buffer("a", torch.ones(2))
m.register_buffer("b", torch.zeros(1), persistent=False)
m.register_buffer("c", None)
out(list(m.state_dict().keys()), [n for n, _ in m.named_buffers()])
err(lambda: m.register_buffer("a.b", torch.ones(1)))
err(lambda: m.register_buffer("", torch.ones(1)))
err(lambda: m.register_buffer("d", [1, 2]))
err(lambda: m.register_buffer(3, torch.ones(1)))
m.p = nn.Parameter(torch.ones(1))
err(lambda: m.register_buffer("p", torch.ones(1)))
err(lambda: m.register_parameter("a", nn.Parameter(torch.ones(1))))
err(lambda: m.register_parameter("q", torch.ones(1)))
m.register_parameter("r", None)
out([n for n, _ in m.named_parameters()], m.r)


# ---
# load_state_dict into nested modules: shapes, strict=False, missing buffers, dtype kept
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.BatchNorm1d(2)))
        self.head = nn.ModuleDict({"a": nn.Linear(2, 1)})
        self.register_buffer("scale", torch.tensor(2.0))


src = Net()
dst = Net().double()
with torch.no_grad():
    src.block[0].weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
res = dst.load_state_dict(src.state_dict())
out(dst.block[0].weight, dst.block[0].weight.dtype, res.missing_keys)
sd = src.state_dict()
del sd["scale"]
del sd["block.1.0.num_batches_tracked"]
sd["head.b.weight"] = torch.ones(1)
res = dst.load_state_dict(sd, strict=False)
out(sorted(res.missing_keys), res.unexpected_keys)
err(lambda: dst.load_state_dict(sd))
try:
    dst.load_state_dict(sd)
except RuntimeError as e:
    print(e)
sd = src.state_dict()
sd["block.0.bias"] = torch.ones(3)
try:
    dst.load_state_dict(sd, strict=False)
except RuntimeError as e:
    print(e)
# ---
# state_dict/load_state_dict hooks, extra state, and to() with devices
lin = nn.Linear(1, 1)
lin.register_state_dict_pre_hook(lambda mod, prefix, keep_vars: print("pre", prefix, keep_vars))


def post(mod, sd, prefix, local_metadata):
    sd[prefix + "extra"] = torch.zeros(1)


lin.register_state_dict_post_hook(post)
out(list(lin.state_dict(prefix="p.")))


def load_pre(mod, sd, prefix, *args):
    sd[prefix + "bias"] = torch.full((1,), 5.0)


lin2 = nn.Linear(1, 1)
lin2.register_load_state_dict_pre_hook(load_pre)
lin2.load_state_dict({"weight": torch.ones(1, 1)})
out(lin2.bias)


def load_post(mod, incompatible):
    print("post", incompatible.missing_keys, incompatible.unexpected_keys)
    incompatible.unexpected_keys.clear()


lin3 = nn.Linear(1, 1)
lin3.register_load_state_dict_post_hook(load_post)
print(
    lin3.load_state_dict({"weight": torch.ones(1, 1), "bias": torch.ones(1), "zz": torch.ones(1)})
)


class Ex(nn.Module):
    def __init__(self):
        super().__init__()
        self.v = 3
        self.lin = nn.Linear(1, 1)

    def get_extra_state(self):
        return {"v": self.v}

    def set_extra_state(self, state):
        self.v = state["v"]


a = Ex()
a.v = 7
sd = a.state_dict()
b = Ex()
b.load_state_dict(sd)
out(list(sd), b.v)
del sd["_extra_state"]
err(lambda: b.load_state_dict(sd))
out(b.load_state_dict(sd, strict=False).missing_keys)
outer = nn.Sequential(Ex())
out(list(outer.state_dict()))
err(lambda: nn.Module().get_extra_state())
m = nn.Linear(1, 1)
err(lambda: m.to("cuda"))
err(lambda: m.to(device="cuda:0"))
out(
    m.to("cpu") is m,
    m.to(torch.device("cpu"), torch.float64).weight.dtype,
    m.to("cpu", torch.float32).weight.dtype,
)
# ---
# state-dict hooks: post hooks edit in place, load pre hooks may rename keys
m = nn.Sequential(nn.Linear(2, 2))
seen = []


def post(module, state_dict, prefix, local_metadata):
    seen.append((type(module).__name__, prefix))
    state_dict[prefix + "extra"] = torch.zeros(1)


def bad_post(module, state_dict, prefix, local_metadata):
    return state_dict


def rename(module, state_dict, prefix, *rest):
    if prefix + "w" in state_dict:
        state_dict[prefix + "weight"] = state_dict.pop(prefix + "w")


handle = m[0].register_state_dict_post_hook(post)
out(list(m.state_dict()), seen)
handle.remove()
m[0].register_load_state_dict_pre_hook(rename)
out(m.load_state_dict({"0.w": torch.ones(2, 2), "0.bias": torch.zeros(2)}), m[0].weight)
m[0].register_state_dict_post_hook(bad_post)
err(lambda: m.state_dict())
err(lambda: m._register_state_dict_hook(bad_post))
