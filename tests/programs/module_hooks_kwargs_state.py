# module hooks with kwargs, global module hooks, state_dict and load_state_dict hooks
class Scale(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 2)

    def forward(self, x, *, scale=1.0):
        return self.lin(x) * scale


m = Scale()
calls = []


def pre_hook(module, args, kwargs):
    calls.append(("pre", type(module).__name__, len(args), sorted(kwargs)))
    kwargs = dict(kwargs)
    kwargs["scale"] = 2.0
    return args, kwargs


def fwd_hook(module, args, kwargs, output):
    calls.append(("fwd", kwargs.get("scale"), tuple(output.shape)))
    return output + 1


h1 = m.register_forward_pre_hook(pre_hook, with_kwargs=True)
h2 = m.register_forward_hook(fwd_hook, with_kwargs=True)
x = torch.ones(1, 3)
y = m(x, scale=0.5)
print(calls, type(y.grad_fn).__name__)
h1.remove()
h2.remove()
print(m(x, scale=0.5) - m.lin(x) * 0.5)
seen = []
gh = torch.nn.modules.module.register_module_forward_hook(
    lambda mod, inp, out: seen.append(type(mod).__name__)
)
gp = torch.nn.modules.module.register_module_forward_pre_hook(
    lambda mod, inp: seen.append("pre:" + type(mod).__name__)
)
nn.Sequential(nn.Linear(3, 3), nn.ReLU())(x)
gh.remove()
gp.remove()
nn.Linear(3, 3)(x)
print(seen)
bw = []
m.register_full_backward_pre_hook(lambda mod, gout: bw.append(("bpre", gout[0].shape)))
m.register_full_backward_hook(
    lambda mod, gin, gout: bw.append(("bwd", gin[0] is None, gout[0].shape))
)
xr = torch.ones(2, 3, requires_grad=True)
m(xr).sum().backward()
print(bw, xr.grad)
sd_calls = []
m.register_state_dict_pre_hook(
    lambda mod, prefix, keep_vars: sd_calls.append(("pre", prefix, keep_vars))
)
m._register_state_dict_hook(
    lambda mod, sd, prefix, local_metadata: sd_calls.append(("post", sorted(sd)))
)
sd = m.state_dict()
print(sd_calls, list(sd.keys()))
print(sd._metadata if hasattr(sd, "_metadata") else None)


def load_pre(
    module, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs
):
    sd_calls.append(("load_pre", prefix, strict))


def load_post(module, incompatible_keys):
    sd_calls.append(
        ("load_post", incompatible_keys.missing_keys, incompatible_keys.unexpected_keys)
    )


m.register_load_state_dict_pre_hook(load_pre)
m.register_load_state_dict_post_hook(load_post)
print(
    m.load_state_dict(
        {"lin.weight": torch.zeros(2, 3), "lin.bias": torch.zeros(2), "extra": torch.ones(1)},
        strict=False,
    )
)
print(sd_calls[-2:])
print(m.lin.weight.sum())
