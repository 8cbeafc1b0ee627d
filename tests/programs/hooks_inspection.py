# feature extraction with forward hooks, gradients seen by full backward hooks, handle removal
torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(1, 3, 3, padding=1),
    nn.ReLU(),
    nn.MaxPool2d(2),
    nn.Flatten(),
    nn.Linear(3 * 4 * 4, 5),
    nn.LogSoftmax(dim=1),
)
activations, grads, handles = {}, {}, []


def save_activation(name):
    def hook(module, inputs, output):
        activations[name] = output.detach()

    return hook


def save_grad(name):
    def hook(module, grad_input, grad_output):
        grads[name] = (
            tuple(None if g is None else tuple(g.shape) for g in grad_input),
            grad_output[0].norm().item(),
        )

    return hook


for name, module in model.named_children():
    handles.append(module.register_forward_hook(save_activation(name)))
    handles.append(module.register_full_backward_hook(save_grad(name)))
x = torch.randn(2, 1, 8, 8)
y = torch.tensor([1, 3])
loss = F.nll_loss(model(x), y)
loss.backward()
for name, act in activations.items():
    print(f"{name}: {type(model[int(name)]).__name__:12s} {tuple(act.shape)} mean={act.mean():.4f}")
for name in sorted(grads):
    shapes, norm = grads[name]
    print(f"grad {name}: inputs {shapes} |grad_out|={norm:.5f}")
for h in handles:
    h.remove()
activations.clear()
model(x)
print("after removal:", activations)
out(loss, model[0].weight.grad, model[4].bias.grad)
# ---
# forward pre-hooks that rescale inputs, hooks returning a replacement, tensor hooks and retain_grad
torch.manual_seed(1)
lin = nn.Linear(3, 2)
calls = []


def pre(module, args):
    calls.append("pre")
    return (args[0] * 2,)


def post(module, args, output):
    calls.append("post")
    return output + 1


h1 = lin.register_forward_pre_hook(pre)
h2 = lin.register_forward_hook(post)
inp = torch.ones(1, 3, requires_grad=True)
o = lin(inp)
print(calls, o)
print(torch.allclose(o, lin.weight.sum(1) * 2 + lin.bias + 1))
h1.remove()
h2.remove()


def kw_hook(module, args, kwargs, output):
    calls.append(sorted(kwargs))


class Scaled(nn.Module):
    def forward(self, x, scale=1.0):
        return x * scale


s = Scaled()
s.register_forward_hook(kw_hook, with_kwargs=True)
print(s(torch.ones(2), scale=3.0), calls[-1])
mid = inp * 3
mid.retain_grad()
seen = []
mid.register_hook(lambda g: seen.append(g.clone()))
h = mid.register_hook(lambda g: g * 10)
(mid**2).sum().backward()
print(seen[0], mid.grad, inp.grad)
h.remove()
w = torch.randn(3, requires_grad=True)
w.register_hook(lambda g: g.clamp(-0.1, 0.1))
(w * torch.tensor([1.0, -5.0, 0.05])).sum().backward()
print(w.grad)
out(mid.grad, inp.grad, w.grad)
# ---
# backward pre-hook on a module, gradient clipping inside a hook, dead-ReLU detection
torch.manual_seed(2)
net = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 1))
dead = {}


def count_dead(module, inp, output):
    dead[module] = (output == 0).float().mean().item()


net[1].register_forward_hook(count_dead)
net[2].register_full_backward_pre_hook(lambda m, grad_output: (grad_output[0] * 0.5,))
for p in net.parameters():
    p.register_hook(lambda g: g / (g.norm() + 1e-6) if g.norm() > 1 else g)
X = torch.randn(16, 4)
loss = net(X).pow(2).mean()
loss.backward()
print(f"dead ReLU fraction {dead[net[1]]:.3f}")
print([round(p.grad.norm().item(), 4) for p in net.parameters()])
print(net[0]._forward_hooks, len(net[1]._forward_hooks), len(net[2]._backward_pre_hooks))
out(loss, *[p.grad for p in net.parameters()])
