# register_multi_grad_hook "all": one call per backward with every gradient, None where unreached
a = torch.randn(2, requires_grad=True)
b = torch.randn(2, requires_grad=True)
c = torch.randn(2, requires_grad=True)
log = []
h = torch.autograd.graph.register_multi_grad_hook(
    (a, b, c), lambda gs: log.append([None if g is None else g.clone() for g in gs])
)
(a * b).sum().backward()
print(len(log), [g is None for g in log[-1]])
(a * 2 + c.exp()).sum().backward()
print(len(log), [g is None for g in log[-1]])
(a * b * c).sum().backward(inputs=[a, c])
print(len(log), [g is None for g in log[-1]])
err(lambda: torch.autograd.grad((a * b).sum(), (a,)))
h.remove()
(a * b).sum().backward()
print(len(log), isinstance(h, torch.utils.hooks.RemovableHandle))
out(log[0], log[1], log[2])
# ---
# register_multi_grad_hook on intermediates: autograd.grad reaches the captured ones; order
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
p = x * 2
q = x.sin()
seen = []
order = []
p.register_hook(lambda g: order.append("p"))
torch.autograd.graph.register_multi_grad_hook((p, q), lambda gs: seen.append(gs))
torch.autograd.graph.register_multi_grad_hook((p, q), lambda gs: order.append("multi"))
(gp,) = torch.autograd.grad((p * q).sum(), (p,), retain_graph=True)
print(len(seen), [g is None for g in seen[-1]], order)
(p * q).sum().backward()
print(len(seen), [g is None for g in seen[-1]], order)
# the hook's result does not replace the gradients
torch.autograd.graph.register_multi_grad_hook((x,), lambda gs: [g * 100 for g in gs])
x.grad = None
(x * 3).sum().backward()
print(x.grad)
out(gp, seen[0], seen[1], x.grad)
# ---
# register_multi_grad_hook "any": called once per backward with the first gradient; bad modes
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
firsts = []
h = torch.autograd.graph.register_multi_grad_hook((a, b), firsts.append, mode="any")
(a * 3 + b * 5).sum().backward()
(b * 7).sum().backward()
(a.exp() * b).sum().backward()
print(len(firsts), firsts)
h.remove()
(a * b).sum().backward()
print(len(firsts))
err(lambda: torch.autograd.graph.register_multi_grad_hook((a,), print, mode="every"))
out(firsts)
# ---
# A leaf hook that keeps the gradient it saw: later accumulation into .grad leaves it unchanged
w = torch.ones(3, requires_grad=True)
kept = []
w.register_hook(lambda g: kept.append(g))
(w * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
(w * 10).sum().backward()
print(kept, w.grad, w.grad is kept[0])
v = torch.ones(2, requires_grad=True)
returned = []


def double(g):
    returned.append(g * 2)
    return returned[-1]


v.register_hook(double)
(v * 4).sum().backward()
v.grad.mul_(0.5)
print(returned, v.grad)
out(kept, w.grad, returned, v.grad)
