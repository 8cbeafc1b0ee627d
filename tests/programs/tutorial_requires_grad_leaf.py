# "Understanding requires_grad, retain_grad, leaf, and non-leaf tensors": a two-layer graph
torch.manual_seed(42)
x = torch.ones(1, 3)
W = torch.ones(3, 2, requires_grad=True)
b = torch.ones(1, 2, requires_grad=True)
z = x @ W + b
y_pred = F.relu(z)
y = torch.tensor([[0.5, 1.0]])
loss = F.mse_loss(y_pred, y)
tensors = {"x": x, "W": W, "b": b, "z": z, "y_pred": y_pred, "y": y, "loss": loss}
for name, t in tensors.items():
    gf = None if t.grad_fn is None else type(t.grad_fn).__name__
    print(f"{name:7s} leaf={t.is_leaf!s:5s} requires_grad={t.requires_grad!s:5s} grad_fn={gf}")
loss.backward()
print(W.grad)
print(b.grad)
print(x.grad)
print(z.grad)
print(y_pred.grad)
z2 = x @ W + b
z2.retain_grad()
y_pred2 = F.relu(z2)
y_pred2.retain_grad()
loss2 = F.mse_loss(y_pred2, y)
print(z2.retains_grad, y_pred2.retains_grad, loss2.retains_grad, W.retains_grad)
loss2.backward()
print(z2.grad)
print(y_pred2.grad)
print(W.grad)
out(z2.grad, y_pred2.grad, W.grad, b.grad)
# ---
# requires_grad tutorial: detach, requires_grad_ on leaves only, and the retain_grad corners
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 2
err(lambda: b.requires_grad_(False))
c = b.detach()
print(c.is_leaf, c.requires_grad, c.grad_fn)
c.requires_grad_()
print(c.is_leaf, c.requires_grad)
a.retain_grad()  # a no-op on a leaf
print(a.retains_grad)
d = torch.tensor([1.0, 2.0])
err(lambda: d.retain_grad())
with torch.no_grad():
    e = a * 3
print(e.is_leaf, e.requires_grad)
b.retain_grad()
b.retain_grad()
(b * b).sum().backward(retain_graph=True)
print(b.grad, a.grad)
(b * b).sum().backward()
print(b.grad, a.grad)
f = a.view(2, 1)
f.retain_grad()
f.sum().backward()
print(f.grad, f._base is a)
out(a.grad, b.grad, c, e)
